"""The one reader of the terminal's keys for a whole game: bytes in, prompt_toolkit key presses out.

prompt_toolkit's own Vt100 parser turns the bytes into keys (F-keys, Esc after its timeout);
what is left of a control sequence the parser does not know (a pasted colour code, a window
title, a cursor report in pieces) is dropped here, so it never types anything. A lone Esc acts
after ESCAPE_TIMEOUT; a sequence begun waits longer for the rest of its bytes.
"""
import codecs
import collections
import contextlib
import enum
import errno
import os
import select
import sys
import time
from typing import Callable, Optional, Union

from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.key_binding import KeyPress
from prompt_toolkit.keys import Keys

from .stops import InputClosed

ESCAPE_TIMEOUT = 0.05  # a lone Esc, nothing after it, is a key after this long
SEQUENCE_TIMEOUT = 0.5  # a control sequence begun (Esc [ 1) waits this long for its end
SEQUENCE_GAP = 1.0  # a control sequence split by a longer silence is over
UNWANTED = {Keys.Vt100MouseEvent, Keys.CPRResponse, Keys.Ignore, Keys.BracketedPaste}
GONE = (errno.EIO, errno.EBADF, errno.ENXIO)


class _Parser(Vt100Parser):
    """The Vt100 parser, except that a stray bracketed-paste mark (never asked for) does nothing."""

    def _call_handler(self, key: Union[str, Keys, tuple[Keys, ...]], insert_text: str) -> None:
        if key != Keys.BracketedPaste:
            super()._call_handler(key, insert_text)


def _char(press: KeyPress) -> str:
    """The character a plain key press carries, or '' for a named key (F8, Enter, a control)."""
    return "" if isinstance(press.key, Keys) else press.data


class Within(enum.Enum):
    """Where the key presses stand: in the player's text, or inside a control sequence."""

    TEXT = enum.auto()  # the player's own keys
    AFTER_ESCAPE = enum.auto()  # '[' or 'O' next is the tail of an F-key that arrived split
    ESCAPE = enum.auto()  # after an Esc that starts a sequence
    CSI = enum.auto()  # control sequence
    STRING = enum.auto()  # a device control or operating system string, up to BEL or ESC \


class SequenceFilter:
    """Drops the rest of a control sequence that the parser handed on as Esc and characters."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.state = Within.TEXT
        self.last = 0.0
        self._steps: dict[Within, Callable[[KeyPress, bool], bool]] = {
            Within.TEXT: self._in_text, Within.AFTER_ESCAPE: self._in_after_escape, Within.ESCAPE: self._in_escape,
            Within.CSI: self._in_csi, Within.STRING: self._in_string}

    def accepts(self, press: KeyPress, bare_escape: bool) -> bool:
        """Whether a key press is the player's, not part of a control sequence."""
        now = self.clock()
        if self.state is not Within.TEXT and now - self.last > SEQUENCE_GAP:
            self.state = Within.TEXT
        self.last = now
        return self._steps[self.state](press, bare_escape)

    def _in_text(self, press: KeyPress, bare_escape: bool) -> bool:
        if press.key == Keys.Escape:
            self.state = Within.AFTER_ESCAPE if bare_escape else Within.ESCAPE
            return bare_escape
        return press.key not in UNWANTED

    def _in_after_escape(self, press: KeyPress, bare_escape: bool) -> bool:
        """Right after a lone Esc, '[' or 'O' is the tail of an F-key that arrived split."""
        self.state = Within.TEXT
        if _char(press) in ("[", "O"):
            self.state = Within.CSI
            return False
        return self._in_text(press, bare_escape)

    def _in_escape(self, press: KeyPress, bare_escape: bool) -> bool:
        char = _char(press)
        if press.key == Keys.Escape:
            return False
        if not char:
            self.state = Within.TEXT
            return self._in_text(press, bare_escape)
        if char in "[]PX^_":
            self.state = Within.CSI if char == "[" else Within.STRING
        elif not " " <= char <= "/":
            self.state = Within.TEXT  # the final character of a short sequence (ESC 7, ESC 4)
        return False

    def _in_csi(self, press: KeyPress, bare_escape: bool) -> bool:
        char = _char(press)
        if char and " " <= char <= "?":
            return False
        self.state = Within.TEXT
        return False if char and "@" <= char <= "~" else self._in_text(press, bare_escape)

    def _in_string(self, press: KeyPress, bare_escape: bool) -> bool:
        if press.key == Keys.ControlG:
            self.state = Within.TEXT
        elif press.key == Keys.Escape:
            self.state = Within.ESCAPE  # ESC \ ends the string
        return False


