"""The rules as arrays, read off yahtzee.model.scoring so the rules live in one place."""
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Optional

import numpy as np

from ...model import scoring
from ...model.dice import FACES
from ...model.rules import Rules
from ...model.scoring import Category
from ...model.words import Refusal, Say
from .dicemath import DICE, FACE_COUNT, ROLLS, YAHTZEE_ROLLS
from .position import BIT_OF, UP_CAP

BOXES = scoring.ALL_BOXES
BOX_COUNT = len(BOXES)
FULL_CARD = (1 << BOX_COUNT) - 1
YAHTZEE_BIT = BIT_OF[Category.YAHTZEE]
UPPER_BITS = tuple(BIT_OF[box] for box in scoring.UPPER)
LOWER_MASK = sum(1 << BIT_OF[box] for box in scoring.LOWER)
UP_STATES = UP_CAP + 1

# What the Yahtzee box holds, as far as any rule can tell: open, a zero, or 50.
YAHTZEE_OPEN, YAHTZEE_ZERO, YAHTZEE_FIFTY = 0, 1, 2
CASES = (YAHTZEE_OPEN, YAHTZEE_ZERO, YAHTZEE_FIFTY)


class UnsupportedRules(Refusal):
    """A rule the strategy engine cannot plan for; its words say which."""


def boxes_of(mask: int, case: int) -> dict[Category, int]:
    """A stand-in {Category: points} card with the boxes of `mask` filled."""
    boxes = {box: 0 for bit, box in enumerate(BOXES) if mask >> bit & 1}
    if case == YAHTZEE_FIFTY:
        boxes[Category.YAHTZEE] = scoring.YAHTZEE_POINTS
    return boxes


def _example_mask(case: int) -> int:
    """A card with only the Yahtzee box filled, or none, for a case."""
    return 0 if case == YAHTZEE_OPEN else 1 << YAHTZEE_BIT


def _card_mask(boxes: Iterable[Category]) -> int:
    """The bit mask of a collection of boxes."""
    return sum(1 << BIT_OF[box] for box in boxes)


def check_plannable(rules: Rules) -> None:
    """Raise UnsupportedRules for a rule the turn arithmetic cannot follow (a dice bank it can)."""
    if not 1 <= rules.rolls_per_turn <= 9:
        raise UnsupportedRules(Say("the strategy engine plans for 1 to 9 rolls a turn, not {rolls}").format(
            rolls=rules.rolls_per_turn))
    bonus = tuple(rules.roll_bonus)
    if any(later > earlier for earlier, later in zip(bonus, bonus[1:])) or any(b < 0 for b in bonus):
        raise UnsupportedRules(Say("the strategy engine plans only for roll bonuses that shrink from roll to roll"))


def check_supported(rules: Rules) -> None:
    """Raise UnsupportedRules unless the solver finds the exact optimum for these rules."""
    check_plannable(rules)
    if rules.dice_bank:
        raise UnsupportedRules(Say("the strategy engine does not solve the dice bank exactly"))


def planning_rules(rules: Rules) -> Rules:
    """The nearest rules the solver solves exactly: the same rules without a dice bank."""
    return replace(rules, dice_bank=0)


@dataclass(frozen=True)
class RuleTables:
    """Points, bonuses and legal boxes of every roll, for one rule set."""

    points: np.ndarray         # (roll, box): posting_points of a roll that is not five alike
    five_points: np.ndarray    # (case, matching upper box filled, face, box): of five alike
    bonus: np.ndarray          # (case, face): yahtzee_bonus of five alike
    yahtzee_legal: np.ndarray  # (case, mask, face): legal boxes of five alike, as a bit mask
    turn_bonus: np.ndarray     # (case, face): extra_turn_bonus of five alike (0: no extra turn)
    fits: np.ndarray           # (roll, box): the roll makes the box's pattern (the roll bonus's test)
    roll_bonus: tuple[int, ...]  # the roll bonus for posting after roll 1, 2, ...

    def stage_bonus(self, rolls: int) -> int:
        """The roll bonus for a fitting posting after `rolls` rolls."""
        return self.roll_bonus[rolls - 1] if 1 <= rolls <= len(self.roll_bonus) else 0


