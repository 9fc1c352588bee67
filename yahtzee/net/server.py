"""The SSH server of a hosted table (asyncssh), run by an event loop in a thread of its own.

Only an interactive session with a terminal is served: no exec, no subsystem, no port or
agent or X11 forwarding. A friend logs in with the table's password or a listed key; the login
name is the seat they take. Every limit, when reached, is said in one line to the host."""
import asyncio
import collections
import contextlib
import math
import random
import socket
import threading
import time
from collections.abc import Callable, Mapping
from typing import Optional, Union, cast

import asyncssh

from ..model.checks import NAME_CELLS
from ..model.words import Say, Text, source_text
from ..present.palette import cut_to_cells, visible_width
from ..present.render import SCREEN_HEIGHT, SCREEN_WIDTH
from ..speech.languages import speaking, text
from ..speech.locales import from_environment
from .credentials import Credentials
from .log import TableLog
from .owners import MAX_CODE_CHARS, by_code, code_proof, not_yours, removal_mark
from .seat import MAX_COLUMNS, MAX_LINES, RemoteSeat

MAX_STARTUPS = 10  # connections not yet logged in, from every address together
EARLY_DROP_FROM = 5  # from this many not yet logged in, a new one is dropped at random (surely at MAX_STARTUPS)
MAX_STARTUPS_PER_ADDRESS = 3  # not yet logged in from one address: one address never keeps another out
MAX_SEATED = 8  # logged-in connections at once
PASSWORDS_PER_MINUTE = 60  # passwords checked from one address in any minute
PENALTY_SECONDS = 5.0  # an address that breaks a limit is refused this much longer at each offence
MAX_PENALTY_SECONDS = 60.0  # however often it does
MAX_ADDRESSES_KEPT = 4096  # addresses whose recent passwords are remembered (the oldest forgotten first)
NOTICES_OF_A_KIND = 3  # the most lines of one kind (one message, whatever its names and numbers) in NOTICE_GAP
CLOSE_SECONDS = 5.0  # the most the server's thread is waited for as the table closes
UNUSED_SECONDS = 10.0  # a logged-in connection that opens no terminal this long is closed
KEEPALIVE_SECONDS, KEEPALIVE_MISSES = 5, 4  # a friend whose client stopped answering is let go within 25 s
MAX_LOGIN_ATTEMPTS = 3  # wrong passwords on one connection before it is closed
MAX_KEY_OFFERS = 10  # unlisted keys on one connection (a client offers each key it has) before it is closed
FAILED_LOGIN_DELAY = 1.0  # seconds before a wrong password is answered
LOGIN_SECONDS = 30  # to log in, once connected
IDLE_SECONDS = 30 * 60  # a seat that sends nothing this long is let go
MAX_INPUT_RATE = 512  # bytes a second from one seat (100 function keys; a typist sends 20): more is dropped
RESIZE_SECONDS = 0.05  # a window dragged to new sizes is drawn anew at most this often
MAX_RESIZES_A_SECOND = 200  # window sizes from a seat in a second (a dragged window sends some 60): more, it goes
MAX_SESSION_REQUESTS = 10  # terminals asked for on one connection (one is served) before it is closed
NOTICE_GAP = 5.0  # seconds before the host is told the same line again
MAX_UNSENT = 1024 * 1024  # bytes waiting for a friend's client to read them; past this it is let go

Notify = Callable[[Text], None]


def kind_of(line: Text) -> object:
    """What a notice says whatever its names and numbers: its message."""
    return line.code if isinstance(line, Say) else line


def is_seat_name(name: str) -> bool:
    """A login name that can be a seat's: printable, and at most as many terminal cells as a
    name typed at the table."""
    return bool(name) and name.isprintable() and visible_width(name) <= NAME_CELLS


