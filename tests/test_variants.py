"""Rule variants and options: tables of hand-checked points, whole scripted games, the dice
bank, four rolls, undo, races, and the JSON round trip of everything they add."""
import json
import random
from typing import Any, Callable, Optional, Union

import pytest
from helpers import any_json
from hypothesis import given, settings
from hypothesis import strategies as st

from yahtzee.model.dice import LoadedDice, SeededDice
from yahtzee.model.game import CannotUndo, Game, GameOver, NoExtraTurn, NoRollsLeft, Player, PostingResult
from yahtzee.model.outcome import FinishedGame
from yahtzee.model.rules import ACORN, FIVEOAK, HASBRO, RULES, YAHTC, BadOption, Rules, rules_named
from yahtzee.model.scorecard import Scorecard
from yahtzee.model.scoring import (
    LOWER,
    UPPER,
    Category,
    columns_to_reset,
    earns_extra_turn,
    extra_turn_bonus,
    legal_boxes,
    must_blank,
    par,
    posting_points,
    roll_bonus_points,
    yahtzee_bonus,
)
from yahtzee.model.session import Session
from yahtzee.saves.codec import game_from_dict, game_to_dict, session_from_dict, session_to_dict
from yahtzee.saves.records import finished_game, record_of
from yahtzee.saves.strict import DamagedSave
from yahtzee.speech.languages import text

C = Category
KEYS = {**{str(i + 1): box for i, box in enumerate(UPPER)},
        **dict(zip("tfhslyc", LOWER))}


def card(**filled: Any) -> dict[Category, int]:
    """A {Category: points} mapping from keyword names: card(yahtzee=50, fives=15)."""
    return {Category(name): points for name, points in filled.items()}


# Rule tables: (rules, filled boxes, dice, legal boxes, {box: points}, posting bonus, extra-turn
# bonus, must blank).
VARIANT_TABLE = [
    # yahtc: an extra Yahtzee earns 50 and another turn; as a posting, only its plain value.
    (YAHTC, card(yahtzee=50), (6,) * 5, [b for b in Category if b is not C.YAHTZEE],
     {C.SIXES: 30, C.FULL_HOUSE: 0, C.LARGE_STRAIGHT: 0, C.CHANCE: 30}, 0, 50, False),
    # yahtc, Yahtzee box scratched: no bonus, no extra turn, no joker.
    (YAHTC, card(yahtzee=0), (6,) * 5, [b for b in Category if b is not C.YAHTZEE],
     {C.SIXES: 30, C.FULL_HOUSE: 0}, 0, 0, False),
    # yahtc, first Yahtzee: the box takes 50.
    (YAHTC, card(), (2,) * 5, list(Category), {C.YAHTZEE: 50}, 0, 0, False),
    # acorn: an extra Yahtzee blanks any open box for 100.
    (ACORN, card(yahtzee=50, threes=9), (3,) * 5, [b for b in Category if b not in (C.YAHTZEE, C.THREES)],
     {C.ONES: 0, C.CHANCE: 0, C.LARGE_STRAIGHT: 0}, 100, 0, True),
    # acorn, Yahtzee box scratched: an ordinary posting, no joker.
    (ACORN, card(yahtzee=0), (3,) * 5, [b for b in Category if b is not C.YAHTZEE],
     {C.THREES: 15, C.CHANCE: 15, C.FULL_HOUSE: 0}, 0, 0, False),
    # fiveoak: five alike fit full house, three and four of a kind; no forced joker.
    (FIVEOAK, card(), (4,) * 5, list(Category),
     {C.FULL_HOUSE: 25, C.THREE_OF_A_KIND: 20, C.FOUR_OF_A_KIND: 20, C.YAHTZEE: 50,
      C.SMALL_STRAIGHT: 0}, 0, 0, False),
    # fiveoak: another five alike after one scored as such: +100 wherever it goes.
    (FIVEOAK, card(yahtzee=50), (4,) * 5, [b for b in Category if b is not C.YAHTZEE],
     {C.FOURS: 20, C.FULL_HOUSE: 25, C.LARGE_STRAIGHT: 0}, 100, 0, False),
    # fiveoak: five alike first used as a full house: the next earns no bonus.
    (FIVEOAK, card(full_house=25), (4,) * 5, [b for b in Category if b is not C.FULL_HOUSE],
     {C.YAHTZEE: 50}, 0, 0, False),
]