def _example_card(case: int, face_index: int, matching_filled: int) -> dict[Category, int]:
    """A stand-in card for five alike: the case, with the matching upper box filled or not."""
    mask = _example_mask(case) | ((1 << UPPER_BITS[face_index]) if matching_filled else 0)
    return boxes_of(mask, case)


def _five_alike_tables(rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """posting_points, yahtzee_bonus and extra_turn_bonus of five alike, per case."""
    points = np.zeros((len(CASES), 2, FACE_COUNT, BOX_COUNT), dtype=np.int64)
    bonus = np.zeros((len(CASES), FACE_COUNT), dtype=np.int64)
    turn_bonus = np.zeros((len(CASES), FACE_COUNT), dtype=np.int64)
    for case in CASES:
        for index, face in enumerate(FACES):
            dice = (face,) * DICE
            card = boxes_of(_example_mask(case), case)
            bonus[case, index] = scoring.yahtzee_bonus(dice, card, rules)
            turn_bonus[case, index] = scoring.extra_turn_bonus(dice, card, rules)
            for filled in (0, 1):
                boxes = _example_card(case, index, filled)
                points[case, filled, index] = [scoring.posting_points(box, dice, boxes, rules) for box in BOXES]
    return points, bonus, turn_bonus


def _fits(rules: Rules) -> np.ndarray:
    """fits_pattern of every roll in every box."""
    return np.array([[scoring.fits_pattern(box, roll, rules) for box in BOXES] for roll in ROLLS], dtype=bool)


def _plain_points(rules: Rules) -> np.ndarray:
    """posting_points of every roll on an empty card."""
    return np.array([[scoring.posting_points(box, roll, {}, rules) for box in BOXES] for roll in ROLLS],
                    dtype=np.int64)


def _yahtzee_legal(rules: Rules) -> np.ndarray:
    """legal_boxes of five alike on every card, as bit masks: the array form of
    scoring.legal_boxes (tests compare the two on every card)."""
    legal = np.zeros((len(CASES), FULL_CARD + 1, FACE_COUNT), dtype=np.int64)
    masks = np.arange(FULL_CARD, dtype=np.int64)  # a full card has no legal box
    open_ = FULL_CARD ^ masks
    yahtzee_open = (masks >> YAHTZEE_BIT & 1) == 0
    # The Yahtzee box open: five alike are any roll, for any open box.
    legal[YAHTZEE_OPEN, masks[yahtzee_open]] = open_[yahtzee_open, None]
    filled, open_ = masks[~yahtzee_open], open_[~yahtzee_open]
    lower_open = open_ & LOWER_MASK
    for case in (YAHTZEE_ZERO, YAHTZEE_FIFTY):
        blanks = rules.extra_yahtzee_blank and case == YAHTZEE_FIFTY
        for index in range(FACE_COUNT):
            if rules.joker == "forced" and not blanks:  # the matching upper box, else a lower one
                upper = 1 << UPPER_BITS[index]
                legal[case, filled, index] = np.where(open_ & upper, upper, np.where(lower_open, lower_open, open_))
            else:
                legal[case, filled, index] = open_
    return legal


# Cards on which check_tables compares the tables with yahtzee.model.scoring itself: every
# roll on the first WHOLE_CHECKS (YAHTZEE open, a zero and a fifty in it), five alike on all.
CHECK_MASKS = (0, 1 << YAHTZEE_BIT, FULL_CARD ^ 1, FULL_CARD ^ (1 << 6), 0b0101010101010, 0b1010101010101,
               0b0000111111000, 0b1111000000111, FULL_CARD ^ (1 << YAHTZEE_BIT))
WHOLE_CHECKS = 2


def check_tables(tables: RuleTables, rules: Rules, masks: Iterable[int] = CHECK_MASKS,
                 whole: int = WHOLE_CHECKS) -> None:
    """Compare the tables with yahtzee.model.scoring on the cards of `masks`; UnsupportedRules if they differ.

    The tables assume that only five alike depend on the card, and those only through the
    Yahtzee box and the matching upper box: this checks it, every roll on the first `whole`
    cards and five alike on each.
    """
    for number, mask in enumerate(masks):
        for case in (YAHTZEE_ZERO, YAHTZEE_FIFTY) if mask >> YAHTZEE_BIT & 1 else (YAHTZEE_OPEN,):
            boxes = boxes_of(mask, case)
            for r, roll in enumerate(ROLLS):
                if number < whole or r in YAHTZEE_ROLLS:
                    _check_roll(tables, rules, (mask, case, boxes), roll, r)


def _check_roll(tables: RuleTables, rules: Rules, card: tuple[int, int, Mapping[Category, int]],
                roll: tuple[int, ...], r: int) -> None:
    """Compare one roll's legal boxes, bonuses and points on a card (mask, case, boxes) with the tables."""
    mask, case, boxes = card
    if _card_mask(scoring.legal_boxes(roll, boxes, rules)) != legal_mask(tables, mask, case, r):
        raise UnsupportedRules(Say("legal boxes of {roll} differ from the solver's tables").format(roll=str(roll)))
    if scoring.yahtzee_bonus(roll, boxes, rules) != bonus_of(tables, case, r):
        raise UnsupportedRules(Say("the Yahtzee bonus of {roll} differs from the solver's tables").format(
            roll=str(roll)))
    if scoring.extra_turn_bonus(roll, boxes, rules) != turn_bonus_of(tables, case, r):
        raise UnsupportedRules(Say("the extra turn of {roll} differs from the solver's tables").format(
            roll=str(roll)))
    _check_roll_bonus(tables, rules, boxes, roll, r)
    for bit, box in enumerate(BOXES):
        points = points_of(tables, mask, case, r, bit)
        if box not in boxes and scoring.posting_points(box, roll, boxes, rules) != points:
            raise UnsupportedRules(Say("points of {roll} in {box} differ from the solver's tables").format(
                roll=str(roll), box=box.title))


def _check_roll_bonus(tables: RuleTables, rules: Rules, boxes: Mapping[Category, int], roll: tuple[int, ...],
                      r: int) -> None:
    """Compare roll_bonus_points of a roll in every open box with the tables."""
    if not tables.roll_bonus:
        return
    for rolls in range(1, len(tables.roll_bonus) + 2):
        for bit, box in enumerate(BOXES):
            expected = tables.stage_bonus(rolls) * bool(tables.fits[r, bit])
            if box not in boxes and scoring.roll_bonus_points(box, roll, rolls, boxes, rules) != expected:
                raise UnsupportedRules(Say("the roll bonus of {roll} in {box} differs from the solver's tables").format(
                    roll=str(roll), box=box.title))


def _face_of_five(r: int) -> Optional[int]:
    """The face index of a five-alike roll number, else None."""
    return YAHTZEE_ROLLS.index(r) if r in YAHTZEE_ROLLS else None


def legal_mask(tables: RuleTables, mask: int, case: int, r: int) -> int:
    """The legal boxes of roll number `r` on a card, as a bit mask."""
    face = _face_of_five(r)
    return FULL_CARD ^ mask if face is None else int(tables.yahtzee_legal[case, mask, face])


def bonus_of(tables: RuleTables, case: int, r: int) -> int:
    """The Yahtzee bonus of roll number `r`."""
    face = _face_of_five(r)
    return 0 if face is None else int(tables.bonus[case, face])


def turn_bonus_of(tables: RuleTables, case: int, r: int) -> int:
    """What taking an extra turn for roll number `r` adds (0: no extra turn)."""
    face = _face_of_five(r)
    return 0 if face is None else int(tables.turn_bonus[case, face])


def points_of(tables: RuleTables, mask: int, case: int, r: int, bit: int) -> int:
    """The points roll number `r` posts in box `bit` on a card."""
    face = _face_of_five(r)
    if face is None:
        return int(tables.points[r, bit])
    return int(tables.five_points[case, mask >> UPPER_BITS[face] & 1, face, bit])


@lru_cache(maxsize=32)
def rule_tables(rules: Rules) -> RuleTables:
    """The arrays the solver plays by, read off yahtzee.model.scoring for `rules` (a dice bank apart);
    worked out once per rules and shared, so never to be written to. A table is solved only
    after check_tables has compared them with yahtzee.model.scoring (cache.build_table)."""
    check_plannable(rules)
    five_points, bonus, turn_bonus = _five_alike_tables(rules)
    tables = RuleTables(_plain_points(rules), five_points, bonus, _yahtzee_legal(rules), turn_bonus,
                        _fits(rules), tuple(rules.roll_bonus))
    for array in (tables.points, tables.five_points, tables.bonus, tables.yahtzee_legal, tables.turn_bonus,
                  tables.fits):
        array.flags.writeable = False
    return tables
