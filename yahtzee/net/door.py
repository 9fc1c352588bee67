"""The door of a hosted table: a connection refused as it is accepted (Gate), or its SSH login,
with the limits of one connection, and the one terminal it may open."""
import asyncio
import enum
from collections.abc import Callable
from typing import Optional, Union, cast

import asyncssh

from ..model.words import Say, source_text
from .limits import MAX_LOGIN_ATTEMPTS, PASSWORDS_PER_MINUTE
from .seatsession import SeatSession
from .serving import Serving

UNUSED_SECONDS = 10.0  # a logged-in connection that opens no terminal this long is closed
MAX_KEY_OFFERS = 10  # unlisted keys on one connection (a client offers each key it has) before it is closed
FAILED_LOGIN_DELAY = 1.0  # seconds before a wrong password is answered
MAX_SESSION_REQUESTS = 10  # terminals asked for on one connection (one is served) before it is closed


class Stage(enum.Enum):
    """Where a connection stands: counted among the logins under way, or among those logged in."""

    REFUSED = enum.auto()  # counted nowhere: not admitted, let go, or gone
    STARTING = enum.auto()  # among the logins under way
    SEATED = enum.auto()  # among the connections logged in


class Listener:
    """Where the table listens: a connection from an address that may not try to log in now is
    closed as it is accepted, before any SSH is spoken (asyncssh listens through this, as through a tunnel)."""

    def __init__(self, table: Serving) -> None:
        self.table = table

    async def create_server(self, make: Callable[[str, int], asyncio.Protocol], host: str,
                            port: int) -> asyncio.AbstractServer:
        """Listen on `host` and `port`; each connection admitted is handed to asyncssh's `make`."""
        return await asyncio.get_running_loop().create_server(lambda: Gate(self.table, make, host, port), host, port)


class Gate(asyncio.Protocol):
    """A connection just accepted: refused at once, or handed to SSH."""

    def __init__(self, table: Serving, make: Callable[[str, int], asyncio.Protocol], host: str, port: int) -> None:
        self.table, self.make, self.host, self.port = table, make, host, port

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        refused = self.table.limits.admit(address)
        if refused is not None:
            self.table.log.record(address, "-", "refused at connect: " + source_text(refused))
            self.table.notify(refused)
            cast(asyncio.Transport, transport).abort()
            return
        try:
            ssh = self.make(self.host, self.port)
        except Exception as error:  # noqa: BLE001 - asyncssh could not begin: the place back, the connection closed
            self.table.log.record(address, "-", f"SSH could not begin: {type(error).__name__}: {error}")
            self.table.limits.left_unseated(address)
            cast(asyncio.Transport, transport).abort()
            return
        transport.set_protocol(ssh)
        ssh.connection_made(transport)


class Door(asyncssh.SSHServer):
    """One connection: its login, with the limits, and the one session it may open."""

    def __init__(self, table: Serving) -> None:
        self.table = table
        self.address = ""
        self.stage = Stage.REFUSED
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
        self.stage = Stage.STARTING  # admitted as it was accepted (Gate)

    def auth_completed(self) -> None:
        refused = self.table.limits.logged_in(self.address)
        if refused is not None:
            self.stage = Stage.REFUSED
            self.table.notify(refused)
            if self.conn is not None:
                self.conn.close()
            return
        self.stage = Stage.SEATED
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
        if self.stage is Stage.STARTING:
            self.table.limits.left_unseated(self.address)
        elif self.stage is Stage.SEATED:
            self.table.limits.left_seated(self.address)
        self.stage = Stage.REFUSED

    def begin_auth(self, username: str) -> bool:
        return True

    def password_auth_supported(self) -> bool:
        return self.table.credentials.takes_password

    async def validate_password(self, username: str, password: str) -> bool:
        # Every request counts when it comes: asyncssh cancels a check still under way when the
        # next request arrives, so a count kept after the delay would never see pipelined guesses.
        self.passwords += 1
        if self.passwords > MAX_LOGIN_ATTEMPTS:
            return False  # the connection is closing already
        if not self.table.limits.may_check_password(self.address):
            self.table.log.record(self.address, username, "refused: too many passwords a minute")
            self.table.notify(Say("Refused {address}: at most {count} passwords a minute from one address.").format(
                address=self.address, count=PASSWORDS_PER_MINUTE))
            if self.conn is not None:
                self.conn.close()
            return False
        if self.table.credentials.password_lets_in(username, password):
            self.proof = ""  # in by the password, whatever key was offered before it
            self.table.log.record(self.address, username, "logged in with the password")
            return True
        self.table.log.record(self.address, username, "wrong password")
        if self.passwords == MAX_LOGIN_ATTEMPTS:
            self._close_after(MAX_LOGIN_ATTEMPTS)
        await asyncio.sleep(FAILED_LOGIN_DELAY)
        return False

    def public_key_auth_supported(self) -> bool:
        return self.table.credentials.takes_keys

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        if self.table.credentials.key_lets_in(username, key):
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
        self.table.limits.penalize(self.address)
        self.table.notify(Say("A connection was closed after {count} failed logins.").format(count=count))
        if self.conn is not None:
            self.conn.close()

    def session_requested(self) -> "Union[bool, asyncssh.SSHServerSession[bytes]]":
        assert self.conn is not None
        if self.sessions:  # one terminal per connection; one that keeps asking is closed
            self.sessions += 1
            if self.sessions > MAX_SESSION_REQUESTS:
                self.table.log.record(self.address, "-", "asked for too many terminals: closed")
                self.table.limits.penalize(self.address)
                self.table.notify(Say("A connection from {address} asked for terminal after terminal and was "
                                      "closed.").format(address=self.address))
                self.conn.close()
            return False
        self.sessions += 1
        if self.unused is not None:
            self.unused.cancel()
        return SeatSession(self.table, self.conn.get_extra_info("username") or "", self.proof)