@pytest.mark.parametrize("rules, boxes, dice, legal, points, bonus, turn_bonus, blank", VARIANT_TABLE)
def test_variant_rule_table(
        rules: Rules, boxes: dict[Category, int], dice: tuple[int, int, int, int, int], legal: list[Category],
        points: dict[Category, int], bonus: int, turn_bonus: int, blank: bool) -> None:
    assert legal_boxes(dice, boxes, rules) == legal
    for box, expected in points.items():
        assert posting_points(box, dice, boxes, rules) == expected, box
    assert yahtzee_bonus(dice, boxes, rules) == bonus
    assert extra_turn_bonus(dice, boxes, rules) == turn_bonus
    assert earns_extra_turn(dice, boxes, rules) == bool(turn_bonus)
    assert must_blank(dice, boxes, rules) == blank


@pytest.mark.parametrize("box, dice, rolls, points", [
    (C.THREES, (3, 3, 3, 1, 2), 1, 10),        # three alike in an upper box, one roll
    (C.THREES, (3, 3, 3, 1, 2), 2, 5),
    (C.THREES, (3, 3, 3, 1, 2), 3, 0),
    (C.THREES, (3, 3, 1, 1, 2), 1, 0),         # two threes: not the box's pattern
    (C.FULL_HOUSE, (2, 2, 3, 3, 3), 1, 10),
    (C.FULL_HOUSE, (5, 5, 5, 5, 5), 2, 5),     # five alike count as a full house
    (C.FULL_HOUSE, (2, 2, 3, 3, 4), 1, 0),     # a zero earns nothing
    (C.SMALL_STRAIGHT, (1, 2, 3, 4, 6), 1, 10),
    (C.LARGE_STRAIGHT, (1, 2, 3, 4, 6), 1, 0),
    (C.THREE_OF_A_KIND, (6, 6, 6, 6, 6), 1, 10),
    (C.CHANCE, (6, 6, 6, 6, 6), 1, 0),         # never for chance
    (C.YAHTZEE, (1, 1, 1, 1, 1), 2, 5),
])
def test_fiveoak_roll_bonus(box: Category, dice: tuple[int, int, int, int, int], rolls: int, points: int) -> None:
    assert roll_bonus_points(box, dice, rolls, {}, FIVEOAK) == points
    assert roll_bonus_points(box, dice, rolls, {}, HASBRO) == 0


@pytest.mark.parametrize("boxes, expected", [
    (card(), 0),
    (card(threes=9), 0),
    (card(threes=12, ones=2), 2),              # +3 and -1
    (card(sixes=12, chance=30), -6),           # lower boxes do not count
    (card(sixes=30, fives=25, fours=8), None),  # 63: won
    (card(ones=0, twos=0, threes=0, fours=0, fives=0), None),  # 30 at most: lost
    (card(ones=1, twos=2, threes=3, fours=4, fives=20), None),  # 30 + at most 30: lost
    (card(ones=1, twos=2, threes=3, fours=4, fives=25), -10),  # 35 + 30 sixes: still open
])
def test_par_tracker(boxes: dict[Category, int], expected: Optional[int]) -> None:
    assert par(boxes) == expected


def test_par_is_none_once_every_upper_box_is_filled() -> None:
    full = card(ones=3, twos=6, threes=9, fours=12, fives=15, sixes=12)
    assert par(full) is None and Scorecard(full).par is None


@pytest.mark.parametrize("boxes, reset", [
    (card(ones=3, twos=6, threes=0, fours=12, fives=15, sixes=18), [UPPER]),   # one zero
    (card(ones=0, twos=6, threes=0, fours=12, fives=15, sixes=18), []),        # two zeros wait
    ({**{b: 0 for b in UPPER}, **{b: 1 for b in LOWER}}, [UPPER, LOWER]),       # both full
    ({b: 5 for b in LOWER[:-1]}, []),                                           # not complete
    ({b: 0 for b in LOWER}, []),
])
def test_race_columns_reset(
        boxes: dict[Category, int], reset: list[Union[tuple[Category, ...], Any]]) -> None:
    assert columns_to_reset(boxes) == reset


def test_named_rules_and_options() -> None:
    assert {"hasbro", "yahtc", "acorn", "fiveoak"} <= set(RULES)
    assert rules_named("hasbro") is HASBRO
    four = YAHTC.with_options(rolls=4, bank=2)
    assert (four.name, four.rolls_per_turn, four.dice_bank) == ("yahtc", 4, 2)
    assert text(four.describe()) == "yahtChallenge: extra turn, 4 rolls, bank 2"
    assert text(HASBRO.describe()) == "1987 (forced joker)"
    assert text(HASBRO.with_options(bank=1).describe()) == "1987 (forced joker), bank 1"
    assert HASBRO.with_options() == HASBRO
    for bad in ({"rolls": 5}, {"rolls": True}, {"bank": -1}, {"bank": 9}, {"bank": "2"}):
        with pytest.raises(BadOption):
            HASBRO.with_options(**bad)