class TableServer:
    """Listens for friends; the seats of those logged in, by name, for the game's thread."""

    def __init__(self, credentials: Credentials, address: str, port: int, notify: Notify,
                 log: Optional[TableLog] = None, changed: Callable[[], None] = lambda: None) -> None:
        self.credentials = credentials
        self.log = log or TableLog(None)
        self.address, self.port = address, port
        self._notify = notify  # from the server's thread: a line for the host's screen
        self._told: collections.OrderedDict[Text, float] = collections.OrderedDict()  # lines told lately, oldest first
        self.changed = changed  # from the server's thread: a friend came or went (the game looks around)
        self.seats: dict[str, RemoteSeat] = {}
        self.owners: Mapping[str, str] = {}  # the game's seat owners (folded name: proof), as it last published them
        self.removed: set[tuple[str, str]] = set()  # whom the host removed (owners.removal_mark)
        self.starting: collections.Counter[str] = collections.Counter()  # not yet logged in, by address
        self.seated = 0
        self.early_drop = random.Random()
        self.passwords: collections.OrderedDict[str, collections.deque[float]] = collections.OrderedDict()
        self.penalties: collections.OrderedDict[str, float] = collections.OrderedDict()  # address: refused until
        self._lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        self._server: Optional[asyncssh.SSHAcceptor] = None
        self._thread = threading.Thread(target=self._loop.run_forever, name="ssh-table", daemon=True)

    def notify(self, line: Text) -> None:
        """Tell the host, but not the same line again within NOTICE_GAP seconds, nor more than
        NOTICES_OF_A_KIND lines of one kind in that time (a flood of refusals is a few lines,
        not a flood of lines: the log keeps every one); every kind of line gets through."""
        now = time.monotonic()
        while self._told and now - next(iter(self._told.values())) >= NOTICE_GAP:
            self._told.popitem(last=False)  # the oldest first: what is left was told within the gap
        kind = kind_of(line)
        if line in self._told or sum(kind_of(told) == kind for told in self._told) >= NOTICES_OF_A_KIND:
            return
        self._told[line] = now
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

    def admit(self, address: str, now: Optional[float] = None) -> Optional[Say]:
        """Whether a new connection from `address` may try to log in: why not, or None (then it
        is counted until it logs in or goes). An address that broke a limit lately is refused
        for its penalty. Past EARLY_DROP_FROM, new ones are dropped at random, more surely the
        fuller it is, so a flood never fills every place at once."""
        now = time.monotonic() if now is None else now
        penalty = self.penalties.get(address, now) - now
        if penalty > 0:
            return Say("Refused {address} for {seconds} s more: it broke a limit.").format(
                address=address, seconds=math.ceil(penalty))
        waiting = sum(self.starting.values())
        if self.starting[address] >= MAX_STARTUPS_PER_ADDRESS:
            self.penalize(address, now)
            return Say("Refused {address}: at most {count} logins at once from one address.").format(
                address=address, count=MAX_STARTUPS_PER_ADDRESS)
        drop_chance = (waiting - EARLY_DROP_FROM + 1) / (MAX_STARTUPS - EARLY_DROP_FROM + 1)
        if waiting >= EARLY_DROP_FROM and self.early_drop.random() < drop_chance:
            return Say("Refused {address}: {count} logins under way at once (a flood is dropped at random).").format(
                address=address, count=waiting)
        self.starting[address] += 1
        return None

    def penalize(self, address: str, now: Optional[float] = None) -> None:
        """`address` broke a limit: its new connections are refused PENALTY_SECONDS longer (at
        most MAX_PENALTY_SECONDS from now), as OpenSSH's PerSourcePenalties do."""
        now = time.monotonic() if now is None else now
        until = max(self.penalties.pop(address, now), now) + PENALTY_SECONDS
        self.penalties[address] = min(until, now + MAX_PENALTY_SECONDS)  # the latest offender last
        while len(self.penalties) > MAX_ADDRESSES_KEPT:
            self.penalties.popitem(last=False)

    def may_check_password(self, address: str, now: Optional[float] = None) -> bool:
        """Whether another password from `address` may be checked within PASSWORDS_PER_MINUTE
        (every request counts, answered or not)."""
        now = time.monotonic() if now is None else now
        recent = self.passwords.pop(address, None) or collections.deque()
        while recent and now - recent[0] >= 60:
            recent.popleft()
        allowed = len(recent) < PASSWORDS_PER_MINUTE
        if allowed:
            recent.append(now)
        else:
            self.penalize(address, now)
        self.passwords[address] = recent  # the most recent address last
        while len(self.passwords) > MAX_ADDRESSES_KEPT:
            self.passwords.popitem(last=False)
        return allowed

    def logged_in(self, address: str) -> Optional[Say]:
        """A connection from `address` logged in: it takes a seated place, or why not."""
        self.left_unseated(address)
        if self.seated >= MAX_SEATED:
            return Say("A login from {address} was let go: {count} logged in at once is the most.").format(
                address=address, count=MAX_SEATED)
        self.seated += 1
        return None

    def left_unseated(self, address: str) -> None:
        """A connection not yet logged in went (or logged in)."""
        self.starting[address] -= 1
        if self.starting[address] <= 0:
            del self.starting[address]

    def how_to_join(self) -> Say:
        """The line that tells the host's friends how to join (once listening): on every
        address, this machine's name stands for them."""
        address = socket.gethostname() if self.address in ("0.0.0.0", "::", "") else self.address
        return Say("Friends join with: ssh -p {port} NAME@{address} (password {password})").format(
            port=self.port, address=address, password=self.credentials.password)

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
        with self._lock:
            if removal_mark(name, proof, address) in self.removed:
                return Say("The host removed {name} from this table.").format(name=name)
            held = self.seats.get(name.casefold())
            if held is not None and not held.gone:
                return Say("{name} is already at the table.").format(name=name)
            owner = self.owners.get(name.casefold(), "")
            if owner and owner != proof:
                return not_yours(name, owner)
            self.seats[name.casefold()] = RemoteSeat(name, self.sender(chan), self.closer(chan), columns, lines, term,
                                                     environment, proof, address)
        self.changed()  # the game takes the seat in, and tells the table once it has
        return None

    def code_asked(self, name: str, proof: str) -> Optional[str]:
        """The code proof a login as `name` must match before it is seated (a seat taken with
        the password), or None."""
        owner = self.owners.get(name.casefold(), "")
        return owner if by_code(owner) and owner != proof else None

    def remove(self, mark: tuple[str, str], seat: Optional[RemoteSeat]) -> None:
        """From the game's thread: the host removed someone (known by `mark`, owners.removal_mark)
        for the rest of the game; their connection, if they are here, is closed."""
        with self._lock:
            self.removed.add(mark)
        self.log.record(seat.address if seat else "-", mark[0], "removed by the host")
        if seat is not None:
            seat.disconnect()

    def leave(self, seat: RemoteSeat) -> None:
        """The friend's connection is gone: the seat is let go (the game lets go of its console)."""
        with self._lock:
            if self.seats.get(seat.name.casefold()) is seat:
                del self.seats[seat.name.casefold()]
        seat.hang_up()
        self.notify(Say("{name} left the table.").format(name=seat.name))
        self.changed()


