"""The console contract, in two parts: what the screens use of a console (Console), and what
the program's run asks of it besides (ProgramConsole: its terminal held for the run, stop
signals, notices from other threads)."""
from __future__ import annotations

import contextlib
from collections.abc import Iterable
from typing import Protocol

from ..model.words import Text
from ..present.look import Frame, Look, Screenful


class Console(Protocol):
    """What the screens use of a console: yahtzee.consoles.plain's PlainConsole,
    yahtzee.consoles.keymode's KeyConsole and yahtzee.consoles.screenreader's AccessibleConsole."""

    @property
    def reads_lines(self) -> bool:
        """Input is plain mode's fixed protocol, a line a command (a screen reader reads keys)."""

    @property
    def stop(self) -> int | None:
        """The stop signal asked for (SIGTERM, SIGHUP...), once one has come."""

    @property
    def look(self) -> Look:
        """How this console draws (its language, colours and glyphs)."""

    def farewell(self, said: Text) -> None:
        """The last words as the game stops (a table tells each friend what happens next)."""

    def speak(self, code: str) -> None:
        """Draw in language `code` from now on (the language preference changed)."""

    def drawn(self, screen: Screenful) -> list[str]:
        """A screen's lines as this console draws them (to count its pages)."""

    def show(self, screen: Screenful, brief: Iterable[Text] | None) -> None:
        """A whole screen, or the brief form a line-by-line console says."""

    def message(self, said: Text) -> None:
        """A message for the player."""

    def remind(self, said: Text) -> None:
        """A message about the question being asked."""

    def status(self, said: Text) -> None:
        """A passing line under the screen (a progress bar) that the next drawing replaces."""

    def forget_messages(self) -> None:
        """The screen's subject changed."""

    def read_key(self, prompt: Text) -> str:
        """The next key (or line) as a token."""

    def read_text(self, prompt: Text, default: str, limit: int | None, unlimited: str) -> tuple[str | None, str]:
        """A line of text: (hot key or None, text)."""

    def bell(self, count: int) -> None:
        """Ring the bell `count` times."""

    def pause(self, seconds: float) -> str | None:
        """Let a step stand a moment; the token of a key that cut it short."""

    def animate(self, frames: Iterable[Frame], seconds_per_frame: float) -> bool:
        """Draw each frame in turn; whether every frame was shown."""

    def typed_ahead(self) -> list[str]:
        """Take the keys pressed while the game was busy, as tokens."""


class ProgramConsole(Console, Protocol):
    """What the program's run asks of a console besides the screens' part: every console
    (PlainConsole, KeyConsole, AccessibleConsole, the table's TableConsole) meets it."""

    def running(self) -> contextlib.AbstractContextManager[ProgramConsole]:
        """The console's terminal held for the run (raw keys, a table's friends), let go after."""

    def request_stop(self, signum: int) -> None:
        """From a signal handler: stop the read under way, safely."""

    def message_from_thread(self, said: Text) -> None:
        """A notice from work in another thread, shown when the console next looks."""
