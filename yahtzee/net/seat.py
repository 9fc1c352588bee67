"""One friend's terminal as the game sees it: the keys they type go into a pipe that a key
console reads as it reads a keyboard, and the screens it draws go out through their SSH channel.

Keys typed while the seat is asked go into its own pipe (kept, as typed ahead at a keyboard);
keys typed while another seat is asked go into a second pipe, where the game reads them only
to act on the seat's own hot keys and to refuse the rest, never as an answer."""
import contextlib
import os
import re
import sys
import threading
from collections.abc import Mapping
from typing import Callable, Optional

from ..model.words import Text
from ..present.render import SCREEN_HEIGHT, SCREEN_WIDTH
from ..speech.locales import charset_is_utf8, from_environment

MAX_COLUMNS, MAX_LINES = 500, 200  # a larger window is drawn as this size
COLOURLESS_TERMS = ("dumb", "vt52", "vt100", "vt102", "vt220")  # terminals sent no colour codes
COLOUR_CODE = re.compile("\x1b\\[[0-9;]*m")


class RemoteSeat:
    """A friend's terminal: a KeySource and a ScreenSink for a KeyConsole (consoles/keymode.py).

    The SSH server's thread calls typed, resized and hang_up; the game's thread reads the keys
    and writes the screens."""

    def __init__(self, name: str, send: Callable[[bytes], None], disconnect: Callable[[], None], columns: int,
                 lines: int, term: str = "xterm", environment: Optional[Mapping[str, str]] = None,
                 proof: str = "", address: str = "?") -> None:
        self.name = name
        self.term, self.environment = term, dict(environment or {})
        self.proof = proof  # how they logged in: their key's fingerprint, their seat's code proof, or '' (the password)
        self.address = address
        self.code = ""  # their seat's rejoin code, where the game made it for them or they typed it
        self.note: Optional[Text] = None  # their last words at a table, shown at the page they go back to
        self.wrong_codes = 0  # private tables' codes this connection typed wrong (a server of tables)
        self.colour = term.lower() not in COLOURLESS_TERMS
        self.language = from_environment(environment or {})  # as the friend's ssh client sent LANG and LC_*
        self.unicode = charset_is_utf8(environment or {})
        self._send = send  # safe from any thread, as disconnect is: the server's loop does the work
        self.close_connection = disconnect
        self.disconnect = disconnect  # what the game does to let the friend go (a server of tables: back to its page)
        self.successor: Optional[RemoteSeat] = None  # the seat its connection went on as (renewed)
        self._read_end, self._write_end = os.pipe()
        self._aside_read, self._aside_write = os.pipe()
        if sys.platform != "win32":  # hosting is POSIX's: app.py refuses --host on Windows
            for end in (self._read_end, self._write_end, self._aside_read, self._aside_write):
                os.set_blocking(end, False)
        self._pending: list[str] = []
        self._lock = threading.Lock()
        self.gone = False
        self.taken = False  # the game reads its pipes (and closes them when it lets the seat go)
        self.listening = False  # keys are answers only while this seat is asked
        self.sound = True  # this seat's own bell (F9 at a friend's terminal)
        self.woken: Optional[Callable[[], None]] = None  # the console's reader, woken by a resize
        self.typed_aside: Optional[Callable[[], None]] = None  # told of keys set aside (a wait elsewhere ends)
        self.size = os.terminal_size((SCREEN_WIDTH, SCREEN_HEIGHT))
        self.resized(columns, lines)

    # -- as the console's KeySource --------------------------------------------------
    def fileno(self) -> int:
        """The pipe the console reads the keys from."""
        return self._read_end

    def aside_fileno(self) -> int:
        """The pipe of the keys typed while another seat was asked."""
        return self._aside_read

    def raw_mode(self) -> "contextlib.AbstractContextManager[None]":
        """Nothing to switch: the friend's own ssh client keeps their terminal raw."""
        return contextlib.nullcontext()

    # -- as the console's ScreenSink -------------------------------------------------
    def write_raw(self, data: str) -> None:
        """Text for the friend's terminal, sent at the next flush."""
        self._pending.append(data)

    def flush(self) -> None:
        """Send what was written."""
        data, self._pending = "".join(self._pending), []
        if not self.colour:
            data = COLOUR_CODE.sub("", data)
        if data and not self.gone:
            self._send(data.encode(self.encoding(), "replace"))

    def encoding(self) -> str:
        """What the friend's terminal is sent in: UTF-8, or ASCII where their locale is not UTF-8."""
        return "utf-8" if self.unicode else "ascii"

    def terminal_size(self) -> os.terminal_size:
        """The friend's window as their client last told it."""
        return self.size

    # -- from the server's thread ------------------------------------------------------
    def typed(self, data: bytes) -> bool:
        """Keys from the friend: answers while the seat is asked, else set aside; False when
        the pipe is full (too much typed ahead) and they were dropped."""
        with self._lock:
            if self.gone:
                return True
            aside = not self.listening
            try:
                os.write(self._aside_write if aside else self._write_end, data)
            except BlockingIOError:
                return False
        if aside and self.typed_aside:
            self.typed_aside()
        return True

    def resized(self, columns: int, lines: int) -> None:
        """The friend's window changed size (a size beyond reason is taken as the largest)."""
        self.size = os.terminal_size((max(1, min(columns, MAX_COLUMNS)), max(1, min(lines, MAX_LINES))))
        if self.woken:
            self.woken()

    def take(self) -> bool:
        """The game takes the seat's keys in: False when its connection went first (nothing
        of it is left open then)."""
        with self._lock:
            self.taken = not self.gone
            return self.taken

    def hang_up(self) -> None:
        """The connection is gone: the console's next read sees the end of its input (a seat
        the game never took in is closed whole: nobody else would close its pipes)."""
        with self._lock:
            if not self.gone:
                self.gone = True
                ends = (self._write_end, self._aside_write) + (() if self.taken else (self._read_end, self._aside_read))
                for end in ends:
                    os.close(end)

    def renewed(self) -> "RemoteSeat":
        """The same connection as a new seat with pipes of its own (a server of tables sends it
        back to its page); what it types goes there from now on."""
        seat = RemoteSeat(self.name, self._send, self.close_connection, *self.size, self.term, self.environment,
                          self.proof, self.address)
        seat.code, seat.note, seat.wrong_codes = self.code, self.note, self.wrong_codes
        self.successor = seat
        return seat

    def current(self) -> "RemoteSeat":
        """The seat this connection is now (itself, or the one it was renewed as)."""
        seat = self
        while seat.successor is not None:
            seat = seat.successor
        return seat

    def close(self) -> None:
        """From the game's thread, once its console is let go: the read end goes too."""
        self.hang_up()
        for end in (self._read_end, self._aside_read):
            with contextlib.suppress(OSError):  # closed already: the seat was never taken in
                os.close(end)

