"""The key-mode console: whole screens redrawn as blocks on a terminal read a key at a time
(yahtzee.consoles.keyterminal), in colours, with a line editor for names (plain mode, one line
a token, is yahtzee.consoles.plain; the screen reader's console, yahtzee.consoles.screenreader).

Screens talk to a console in tokens: a named key (yahtzee.present.keys.Key: F8, Enter, Esc...),
or the lower-cased key or input line ("r", "135", "y"). Key mode reads one keystroke a token;
plain mode one line a token.
"""
import os
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Callable, Optional

from ..model.words import Text, YesNo
from ..present.keys import Key
from ..present.look import Drawing, Frame, Screenful, drawn
from ..present.palette import Paint, no_colour, wrapped_lines
from ..present.render import SCREEN_HEIGHT, SCREEN_WIDTH, too_small_lines
from ..speech.languages import current, speaking, text
from .keyterminal import KeyTerminal, toolkit
from .stops import InputClosed, StopRequested
from .terminalio import KeySource, PressReader, ScreenSink

if TYPE_CHECKING:  # prompt_toolkit loads only for key mode
    from .lineedit import LineEditor

__all__ = ["InputClosed", "KeyConsole", "StopRequested"]

# Home, then erase to the end: erasing the whole display (2J) pushes the screen into the
# scrollback of the Windows console and Windows Terminal at every redraw.
CLEAR = "\x1b[H\x1b[J"
CLEAR_TO_END = "\x1b[K"
MESSAGES_KEPT = 3


class KeyConsole(KeyTerminal, Drawing):
    """A real terminal in key mode: screens redrawn as blocks, messages kept under them."""

    def __init__(self, input: Optional[KeySource] = None, output: Optional[ScreenSink] = None, paint: Paint = no_colour,
                 unicode: bool = True, terminal_size: Optional[Callable[[], os.terminal_size]] = None,
                 sleep: Callable[[float], None] = time.sleep, flashes: bool = False,
                 language: Optional[str] = None, at_host: bool = True, reader: Optional[PressReader] = None) -> None:
        super().__init__(input, output, terminal_size, sleep, reader)
        self.paint = paint
        self.flashes = flashes  # whether a Yahtzee blinks (colour themes, not mono)
        self.unicode = unicode
        self.language = language or current()  # this terminal's reader's: every word is made in it when drawn
        self.screen: Screenful = []
        self.messages: list[tuple[Text, Optional[Text]]] = []
        self.prompt: Text = ""
        self._passing: Optional[Text] = None
        self._editing: Optional[tuple[Text, LineEditor]] = None
        self._drawn_size: Optional[os.terminal_size] = None
        self.at_host = at_host

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