class Listener:
    """Where the table listens: a connection from an address that may not try to log in now is
    closed as it is accepted, before any SSH is spoken (asyncssh listens through this, as through a tunnel)."""

    def __init__(self, table: TableServer) -> None:
        self.table = table

    async def create_server(self, make: Callable[[str, int], asyncio.Protocol], host: str,
                            port: int) -> asyncio.AbstractServer:
        """Listen on `host` and `port`; each connection admitted is handed to asyncssh's `make`."""
        return await asyncio.get_running_loop().create_server(lambda: Gate(self.table, make, host, port), host, port)


class Gate(asyncio.Protocol):
    """A connection just accepted: refused at once, or handed to SSH."""

    def __init__(self, table: TableServer, make: Callable[[str, int], asyncio.Protocol], host: str, port: int) -> None:
        self.table, self.make, self.host, self.port = table, make, host, port

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        refused = self.table.admit(address)
        if refused is not None:
            self.table.log.record(address, "-", "refused at connect: " + source_text(refused))
            self.table.notify(refused)
            cast(asyncio.Transport, transport).abort()
            return
        try:
            ssh = self.make(self.host, self.port)
        except Exception as error:  # noqa: BLE001 - asyncssh could not begin: the place back, the connection closed
            self.table.log.record(address, "-", f"SSH could not begin: {type(error).__name__}: {error}")
            self.table.left_unseated(address)
            cast(asyncio.Transport, transport).abort()
            return
        transport.set_protocol(ssh)
        ssh.connection_made(transport)


