"""The boxes of a Yahtzee scorecard and their points: pure, standard library only."""
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import Enum
from typing import Optional

from .checks import is_int
from .dice import DICE_COUNT, FACES
from .rules import Rules
from .words import N_, NC_, Say, Text


class Category(Enum):
    """A box of the scorecard; its value is the name used in files and plain mode."""

    # A box is the one object of its name, and equal only to itself: hashed as an object (in C)
    # rather than by Enum's hash of the name (in Python), which every card's lookups pay.
    __hash__ = object.__hash__

    ONES = "ones"
    TWOS = "twos"
    THREES = "threes"
    FOURS = "fours"
    FIVES = "fives"
    SIXES = "sixes"
    THREE_OF_A_KIND = "three_of_a_kind"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    SMALL_STRAIGHT = "small_straight"
    LARGE_STRAIGHT = "large_straight"
    YAHTZEE = "yahtzee"
    CHANCE = "chance"

    @property
    def is_upper(self) -> bool:
        """True for ONES … SIXES."""
        return self in UPPER

    @property
    def face(self) -> Optional[int]:
        """The die face an upper box counts (None for a lower box)."""
        return FACES[UPPER.index(self)] if self.is_upper else None

    @property
    def title(self) -> Say:
        """The box's name as a player reads it: 'FULL HOUSE'."""
        return Say(TITLES[self], context="box")


ALL_BOXES = tuple(Category)  # in card order; a tuple is quicker to walk than the Enum class
UPPER = ALL_BOXES[:len(FACES)]  # a box for each face
LOWER = ALL_BOXES[len(FACES):]
TITLES = {Category.ONES: NC_("box", "ONES"), Category.TWOS: NC_("box", "TWOS"),
          Category.THREES: NC_("box", "THREES"), Category.FOURS: NC_("box", "FOURS"),
          Category.FIVES: NC_("box", "FIVES"), Category.SIXES: NC_("box", "SIXES"),
          Category.THREE_OF_A_KIND: NC_("box", "THREE OF A KIND"),
          Category.FOUR_OF_A_KIND: NC_("box", "FOUR OF A KIND"), Category.FULL_HOUSE: NC_("box", "FULL HOUSE"),
          Category.SMALL_STRAIGHT: NC_("box", "SMALL STRAIGHT"),
          Category.LARGE_STRAIGHT: NC_("box", "LARGE STRAIGHT"), Category.YAHTZEE: NC_("box", "YAHTZEE"),
          Category.CHANCE: NC_("box", "CHANCE")}
# The box's name on the score sheet, in its 13 columns, and in words for a screen reader.
SHEET_LABELS = {
    Category.ONES: N_("Ones"), Category.TWOS: N_("Twos"), Category.THREES: N_("Threes"),
    Category.FOURS: N_("Fours"), Category.FIVES: N_("Fives"), Category.SIXES: N_("Sixes"),
    Category.THREE_OF_A_KIND: N_("3 of a kind"), Category.FOUR_OF_A_KIND: N_("4 of a kind"),
    Category.FULL_HOUSE: N_("Full house"), Category.SMALL_STRAIGHT: N_("Sm straight"),
    Category.LARGE_STRAIGHT: N_("Lg straight"), Category.YAHTZEE: N_("YAHTZEE"),
    Category.CHANCE: N_("Chance"),
}
SPOKEN_NAMES = {**SHEET_LABELS, Category.SMALL_STRAIGHT: N_("Small straight"),
                Category.LARGE_STRAIGHT: N_("Large straight")}

UPPER_BONUS = 35
UPPER_BONUS_THRESHOLD = 63
YAHTZEE_POINTS = 50
FIXED_POINTS = {Category.FULL_HOUSE: 25, Category.SMALL_STRAIGHT: 30,
                Category.LARGE_STRAIGHT: 40, Category.YAHTZEE: YAHTZEE_POINTS}
SUM_BOXES = (Category.THREE_OF_A_KIND, Category.FOUR_OF_A_KIND, Category.CHANCE)
# The most each box can hold: five of the face, five sixes, or its fixed points.
BEST_POINTS = {box: DICE_COUNT * box.face if box.face is not None
               else DICE_COUNT * max(FACES) if box in SUM_BOXES else FIXED_POINTS[box]
               for box in Category}


def is_possible_points(box: Category, points: int) -> bool:
    """Points that the box can hold in some game (a blanked box included)."""
    if not is_int(points):
        return False
    if box.face is not None:
        return 0 <= points <= BEST_POINTS[box] and points % box.face == 0
    if box in SUM_BOXES:
        return points == 0 or DICE_COUNT * min(FACES) <= points <= BEST_POINTS[box]
    return points in (0, BEST_POINTS[box])


