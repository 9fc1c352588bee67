"""One player's scorecard: the filled boxes, the bonuses beside them, and what a variant banks."""
from dataclasses import dataclass, field, replace
from typing import Optional, Protocol

from . import scoring
from .scoring import LOWER, UPPER, Category

COLUMN_NAMES = {UPPER: "upper", LOWER: "lower"}


class Entry(Protocol):
    """What a posting writes on the card (yahtzee.model.game.PostingResult, whose module imports this one)."""

    @property
    def box(self) -> Category: ...
    @property
    def points(self) -> int: ...
    @property
    def bonus(self) -> int: ...
    @property
    def roll_bonus(self) -> int: ...
    @property
    def blank(self) -> bool: ...


@dataclass
class Scorecard:
    """One player's filled boxes, the bonus points earned beside them, and the rolls banked."""

    boxes: dict[Category, int] = field(default_factory=dict)
    yahtzee_bonus: int = 0
    # FiveOAK: points for postings made in fewer rolls, kept as they were earned.
    roll_bonus: int = 0
    # Acorn: the boxes an extra Yahtzee blanked (each also holds 0 in `boxes`).
    blanks: set[Category] = field(default_factory=set)
    # Dice bank: unused rolls carried into this player's next turn.
    bank: int = 0
    # Race: the points of the columns already completed and cleared.
    banked: int = 0

    @property
    def upper_sum(self) -> int:
        """The upper boxes added up."""
        return scoring.upper_sum(self.boxes)

    @property
    def upper_bonus(self) -> int:
        """35 for an upper sum of 63 or more."""
        return scoring.upper_bonus(self.boxes)

    @property
    def upper_total(self) -> int:
        """Upper sum plus its bonus."""
        return self.upper_sum + self.upper_bonus

    @property
    def lower_total(self) -> int:
        """The lower boxes added up."""
        return scoring.lower_sum(self.boxes)

    @property
    def total(self) -> int:
        """The grand total."""
        return self.upper_total + self.lower_total + self.yahtzee_bonus + self.roll_bonus + self.banked

    @property
    def is_full(self) -> bool:
        """All thirteen boxes filled."""
        return len(self.boxes) == len(Category)

    @property
    def par(self) -> Optional[int]:
        """FiveOAK's tracker: over (+) or under (-) three of each face so far, or None once
        the upper bonus is won or lost."""
        return scoring.par(self.boxes)

    def is_blank(self, box: Category) -> bool:
        """The box was blanked by an extra Yahtzee (Acorn), shown as '-'."""
        return box in self.blanks

    def enter(self, posting: Entry) -> None:
        """Write a posting's points and bonuses on the card."""
        self.boxes[posting.box] = posting.points
        self.yahtzee_bonus += posting.bonus
        self.roll_bonus += posting.roll_bonus
        if posting.blank:
            self.blanks.add(posting.box)

    def reset_full_columns(self) -> tuple[str, ...]:
        """Race: bank and clear the columns due for it; returns their names."""
        columns = scoring.columns_to_reset(self.boxes)
        for column in columns:
            self.banked += sum(self.boxes[box] for box in column)
            self.banked += self.upper_bonus if column is UPPER else 0
        for column in columns:
            for box in column:
                del self.boxes[box]
                self.blanks.discard(box)
        return tuple(COLUMN_NAMES[column] for column in columns)

    def copy(self) -> "Scorecard":
        """An independent copy of the card."""
        return replace(self, boxes=dict(self.boxes), blanks=set(self.blanks))