class Door(asyncssh.SSHServer):
    """One connection: its login, with the limits, and the one session it may open."""

    def __init__(self, table: TableServer) -> None:
        self.table = table
        self.address = ""
        self.stage = "refused"  # then "starting", "seated"
        self.unused: Optional[asyncio.TimerHandle] = None
        self.passwords = 0  # passwords asked to be checked on this connection, however many were cut short
        self.keys = 0  # unlisted keys offered on it
        self.sessions = 0
        self.proof = ""  # the fingerprint of the key logged in with ('' for the password)
        self.conn: Optional[asyncssh.SSHServerConnection] = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        self.stage = "starting"  # admitted as it was accepted (Gate)

    def auth_completed(self) -> None:
        refused = self.table.logged_in(self.address)
        if refused is not None:
            self.stage = "refused"
            self.table.notify(refused)
            if self.conn is not None:
                self.conn.close()
            return
        self.stage = "seated"
        self.unused = asyncio.get_running_loop().call_later(UNUSED_SECONDS, self._close_unused)

    def _close_unused(self) -> None:
        """Logged in but no terminal opened: the place is given back."""
        self.table.log.record(self.address, "-", "opened no terminal: closed")
        self.table.notify(Say("A login from {address} opened no terminal in {seconds} s and was closed.").format(
            address=self.address, seconds=int(UNUSED_SECONDS)))
        if self.conn is not None:
            self.conn.close()

    def connection_lost(self, exc: Optional[Exception]) -> None:
        if self.unused is not None:
            self.unused.cancel()
        if self.stage == "starting":
            self.table.left_unseated(self.address)
        elif self.stage == "seated":
            self.table.seated -= 1
        self.stage = "refused"

    def begin_auth(self, username: str) -> bool:
        return True

    def password_auth_supported(self) -> bool:
        return True

    async def validate_password(self, username: str, password: str) -> bool:
        # Every request counts when it comes: asyncssh cancels a check still under way when the
        # next request arrives, so a count kept after the delay would never see pipelined guesses.
        self.passwords += 1
        if self.passwords > MAX_LOGIN_ATTEMPTS:
            return False  # the connection is closing already
        if not self.table.may_check_password(self.address):
            self.table.log.record(self.address, username, "refused: too many passwords a minute")
            self.table.notify(Say("Refused {address}: at most {count} passwords a minute from one address.").format(
                address=self.address, count=PASSWORDS_PER_MINUTE))
            if self.conn is not None:
                self.conn.close()
            return False
        if self.table.credentials.password_fits(password):
            self.proof = ""  # in by the password, whatever key was offered before it
            self.table.log.record(self.address, username, "logged in with the password")
            return True
        self.table.log.record(self.address, username, "wrong password")
        if self.passwords == MAX_LOGIN_ATTEMPTS:
            self._close_after(MAX_LOGIN_ATTEMPTS)
        await asyncio.sleep(FAILED_LOGIN_DELAY)
        return False

    def public_key_auth_supported(self) -> bool:
        return self.table.credentials.authorized is not None

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        if self.table.credentials.key_fits(key):
            self.proof = str(key.get_fingerprint("sha256"))
            self.table.log.record(self.address, username, f"logged in with the key {self.proof}")
            return True
        self.table.log.record(self.address, username, "offered a key not listed")
        self.keys += 1
        if self.keys == MAX_KEY_OFFERS:
            self._close_after(MAX_KEY_OFFERS)
        return False

    def _close_after(self, count: int) -> None:
        """Too many failed logins on one connection: it is closed, its address penalized, and the host told."""
        self.table.penalize(self.address)
        self.table.notify(Say("A connection was closed after {count} failed logins.").format(count=count))
        if self.conn is not None:
            self.conn.close()

    def session_requested(self) -> "Union[bool, asyncssh.SSHServerSession[bytes]]":
        assert self.conn is not None
        if self.sessions:  # one terminal per connection; one that keeps asking is closed
            self.sessions += 1
            if self.sessions > MAX_SESSION_REQUESTS:
                self.table.log.record(self.address, "-", "asked for too many terminals: closed")
                self.table.penalize(self.address)
                self.table.notify(Say("A connection from {address} asked for terminal after terminal and was "
                                      "closed.").format(address=self.address))
                self.conn.close()
            return False
        self.sessions += 1
        if self.unused is not None:
            self.unused.cancel()
        return SeatSession(self.table, self.conn.get_extra_info("username") or "", self.proof)