def upper_box(face: int) -> Category:
    """The upper box that counts a face: 3 -> THREES."""
    return UPPER[FACES.index(face)]


def most_alike(dice: Iterable[int]) -> int:
    """How many dice show the commonest face."""
    return max(Counter(dice).values())


def is_yahtzee(dice: Iterable[int]) -> bool:
    """Five dice alike."""
    return most_alike(dice) == DICE_COUNT


def _has_run(dice: Iterable[int], length: int) -> bool:
    faces = set(dice)
    return any(all(f in faces for f in range(start, start + length))
               for start in FACES[:len(FACES) - length + 1])


def _is_full_house(dice: Iterable[int]) -> bool:
    return sorted(Counter(dice).values()) == [2, 3]


_QUALIFIES: dict[Category, Callable[[Sequence[int]], bool]] = {
    Category.THREE_OF_A_KIND: lambda d: most_alike(d) >= 3,
    Category.FOUR_OF_A_KIND: lambda d: most_alike(d) >= 4,
    Category.FULL_HOUSE: _is_full_house,
    Category.SMALL_STRAIGHT: lambda d: _has_run(d, 4),
    Category.LARGE_STRAIGHT: lambda d: _has_run(d, 5),
    Category.YAHTZEE: is_yahtzee,
    Category.CHANCE: lambda d: True,
}


def qualifies(category: Category, dice: Sequence[int]) -> bool:
    """True when the dice meet a lower box's pattern (upper boxes always qualify)."""
    return category.is_upper or _QUALIFIES[category](dice)


def joker_points(category: Category, dice: Sequence[int]) -> int:
    """The points of a box when the dice count as a joker: fixed boxes score in full."""
    if category.face is not None:
        return dice.count(category.face) * category.face
    return FIXED_POINTS.get(category, sum(dice))


def score(category: Category, dice: Iterable[int]) -> int:
    """The box's value for five dice, without joker or bonus."""
    dice = tuple(dice)
    if not qualifies(category, dice):
        return 0
    return joker_points(category, dice)


def upper_sum(boxes: Mapping[Category, int]) -> int:
    """The sum of the filled upper boxes of a {Category: points} mapping."""
    return sum(points for box, points in boxes.items() if box.is_upper)


def lower_sum(boxes: Mapping[Category, int]) -> int:
    """The sum of the filled lower boxes."""
    return sum(points for box, points in boxes.items() if not box.is_upper)


def upper_bonus(boxes: Mapping[Category, int]) -> int:
    """35 once the upper boxes add up to 63 or more."""
    return UPPER_BONUS if upper_sum(boxes) >= UPPER_BONUS_THRESHOLD else 0


# Rule-aware postings. `boxes` maps each filled Category to its points; `rules` is a
# yahtzee.model.rules.Rules value (only its fields are read).

def is_joker(dice: Iterable[int], boxes: Mapping[Category, int], rules: Rules) -> bool:
    """An extra Yahtzee that the joker rule lets stand in for another box."""
    return rules.joker != "none" and Category.YAHTZEE in boxes and is_yahtzee(dice)


def open_boxes(boxes: Mapping[Category, int]) -> list[Category]:
    """The boxes not yet filled, in card order."""
    return [box for box in ALL_BOXES if box not in boxes]


def _forced_joker_boxes(dice: Sequence[int], boxes: Mapping[Category, int]) -> list[Category]:
    matching = upper_box(dice[0])
    if matching not in boxes:
        return [matching]
    lower = [box for box in LOWER if box not in boxes]
    return lower or open_boxes(boxes)


def legal_boxes(dice: Sequence[int], boxes: Mapping[Category, int], rules: Rules) -> list[Category]:
    """The boxes these dice may be posted in (or blanked for), in card order."""
    if is_joker(dice, boxes, rules) and rules.joker == "forced" and not must_blank(dice, boxes, rules):
        return _forced_joker_boxes(tuple(dice), boxes)
    return open_boxes(boxes)


def joker_requirement(dice: Sequence[int], boxes: Mapping[Category, int], rules: Rules) -> Text:
    """Why the joker rule narrows the choice, for a player ('' when it does not)."""
    if not (is_joker(dice, boxes, rules) and rules.joker == "forced"):
        return ""
    matching = upper_box(dice[0])
    if matching not in boxes:
        return Say("a Joker must go in {box} while it is open").format(box=matching.title)
    if any(box not in boxes for box in LOWER):
        return Say("a Joker must go in an open lower box while there is one")
    return ""


