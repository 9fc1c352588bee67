"""What the door and a seat's session ask of the table's server (net/server.py's TableServer)."""
from collections.abc import Mapping
from typing import Optional, Protocol

import asyncssh

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