class SeatSession(asyncssh.SSHServerSession):
    """A friend's session: a terminal and a shell request, nothing else; their keys to their seat."""

    def __init__(self, table: TableServer, name: str, proof: str) -> None:
        self.table, self.name, self.proof = table, name, proof
        self.address = "?"
        self.chan: Optional[asyncssh.SSHServerChannel[bytes]] = None
        self.size: Optional[tuple[int, int]] = None
        self.term = "xterm"
        self.seat: Optional[RemoteSeat] = None
        self.window = (time.monotonic(), 0)  # the input rate's second and its bytes
        self.idle: Optional[asyncio.TimerHandle] = None
        self.resizing: Optional[asyncio.TimerHandle] = None  # the game is told the window's size soon
        self.resizes = (time.monotonic(), 0)  # the window sizes' second and their count
        self.code_wanted: Optional[str] = None  # the rejoin code's proof this terminal must give first
        self.code = ""  # typed so far
        self.tries = 0

    def connection_made(self, chan: "asyncssh.SSHServerChannel[bytes]") -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: object) -> bool:
        self.size = term_size[0] or SCREEN_WIDTH, term_size[1] or SCREEN_HEIGHT
        self.term = term_type or "xterm"
        self._check_window(*self.size)
        return True

    def shell_requested(self) -> bool:
        return self.size is not None  # a game needs a terminal: `ssh -T` is refused

    def exec_requested(self, command: str) -> bool:
        self.table.notify(Say("A command over SSH was refused: the table serves only a terminal."))
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        assert self.chan is not None
        peer = self.chan.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        self.code_wanted = self.table.code_asked(self.name, self.proof)
        if self.code_wanted is None:
            self._join(self.proof)
        else:
            self._tell(Say("{name}'s seat is kept for the friend who took it. Their rejoin code:").format(
                name=self.name), end=" ")
            self.idle = asyncio.get_running_loop().call_later(LOGIN_SECONDS, self.chan.close)

    def _join(self, proof: str) -> None:
        """Take the seat (or watch), or be told why not and let go."""
        assert self.chan is not None and self.size is not None
        environment = self.chan.get_environment()
        refused = self.table.join(self.name, self.chan, *self.size, self.term, proof, environment, self.address)
        self.table.log.record(self.address, self.name, "joined the table" if refused is None
                              else "refused a seat: " + source_text(refused))
        if refused:
            self._tell(refused)
            self.chan.exit(1)
            return
        self.seat = self.table.seat(self.name)
        self._restart_idle()

    def _tell(self, said: Text, end: str = "\r\n") -> None:
        """A line for this terminal, before it has a seat, in its client's language."""
        assert self.chan is not None
        with speaking(from_environment(self.chan.get_environment())):
            self.chan.write((text(said) + end).encode("utf-8", "replace"))

    def _code_typed(self, data: bytes) -> None:
        """Keys typed at the rejoin question: the code, echoed; Enter checks it (three tries,
        counted with the address's passwords)."""
        assert self.chan is not None and self.code_wanted is not None
        for char in data.decode("ascii", "replace"):
            if char in "\r\n":
                self._check_code()
                return
            if char in "\x03\x04":
                self.chan.close()
                return
            if char in "\x7f\b" and self.code:
                self.code = self.code[:-1]
                self.chan.write(b"\b \b")
            elif char.isalnum() and len(self.code) < MAX_CODE_CHARS:
                self.code += char
                self.chan.write(char.encode())

    def _check_code(self) -> None:
        """The rejoin code typed: the seat, another try, or the connection closed."""
        assert self.chan is not None and self.code_wanted is not None
        self.tries += 1
        code, self.code = "".join(self.code.split()).upper(), ""
        proof = code_proof(code)
        self.chan.write(b"\r\n")
        if not self.table.may_check_password(self.address):
            self.table.log.record(self.address, self.name, "refused: too many passwords a minute")
            self._tell(Say("Too many tries from your address: wait a minute."))
            self.chan.exit(1)
        elif proof == self.code_wanted:
            self.table.log.record(self.address, self.name, "gave the seat's rejoin code")
            self.code_wanted = None
            self._join(proof)
            if self.seat is not None:
                self.seat.code = code
        elif self.tries >= MAX_LOGIN_ATTEMPTS:
            self.table.log.record(self.address, self.name, "wrong rejoin code: closed")
            self.table.penalize(self.address)
            self.table.notify(Say("A connection was closed after {count} failed logins.").format(
                count=MAX_LOGIN_ATTEMPTS))
            self._tell(Say("That is not the code."))
            self.chan.exit(1)
        else:
            self.table.log.record(self.address, self.name, "wrong rejoin code")
            self._tell(Say("That is not the code. Their rejoin code:"), end=" ")

    def data_received(self, data: bytes, datatype: object) -> None:
        if self.code_wanted is not None:
            self._code_typed(data)
            return
        if self.seat is None:
            return
        self._restart_idle()
        now = time.monotonic()
        second, count = self.window
        if now - second >= 1:
            second, count = now, 0
        room = max(0, MAX_INPUT_RATE - count)
        self.window = second, count + min(room, len(data))
        kept = self.seat.typed(data[:room]) if room else True
        if len(data) > room or not kept:
            self.table.notify(Say("Keys from {name} came too fast: some were dropped.").format(name=self.name))

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        now = time.monotonic()
        second, count = self.resizes
        self.resizes = (now, 1) if now - second >= 1 else (second, count + 1)
        if self.resizes[1] > MAX_RESIZES_A_SECOND and self.chan is not None:
            self.table.log.record(self.address, self.name, "changed window size too often: closed")
            self.table.penalize(self.address)
            self.table.notify(Say("{name}'s window changed size {count} times in a second: let go.").format(
                name=cut_to_cells(self.name, NAME_CELLS), count=MAX_RESIZES_A_SECOND))
            self.chan.close()
            return
        self._check_window(width, height)
        self.size = width, height
        if self.seat is not None and self.resizing is None:  # the game hears the latest size, RESIZE_SECONDS apart
            self.resizing = asyncio.get_running_loop().call_later(RESIZE_SECONDS, self._resize)

    def _resize(self) -> None:
        self.resizing = None
        if self.seat is not None and self.size is not None:
            self.seat.resized(*self.size)

    def _check_window(self, columns: int, lines: int) -> None:
        """A window beyond reason is drawn at the largest size, and the host is told."""
        if columns > MAX_COLUMNS or lines > MAX_LINES:
            self.table.notify(Say("A window of {columns}x{lines} is drawn as {most} ({name}).").format(
                columns=columns, lines=lines, most=f"{MAX_COLUMNS}x{MAX_LINES}",
                name=cut_to_cells(self.name, NAME_CELLS)))

    def eof_received(self) -> bool:
        return False

    def connection_lost(self, exc: Optional[Exception]) -> None:
        for timer in (self.idle, self.resizing):
            if timer is not None:
                timer.cancel()
        if self.seat is not None:
            self.table.log.record(self.address, self.name, "left")
            self.table.leave(self.seat)

    def _restart_idle(self) -> None:
        """Let a seat that sends nothing for IDLE_SECONDS go."""
        if self.idle is not None:
            self.idle.cancel()
        self.idle = asyncio.get_running_loop().call_later(IDLE_SECONDS, self._idle_out)

    def _idle_out(self) -> None:
        self.table.notify(Say("{name} was idle for {minutes} minutes and was let go.").format(
            name=self.name, minutes=IDLE_SECONDS // 60))
        if self.chan is not None:
            self.chan.close()