def has_joker_values(dice: Sequence[int], boxes: Mapping[Category, int], rules: Rules) -> bool:
    """A joker that scores full house, straights at their fixed values: under the free
    joker only once the matching upper box is filled (the classic free-choice rule)."""
    return is_joker(dice, boxes, rules) and (rules.joker == "forced" or upper_box(dice[0]) in boxes)


def posting_points(category: Category, dice: Iterable[int], boxes: Mapping[Category, int], rules: Rules) -> int:
    """The points a box gets for these dice, joker values included (bonuses apart)."""
    dice = tuple(dice)
    if must_blank(dice, boxes, rules):
        return 0
    if has_joker_values(dice, boxes, rules):
        return joker_points(category, dice)
    if rules.five_alike_full_house and category is Category.FULL_HOUSE and is_yahtzee(dice):
        return FIXED_POINTS[Category.FULL_HOUSE]
    return score(category, dice)


def is_extra_yahtzee(dice: Iterable[int], boxes: Mapping[Category, int]) -> bool:
    """Five alike while the Yahtzee box holds 50: the Yahtzee that bonuses reward."""
    return is_yahtzee(dice) and boxes.get(Category.YAHTZEE) == YAHTZEE_POINTS


def yahtzee_bonus(dice: Iterable[int], boxes: Mapping[Category, int], rules: Rules) -> int:
    """The bonus a posting of an extra Yahtzee earns (under yahtChallenge, the extra turn
    earns it instead: see extra_turn_bonus)."""
    if is_extra_yahtzee(dice, boxes) and not rules.extra_yahtzee_turn:
        return rules.extra_yahtzee_bonus
    return 0


def earns_extra_turn(dice: Iterable[int], boxes: Mapping[Category, int], rules: Rules) -> bool:
    """yahtChallenge: an extra Yahtzee may be taken as its bonus and another turn."""
    return rules.extra_yahtzee_turn and is_extra_yahtzee(dice, boxes)


def extra_turn_bonus(dice: Iterable[int], boxes: Mapping[Category, int], rules: Rules) -> int:
    """What taking the extra turn for these dice adds (0 when they earn none)."""
    return rules.extra_yahtzee_bonus if earns_extra_turn(dice, boxes, rules) else 0


def must_blank(dice: Iterable[int], boxes: Mapping[Category, int], rules: Rules) -> bool:
    """Acorn: an extra Yahtzee is not posted; it blanks (zeroes) a box of the player's choice."""
    return rules.extra_yahtzee_blank and is_extra_yahtzee(dice, boxes)


def fits_pattern(category: Category, dice: Iterable[int], rules: Rules) -> bool:
    """The dice make the box's own pattern: three or more of its face in an upper box,
    the box's combination in a lower one (never for chance), five alike as a full house
    where the rules allow it."""
    dice = tuple(dice)
    if category.is_upper:
        return dice.count(category.face) >= 3
    if category is Category.CHANCE:
        return False
    if rules.five_alike_full_house and category is Category.FULL_HOUSE and is_yahtzee(dice):
        return True
    return qualifies(category, dice)


def roll_bonus_points(category: Category, dice: Sequence[int], rolls: int, boxes: Mapping[Category, int],
                      rules: Rules) -> int:
    """FiveOAK: the points for posting the box's pattern after only `rolls` rolls."""
    earned = rules.roll_bonus[rolls - 1] if 1 <= rolls <= len(rules.roll_bonus) else 0
    if not earned or must_blank(dice, boxes, rules) or not fits_pattern(category, dice, rules):
        return 0
    return earned


def par(boxes: Mapping[Category, int]) -> Optional[int]:
    """How far the filled upper boxes are over (+) or under (-) three of each face, or None
    once the upper bonus is won or out of reach."""
    upper = upper_sum(boxes)
    best_still = sum(BEST_POINTS[box] for box in UPPER if box not in boxes)
    if upper >= UPPER_BONUS_THRESHOLD or upper + best_still < UPPER_BONUS_THRESHOLD:
        return None
    return sum(points - 3 * box.face for box, points in boxes.items() if box.face is not None)


def zeros(column: Iterable[Category], boxes: Mapping[Category, int]) -> int:
    """How many boxes of a column hold 0."""
    return sum(1 for box in column if boxes.get(box) == 0)


def columns_to_reset(boxes: Mapping[Category, int]) -> list[tuple[Category, ...]]:
    """yahtChallenge race: the full columns (UPPER, LOWER) whose points are banked and boxes
    cleared: a full column with at most one zero, or any full column once both are full."""
    full = [column for column in (UPPER, LOWER) if all(box in boxes for box in column)]
    if len(full) == 2:
        return full
    return [column for column in full if zeros(column, boxes) <= 1]

