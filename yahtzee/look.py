"""How one console draws a screen: its colours, its glyphs (and, around the drawing, its language). A screen is a
value (a Frame: a pure function of the look returning lines) that each console draws in
its own look, so two terminals at one table read one moment each in their own way."""
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Optional, Union

from .language import text
from .palette import Paint, no_colour
from .words import Painted, Text


@dataclass(frozen=True)
class Look:
    """A console's presentation: how it paints, and whether it has box-drawing glyphs and
    blinks a Yahtzee (its language is the one it draws in: yahtzee.language.speaking)."""

    paint: Paint = no_colour
    unicode: bool = True
    flashes: bool = False
    sound: Optional[bool] = None  # a seat's own sound (F9 at a friend's terminal), else the game's
    host: bool = True  # the host's terminal, where the lobby's keys (S, P) work

    def words(self, said: Text) -> str:
        """Words as text, inside a frame being drawn (in the language it is drawn in), painted
        where they ask to be."""
        if isinstance(said, Painted):
            return self.paint(said.role, text(said.words))
        return text(said)


Frame = Callable[[Look], list[str]]  # a whole screen, drawn for a look (in its language)
View = Callable[[Text], Frame]  # a screen with a question (or a status line) under it


@dataclass(frozen=True)
class Asked:
    """A screen and the question under it, which keys answer: drawn as it is at the terminal
    asked; at every other terminal of a table, with that terminal's own line in its place."""

    view: View
    prompt: Text
    # The question without its offer to take back a posting, where that is another terminal's to make.
    without_undo: Optional[Text] = None

    def __call__(self, look: Look) -> list[str]:
        return self.view(self.prompt)(look)


Screenful = Union[Frame, Sequence[str]]  # a frame, or lines that need no words


def drawn(screen: Screenful, look: Look) -> list[str]:
    """The screen's lines for this look."""
    return screen(look) if callable(screen) else list(screen)