# Whole games scripted through the model: (first roll, [(marks, new faces), ...], box key).
YAHTC_GAME = [
    ([6] * 5, [], "y"),
    ([6] * 5, [], "y"),                          # another Yahtzee: +50 and another turn
    ([2, 2, 2, 5, 5], [], "h"),
    ([1, 2, 3, 4, 5], [], "l"),
    ([1, 2, 3, 3, 6], [("4", [4])], "s"),
    ([4, 4, 4, 4, 1], [], "f"),
    ([5, 5, 5, 3, 2], [], "t"),
    ([1, 1, 1, 2, 3], [], "1"),
    ([2, 2, 2, 2, 6], [], "2"),
    ([3, 3, 3, 6, 6], [], "3"),
    ([4, 4, 4, 1, 2], [], "4"),
    ([5, 5, 5, 5, 2], [], "5"),
    ([6, 6, 6, 1, 1], [], "6"),
    ([6, 5, 4, 3, 1], [], "c"),
]
ACORN_GAME = [
    ([3] * 5, [], "y"),
    ([3] * 5, [], "1"),                          # another Yahtzee: blank ONES for 100
    ([2, 2, 2, 3, 3], [], "h"),
    ([1, 2, 3, 4, 5], [], "l"),
    ([2, 3, 4, 5, 5], [], "s"),
    ([6, 6, 6, 6, 2], [], "f"),
    ([5, 5, 5, 1, 2], [], "t"),
    ([2, 2, 1, 4, 6], [("3", [2])], "2"),
    ([3, 3, 3, 1, 1], [], "3"),
    ([4, 4, 4, 4, 1], [], "4"),
    ([5, 5, 5, 6, 1], [], "5"),
    ([6, 6, 6, 6, 1], [], "6"),
    ([6, 6, 5, 1, 2], [], "c"),
]
FIVEOAK_GAME = [
    ([4] * 5, [], "h"),                          # five alike as a full house: 25 + 10
    ([2] * 5, [], "y"),                          # 50 + 10
    ([2] * 5, [], "2"),                          # another: 10 in TWOS + 100 + 10
    ([1, 2, 3, 4, 6], [], "s"),                  # 30 + 10
    ([1, 2, 3, 4, 6], [("5", [5])], "l"),        # two rolls: 40 + 5
    ([6, 6, 6, 1, 2], [("45", [3, 4]), ("45", [6, 5])], "f"),   # three rolls: 29
    ([5, 5, 5, 2, 1], [], "t"),                  # 18 + 10
    ([1, 1, 2, 3, 4], [], "1"),                  # two ones: 2, no roll bonus
    ([3, 3, 3, 3, 2], [], "3"),                  # 12 + 10
    ([4, 4, 4, 2, 1], [], "4"),                  # 12 + 10
    ([5, 5, 5, 5, 1], [], "5"),                  # 20 + 10
    ([6, 6, 6, 2, 2], [], "6"),                  # 18 + 10
    ([6, 5, 4, 2, 1], [], "c"),                  # 18, never a roll bonus
]


# A scripted turn: the first roll's faces, each reroll's (marked dice, new faces), the box's key.
Turn = tuple[list[int], list[tuple[str, list[int]]], str]


def script_faces(turns: list[Turn]) -> list[int]:
    """The dice faces a list of scripted turns consumes, in order."""
    return [face for first, rerolls, _ in turns for face in first + [f for _, new in rerolls for f in new]]


def play_turn(game: Game, first: list[int], rerolls: list[tuple[str, list[int]]], key: str) -> PostingResult:
    """One scripted turn: roll, mark and reroll, post; returns the PostingResult."""
    assert game.roll() == tuple(first)
    for marks, _ in rerolls:
        for mark in marks:
            game.toggle(int(mark) - 1)
        game.roll()
    return game.post(KEYS[key])


def scripted_game(
        rules: Rules, *scripts: Any, names: Any = ("ANN",),
        race_target: Any = None) -> tuple[Game, list[PostingResult]]:
    """Play the players' scripts, turn about, through the model; returns (game, postings)."""
    in_order = [turn for turns in zip(*scripts) for turn in turns]
    game = Game.start([Player(name) for name in names], rules, LoadedDice(script_faces(in_order), SeededDice(0)),
                      race_target=race_target)
    postings = [play_turn(game, *turn) for turn in in_order]
    return game, postings


