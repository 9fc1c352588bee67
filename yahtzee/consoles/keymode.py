"""The door to a terminal in key mode: keys through prompt_toolkit, colours, the bell
(plain mode, one line a token, is yahtzee.consoles.plain).

Screens talk to a console in tokens: a named key (yahtzee.present.keys.Key: F8, Enter, Esc...),
or the lower-cased key or input line ("r", "135", "y").  Key mode reads one keystroke a token,
all through one key reader for the whole game (yahtzee.consoles.keyreader); plain mode reads
one line a token.
"""
import codecs
import collections
import contextlib
import errno
import os
import signal
import time
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Callable, Optional

from ..model.words import Text, YesNo
from ..present.keys import TERMINAL_KEYS, Key
from ..present.look import Drawing, Frame, Screenful, drawn
from ..present.palette import BELL, Paint, no_colour, wrapped_lines
from ..present.render import SCREEN_HEIGHT, SCREEN_WIDTH, too_small_lines
from ..speech.languages import current, speaking, text
from .stops import InputClosed, StopRequested
from .terminalio import KeySource, PressReader, ScreenSink, reader_for, window_size

if TYPE_CHECKING:  # prompt_toolkit loads only for key mode
    from prompt_toolkit.key_binding import KeyPress

    from .lineedit import LineEditor
    from .toolkit import Toolkit

__all__ = ["InputClosed", "KeyConsole", "StopRequested"]

# Home, then erase to the end: erasing the whole display (2J) pushes the screen into the
# scrollback of the Windows console and Windows Terminal at every redraw.
CLEAR = "\x1b[H\x1b[J"
CLEAR_TO_END = "\x1b[K"
MESSAGES_KEPT = 3
MAX_TYPED_AHEAD = 1000  # keys taken at once after a busy moment; a flood beyond waits for the next


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


