"""A terminal in key mode below what it shows: keys through prompt_toolkit, all through one key
reader for the whole game (yahtzee.consoles.keyreader), raw mode held for the run, text
written, the bell, stop requests and messages from other threads. Two consoles stand on it:
the key-mode console draws whole screens (keymode.py), the screen reader's says lines
(screenreader.py).
"""
import codecs
import collections
import contextlib
import errno
import os
import signal
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Callable, Optional, TypeVar

from ..model.words import Text
from ..present.keys import TERMINAL_KEYS
from ..present.palette import BELL
from .stops import InputClosed, StopRequested
from .terminalio import KeySource, PressReader, ScreenSink, reader_for, window_size

if TYPE_CHECKING:  # prompt_toolkit loads only for key mode
    from prompt_toolkit.key_binding import KeyPress

    from .toolkit import Toolkit

MAX_TYPED_AHEAD = 1000  # keys taken at once after a busy moment; a flood beyond waits for the next
TerminalT = TypeVar("TerminalT", bound="KeyTerminal")


def key_token(press: "KeyPress") -> "str | None":
    """A key press as a screen's token, or None for a key that means nothing to the screens."""
    named = TERMINAL_KEYS.get(press.key)
    if named is not None:
        return named
    data = press.data
    if isinstance(press.key, toolkit().Keys) or len(data) != 1 or not data.isprintable():
        return None
    return data.lower()


def can_encode(char: str, encoding: str) -> bool:
    """Whether the terminal's encoding has this character."""
    try:
        char.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class KeyTerminal:
    """A real terminal read a key at a time: what both key-mode consoles share."""

    reads_lines = False

    def __init__(self, input: Optional[KeySource] = None, output: Optional[ScreenSink] = None,
                 terminal_size: Optional[Callable[[], os.terminal_size]] = None,
                 sleep: Callable[[float], None] = time.sleep, reader: Optional[PressReader] = None) -> None:
        self.input: KeySource = input or toolkit().create_input()
        self.output: ScreenSink = output or toolkit().create_output()
        self.reader: PressReader = reader or reader_for(self.input)
        self.terminal_size = terminal_size or window_size
        self.sleep = sleep
        self.encoding = codecs.lookup(self.output.encoding() or "utf-8").name
        self.stop: Optional[int] = None
        self.lost = False
        self._arrived: collections.deque[Text] = collections.deque()  # messages from other threads, not yet shown

    def message(self, said: Text) -> None:
        """A message for the reader (each console shows it its own way)."""
        raise NotImplementedError

    def redraw_if_resized(self) -> None:
        """Show the screen again if the window changed size (a console that draws none has nothing to do)."""

    def request_stop(self, signum: int) -> None:
        """From a signal handler: the read under way, or the next one, raises StopRequested."""
        self.stop = signum
        self.reader.wake()

    @contextlib.contextmanager
    def running(self: TerminalT) -> Iterator[TerminalT]:
        """Raw mode for the whole game, so keys never echo; a resized window wakes the reader."""
        with self._raw_mode(), self._watching_resizes():
            try:
                yield self
            finally:
                self.end_line()

    @contextlib.contextmanager
    def _raw_mode(self) -> Iterator[None]:
        mode = self.input.raw_mode()
        mode.__enter__()
        try:
            yield
        finally:
            with contextlib.suppress(OSError):  # a terminal that is gone keeps no mode
                mode.__exit__(None, None, None)

    @contextlib.contextmanager
    def _watching_resizes(self) -> Iterator[None]:
        """A resized window (or any signal the game handles) wakes the reader. The wake-up
        fd, not the handler, does it: the kernel may give a signal to a thread that is not
        the one waiting for a key (a table being built), and a handler only runs later."""
        winch = getattr(signal, "SIGWINCH", None)  # None: no SIGWINCH here
        if self.reader.wake_fd is None:  # Windows: a stop request wakes the reader itself
            yield
            return
        try:
            previous_fd = signal.set_wakeup_fd(self.reader.wake_fd, warn_on_full_buffer=False)
            previous = None if winch is None else signal.signal(winch, lambda signum, frame: None)
        except ValueError:  # not the main thread
            yield
            return
        try:
            yield
        finally:
            signal.set_wakeup_fd(previous_fd)
            if winch is not None and previous is not None:
                signal.signal(winch, previous)

    def end_line(self) -> None:
        """The cursor to a line of its own, for what the terminal writes after the game."""
        with contextlib.suppress(InputClosed):
            self._write("\r\n")

    def _write(self, text: str) -> None:
        """Write to the terminal; the first write to a lost terminal raises, later ones do nothing."""
        if self.lost:
            return
        try:
            self.output.write_raw(text)
            self.output.flush()
        except OSError as error:
            if error.errno in (errno.EIO, errno.EPIPE, errno.EBADF, errno.ENXIO):
                self.lost = True
                raise InputClosed("the terminal is gone") from None
            raise

    def message_from_thread(self, said: Text) -> None:
        """A message from work in the background (a table set aside): shown at once, the wait
        for a key woken for it."""
        self._arrived.append(said)
        self.reader.wake()

    def show_arrived(self) -> None:
        """Show the messages from other threads that came since the last look."""
        while self._arrived:
            self.message(self._arrived.popleft())

    def poll_token(self) -> Optional[str]:
        """A key waiting now, as a token, or None, without waiting; a stop request raises
        (for a wait that watches several terminals)."""
        if self.stop:
            raise StopRequested(self.stop)
        self.show_arrived()
        while True:
            press = self.reader.poll()
            if press is None:
                return None
            token = key_token(press)
            if token is not None:
                return token

    def _next_token(self, idle: Optional[Callable[[], None]] = None) -> str:
        while True:
            token = key_token(self._next_press(idle))
            if token is not None:
                return token

    def _next_press(self, idle: Optional[Callable[[], None]] = None) -> "KeyPress":
        """The next key press; a resized window is drawn again; a stop request raises; `idle`
        runs whenever the wait is woken without a key."""
        while True:
            if self.stop:
                raise StopRequested(self.stop)
            self.show_arrived()
            press = self.reader.next_press()
            if press is not None:
                return press
            if idle:
                idle()
            if not self.stop:
                self.redraw_if_resized()

    def _shown(self, text: str) -> str:
        """Text as this terminal can show it: '?' for a character its encoding lacks."""
        if can_encode(text, self.encoding):
            return text
        return "".join(char if can_encode(char, self.encoding) else "?" for char in text)

    def typed_ahead(self) -> list[str]:
        """Take the keys pressed while the game was busy (a computer's turn), as tokens: they
        answer nothing on screen, but the hot keys among them still act."""
        tokens = []
        for _press in range(MAX_TYPED_AHEAD):
            press = self.reader.press_within(0)
            if press is None:
                break
            token = key_token(press)
            if token is not None:
                tokens.append(token)
        return tokens

    def bell(self, count: int = 1) -> None:
        """Ring the terminal bell, a short pattern for more than one."""
        for ring in range(count):
            self._write(BELL)
            if ring + 1 < count:
                self.sleep(0.15)

    def pause(self, seconds: float) -> Optional[str]:
        """Let the player see a step a moment; a key cuts it short and is spent on that (its
        token comes back, so that a hot key can still act)."""
        if self.stop:
            raise StopRequested(self.stop)
        press = self.reader.press_within(max(0.0, seconds))  # no pause still takes a waiting key
        return None if press is None else key_token(press)


def toolkit() -> "Toolkit":
    """prompt_toolkit's functions and types as key mode uses them: the one door through which
    it loads (never on plain mode's start)."""
    from .toolkit import TOOLKIT
    return TOOLKIT