def test_a_whole_yahtc_game() -> None:
    game, postings = scripted_game(YAHTC, YAHTC_GAME)
    assert postings[1].extra_turn and (postings[1].points, postings[1].bonus) == (0, 50)
    card = game.players[0].card
    assert game.is_over and card.is_full
    assert (card.upper_sum, card.upper_bonus, card.lower_total, card.yahtzee_bonus) == (70, 35, 201, 50)
    assert card.total == 356
    record = any_json(record_of(FinishedGame.of(game, "2026-11-30T10:00:00")))
    assert record["rules"] == "yahtc" and record["players"][0]["total"] == 356


def test_a_whole_acorn_game() -> None:
    game, postings = scripted_game(ACORN, ACORN_GAME)
    assert postings[1].blank and (postings[1].box, postings[1].points, postings[1].bonus) == (C.ONES, 0, 100)
    card = game.players[0].card
    assert card.blanks == {C.ONES} and card.is_blank(C.ONES) and not card.is_blank(C.TWOS)
    assert (card.upper_sum, card.upper_bonus, card.lower_total, card.yahtzee_bonus) == (70, 35, 209, 100)
    assert card.total == 414
    player = any_json(record_of(FinishedGame.of(game, "2026-11-30T10:00:00")))["players"][0]
    assert player["blanks"] == ["ones"] and player["scores"]["ones"] == 0


def test_a_whole_fiveoak_game() -> None:
    game, postings = scripted_game(FIVEOAK, FIVEOAK_GAME)
    assert [p.roll_bonus for p in postings] == [10, 10, 10, 10, 5, 0, 10, 0, 10, 10, 10, 10, 0]
    assert (postings[2].points, postings[2].bonus) == (10, 100)
    card = game.players[0].card
    assert (card.upper_sum, card.upper_bonus, card.lower_total) == (74, 35, 210)
    assert (card.yahtzee_bonus, card.roll_bonus, card.total) == (100, 95, 514)
    player = any_json(record_of(FinishedGame.of(game, "2026-11-30T10:00:00")))["players"][0]
    assert player["roll_bonus"] == 95 and player["total"] == 514
    assert player["total"] == (sum(player["scores"].values()) + player["upper_bonus"]
                               + player["yahtzee_bonus"] + player["roll_bonus"])
    assert finished_game(record_of(FinishedGame.of(game, "2026-11-30T10:00:00"))).game().players[0].card.total == 514


def test_the_par_tracker_follows_a_fiveoak_game() -> None:
    game, _ = scripted_game(FIVEOAK, FIVEOAK_GAME[:3])
    assert game.players[0].card.par == 4                      # five twos: +4
    game, _ = scripted_game(FIVEOAK, FIVEOAK_GAME[:8])
    assert game.players[0].card.par == 3                      # and two ones: -1


def test_hasbro_games_add_no_new_record_fields() -> None:
    game, _ = scripted_game(HASBRO, FIVEOAK_GAME)             # the joker takes the second Yahtzee
    player = any_json(record_of(FinishedGame.of(game, "2026-11-30T10:00:00")))["players"][0]
    assert set(player) == {"name", "kind", "scores", "upper_bonus", "yahtzee_bonus", "total"}


# The race: ANN clears her full upper column in round 6 and reaches 140 in round 7, but the
# race ends only with the round, and BOB's Yahtzee then takes him past her.
RACE_ANN: list[Turn] = [
    ([6, 6, 6, 6, 1], [], "6"),
    ([5, 5, 5, 5, 1], [], "5"),
    ([4, 4, 4, 4, 1], [], "4"),
    ([3, 3, 3, 3, 1], [], "3"),
    ([2, 2, 2, 2, 1], [], "2"),
    ([1, 1, 1, 1, 2], [], "1"),                  # 84 + 35 banked, the column cleared
    ([2, 2, 3, 3, 3], [], "h"),                  # 144: at the target, the round goes on
]
RACE_BOB: list[Turn] = [
    ([1, 2, 3, 4, 5], [], "l"),
    ([1, 2, 3, 4, 6], [], "s"),
    ([2, 2, 3, 3, 3], [], "h"),
    ([1, 1, 1, 2, 3], [], "t"),
    ([1, 1, 1, 1, 2], [], "f"),
    ([1, 1, 2, 2, 3], [], "c"),
    ([6] * 5, [], "y"),                          # 168, the lower column cleared
]


