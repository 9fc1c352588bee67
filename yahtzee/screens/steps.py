"""Where the flow stands: the screens by name, and the moment the flow goes to next (and a saved
game resumes at)."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..model.scoring import Category
from ..saves.documents import ResumePoint


class Screen(Enum):
    """The screens of the game, as the flow and the saved game name them."""

    OPENING = "opening"
    TITLE = "title"
    NAMES = "names"
    CONFIRM = "confirm"
    PLAY = "play"
    POSTING = "posting"
    VERIFY = "verify"
    END_OF_GAME = "end_of_game"
    RECAP = "recap"
    RECAP_THEN_CONFIRM = "recap_then_confirm"


IN_GAME = (Screen.PLAY, Screen.POSTING, Screen.VERIFY)


@dataclass(frozen=True)
class Moment:
    """Where the flow goes next, and where a saved game resumes: a screen (and the box whose
    posting waits for its verify answer)."""

    screen: Screen
    box: Category | None = None

    def to_dict(self) -> dict[str, str]:
        """The moment as the saved game keeps it."""
        return {"screen": self.screen.value, **({"box": self.box.value} if self.box else {})}

    @classmethod
    def from_dict(cls, data: ResumePoint) -> Moment | None:
        """The saved moment, or None when it names no screen this game has (an earlier
        version's comes in this version's form: yahtzee.saves.versions)."""
        names = {screen.value: screen for screen in Screen}
        screen_name, box_name = (str(data.get(key) or "") for key in ("screen", "box"))
        screen = names.get(screen_name)
        box = next((b for b in Category if b.value == box_name), None)
        if screen is None or (screen is Screen.VERIFY) != (box is not None):
            return None
        return cls(screen, box)
