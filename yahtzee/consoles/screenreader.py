"""The screen-reader console: single keys read as key mode reads them (the same key terminal,
yahtzee.consoles.keyterminal), words out a line at a time.

It draws no screen: it says the brief lines each screen gives for plain mode, its messages
and its prompts, once each, with no colours, cursor movement or screen clearing.
"""
import os
import time
from collections.abc import Iterable
from typing import Callable, Optional

from ..model.words import Text
from ..present.keys import Key
from ..present.look import Drawing, Frame, Presentation, Screenful, drawn
from ..present.palette import wrapped_lines
from ..speech.languages import current, speaking, text
from .keyterminal import KeyTerminal, toolkit
from .terminalio import KeySource, PressReader, ScreenSink

ERASE = "\b \b"  # what a terminal's own line editing sends for a backspace


class AccessibleConsole(KeyTerminal, Drawing):
    """Keys as in key mode; what changed, in words, as new lines (the wording of plain mode)."""

    presentation = Presentation.SPEECH
    unicode = False

    def __init__(self, input: Optional[KeySource] = None, output: Optional[ScreenSink] = None,
                 terminal_size: Optional[Callable[[], os.terminal_size]] = None,
                 sleep: Callable[[float], None] = time.sleep, language: Optional[str] = None,
                 reader: Optional[PressReader] = None) -> None:
        super().__init__(input, output, terminal_size, sleep, reader)
        self.language = language or current()  # the reader's: every word is made in it when said
        self.said: list[str] = []  # the lines of the last brief: an unchanged line is not said again
        self.asked: Optional[str] = None  # the last prompt said
        self.passing: Optional[str] = None  # the last passing line said

    def _say(self, lines: Iterable[str]) -> None:
        """Write whole lines, broken between words at the terminal's width (the terminal
        turns each newline into a new line)."""
        shown = wrapped_lines([line for line in lines if line.strip()], self.terminal_size().columns)
        text = "".join(line + "\n" for line in shown)
        if text:
            self._write(text)

    def show(self, screen: Screenful, brief: Optional[Iterable[Text]] = None) -> None:
        """Say the lines of the brief (the screen's own lines when it has none) not said
        just before; an empty brief says nothing."""
        with speaking(self.language):
            words = drawn(screen, self.look) if brief is None else [
                part for line in brief for part in text(line).split("\n")]
        if not words:
            return
        self._say([line for line in words if line not in self.said])
        self.said = words

    def message(self, said: Text) -> None:
        """Say a message."""
        self._say([self.words(said)])

    def remind(self, said: Text) -> None:
        """Say a message about the question being asked."""
        self._say([self.words(said)])

    def forget_messages(self) -> None:
        """Said messages stay said."""

    def status(self, said: Text) -> None:
        """Say a passing line (a progress bar) when it changed."""
        line = self.words(said)
        if line != self.passing:
            self.passing = line
            self._say([line])

    def read_key(self, said: Text = "", idle: Optional[Callable[[], None]] = None) -> str:
        """Say the prompt unless it was the last thing said; the next keystroke as a token."""
        prompt = self.words(said)
        if prompt and prompt != self.asked:
            self._say([prompt])
            self.asked = prompt
        return self._next_token(idle)

    def read_text(self, said: Text, default: str = "", limit: Optional[int] = None,
                  unlimited: str = "", idle: Optional[Callable[[], None]] = None) -> tuple[Optional[str], str]:
        """A line of text typed after the prompt, echoed as it is typed."""
        prompt = self.words(said)
        line = toolkit().LineEditor(default, limit, unlimited=unlimited)
        self._write(self._shown(prompt + line.text))
        try:
            while True:
                before = line.text
                done = line.press(self._next_press(idle))
                if done:
                    return (None if done == Key.ENTER else done), line.text
                self._write(self._shown(echo(before, line.text, prompt)))
        finally:
            self._write("\n")
            self.asked = None

    def animate(self, frames: Iterable[Frame], seconds_per_frame: float) -> bool:
        """Dice never tumble here: they are said once they settle."""
        return True


def echo(before: str, after: str, prompt: str) -> str:
    """What to write for an edit: the typed character, an erase, or the line said anew."""
    if after.startswith(before):
        return after[len(before):]
    if before.startswith(after):
        return ERASE * (len(before) - len(after))
    return f"\n{prompt}{after}"