def test_a_whole_race_ends_with_the_round_and_the_best_total_wins() -> None:
    game, postings = scripted_game(HASBRO, RACE_ANN, RACE_BOB, names=("ANN", "BOB"), race_target=140)
    ann, bob = (p.card for p in game.players)
    assert postings[10].reset == ("upper",) and postings[13].reset == ("lower",)
    assert (ann.banked, ann.boxes, ann.total) == (119, {C.FULL_HOUSE: 25}, 144)
    assert (bob.banked, bob.boxes, bob.total) == (168, {}, 168)
    assert game.is_over and game.winners() == ["BOB"]
    record = any_json(record_of(FinishedGame.of(game, "2026-11-30T10:00:00")))
    assert record["race_target"] == 140
    assert [(p["banked"], p["total"]) for p in record["players"]] == [(119, 144), (168, 168)]
    with pytest.raises(GameOver):
        game.roll()


def test_a_race_is_not_over_until_the_round_is_complete() -> None:
    in_order = [turn for turns in zip(RACE_ANN, RACE_BOB) for turn in turns][:13]
    game = Game.start([Player("ANN"), Player("BOB")], source=LoadedDice(script_faces(in_order)),
                      race_target=140)
    for turn in in_order:
        play_turn(game, *turn)
    assert game.players[0].card.total == 144 and not game.is_over and game.current.name == "BOB"
    assert Session([Player("ANN")], game=game).match_is_over is False


def test_a_race_goes_on_past_thirteen_rounds() -> None:
    game = Game.start([Player("ANN")], source=SeededDice(5), race_target=600)
    while not game.is_over:
        game.roll()
        game.post(game.legal_boxes()[-1])
    card = game.players[0].card
    assert game.round > 14 and card.total >= 600 and card.banked > 0
    assert card.total == card.banked + sum(card.boxes.values()) + card.upper_bonus + card.yahtzee_bonus


# The dice bank and four rolls.

def test_four_rolls_a_turn() -> None:
    game = Game.start([Player("ANN")], HASBRO.with_options(rolls=4), LoadedDice([1] * 30))
    game.roll()
    for _ in range(3):
        game.toggle(0)
        game.roll()
    assert game.rolls_left == 0
    with pytest.raises(NoRollsLeft):
        game.roll()


def test_the_dice_bank_carries_unused_rolls_up_to_its_size() -> None:
    rules = HASBRO.with_options(bank=2)
    game = Game.start([Player("ANN"), Player("BOB")], rules, LoadedDice([1] * 200))
    game.roll()
    game.post(C.CHANCE)                          # ANN used 1 of 3: banks 2
    assert game.players[0].card.bank == 2
    game.roll()
    game.toggle(0)
    game.roll()
    game.toggle(0)
    game.roll()
    game.post(C.CHANCE)                          # BOB used all 3: banks none
    assert game.players[1].card.bank == 0
    assert game.rolls_left == 5                  # ANN: 3 + 2
    game.roll()
    game.post(C.ONES)                            # used 1 of 5: the bank still holds only 2
    assert game.players[0].card.bank == 2
    game.roll()
    assert game.rolls_left == 2                  # BOB: 3 + 0, one used


def test_a_bank_of_one_with_four_rolls() -> None:
    game = Game.start([Player("ANN")], YAHTC.with_options(rolls=4, bank=1), LoadedDice([2] * 100))
    game.roll()
    game.post(C.TWOS)
    assert game.current.card.bank == 1 and game.rolls_left == 5


# Extra turns (yahtChallenge) and blanks (Acorn) through the model.

def test_the_extra_turn_is_a_choice_and_keeps_the_round() -> None:
    game = Game.start([Player("ANN"), Player("BOB")], YAHTC, LoadedDice([5] * 5 + [1, 2, 3, 4, 6] + [5] * 10))
    game.roll()
    game.post(C.YAHTZEE)
    game.roll()
    assert not game.can_take_extra_turn
    with pytest.raises(NoExtraTurn):
        game.take_extra_turn()
    game.post(C.CHANCE)
    game.roll()
    assert game.can_take_extra_turn and game.current.name == "ANN"
    game.check_posting(C.YAHTZEE)                # offered as the YAHTZEE key
    assert game.preview(C.YAHTZEE).extra_turn
    posting = game.take_extra_turn()
    assert (posting.bonus, game.round, game.current.name, game.turn.rolls, game.turn.extra) == (50, 2, "ANN", 0, 1)
    game.roll()
    game.post(C.FIVES)                           # declined: plain value, no bonus
    assert game.players[0].card.boxes[C.FIVES] == 25 and game.players[0].card.yahtzee_bonus == 50


