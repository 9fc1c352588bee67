"""A server of many tables (--serve): every login comes to the hall, the page of the server's
tables, from where a player starts a table (and hosts it from their own terminal) or joins one.
Each table is a hosted table (hostconsole.TableConsole) whose host is its creator's terminal and
whose server is its share of the hall's logins (HallTable)."""
import contextlib
import dataclasses
import hmac
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Optional, Union

from ..consoles.keymode import KeyConsole
from ..consoles.keyreader import KeyReader
from ..consoles.stops import InputClosed, StopRequested
from ..model.outcome import FinishedGame
from ..model.session import Session
from ..model.words import Say, Text
from ..present.keys import Key
from ..present.look import Asked
from ..screens.dialog import ProgramConsole
from ..speech.languages import text
from ..strategy.storage import memo
from .access import Access, NameKeys, Removals, admin_fingerprints, kept_access
from .admin import ADMIN_KEYS, Admin
from .credentials import kept_password, table_credentials
from .friendkeys import LANGUAGE_KEY, speak_next_language
from .hallpage import Listed, hall_view, show_statistics
from .handover import ServedTableConsole
from .limits import SERVER_SIZES
from .log import TableLog
from .owners import MAX_CODE_CHARS, new_code, plain_code
from .seat import RemoteSeat
from .seating import Seating
from .servedtables import (
    MAX_FOLDERS_PER_NAME,
    HallTable,
    OpenTable,
    SavedTable,
    join_line,
    keep_code,
    new_table_folder,
    saved_tables,
)
from .server import TableServer
from .serving import SeatServer

MAX_TABLES = 30  # tables on the server at once
MAX_TABLES_PER_ADDRESS = 4  # tables hosted from one address at once
MAX_CODE_TRIES = 3  # wrong private tables' codes at a login before it is closed (as a seat's rejoin code)
QUESTION = Say("N: new table, P: private, a number: join, S: stats, D: language, F10: leave.")


# A console at a player's terminal, reading with a reader; True: the host's keys are offered there.
SeatConsole = Callable[[RemoteSeat, KeyReader, bool], KeyConsole]
# Run the game of a table hosted by the player of this name, its saves in this folder, until it
# ends, at the console the hall makes for its seating; `opened` hears of the session it plays.
PlayTable = Callable[[str, Path, Callable[[Seating], ProgramConsole], Callable[[Callable[[], Session]], None]],
                     None]
# A table to join, 'n' for a new one ('p' a private one), a saved one to take up, or none.
Choice = Union[int, str, SavedTable, None]


