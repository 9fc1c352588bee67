"""What an admin does at a server's page of tables (their key listed in admin_keys): close a
table, its game saved, or remove a name or an address, kept in the server's folder (the same
typed again lets it back in)."""
import signal
from collections.abc import Callable

from ..consoles.keymode import KeyConsole
from ..model.words import Say
from .access import Removals
from .log import TableLog
from .seat import RemoteSeat
from .servedtables import OpenTable

MAX_REMOVED_CHARS = 45  # of a name or an address an admin types (an IPv6 address at its longest)
ADMIN_KEYS = Say("As an admin: C closes a table; R removes a name or address (or lets it back).")


class Admin:
    """An admin's keys at the page, over the server's tables, logins and removals."""

    def __init__(self, removals: Removals, log: TableLog, tables: Callable[[], dict[int, OpenTable]],
                 logins: Callable[[], list[RemoteSeat]]) -> None:
        self.removals, self.log, self.tables, self.logins = removals, log, tables, logins

    def act(self, seat: RemoteSeat, console: KeyConsole, token: str) -> None:
        """An admin's key at the page: C closes a table (its game saved, as when the server
        stops), R removes a name or an address (their connections closed), or lets one in again."""
        if token == "c":
            hot, typed = console.read_text(Say("Close table number: "), "", limit=2)
            table = self.tables().get(int(typed)) if hot is None and typed.isdigit() else None
            if table is not None:
                self.log.record(seat.address, seat.name, f"closed table {table.number}")
                table.console.request_stop(signal.SIGTERM)
                console.message(Say("Table {number} is closed: its game is saved.").format(number=table.number))
            return
        hot, typed = console.read_text(Say("Remove a name or an address (one removed: let it in again): "), "",
                                       limit=MAX_REMOVED_CHARS)
        removed = None if hot is not None else self.removals.toggle(typed)
        if removed is None:
            return
        self.log.record(seat.address, seat.name, f"{'removed' if removed else 'let in again'} {typed.strip()}")
        if not removed:
            console.message(Say("{name} may log in again.").format(name=typed.strip()))
            return
        for login in self.logins():
            if self.removals.refuses(login.name, login.address) and login is not seat:
                login.close_connection()
        console.message(Say("{removed} is removed (kept in the server's folder).").format(removed=typed.strip()))
