"""What the door and a seat's session ask of the table's server (net/server.py's TableServer),
and what the table asks of it from the game's side; the sentence that tells friends how to join."""
from collections.abc import Callable, Mapping
from typing import Optional, Protocol

import asyncssh

from ..model.seatowners import SeatsSnapshot
from ..model.words import Say, Text
from .credentials import Credentials
from .limits import Limits
from .log import TableLog
from .seat import RemoteSeat


class Serving(Protocol):
    """The server a connection logs in to and takes its seat at."""

    credentials: Credentials
    log: TableLog
    limits: Limits

    def notify(self, line: Text) -> None:
        """Tell the host a line (a few of a kind at most)."""

    def join(self, name: str, chan: "asyncssh.SSHServerChannel[bytes]", columns: int, lines: int, term: str,
             proof: str, environment: Optional[Mapping[str, str]], address: str) -> Optional[Say]:
        """Seat a friend; why not, or None."""

    def seat(self, name: str) -> Optional[RemoteSeat]:
        """The friend logged in as `name`, if one is."""

    def code_asked(self, name: str, proof: str) -> Optional[str]:
        """The code proof a login as `name` must give first, or None."""

    def leave(self, seat: RemoteSeat) -> None:
        """The friend's connection is gone."""


class SeatServer(Protocol):
    """The server as the table sees it from the game's thread: who is here."""

    def start(self) -> None:
        """Listen for friends."""

    def present(self) -> list[RemoteSeat]:
        """The friends logged in now."""

    def remove(self, name: str, seat: Optional[RemoteSeat]) -> None:
        """The host removed `name` (the seats now refuse them): their connection, if here, is closed."""

    def how_to_join(self) -> Say:
        """The line that tells the host's friends how to join."""

    def close(self) -> None:
        """Stop listening and let every friend go."""


# What makes a table's server: given the table's way to tell the host a line, to hear that a
# friend came or went, and to read the game's seats.
Serve = Callable[[Callable[[Text], None], Callable[[], None], Callable[[], SeatsSnapshot]], SeatServer]


def join_line(port: int, address: str, password: str) -> Say:
    """How friends join a table listening on `address` and `port`."""
    return Say("Friends join with: ssh -p {port} NAME@{address} (password {password})").format(
        port=port, address=address, password=password)