def test_acorn_must_blank_is_announced_and_scores_zero() -> None:
    game = Game.start([Player("ANN")], ACORN, LoadedDice([4] * 10))
    game.roll()
    game.post(C.YAHTZEE)
    game.roll()
    assert game.must_blank and game.points_for(C.FOURS) == 0
    posting = game.post(C.LARGE_STRAIGHT)
    assert posting.blank and game.players[0].card.blanks == {C.LARGE_STRAIGHT}


# Undo.

def test_undo_takes_back_a_human_posting_until_the_next_roll() -> None:
    game = Game.start([Player("ANN"), Player("BOB")], FIVEOAK.with_options(bank=1),
                      LoadedDice([2, 2, 2, 3, 3] + [1, 2, 3, 4, 6] * 3, SeededDice(2)))
    assert not game.can_undo
    with pytest.raises(CannotUndo, match="no posting"):
        game.undo()
    game.roll()
    before = game_from_dict(json.loads(json.dumps(game_to_dict(game))))
    game.post(C.FULL_HOUSE)
    assert game.can_undo and game.current.name == "BOB"
    game = game_from_dict(json.loads(json.dumps(game_to_dict(game))))   # it survives a save
    assert game.can_undo
    game.undo()
    assert game == before and not game.can_undo
    game.post(C.THREE_OF_A_KIND)
    game.roll()                                  # BOB rolls: ANN's posting stands
    assert not game.can_undo
    with pytest.raises(CannotUndo, match="rolled since"):
        game.undo()


def test_undo_refuses_a_computer_posting_and_a_finished_game() -> None:
    game = Game.start([Player("HAL", "computer"), Player("ANN")], source=LoadedDice([1] * 200))
    game.roll()
    game.post(C.ONES)
    with pytest.raises(CannotUndo, match="computer"):
        game.undo()
    solo = Game.start([Player("ANN")], source=SeededDice(1))
    while not solo.is_over:
        solo.roll()
        solo.post(solo.legal_boxes()[0])
    assert not solo.can_undo
    with pytest.raises(CannotUndo, match="over"):
        solo.undo()


def upper_column_race() -> Game:
    """A race game one posting short of clearing its upper column (five of each face)."""
    game = Game.start([Player("ANN")], source=LoadedDice([f for f in range(1, 7) for _ in range(5)],
                                                         SeededDice(4)), race_target=10_000)
    for box in UPPER[:5]:
        game.roll()
        game.post(box)
    game.roll()
    return game


def test_undo_rewinds_the_seeded_dice_and_the_race_columns() -> None:
    game = upper_column_race()
    posting = game.post(C.SIXES)
    assert posting.reset == ("upper",) and game.players[0].card.banked == 105 + 35
    game.undo()
    card = game.players[0].card
    assert game.turn.dice == (6,) * 5 and card.banked == 0 and len(card.boxes) == 5
    game.toggle(0)
    other = upper_column_race()
    other.toggle(0)
    assert other.roll() == game.roll()           # the same dice as if nothing had been posted


def test_an_extra_turn_and_a_blank_can_be_taken_back() -> None:
    game = Game.start([Player("ANN")], YAHTC, LoadedDice([6] * 10))
    game.roll()
    game.post(C.YAHTZEE)
    game.roll()
    game.take_extra_turn()
    game.undo()
    assert game.players[0].card.yahtzee_bonus == 0 and game.can_take_extra_turn
    acorn = Game.start([Player("ANN")], ACORN, LoadedDice([6] * 10))
    acorn.roll()
    acorn.post(C.YAHTZEE)
    acorn.roll()
    acorn.post(C.CHANCE)
    acorn.undo()
    assert acorn.players[0].card.blanks == set() and acorn.must_blank


# JSON round trip of every new field.

def biased_faces(rng: random.Random, count: int) -> list[int]:
    """Faces rich in five alike, so that extra Yahtzees come up often."""
    return [6 if rng.random() < 0.7 else rng.randint(1, 6) for _ in range(count)]


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["hasbro", "yahtc", "acorn", "fiveoak"]),
       st.sampled_from([3, 4]), st.integers(0, 3), st.sampled_from([None, 150, 400]),
       st.integers(1, 3), st.integers(0, 120))
