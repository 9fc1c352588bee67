"""The rules of the boxes: every roll against an independent count, tables, invariants."""
import itertools
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yahtzee.model.rules import FREE_JOKER, HASBRO, NO_BONUS
from yahtzee.model.scoring import LOWER, UPPER, Category, legal_boxes, posting_points, score, upper_bonus, yahtzee_bonus
from yahtzee.speech.languages import text

C = Category
ALL_ROLLS = list(itertools.product(range(1, 7), repeat=5))
dice_strategy = st.lists(st.integers(1, 6), min_size=5, max_size=5)


def reference_score(box: Category, dice: tuple[int, ...]) -> int:
    """The scores, worked out a second way: by counting faces in a list of six."""
    counts = [0] * 7
    for face in dice:
        counts[face] += 1
    present = "".join("1" if counts[f] else "0" for f in range(1, 7))
    shape = sorted(c for c in counts if c)
    if box in UPPER:
        face = UPPER.index(box) + 1
        return face * counts[face]
    return {
        C.THREE_OF_A_KIND: sum(dice) if max(counts) >= 3 else 0,
        C.FOUR_OF_A_KIND: sum(dice) if max(counts) >= 4 else 0,
        C.FULL_HOUSE: 25 if shape == [2, 3] else 0,
        C.SMALL_STRAIGHT: 30 if "1111" in present else 0,
        C.LARGE_STRAIGHT: 40 if "11111" in present else 0,
        C.YAHTZEE: 50 if shape == [5] else 0,
        C.CHANCE: sum(dice),
    }[box]


def test_every_roll_and_box_matches_an_independent_count() -> None:
    mismatches = [(box, dice) for dice in ALL_ROLLS for box in Category
                  if score(box, dice) != reference_score(box, dice)]
    assert len(ALL_ROLLS) == 7776
    assert mismatches == []


@pytest.mark.parametrize("box, dice, points", [
    (C.ONES, (1, 1, 4, 2, 6), 2),
    (C.THREES, (3, 3, 3, 1, 2), 9),
    (C.SIXES, (1, 2, 3, 4, 5), 0),
    (C.THREE_OF_A_KIND, (4, 4, 4, 2, 1), 15),
    (C.THREE_OF_A_KIND, (4, 4, 2, 2, 1), 0),
    (C.FOUR_OF_A_KIND, (5, 5, 5, 5, 5), 25),
    (C.FOUR_OF_A_KIND, (5, 5, 5, 2, 5), 22),
    (C.FULL_HOUSE, (2, 3, 2, 3, 3), 25),
    (C.FULL_HOUSE, (2, 2, 2, 2, 3), 0),
    (C.FULL_HOUSE, (6, 6, 6, 6, 6), 0),
    (C.SMALL_STRAIGHT, (1, 2, 3, 4, 6), 30),
    (C.SMALL_STRAIGHT, (3, 4, 5, 6, 6), 30),
    (C.SMALL_STRAIGHT, (1, 2, 3, 5, 6), 0),
    (C.SMALL_STRAIGHT, (2, 3, 4, 5, 6), 30),
    (C.LARGE_STRAIGHT, (5, 4, 3, 2, 1), 40),
    (C.LARGE_STRAIGHT, (1, 2, 3, 4, 6), 0),
    (C.LARGE_STRAIGHT, (3, 3, 3, 3, 3), 0),
    (C.YAHTZEE, (3, 3, 3, 3, 3), 50),
    (C.YAHTZEE, (3, 3, 3, 3, 2), 0),
    (C.CHANCE, (6, 6, 5, 1, 2), 20),
])
def test_hand_checked_examples(box: Category, dice: tuple[int, int, int, int, int], points: int) -> None:
    assert score(box, dice) == points


@given(dice_strategy, st.randoms(use_true_random=False))
def test_shuffling_the_dice_never_changes_a_score(dice: Any, rng: Any) -> None:
    shuffled = list(dice)
    rng.shuffle(shuffled)
    assert [score(box, dice) for box in Category] == [score(box, shuffled) for box in Category]


BOX_RANGE = {**{box: range(0, 5 * (i + 1) + 1) for i, box in enumerate(UPPER)},
             C.THREE_OF_A_KIND: range(0, 31), C.FOUR_OF_A_KIND: range(0, 31),
             C.FULL_HOUSE: (0, 25), C.SMALL_STRAIGHT: (0, 30), C.LARGE_STRAIGHT: (0, 40),
             C.YAHTZEE: (0, 50), C.CHANCE: range(5, 31)}


@given(dice_strategy)
def test_every_score_is_in_its_box_range(dice: Any) -> None:
    for box in Category:
        assert score(box, dice) in BOX_RANGE[box]
    for i, box in enumerate(UPPER):
        assert score(box, dice) % (i + 1) == 0


def test_category_names_and_values_are_the_spec_s() -> None:
    assert [c.name for c in Category] == [
        "ONES", "TWOS", "THREES", "FOURS", "FIVES", "SIXES", "THREE_OF_A_KIND",
        "FOUR_OF_A_KIND", "FULL_HOUSE", "SMALL_STRAIGHT", "LARGE_STRAIGHT", "YAHTZEE", "CHANCE"]
    assert all(c.value == c.name.lower() for c in Category)
    assert text(C.FULL_HOUSE.title) == "FULL HOUSE" and C.FIVES.face == 5 and C.CHANCE.face is None


def card(**filled: Any) -> dict[Category, int]:
    """A {Category: points} mapping from keyword names: card(yahtzee=50, fives=15)."""
    return {Category(name): points for name, points in filled.items()}


