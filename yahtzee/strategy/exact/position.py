"""A scorecard as the solver sees it: filled boxes as bits, capped upper sum, Yahtzee 50."""
from collections.abc import Iterable, Mapping

from ...model import scoring
from ...model.scoring import Category

BIT_OF = {box: bit for bit, box in enumerate(scoring.ALL_BOXES)}  # a box's bit in a card's mask
UP_CAP = scoring.UPPER_BONUS_THRESHOLD
# Keyed by the member's plain name: quicker than the member itself in a loop this hot.
_MASK_OF_NAME = {box._name_: 1 << bit for box, bit in BIT_OF.items()}
_UPPER_NAMES = frozenset(box._name_ for box in scoring.UPPER)


def card_state(boxes: Mapping[Category, int]) -> tuple[int, int, int]:
    """(mask, capped upper sum, Yahtzee box holds 50) of a {Category: points} card."""
    mask = up = 0
    for box, points in boxes.items():
        name = box._name_
        mask |= _MASK_OF_NAME[name]
        if name in _UPPER_NAMES:
            up += points
    return mask, min(up, UP_CAP), int(boxes.get(Category.YAHTZEE) == scoring.YAHTZEE_POINTS)


def card_total(boxes: Mapping[Category, int], yahtzee_bonus: int) -> int:
    """Points already on the card, both bonuses included."""
    return sum(boxes.values()) + scoring.upper_bonus(boxes) + yahtzee_bonus


def reroll_marks(dice: Iterable[int], kept: Iterable[int]) -> tuple[bool, ...]:
    """Which dice to reroll (5 bools) so that the faces `kept` stay, leftmost first."""
    left = list(kept)
    marks = []
    for face in dice:
        if face in left:
            left.remove(face)
            marks.append(False)
        else:
            marks.append(True)
    return tuple(marks)


def kept_faces(dice: Iterable[int], marked: Iterable[bool]) -> tuple[int, ...]:
    """The sorted faces of the dice not marked for the reroll."""
    return tuple(sorted(face for face, mark in zip(dice, marked) if not mark))