def test_variant_states_survive_the_json_round_trip(
        seed: int, name: str, rolls: Any, bank: Any, target: Any, players: int, steps: int) -> None:
    rng = random.Random(seed)
    rules = rules_named(name).with_options(rolls=rolls, bank=bank)
    game = Game.start([Player(f"P{i}", "computer" if i == 2 else "human") for i in range(players)],
                      rules, LoadedDice(biased_faces(rng, 400), SeededDice(seed)), race_target=target)
    for _ in range(steps):
        if game.is_over:
            break
        action = rng.random()
        if game.can_undo and action < 0.1:
            game.undo()
        elif not game.turn.has_rolled or (action < 0.4 and game.rolls_left and any(game.turn.marked)):
            game.roll()
        elif action < 0.6 and game.rolls_left:
            game.toggle(rng.randrange(5))
        elif game.can_take_extra_turn and action < 0.9:
            game.take_extra_turn()
        else:
            game.post(rng.choice(game.legal_boxes()))
    restored = game_from_dict(json.loads(json.dumps(game_to_dict(game))))
    assert restored == game
    assert restored.can_undo == game.can_undo
    for player in game.players:
        card = player.card
        assert card.total == (sum(card.boxes.values()) + card.upper_bonus + card.yahtzee_bonus
                              + card.roll_bonus + card.banked)
        assert 0 <= card.bank <= bank


def saved_variant_game() -> dict[str, Any]:
    game = Game.start([Player("ANN"), Player("BOB")], ACORN.with_options(rolls=4, bank=2),
                      LoadedDice([3] * 10 + [1, 2, 3, 4, 5] * 4, SeededDice(1)), race_target=300)
    for box in (C.YAHTZEE, C.CHANCE):
        game.roll()
        game.post(box)
    game.roll()
    game.post(C.ONES)                            # ANN blanks ONES; the posting may be taken back
    return json.loads(json.dumps(game_to_dict(game)))


@pytest.mark.parametrize("damage", [
    lambda d: d["rules"].update(rolls_per_turn=7),
    lambda d: d["rules"].update(dice_bank=-1),
    lambda d: d["rules"].update(joker="forced"),            # not acorn's own
    lambda d: d["players"][0].update(bank=3),
    lambda d: d["players"][0].update(bank="1"),
    lambda d: d["players"][0].update(roll_bonus=10),         # acorn has no roll bonus
    lambda d: d["players"][0].update(blanks=["twos"]),       # twos not filled
    lambda d: d["players"][0].update(blanks=["ones", "ones"]),
    lambda d: d["players"][0].update(blanks="ones"),
    lambda d: d["players"][0].update(banked=-5),
    lambda d: d["players"][0].update(yahtzee_bonus=-100),
    lambda d: d.update(race_target=0),
    lambda d: d.update(race_target="300"),
    lambda d: d["turn"].update(extra=1),                    # acorn gives no extra turns
    lambda d: d["undo"].update(seat=5),
    lambda d: d["undo"]["card"].update(bank=9),
    lambda d: d["undo"]["turn"].update(rolls=0, dice=[0] * 5),
    lambda d: d["undo"].update(dice={"kind": "magic"}),
    lambda d: d["players"][1]["boxes"].update({b.value: 1 for b in LOWER}),  # a column to clear
])
def test_damaged_variant_data_is_refused_with_bad_state(damage: Callable) -> None:
    data = saved_variant_game()
    game_from_dict(json.loads(json.dumps(data)))             # undamaged, it loads
    damage(data)
    with pytest.raises(DamagedSave):
        game_from_dict(data)


def test_a_damaged_roll_bonus_is_refused_under_fiveoak_only_in_range() -> None:
    game = Game.start([Player("ANN")], FIVEOAK, LoadedDice([2] * 5))
    game.roll()
    game.post(C.TWOS)
    data = json.loads(json.dumps(game_to_dict(game)))
    assert data["players"][0]["roll_bonus"] == 10
    data["players"][0]["roll_bonus"] = -10
    with pytest.raises(DamagedSave):
        game_from_dict(data)


def test_older_saves_without_the_new_fields_still_load() -> None:
    game = Game.start([Player("ANN")], source=LoadedDice([1, 2, 3, 4, 5]))
    game.roll()
    data = json.loads(json.dumps(game_to_dict(game)))
    for key in ("race_target", "undo"):
        del data[key]
    for key in ("roll_bonus", "blanks", "bank", "banked"):
        del data["players"][0][key]
    del data["turn"]["extra"]
    assert game_from_dict(data) == game
    session = session_to_dict(Session([Player("ANN")]))
    del session["match"], session["match_start"]
    assert session_from_dict(json.loads(json.dumps(session))).match_scores == []