ALL_UPPER_FILLED = dict(ones=1, twos=2, threes=3, fours=4, fives=5, sixes=6)
ALL_LOWER_FILLED = dict(three_of_a_kind=0, four_of_a_kind=0, full_house=0,
                        small_straight=0, large_straight=0, chance=0)

# (filled boxes, dice, legal boxes, {box: points}, bonus) under hasbro's forced joker.
JOKER_TABLE = [
    # Yahtzee box 50, matching upper box open: it must be used, +100.
    (card(yahtzee=50), (5,) * 5, [C.FIVES], {C.FIVES: 25}, 100),
    # Matching upper box filled: any open lower box at joker values, +100.
    (card(yahtzee=50, fives=10), (5,) * 5, [b for b in LOWER if b is not C.YAHTZEE],
     {C.FULL_HOUSE: 25, C.SMALL_STRAIGHT: 30, C.LARGE_STRAIGHT: 40,
      C.THREE_OF_A_KIND: 25, C.FOUR_OF_A_KIND: 25, C.CHANCE: 25}, 100),
    # Only some lower boxes open: just those.
    (card(yahtzee=50, twos=4, full_house=25, chance=20), (2,) * 5,
     [C.THREE_OF_A_KIND, C.FOUR_OF_A_KIND, C.SMALL_STRAIGHT, C.LARGE_STRAIGHT],
     {C.LARGE_STRAIGHT: 40, C.THREE_OF_A_KIND: 10}, 100),
    # Every lower box filled and the upper box too: zero an open upper box, +100.
    (card(yahtzee=50, sixes=18, **ALL_LOWER_FILLED), (6,) * 5, list(UPPER[:5]),
     {C.ONES: 0, C.FIVES: 0}, 100),
    # Yahtzee box scratched: the joker still applies, but no bonus.
    (card(yahtzee=0), (3,) * 5, [C.THREES], {C.THREES: 15}, 0),
    (card(yahtzee=0, threes=9), (3,) * 5, [b for b in LOWER if b is not C.YAHTZEE],
     {C.FULL_HOUSE: 25, C.LARGE_STRAIGHT: 40}, 0),
    # Yahtzee box open: a Yahtzee may go anywhere, at its plain value.
    (card(), (4,) * 5, list(Category), {C.YAHTZEE: 50, C.FULL_HOUSE: 0, C.FOURS: 20}, 0),
    # Not a Yahtzee: every open box, no joker.
    (card(yahtzee=50, **ALL_UPPER_FILLED), (1, 2, 3, 4, 4), list(LOWER[:-2]) + [C.CHANCE],
     {C.SMALL_STRAIGHT: 30, C.FULL_HOUSE: 0}, 0),
]


@pytest.mark.parametrize("boxes, dice, legal, points, bonus", JOKER_TABLE)
def test_forced_joker_and_yahtzee_bonus(
        boxes: dict[Category, int], dice: tuple[int, int, int, int, int], legal: list[Category], points: dict[Category,
        int], bonus: int) -> None:
    assert legal_boxes(dice, boxes, HASBRO) == legal
    for box, expected in points.items():
        assert posting_points(box, dice, boxes, HASBRO) == expected, box
    assert yahtzee_bonus(dice, boxes, HASBRO) == bonus


def test_free_joker_allows_any_open_box_at_joker_values_once_the_upper_box_is_filled() -> None:
    boxes = card(yahtzee=50, fives=25)
    dice = (5,) * 5
    assert legal_boxes(dice, boxes, FREE_JOKER) == [b for b in Category if b not in (C.YAHTZEE, C.FIVES)]
    assert posting_points(C.LARGE_STRAIGHT, dice, boxes, FREE_JOKER) == 40
    assert yahtzee_bonus(dice, boxes, FREE_JOKER) == 100


def test_free_joker_with_the_upper_box_open_scores_the_dice_as_they_are() -> None:
    boxes = card(yahtzee=50)
    dice = (5,) * 5
    assert legal_boxes(dice, boxes, FREE_JOKER) == [b for b in Category if b is not C.YAHTZEE]
    assert posting_points(C.LARGE_STRAIGHT, dice, boxes, FREE_JOKER) == 0
    assert posting_points(C.CHANCE, dice, boxes, FREE_JOKER) == 25
    assert yahtzee_bonus(dice, boxes, FREE_JOKER) == 100


def test_without_joker_an_extra_yahtzee_scores_as_it_is() -> None:
    boxes = card(yahtzee=50)
    dice = (5,) * 5
    assert legal_boxes(dice, boxes, NO_BONUS) == [b for b in Category if b is not C.YAHTZEE]
    assert posting_points(C.FULL_HOUSE, dice, boxes, NO_BONUS) == 0
    assert yahtzee_bonus(dice, boxes, NO_BONUS) == 0


@pytest.mark.parametrize("boxes, bonus", [
    (card(ones=3, twos=6, threes=9, fours=12, fives=15, sixes=18), 35),   # exactly 63
    (card(ones=2, twos=6, threes=9, fours=12, fives=15, sixes=18), 0),    # 62
    (card(sixes=30, fives=25, fours=8), 35),                               # 63, three boxes
    (card(sixes=30, fives=25, fours=4, chance=30), 0),                     # lower boxes don't count
])
def test_upper_bonus_at_63_and_not_at_62(boxes: dict[Category, int], bonus: int) -> None:
    assert upper_bonus(boxes) == bonus


@given(st.sets(st.sampled_from(list(Category))), dice_strategy)
def test_legal_boxes_are_open_and_never_empty(filled: Any, dice: Any) -> None:
    boxes = {box: 0 for box in filled}
    for rules in (HASBRO, FREE_JOKER, NO_BONUS):
        legal = legal_boxes(dice, boxes, rules)
        assert all(box not in boxes for box in legal)
        assert bool(legal) == (len(boxes) < 13)
