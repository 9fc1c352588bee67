"""The SSH server of a hosted table (asyncssh), run by an event loop in a thread of its own.

Only an interactive session with a terminal is served: no exec, no subsystem, no port or
agent or X11 forwarding. A friend logs in with the table's password or a listed key; the login
name is the seat they take. Every limit, when reached, is said in one line to the host."""
import asyncio
import concurrent.futures
import contextlib
import socket
import threading
import time
from collections.abc import Callable, Mapping
from typing import Optional

import asyncssh

from ..model.checks import NAME_CELLS
from ..model.seatowners import SeatsSnapshot
from ..model.words import Say, Text
from ..present.palette import visible_width
from .credentials import Credentials
from .door import Door, Listener
from .limits import TABLE_SIZES, Limits, Sizes
from .log import TableLog
from .owners import by_code, not_yours, removal_mark, removed
from .seat import RemoteSeat
from .seatsession import LOGIN_SECONDS
from .serving import join_line
from .throttle import NoticeThrottle

CLOSE_SECONDS = 5.0  # the most the server's thread is waited for as the table closes
KEEPALIVE_SECONDS, KEEPALIVE_MISSES = 5, 4  # a friend whose client stopped answering is let go within 25 s
MAX_UNSENT = 1024 * 1024  # bytes waiting for a friend's client to read them; past this it is let go

Notify = Callable[[Text], None]


def is_seat_name(name: str) -> bool:
    """A login name that can be a seat's: printable, and at most as many terminal cells as a
    name typed at the table."""
    return bool(name) and name.isprintable() and visible_width(name) <= NAME_CELLS


