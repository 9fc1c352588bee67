"""One friend's terminal as the game sees it: the keys they type go into a pipe that a key
console reads as it reads a keyboard, and the screens it draws go out through their SSH channel."""
import contextlib
import os
import re
import threading
import time
from typing import Callable, Optional

MAX_COLUMNS, MAX_LINES = 500, 200  # a larger window is drawn as this size
KNOCK_GAP = 0.5  # seconds: keys typed out of turn are answered at most this often
COLOURLESS_TERMS = ("dumb", "vt52", "vt100", "vt102", "vt220")  # terminals sent no colour codes
COLOUR_CODE = re.compile("\x1b\\[[0-9;]*m")


class RemoteSeat:
    """A friend's terminal: a KeySource and a ScreenSink for a KeyConsole (console.py).

    The SSH server's thread calls typed, resized and hang_up; the game's thread reads the keys
    and writes the screens."""

    def __init__(self, name: str, send: Callable[[bytes], None], disconnect: Callable[[], None],
                 columns: int, lines: int, term: str = "xterm") -> None:
        self.name = name
        self.colour = term.lower() not in COLOURLESS_TERMS
        self._send = send  # safe from any thread, as disconnect is: the server's loop does the work
        self.disconnect = disconnect
        self._read_end, self._write_end = os.pipe()
        for end in (self._read_end, self._write_end):
            os.set_blocking(end, False)
        self._pending: list[str] = []
        self._lock = threading.Lock()
        self.gone = False
        self.listening = False  # keys count only while it is this seat's turn to answer
        self.sound = True  # this seat's own bell (F9 at a friend's terminal)
        self.knocked = False  # keys came out of turn, and the game has yet to say whose turn it is
        self._last_knock = 0.0
        self.woken: Optional[Callable[[], None]] = None  # the console's reader, woken by a resize
        self.size = os.terminal_size((80, 24))
        self.resized(columns, lines)

    # -- as the console's KeySource --------------------------------------------------
    def fileno(self) -> int:
        """The pipe the console reads the keys from."""
        return self._read_end

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
            self._send(data.encode("utf-8", "replace"))

    def encoding(self) -> str:
        """What the friend's terminal is sent in."""
        return "utf-8"

    def terminal_size(self) -> os.terminal_size:
        """The friend's window as their client last told it."""
        return self.size

    # -- from the server's thread ------------------------------------------------------
    def knock(self) -> bool:
        """Keys came out of turn: whether the game should say so now (at most every KNOCK_GAP)."""
        now = time.monotonic()
        if now - self._last_knock < KNOCK_GAP:
            return False
        self._last_knock, self.knocked = now, True
        return True

    def typed(self, data: bytes) -> bool:
        """Keys from the friend: kept for the console while it is their turn, else dropped;
        False when the pipe is full (too much typed ahead) and they were dropped."""
        if not self.listening:
            return True
        with self._lock:
            if self.gone:
                return True
            try:
                os.write(self._write_end, data)
            except BlockingIOError:
                return False
        return True

    def resized(self, columns: int, lines: int) -> None:
        """The friend's window changed size (a size beyond reason is taken as the largest)."""
        self.size = os.terminal_size((max(1, min(columns, MAX_COLUMNS)), max(1, min(lines, MAX_LINES))))
        if self.woken:
            self.woken()

    def hang_up(self) -> None:
        """The connection is gone: the console's next read sees the end of its input."""
        with self._lock:
            if not self.gone:
                self.gone = True
                os.close(self._write_end)

    def close(self) -> None:
        """From the game's thread, once its console is let go: the read end goes too."""
        self.hang_up()
        with contextlib.suppress(OSError):
            os.close(self._read_end)