def test_variant_records_pass_the_history_check() -> None:
    from yahtzee.saves.records import InvalidRecord, check_record
    games = [scripted_game(YAHTC, YAHTC_GAME)[0], scripted_game(ACORN, ACORN_GAME)[0],
             scripted_game(FIVEOAK, FIVEOAK_GAME)[0],
             scripted_game(HASBRO, RACE_ANN, RACE_BOB, names=("ANN", "BOB"), race_target=140)[0]]
    for game in games:
        record = any_json(record_of(FinishedGame.of(game, "2026-11-30T10:00:00")))
        check_record(record)
        for key, wrong in (("roll_bonus", 3), ("banked", -1), ("blanks", ["full_house"])):
            damaged = json.loads(json.dumps(record))
            damaged["players"][0][key] = wrong
            with pytest.raises(InvalidRecord):
                check_record(damaged)


# A race ends with boxes never posted, or cleared with their column: they stay open (null in
# the record), never 0. By hand: the sixes race to 60 is YAHTZEE 50, then SIXES 30 and the
# +100 bonus (180); in RACE_ANN/RACE_BOB, ANN keeps only FULL HOUSE 25 (119 banked, 144) and
# BOB's last Yahtzee clears his lower column (168 banked, every box open).
SIXES_RACE: list[Turn] = [([6] * 5, [], "y"), ([6] * 5, [], "6")]


@pytest.mark.parametrize("scripts, names, target, posted", [
    ((SIXES_RACE,), ("ANN",), 60, [{"yahtzee": 50, "sixes": 30}]),
    ((RACE_ANN, RACE_BOB), ("ANN", "BOB"), 140, [{"full_house": 25}, {}]),
])
def test_a_race_ends_with_its_unposted_boxes_open_in_the_result_and_null_in_the_record(
        scripts: tuple[list[tuple[list[int], list[Any], str]], ...], names: tuple[str, ...], target: int,
        posted: list[dict[str, int]]) -> None:
    game, _ = scripted_game(HASBRO, *scripts, names=names, race_target=target)
    assert game.is_over
    finished = FinishedGame.of(game, "2026-11-30T10:00:00")
    record = any_json(record_of(finished))
    assert record["version"] == 2
    for player, boxes, result in zip(record["players"], posted, finished.players):
        assert player["scores"] == {box.value: boxes.get(box.value) for box in Category}
        assert [result.points_in(box) for box in Category] == [boxes.get(box.value) for box in Category]
    assert finished_game(json.loads(json.dumps(record))) == finished
    for original, shown in zip(game.players, finished.game().players):
        assert shown.card.boxes == original.card.boxes and shown.card.total == original.card.total


def test_a_version_1_race_record_is_read_as_it_is_with_its_zeros() -> None:
    game, _ = scripted_game(HASBRO, SIXES_RACE, race_target=60)
    record = json.loads(json.dumps(record_of(FinishedGame.of(game, "2026-11-30T10:00:00"))))
    record["version"] = 1
    record["players"][0]["scores"] = {box: points or 0 for box, points in record["players"][0]["scores"].items()}
    old = finished_game(record)
    assert [old.players[0].points_in(box) for box in (C.ONES, C.SIXES, C.YAHTZEE)] == [0, 30, 50]
    assert old.players[0].total == 180 and any_json(record_of(old))["players"][0]["scores"]["ones"] == 0


@pytest.mark.parametrize("version, race_target, valid", [
    (2, 60, True),                # a race: an open box is null
    (2, None, False),             # a whole game ends with every box filled
    (1, 60, False),               # version 1 held a number in every box
])
def test_a_null_box_is_valid_only_in_a_race_record_of_version_2(
        version: int, race_target: Optional[int], valid: bool) -> None:
    from yahtzee.saves.records import InvalidRecord, check_record
    record = {"version": version, "finished": "2026-11-30T10:00:00", "rules": "hasbro", "seed": None,
              "players": [{"name": "ANN", "kind": "human",
                           "scores": {**dict.fromkeys((box.value for box in Category), None), "chance": 20},
                           "upper_bonus": 0, "yahtzee_bonus": 0, "total": 20}], "winners": ["ANN"]}
    if race_target is not None:
        record["race_target"] = race_target
    if valid:
        check_record(record)
    else:
        with pytest.raises(InvalidRecord):
            check_record(record)

