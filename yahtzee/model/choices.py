"""Choices as typed values: an advisor's (keep some dice, or post in a box with its points and
the bonuses that come with it) and a computer player's answer (Reroll or Post). Words are made
from them only where they are shown."""
from dataclasses import dataclass, replace
from enum import Enum
from typing import Optional, Union

from .scoring import Category


class OptionKind(str, Enum):
    """What an advisor's option does: keep some dice and reroll the rest, or post in a box."""

    KEEP = "keep"
    BOX = "box"


@dataclass(frozen=True)
class Option:
    """One choice: keep some dice and reroll the rest, post in a box, blank a box (Acorn)
    or take an extra turn (yahtChallenge, which the game takes as posting in YAHTZEE).

    `points` are the box's own points; the bonuses the posting completes or earns are
    apart from them; `gain` adds them all up. Words are made from it where it is shown."""

    kind: OptionKind
    value: float                   # the expected final score after this choice
    reroll: tuple[bool, ...] = ()  # keep: which of the five dice to reroll
    kept: tuple[int, ...] = ()     # keep: the faces kept, sorted
    box: Optional[Category] = None  # box: where to post
    points: int = 0                # box: what the box itself scores
    upper_bonus: int = 0           # box: the upper bonus this posting completes
    yahtzee_bonus: int = 0         # box: the bonus five alike earn (an extra turn's included)
    roll_bonus: int = 0            # box: FiveOAK's bonus for posting early
    best: bool = False
    blank: bool = False            # box: the box is blanked (an Acorn extra Yahtzee)
    extra_turn: bool = False       # box: YAHTZEE taken as its bonus and another turn

    @property
    def gain(self) -> int:
        """Every point the posting adds to the card, bonuses included."""
        return self.points + self.upper_bonus + self.yahtzee_bonus + self.roll_bonus

    def is_same_choice(self, other: "Option") -> bool:
        """`other` makes this choice, whatever each expects of it (a keep: the same faces kept,
        whichever dice show them)."""
        return _choice_alone(self) == _choice_alone(other)


def _choice_alone(option: Option) -> Option:
    return replace(option, value=0.0, reroll=(), best=False)


@dataclass(frozen=True)
class Reroll:
    """A computer player's answer: reroll the marked dice (five bools, in the dice's places)."""

    marked: tuple[bool, ...]


@dataclass(frozen=True)
class Post:
    """A computer player's answer: post the dice in a box."""

    box: Category


Action = Union[Reroll, Post]  # what a computer player does next