class KeyConsole(Drawing):
    """A real terminal: one key reader for the whole game, screens redrawn as blocks."""

    reads_lines = False

    def __init__(self, input: Optional[KeySource] = None, output: Optional[ScreenSink] = None, paint: Paint = no_colour,
                 unicode: bool = True, terminal_size: Optional[Callable[[], os.terminal_size]] = None,
                 sleep: Callable[[float], None] = time.sleep, flashes: bool = False,
                 language: Optional[str] = None, at_host: bool = True, reader: Optional[PressReader] = None) -> None:
        self.input: KeySource = input or toolkit().create_input()
        self.output: ScreenSink = output or toolkit().create_output()
        self.reader: PressReader = reader or reader_for(self.input)
        self.paint = paint
        self.flashes = flashes  # whether a Yahtzee blinks (colour themes, not mono)
        self.unicode = unicode
        self.language = language or current()  # this terminal's reader's: every word is made in it when drawn
        self.terminal_size = terminal_size or window_size
        self.sleep = sleep
        self.encoding = codecs.lookup(self.output.encoding() or "utf-8").name
        self.screen: Screenful = []
        self.messages: list[tuple[Text, Optional[Text]]] = []
        self.prompt: Text = ""
        self.stop: Optional[int] = None
        self.lost = False
        self._passing: Optional[Text] = None
        self._arrived: collections.deque[Text] = collections.deque()  # messages from other threads, not yet shown
        self._editing: Optional[tuple[Text, LineEditor]] = None
        self._drawn_size: Optional[os.terminal_size] = None
        self.at_host = at_host

    def request_stop(self, signum: int) -> None:
        """From a signal handler: the read under way, or the next one, raises StopRequested."""
        self.stop = signum
        self.reader.wake()

    @contextlib.contextmanager
    def running(self) -> Iterator["KeyConsole"]:
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

    def _fits(self, size: Optional[os.terminal_size] = None) -> bool:
        size = size or self.terminal_size()
        return size.columns >= SCREEN_WIDTH and size.lines >= SCREEN_HEIGHT

    def _draw(self) -> None:
        """The screen, the messages under it, a passing line, and the line being typed."""
        size = self._drawn_size = self.terminal_size()
        look = self.look
        with speaking(self.language):
            lines = drawn(self.screen, look)
            notes = [*(look.words(said) for said, _question in self.messages),
                     *([look.words(self._passing)] if self._passing else [])]
            if not self._fits(size):
                lines, notes = too_small_lines(size.columns, size.lines), [text(self.prompt)]
        # No newline after the last row, so a full screen never scrolls; a line being typed
        # takes a row of its own.
        editing = self._editing is not None
        lines, notes = wrapped_lines(lines, size.columns), wrapped_lines(notes, size.columns)
        room = max(1, size.lines - editing - len(lines))
        rows = [*lines, *notes[max(0, len(notes) - room):]]
        self._write(CLEAR + "\r\n".join(rows) + ("\r\n" + self._edit_line() if editing else ""))

    def show(self, screen: Screenful, brief: Optional[Iterable[Text]] = None) -> None:
        """Redraw the whole screen (drawn in this console's look); the kept messages stay under it."""
        self.screen = screen
        self._draw()

    def show_asking(self, screen: Screenful, prompt: Text) -> None:
        """Redraw the whole screen whose question is `prompt` (at a table, maybe this
        terminal's own line): the reminders about another question go."""
        self._asking(prompt)
        self.show(screen)

    def message(self, said: Text) -> None:
        """Add a one-line message under the screen now; the last three stay until forgotten."""
        self._add_message(said, None)

    def remind(self, said: Text) -> None:
        """A message about the question being asked (a wrong key, what a hot key did): it goes
        when another question is asked."""
        self._add_message(said, self.prompt)

    def message_from_thread(self, said: Text) -> None:
        """A message from work in the background (a table set aside): shown at once, the wait
        for a key woken for it."""
        self._arrived.append(said)
        self.reader.wake()

    def show_arrived(self) -> None:
        """Show the messages from other threads that came since the last look."""
        while self._arrived:
            self.message(self._arrived.popleft())

    def _add_message(self, said: Text, question: Optional[Text]) -> None:
        if self.messages[-1:] != [(said, question)]:  # the same words again are not stacked
            self.messages = [*self.messages, (said, question)][-MESSAGES_KEPT:]
        self._draw()

    def _asking(self, prompt: Text) -> bool:
        """A question is asked: the reminders about another one go; whether any went."""
        kept = [(said, question) for said, question in self.messages if question in (None, prompt)]
        gone = len(kept) < len(self.messages)
        self.messages, self.prompt = kept, prompt
        return gone

    def forget_messages(self) -> None:
        """The screen's subject changed: its messages go at the next draw."""
        self.messages = []

    def status(self, said: Text) -> None:
        """Show a passing line under the screen (a progress bar) that the next draw replaces."""
        self._passing = said
        try:
            self._draw()
        finally:
            self._passing = None

    def asking(self, prompt: Text) -> None:
        """A question is asked here (read by a wait that watches several terminals): the
        reminders about another question go."""
        if self._asking(prompt):
            self._draw()

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

    def redraw_if_resized(self) -> None:
        """Draw the screen again if the window changed size since it was drawn."""
        if self.terminal_size() != self._drawn_size:
            self._draw()

    def read_key(self, prompt: Text = "", idle: Optional[Callable[[], None]] = None) -> str:
        """The next keystroke as a token; a too-small terminal waits to be enlarged. `idle`
        runs whenever the wait is woken without a key (a hosted table looks around then)."""
        if self._asking(prompt) or not self._fits():
            self._draw()
        while True:
            token = self._next_token(idle)
            # A question shown with the too-small message may still be answered.
            if self._fits() or token == Key.QUIT or isinstance(prompt, YesNo):
                return token
            self._draw()

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

    def read_text(self, prompt: Text, default: str = "", limit: Optional[int] = None,
                  unlimited: str = "", idle: Optional[Callable[[], None]] = None) -> tuple[Optional[str], str]:
        """A line of text (a name) of `limit` characters at most, unless it starts with
        `unlimited`; F8/F9/F10 and Ctrl-C come back as (hot key, text so far); `idle` as in
        read_key."""
        room = self.terminal_size().columns - 1 - toolkit().get_cwidth(self._shown(self.words(prompt)))
        line = toolkit().LineEditor(default, limit, cells=max(1, room), unlimited=unlimited)
        self._asking(prompt)
        self._editing = (prompt, line)
        try:
            self._draw()  # the screen, its messages, then the line typed on a row of its own
            while True:
                done = line.press(self._next_press(idle))
                if done:
                    return (None if done == Key.ENTER else done), line.text
                self._write(self._edit_line())
        finally:
            self._editing = None

    def _edit_line(self) -> str:
        """The line being typed, drawn in place with the cursor where it edits."""
        if self._editing is None:
            return ""
        said, line = self._editing
        prompt = self.words(said)
        column = toolkit().get_cwidth(self._shown(prompt + line.text[:line.cursor]))
        return (f"\r{self._shown(prompt + line.text)}{CLEAR_TO_END}\r"
                + (f"\x1b[{column}C" if column else ""))

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

    def animate(self, frames: Iterable[Frame], seconds_per_frame: float) -> bool:
        """Draw each frame (a whole screen) in turn; False as soon as a key press is waiting,
        which is left for the next read, True when every frame was shown."""
        for frame in frames:
            if self.stop or self.reader.has_press(0):
                return False
            self.screen = frame
            self._draw()
            if self.reader.has_press(seconds_per_frame):
                return False
        return True


def toolkit() -> "Toolkit":
    """prompt_toolkit's functions and types as key mode uses them: the one door through which
    it loads (never on plain mode's start)."""
    from .toolkit import TOOLKIT
    return TOOLKIT