class KeyReader:
    """Reads one file descriptor for the whole game, so keys typed ahead are never lost."""

    def __init__(self, fileno: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.fd = fileno
        self.presses: collections.deque[KeyPress] = collections.deque()
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="ignore")  # any locale
        self._parser = _Parser(self._parsed)
        self._filter = SequenceFilter(clock)
        self._flushed: Optional[list[KeyPress]] = None
        self._unflushed: Optional[float] = None  # how long to wait before flushing the parser
        self._clock = clock
        self._fed_at = 0.0
        self._wake_read, self._wake_write = os.pipe()
        if sys.platform != "win32":  # the POSIX side of the seam; Windows' is yahtzee.consoles.winkeys
            for end in (self._wake_read, self._wake_write):
                os.set_blocking(end, False)

    def close(self) -> None:
        """Let the wake-up pipe go."""
        for end in (self._wake_read, self._wake_write):
            os.close(end)

    @property
    def wake_fd(self) -> int:
        """The end of the wake-up pipe that a write to ends the wait (a signal's wake-up fd)."""
        return self._wake_write

    def wake(self) -> None:
        """End the wait under way (safe from a signal handler)."""
        with contextlib.suppress(OSError):  # already woken: the pipe is full
            os.write(self._wake_write, b".")

    def next_press(self) -> "KeyPress | None":
        """The next key press; None when woken (a resize, a stop request) before one came."""
        while not self.presses:
            ready, _, _ = select.select([self.fd, self._wake_read], [], [], self._unflushed)
            if not ready:
                self._flush()
            elif self._wake_read in ready:
                self._drain_wake()
                return None
            else:
                self._feed()
        return self.presses.popleft()

    def has_press(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for a key press without taking it: True as soon as
        one is waiting (or the wait is woken: a resize, a stop request), False when the time
        ran out."""
        if self.presses:
            return True
        ready, _, _ = select.select([self.fd, self._wake_read], [], [], max(0.0, timeout))
        if self._wake_read in ready:
            self._drain_wake()  # a stop request is seen by the console; a resize by its next draw
        return bool(ready)

    def press_within(self, timeout: float) -> "KeyPress | None":
        """The next key press if one comes within `timeout` seconds, else None (also when the
        wait is woken: a resize, a stop request); a lone Esc counts once its timeout has passed."""
        if not self.presses and self.has_press(timeout):
            ready, _, _ = select.select([self.fd], [], [], 0)
            if ready:
                self._feed()
        if not self.presses:
            self.flush_if_due()
        return self.presses.popleft() if self.presses else None

    @property
    def waits_on(self) -> tuple[int, int]:
        """What a wait for this reader's keys watches: its input and its wake-up pipe."""
        return self.fd, self._wake_read

    def flush_due(self) -> Optional[float]:
        """Seconds until a held start of a sequence counts as keys as they are (None: none held)."""
        if self._unflushed is None:
            return None
        return max(0.0, self._fed_at + self._unflushed - self._clock())

    def poll(self) -> "KeyPress | None":
        """A key press waiting now, or None, without waiting (a wake-up is taken; a lone Esc
        counts once its timeout has passed): for a wait that watches several readers."""
        if not self.presses:
            ready, _, _ = select.select([self.fd, self._wake_read], [], [], 0)
            if self._wake_read in ready:
                self._drain_wake()
            if self.fd in ready:
                self._feed()
            elif self.flush_due() == 0.0:
                self._flush()
        return self.presses.popleft() if self.presses else None

    def discard(self) -> None:
        """Forget every key read but not yet taken."""
        self.presses.clear()

    def forget_wakes(self) -> None:
        """Forget the wake-ups written so far: the wait they were to end is over."""
        self._drain_wake()

    def flush_if_due(self) -> None:
        """Once its time is up, a held start of a sequence counts as keys as they are (kept
        for the next read), even while nobody reads this terminal."""
        if self.flush_due() == 0.0:
            self._flush()

    def _feed(self) -> None:
        """Parse what the terminal sent; the parser may hold the start of a sequence, to be
        flushed after the timeout its last character calls for."""
        text = self._decoder.decode(self._read())
        self._parser.feed(text)
        if text:
            self._unflushed = ESCAPE_TIMEOUT if text.endswith("\x1b") else SEQUENCE_TIMEOUT
            self._fed_at = self._clock()

    def _read(self) -> bytes:
        try:
            data = os.read(self.fd, 4096)
        except BlockingIOError:
            return b""
        except OSError as error:
            if error.errno in GONE:
                raise InputClosed("the terminal is gone") from None
            raise
        if not data:
            raise InputClosed("end of input")
        return data

    def _drain_wake(self) -> None:
        try:
            while os.read(self._wake_read, 64):
                pass
        except BlockingIOError:
            pass

    def _parsed(self, press: KeyPress) -> None:
        if self._flushed is not None:
            self._flushed.append(press)
        elif self._filter.accepts(press, bare_escape=False):
            self.presses.append(press)

    def _flush(self) -> None:
        """After the escape timeout: what the parser held is keys as they are (a lone Esc)."""
        self._unflushed, self._flushed = None, []
        self._parser.flush()
        flushed, self._flushed = self._flushed, None
        for index, press in enumerate(flushed):
            if self._filter.accepts(press, bare_escape=index == len(flushed) - 1):
                self.presses.append(press)
