"""The versions of a saved session, and what earlier ones hold that this one keeps otherwise,
brought to this version's form here and nowhere else: version 1 kept the screen the session
stood at ('posting h'), which the autosave's resume point holds now; older saves kept the
points each player gave away against perfect play, which the review of each game counts now."""
from typing import Any

from ..model.checks import is_int
from ..model.scoring import Category
from ..model.words import Say
from .strict import check

# Version 1 of a session held the screen it stood at; 2 leaves that to the autosave's resume point.
SESSION_VERSION = 2
FIRST_VERSION = 1
MAX_SCREEN_CHARS = 40
MAX_LOSS = 10_000
# The letters version 1 wrote for the box whose posting waited for its verify answer.
FIRST_VERSION_BOXES = {"1": Category.ONES, "2": Category.TWOS, "3": Category.THREES,
                       "4": Category.FOURS, "5": Category.FIVES, "6": Category.SIXES,
                       "t": Category.THREE_OF_A_KIND, "f": Category.FOUR_OF_A_KIND,
                       "h": Category.FULL_HOUSE, "s": Category.SMALL_STRAIGHT,
                       "l": Category.LARGE_STRAIGHT, "y": Category.YAHTZEE, "c": Category.CHANCE}


def current_form(data: dict[str, Any]) -> dict[str, Any]:
    """A saved session as this version holds it: version 1's screen made the resume point, the
    losses older saves kept checked and left out; DamagedSave if the version is unknown or what
    an earlier one held is damaged."""
    version = data.get("version")
    check(is_int(version) and version in (SESSION_VERSION, FIRST_VERSION), Say("unknown version"))
    _check_losses(data.get("losses", {}))
    kept = {key: value for key, value in data.items() if key not in ("losses", "screen")}
    if version == FIRST_VERSION:
        return {**kept, "version": SESSION_VERSION, "resume": resume_point(_screen(data))}
    return kept


def resume_point(screen: str) -> dict[str, str]:
    """The resume point of a version 1 screen: 'posting h' waited for the verify answer of
    FULL HOUSE, {'screen': 'verify', 'box': 'full_house'}; 'play' is {'screen': 'play'}."""
    name, _, letter = screen.partition(" ")
    if not name:
        return {}
    box = FIRST_VERSION_BOXES.get(letter)
    if name == "posting" and box is not None:
        return {"screen": "verify", "box": box.value}
    return {"screen": name, "box": box.value if box else letter} if letter else {"screen": name}


def _screen(data: dict[str, Any]) -> str:
    """The screen a version 1 session stood at ('posting h', 'play', '')."""
    screen = data.get("screen")
    check(isinstance(screen, str) and len(screen) <= MAX_SCREEN_CHARS and screen.isprintable(), Say("the screen"))
    return str(screen)


def _check_losses(losses: object) -> None:
    """The points each player gave away, as older saves kept them: checked, then no longer kept."""
    check(isinstance(losses, dict) and all(
        isinstance(lost, (int, float)) and not isinstance(lost, bool) and 0 <= lost < MAX_LOSS
        for lost in losses.values()), Say("the losses"))