class TableServer:
    """Listens for friends; the seats of those logged in, by name, for the game's thread."""

    def __init__(self, credentials: Credentials, address: str, port: int, notify: Notify,
                 log: Optional[TableLog] = None, changed: Callable[[], None] = lambda: None,
                 seats: Callable[[], SeatsSnapshot] = SeatsSnapshot,
                 clock: Callable[[], float] = time.monotonic, sizes: Sizes = TABLE_SIZES) -> None:
        self.credentials = credentials
        self.log = log or TableLog(None)
        self.address, self.port = address, port
        self._notify = notify  # from the server's thread: a line for the host's screen
        self.told = NoticeThrottle()  # the lines told the host lately
        self.clock = clock
        self.changed = changed  # from the server's thread: a friend came or went (the game looks around)
        self.seats: dict[str, RemoteSeat] = {}
        self.game_seats = seats  # from any thread: whose the game's seats are, and whom the host removed
        self.limits = Limits(sizes)
        self._lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        self._server: Optional[asyncssh.SSHAcceptor] = None
        self._thread = threading.Thread(target=self._loop.run_forever, name="ssh-table", daemon=True)

    def notify(self, line: Text) -> None:
        """Tell the host, but only a few lines of a kind at a time (throttle.NoticeThrottle)."""
        if not self.told.lets_through(line, self.clock()):
            return
        self._notify(line)
        self.changed()  # a seat waiting for a key shows it to the host at once

    def start(self) -> None:
        """Listen (OSError when the address cannot be had), serving from a thread of its own."""
        self._thread.start()
        self._server = asyncio.run_coroutine_threadsafe(self._listen(), self._loop).result()
        self.port = self._server.sockets[0].getsockname()[1]

    async def _listen(self) -> asyncssh.SSHAcceptor:
        return await asyncssh.create_server(
            lambda: Door(self), self.address, self.port, tunnel=Listener(self),
            server_host_keys=[self.credentials.host_key], encoding=None, line_editor=False, allow_pty=True,
            agent_forwarding=False, x11_forwarding=False, allow_scp=False, kbdint_auth=False, host_based_auth=False,
            gss_host=None, login_timeout=LOGIN_SECONDS, keepalive_interval=KEEPALIVE_SECONDS,
            keepalive_count_max=KEEPALIVE_MISSES)

    def how_to_join(self) -> Say:
        """The line that tells the host's friends how to join (once listening): on every
        address, this machine's name stands for them."""
        address = socket.gethostname() if self.address in ("0.0.0.0", "::", "") else self.address
        return join_line(self.port, address, self.credentials.password)

    def close(self) -> None:
        """Stop listening, let every friend go, and end the server's thread with nothing of it
        left running (no task is destroyed while pending, however many logins were under way)."""
        for seat in list(self.seats.values()):
            seat.hang_up()
        if self._thread.is_alive():
            with contextlib.suppress(Exception):
                asyncio.run_coroutine_threadsafe(self._shut_down(), self._loop).result(timeout=CLOSE_SECONDS)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=CLOSE_SECONDS)
        elif self._thread.ident is None:  # never started: nothing else will use its loop
            self._loop.close()
        self.log.close()

    async def _shut_down(self) -> None:
        """In the server's loop: stop listening, close every connection, and wait for their tasks."""
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        others = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in others:
            task.cancel()
        await asyncio.gather(*others, return_exceptions=True)

    def present(self) -> list[RemoteSeat]:
        """The friends logged in now."""
        with self._lock:
            return [seat for seat in self.seats.values() if not seat.gone]

    def seat(self, name: str) -> Optional[RemoteSeat]:
        """The friend logged in as `name`, if one is."""
        with self._lock:
            seat = self.seats.get(name.casefold())
        return None if seat is None or seat.gone else seat

    def sender(self, chan: "asyncssh.SSHServerChannel[bytes]") -> Callable[[bytes], None]:
        """A send(data) that any thread may call for this channel."""
        def send(data: bytes) -> None:
            self._loop.call_soon_threadsafe(self._write, chan, data)
        return send

    def _write(self, chan: "asyncssh.SSHServerChannel[bytes]", data: bytes) -> None:
        """Send to a channel that may have closed meanwhile; a client that reads nothing of its
        screens is let go before they pile up."""
        if chan.is_closing():
            return
        if chan.get_write_buffer_size() > MAX_UNSENT:
            self.notify(Say("A friend's terminal read nothing of its screens and was let go."))
            chan.close()
            return
        chan.write(data)

    def closer(self, chan: "asyncssh.SSHServerChannel[bytes]") -> Callable[[], None]:
        """A close() that any thread may call for this channel."""
        def close() -> None:
            self._loop.call_soon_threadsafe(chan.close)
        return close

    def join(self, name: str, chan: "asyncssh.SSHServerChannel[bytes]", columns: int, lines: int,
             term: str = "xterm", proof: str = "", environment: Optional[Mapping[str, str]] = None,
             address: str = "?") -> Optional[Say]:
        """Seat a friend logged in as `name` from `address` with `proof` (their key's
        fingerprint, '' for the password, or the code proof they typed); why not, as a line for
        them, or None. A seat that is a friend's is taken again only with what proves it theirs."""
        if not is_seat_name(name):
            return Say("A seat's name is one to six letters: ssh -p PORT NAME@HOST.")
        seated = self.game_seats()
        with self._lock:
            if removal_mark(name, proof, address) in seated.removed:
                return removed(name)
            held = self.seats.get(name.casefold())
            if held is not None and not held.gone:
                return Say("{name} is already at the table.").format(name=name)
            owner = seated.proof_of(name)
            if owner and owner != proof:
                return not_yours(name, owner)
            self.seats[name.casefold()] = RemoteSeat(name, self.sender(chan), self.closer(chan), columns, lines, term,
                                                     environment, proof, address)
        self.changed()  # the game takes the seat in, and tells the table once it has
        return None

    def may_check_code(self, address: str) -> bool:
        """From any thread: whether another code typed from `address` (a private table's) may be
        checked now; such codes count with the address's passwords (Limits.may_check_password)."""
        checked: concurrent.futures.Future[bool] = concurrent.futures.Future()
        if not self._loop.is_running():
            return False
        try:
            self._loop.call_soon_threadsafe(lambda: checked.set_result(self.limits.may_check_password(address)))
            return checked.result(timeout=CLOSE_SECONDS)
        except (RuntimeError, concurrent.futures.TimeoutError):  # the server is closing
            return False

    def code_asked(self, name: str, proof: str) -> Optional[str]:
        """The code proof a login as `name` must match before it is seated (a seat taken with
        the password), or None."""
        owner = self.game_seats().proof_of(name)
        return owner if by_code(owner) and owner != proof else None

    def remove(self, name: str, seat: Optional[RemoteSeat]) -> None:
        """From the game's thread: the host removed `name` for the rest of the game (the game's
        seats refuse them from now on); their connection, if they are here, is closed."""
        self.log.record(seat.address if seat else "-", name.casefold(), "removed by the host")
        if seat is not None:
            seat.disconnect()

    def renew(self, seat: RemoteSeat) -> None:
        """From any thread: a seat's connection goes on as a new seat (RemoteSeat.renewed), if
        it is still this connection's; the game looks around for it."""
        with self._lock:
            key = seat.name.casefold()
            if self.seats.get(key) is not seat:
                return
            self.seats[key] = seat.renewed()
        self.changed()

    def leave(self, seat: RemoteSeat) -> None:
        """The friend's connection is gone: the seat is let go (the game lets go of its console)."""
        with self._lock:
            if self.seats.get(seat.name.casefold()) is seat:
                del self.seats[seat.name.casefold()]
        seat.hang_up()
        self.notify(Say("{name} left the table.").format(name=seat.name))
        self.changed()
