"""How one console draws a screen: its colours, its glyphs (and, around the drawing, its language). A screen is a
value (a Frame: a pure function of the look returning lines) that each console draws in
its own look, so two terminals at one table read one moment each in their own way."""
import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Optional, Union

from ..model.words import Painted, Text
from ..speech.languages import speaking, text
from .palette import Paint, no_colour


class Presentation(enum.Enum):
    """How a console presents the game."""

    SCREENS = enum.auto()  # screens drawn in place: key mode
    LINES = enum.auto()  # lines printed one after another: plain mode
    SPEECH = enum.auto()  # lines said once each, as a screen reader reads them: --accessible


@dataclass(frozen=True)
class Look:
    """A console's presentation: screens or lines, how it paints, and whether it has box-drawing
    glyphs and blinks a Yahtzee (its language is the one it draws in: yahtzee.speech.languages.speaking)."""

    presentation: Presentation = Presentation.SCREENS
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

    @property
    def in_lines(self) -> bool:
        """Told line by line (plain mode, a screen reader): the screens give sentences, not pages."""
        return self.presentation is not Presentation.SCREENS


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


def framed(body: Frame, footer: Optional[Callable[[Look], str]] = None, indent: str = "",
           spaced: bool = False) -> View:
    """A screen that asks: `body`'s lines, the question under them (`indent`ed) and, where
    there is one, the footer at the foot (`spaced`: a blank line above it)."""
    def view(prompt: Text) -> Frame:
        def frame(look: Look) -> list[str]:
            foot = [] if footer is None else [""] * spaced + [footer(look)]
            return [*body(look), indent + look.words(prompt), *foot]
        return frame
    return view


def heading(look: Look, said: Text) -> str:
    """A screen's heading, painted as a title."""
    return look.paint("title", "  " + look.words(said))


def drawn(screen: Screenful, look: Look) -> list[str]:
    """The screen's lines for this look."""
    return screen(look) if callable(screen) else list(screen)


class Drawing:
    """What every console does alike: make words and screens in its reader's language and look."""

    language: str
    paint: Paint = staticmethod(no_colour)
    presentation = Presentation.SCREENS
    unicode = True
    flashes = False
    own_sound: Optional[bool] = None  # a friend's seat's own bell, shown on its screens
    at_host = True  # False at a friend's terminal: the lobby's keys are not offered there

    def message(self, said: Text) -> None:
        """A message for the reader (each console shows it its own way)."""
        raise NotImplementedError

    @property
    def look(self) -> Look:
        """How this console draws: its colours and glyphs."""
        return Look(self.presentation, self.paint, self.unicode, self.flashes, self.own_sound, self.at_host)

    def words(self, said: Text) -> str:
        """Words as this console's reader reads them."""
        with speaking(self.language):
            return text(said)

    def drawn(self, screen: Screenful) -> list[str]:
        """A screen's lines as this console draws them."""
        with speaking(self.language):
            return drawn(screen, self.look)

    def speak(self, code: str) -> None:
        """Draw in language `code` from now on."""
        self.language = code

    def farewell(self, said: Text) -> None:
        """The last words at this terminal."""
        self.message(said)