class Hall:
    """The tables of a server, and the logins at its page: each login's terminal shows the page
    (in a thread of its own) until its player starts a table, joins one or leaves."""

    def __init__(self, folder: Path, address: tuple[str, int], console_for: SeatConsole,
                 play_table: PlayTable, history: Callable[[], list[FinishedGame]],
                 access: Optional[str] = None) -> None:
        """A hall serving from `folder` (its host key, password, listed keys, names, access and
        log; KeyFileProblem when one of them cannot be used) to whom the `access` chosen now
        (else the one kept) lets in, listening once its server starts; `history` reads the
        games finished at every table."""
        self.console_for = console_for
        self.play_table = play_table
        self.history = history
        self.tables_folder = folder / "tables"
        self.log = log = TableLog(folder)
        self.access = kept_access(folder, access)
        self.credentials = dataclasses.replace(
            table_credentials(folder, kept_password(folder)), takes_password=self.access is not Access.KEYS,
            open_names=NameKeys(folder) if self.access is Access.OPEN else None, admins=admin_fingerprints(folder))
        self.removals = Removals(folder)
        self.admin = Admin(self.removals, log, lambda: self.tables, lambda: self.server.present())
        self.server = TableServer(self.credentials, *address, notify=lambda line: log.record("-", "-", text(line)),
                                  log=log, changed=self.look_around, sizes=SERVER_SIZES)
        self.tables: dict[int, OpenTable] = {}
        self.saved = saved_tables(self.tables_folder, (), MAX_TABLES + 1)
        self._at_page: dict[RemoteSeat, KeyConsole] = {}  # the consoles showing the page
        self._taken: set[RemoteSeat] = set()  # the logins the hall took in, still connected
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._stopped: Optional[int] = None

    def how_to_log_in(self) -> Text:
        """The line that says how to reach the server (once listening)."""
        line = Say("Serving tables: ssh -p {port} NAME@{address}").format(port=self.server.port,
                                                                        address=self.server.address)
        if self.access is Access.OPEN:
            return line + " " + Say("(open: any name and password; a name first used with a key is that key's). "
                                    "Ctrl-C stops.")
        if self.access is Access.KEYS:
            return line + " " + Say("(a key listed in authorized_keys). Ctrl-C stops.")
        return line + " " + Say("(password {password}, or a listed key). Ctrl-C stops.").format(
            password=self.credentials.password)

    # -- from the server's thread ---------------------------------------------------------
    def look_around(self) -> None:
        """A login came or went: each newcomer is shown the page; every page is drawn anew."""
        present = self.server.present()
        with self._lock:
            newcomers = [seat for seat in present if seat not in self._taken]
            self._taken = {seat for seat in self._taken if not seat.gone} | set(newcomers)
        for seat in newcomers:
            if self.removals.refuses(seat.name, seat.address):
                self.log.record(seat.address, seat.name, "refused: removed by an admin")
                seat.close_connection()
                continue
            self._start(partial(self.serve_login, seat), f"hall-{seat.name}")
        self.changed()

    def changed(self) -> None:
        """The tables changed: every terminal showing the page draws it anew."""
        with self._lock:
            consoles = list(self._at_page.values())
        for console in consoles:
            console.reader.wake()

    # -- a login's thread ----------------------------------------------------------------
    def serve_login(self, seat: RemoteSeat) -> None:
        """A login's thread: the page, and the table it starts; a fault of the game's own is
        logged and closes this connection alone (the server and its other tables go on)."""
        try:
            self.at_the_page(seat)
        except Exception as fault:  # noqa: BLE001 - one connection's fault must not end the others'
            self.log.record(seat.address, seat.name, f"closed after a fault: {type(fault).__name__}: {fault}")
            seat.close_connection()
            self.changed()

    def at_the_page(self, seat: RemoteSeat) -> None:
        """A player at the page of tables, until they start one, join one or leave."""
        if self._stopped is not None or not seat.take():
            seat.close_connection()
            return
        seat.listening = True
        reader = KeyReader(seat.fileno())
        console = self.console_for(seat, reader, True)
        with self._lock:
            self._at_page[seat] = console
        choice: Choice = None
        try:
            with console.running():
                choice = self.choose(seat, console)
        except (InputClosed, StopRequested):
            choice = None
        finally:
            with self._lock:
                self._at_page.pop(seat, None)
        if choice in ("n", "p") or isinstance(choice, SavedTable):
            self.host(seat, console, reader, choice if isinstance(choice, SavedTable) else None, choice == "p")
        elif isinstance(choice, int) and self.sit_down(seat, choice):
            reader.close()  # the table reads the seat's keys from now on
        else:
            self.let_go(seat, reader)
        self.changed()

    def choose(self, seat: RemoteSeat, console: KeyConsole) -> Choice:
        """The page shown until a key picks: 'n' a new table, a table's number, a saved table
        of theirs to take up, or None to leave."""
        shown = [self.listing()]

        def draw_if_changed() -> None:
            listing = self.listing()
            if listing != shown[0]:
                shown[0] = listing
                console.show(Asked(hall_view(listing), QUESTION))

        console.show(Asked(hall_view(shown[0]), QUESTION))
        if seat.note is not None:
            console.message(seat.note)  # why they are back at the page
        admin = seat.proof in self.credentials.admins
        if admin:
            console.message(ADMIN_KEYS)
        while True:
            token = console.read_key(QUESTION, idle=draw_if_changed)
            if token in (Key.QUIT, "q"):
                return None
            if token == LANGUAGE_KEY:
                speak_next_language(console)
            elif admin and token in ("c", "r"):
                self.admin.act(seat, console, token)
            elif token == "s":
                show_statistics(console, self.history())
                console.show(Asked(hall_view(shown[0]), QUESTION))
            elif token in ("n", "p"):
                refused = self.refused_table(seat)
                if refused is None:
                    return token
                console.remind(refused)
            elif token.isdigit():
                picked = self.table_number(seat, console, token)
                if picked is not None:
                    return picked
            else:
                console.remind(QUESTION)

    def refused_table(self, seat: RemoteSeat) -> Optional[Say]:
        """Why this player may not start a table now, or None."""
        with self._lock:
            tables = list(self.tables.values())
        if new_table_folder(seat.name, self.open_folders()) is None:
            return Say("{count} tables of yours are open already.").format(count=MAX_FOLDERS_PER_NAME)
        address = seat.address
        if len(tables) >= MAX_TABLES:
            return Say("The server holds {count} tables at most: join one.").format(count=MAX_TABLES)
        if sum(1 for table in tables if table.host.address == address) >= MAX_TABLES_PER_ADDRESS:
            return Say("{count} tables are hosted from your address already: join one.").format(
                count=MAX_TABLES_PER_ADDRESS)
        return None

    def table_number(self, seat: RemoteSeat, console: KeyConsole, first: str) -> Union[int, SavedTable, None]:
        """The table to join (its number) or saved table to take up, typed from its first
        digit; None (said why) for none."""
        highest = max([MAX_TABLES, *(table.listed.number for table in self.saved)])
        hot, typed = console.read_text(Say("Join table number: "), first, limit=len(str(highest)))
        if hot is not None or not typed.isdigit():
            return None
        saved = next((table for table in self.saved if table.listed.number == int(typed)), None)
        if saved is not None and seat.name.casefold() not in saved.players:
            console.message(Say("Only its players may take up a saved table: {names}.").format(
                names=", ".join(name for name in saved.listed.players if name.casefold() in saved.players)))
            return None
        table = self.tables.get(int(typed))
        if saved is None and table is None:
            console.message(Say("There is no table {number}.").format(number=typed))
            return None
        if table is not None and table.asks_code_of(seat.name) and not self.code_given(seat, console, table):
            return None
        return saved or int(typed)

    def code_given(self, seat: RemoteSeat, console: KeyConsole, table: OpenTable) -> bool:
        """Whether the player gives a private table's code (codes count with the address's
        passwords); after MAX_CODE_TRIES wrong ones on a connection (however often it went to a
        table and back), it is closed."""
        hot, typed = console.read_text(Say("This private table's code: "), "", limit=MAX_CODE_CHARS)
        if hot is not None:
            return False
        if not self.server.may_check_code(seat.address):
            console.message(Say("Too many codes and passwords from your address: try again in a minute."))
            return False
        if hmac.compare_digest(plain_code(typed).encode(), table.code.encode()):
            return True
        seat.wrong_codes += 1
        self.log.record(seat.address, seat.name, f"a wrong code for table {table.number}")
        if seat.wrong_codes >= MAX_CODE_TRIES:
            seat.close_connection()
            raise InputClosed()
        console.message(Say("That is not table {number}'s code.").format(number=table.number))
        return False

    def sit_down(self, seat: RemoteSeat, number: int) -> bool:
        """Send the player to a table (the seats' contract decides whether they play or watch);
        False when it is gone."""
        table = self.tables.get(number)
        if table is None or table.seats is None:
            return False
        seat.listening = False
        seat.disconnect = partial(self.back_to_page, seat)
        table.seats.add(seat)
        return True

    def host(self, seat: RemoteSeat, console: KeyConsole, reader: KeyReader, saved: Optional[SavedTable],
             private: bool = False) -> None:
        """The player starts a table (`private`: joined with a code of its own) or takes up a
        saved one, and hosts it from their terminal until its game ends."""
        table = self.open_table(seat, console, saved)
        table.code = saved.code if saved is not None else new_code() if private else ""
        try:
            keep_code(self.tables_folder / table.folder, table.code)
        except OSError as error:  # a full disk: the table is private while it is open, its saves fail as well
            self.log.record(seat.address, seat.name, f"table {table.number}'s code not kept: {error}")

        def serve(notify: Callable[[Text], None], changed: Callable[[], None], seats: object) -> SeatServer:
            table.seats = HallTable(changed, self.back_to_page, table.code)
            return table.seats

        def hosted(seating: Seating) -> ProgramConsole:
            return ServedTableConsole(console, reader, serve, self.friend_console, seating, host_seat=seat,
                                      handed=partial(self.handed, table), relist=self.changed)

        def opened(session: Callable[[], Session]) -> None:
            table.session = session
            self.changed()

        seat.disconnect = partial(self.back_to_page, seat)
        try:
            self.changed()
            console.message_from_thread(join_line(table.code))
            self.play_table(seat.name, self.tables_folder / table.folder, hosted, opened)
            if self._stopped is not None:
                with contextlib.suppress(InputClosed):
                    table.console.message(Say("The server is stopping; your game is saved: its page lists it when "
                                              "the server is back, for you or another of its players to take up."))
                    table.console.end_line()
        finally:
            with self._lock:
                self.tables.pop(table.number, None)
            self.saved = saved_tables(self.tables_folder, self.open_folders(), MAX_TABLES + 1)
            self.back_to_page(table.host)  # whoever hosts it at the end
            table.console.reader.close()
            table.host.close()

    def friend_console(self, friend: RemoteSeat, keys: KeyReader) -> KeyConsole:
        """The console at a friend's terminal at a table: the host's keys are not offered there."""
        return self.console_for(friend, keys, False)

    def handed(self, table: OpenTable, seat: RemoteSeat, console: KeyConsole, stays: Optional[RemoteSeat]) -> None:
        """The table's host handed it on: the player at `seat` hosts it now, and the one before,
        if they `stay`, is one of its logins."""
        if table.seats is not None:
            table.seats.discard(seat)
            if stays is not None:
                table.seats.add(stays)
        table.host, table.console = seat, console
        self.changed()

    def open_table(self, seat: RemoteSeat, console: KeyConsole, saved: Optional[SavedTable]) -> OpenTable:
        """A table numbered and listed for the player to host: a new one in a folder of their
        name, or the saved one they take up (no longer listed as saved)."""
        with self._lock:
            number = min(n for n in range(1, MAX_TABLES + 1) if n not in self.tables)
            folder = saved.folder if saved is not None else new_table_folder(seat.name, self.open_folders())
            assert folder is not None  # refused_table said so first: a name has one login, and it hosts one table
            waiting = Session([])  # until the table's game tells its own
            table = self.tables[number] = OpenTable(number, seat, console, folder, lambda: waiting)
            self.saved = [kept for kept in self.saved if kept.folder != folder]
        return table

    def open_folders(self) -> list[str]:
        """The folders of the tables open now."""
        return [table.folder for table in list(self.tables.values())]

    def back_to_page(self, seat: RemoteSeat) -> None:
        """A player leaves a table (or it ended): their connection goes back to the page as a
        new seat, unless the server is stopping (then it is closed)."""
        if self._stopped is not None:
            seat.close_connection()
        else:
            self.server.renew(seat)

    @staticmethod
    def let_go(seat: RemoteSeat, reader: KeyReader) -> None:
        """A player leaves the server: their connection closed, and what read it."""
        reader.close()
        seat.close()
        seat.close_connection()

    # -- the page ---------------------------------------------------------------------------
    def listing(self) -> list[Listed]:
        """The tables as the page shows them, by number: the open ones, then the saved ones."""
        with self._lock:
            tables = sorted(self.tables.values(), key=lambda table: table.number)
            saved = list(self.saved)
        return [*(table.listed() for table in tables), *(table.listed for table in saved)]

    def _start(self, work: Callable[[], None], name: str) -> None:
        """Run `work` in a thread of its own, kept to be waited for as the server stops."""
        thread = threading.Thread(target=work, name=name, daemon=True)
        with self._lock:
            self._threads = [kept for kept in self._threads if kept.is_alive()] + [thread]
        thread.start()

    def stop(self, signum: int, seconds: float) -> None:
        """Every terminal's read stopped (each table saves its game as it ends), and their
        threads waited for."""
        self._stopped = signum
        with self._lock:
            consoles = [*self._at_page.values(), *(table.console for table in self.tables.values())]
            threads = list(self._threads)
        for console in consoles:
            console.request_stop(signum)
        for thread in threads:
            with contextlib.suppress(RuntimeError):
                thread.join(seconds)

    def close(self, signum: int, seconds: float) -> None:
        """Stop every table and terminal (see stop), then the server; the log says how many
        strategy tables the process held (one of each, however many tables used it)."""
        self.stop(signum, seconds)
        self.log.record("-", "-", f"strategy tables held: {len(memo.READY)}")
        self.server.close()
