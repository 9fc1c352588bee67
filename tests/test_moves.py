"""The move log: every decision of every player kept by the model, in the autosave and in each
history record; older saves and records without it still read everywhere."""
import json
import random
from typing import Callable, Optional

import pytest
from helpers import any_json, there

from yahtzee.model.dice import LoadedDice, SeededDice
from yahtzee.model.game import Game, Player, PlayerKind
from yahtzee.model.match import parse_match
from yahtzee.model.moves import Move, MoveKind, moves_from_json, moves_to_json
from yahtzee.model.outcome import FinishedGame
from yahtzee.model.rules import ACORN, HASBRO, YAHTC, Rules
from yahtzee.model.scoring import Category
from yahtzee.model.session import Session
from yahtzee.present import render
from yahtzee.present.stats import stats_lines
from yahtzee.saves.codec import game_from_dict, game_to_dict, session_from_dict, session_to_dict
from yahtzee.saves.records import InvalidRecord, check_record, finished_game, record_of
from yahtzee.saves.strict import DamagedSave

FINISHED = "2026-11-30T10:00:00+00:00"


def loaded(
        faces: list[int], names: tuple[str, ...] = ("ANN",), rules: Optional[Rules] = None,
        kinds: Optional[dict[str, PlayerKind]] = None) -> Game:
    players = [Player(n, (kinds or {}).get(n, "human")) for n in names]
    return Game.start(players, rules or HASBRO, source=LoadedDice(faces, SeededDice(0)))


def random_game(seed: int = 2, names: tuple[str, str] = ("ANN", "BOB")) -> Game:
    """A finished game of random legal choices, rerolls included."""
    game = Game.start([Player(n) for n in names], source=SeededDice(seed))
    rng = random.Random(seed)
    while not game.is_over:
        game.roll()
        while game.rolls_left and rng.random() < 0.6:
            for die in rng.sample(range(5), rng.randint(1, 5)):
                game.toggle(die)
            game.roll()
        game.post(rng.choice(game.legal_boxes()))
    return game


def test_a_roll_a_reroll_and_a_posting_are_logged_with_seat_round_and_dice() -> None:
    game = loaded([2, 2, 3, 4, 6, 1, 5, 6, 6, 6, 6, 6], names=("ANN", "BOB"))
    game.roll()
    game.toggle(0)
    game.toggle(4)
    game.roll()
    game.post(Category.SMALL_STRAIGHT)
    game.roll()
    assert game.moves == [
        Move(0, 1, MoveKind.ROLL, (2, 2, 3, 4, 6), (0, 1, 2, 3, 4)),
        Move(0, 1, MoveKind.ROLL, (1, 2, 3, 4, 5), (0, 4)),
        Move(0, 1, MoveKind.POST, (1, 2, 3, 4, 5), Category.SMALL_STRAIGHT),
        Move(1, 1, MoveKind.ROLL, (6, 6, 6, 6, 6), (0, 1, 2, 3, 4)),
    ]


def test_an_extra_turn_and_a_blank_are_logged_where_the_rules_have_them() -> None:
    game = loaded([6] * 15, rules=YAHTC)
    game.roll()
    game.post(Category.YAHTZEE)
    game.roll()
    game.post(Category.YAHTZEE)  # another Yahtzee: its bonus and another turn
    assert [m.kind for m in there(game.moves)] == ["roll", "post", "roll", "extra"]
    assert there(game.moves)[-1].detail is None
    game = loaded([5] * 10, rules=ACORN)
    game.roll()
    game.post(Category.YAHTZEE)
    game.roll()
    game.post(Category.ONES)
    assert there(game.moves)[-1] == Move(0, 2, MoveKind.BLANK, (5,) * 5, Category.ONES)


def test_an_undo_takes_its_posting_out_of_the_log_and_the_turn_goes_on() -> None:
    game = loaded([1, 2, 3, 4, 5], names=("ANN", "BOB"))
    game.roll()
    game.post(Category.CHANCE)
    game.undo()
    assert [m.kind for m in there(game.moves)] == ["roll"]
    game.post(Category.LARGE_STRAIGHT)
    assert there(game.moves)[-1].detail is Category.LARGE_STRAIGHT and len(there(game.moves)) == 2


def test_every_decision_of_every_player_is_logged_in_a_whole_game() -> None:
    game = random_game()
    postings = [m for m in there(game.moves) if m.is_posting]
    assert [(m.seat, m.round) for m in postings] == [(s, r) for r in range(1, 14) for s in (0, 1)]
    assert sum(m.kind == "roll" for m in there(game.moves)) >= 26


def test_the_log_round_trips_through_the_autosave_and_the_record() -> None:
    game = random_game()
    data = json.loads(json.dumps(game_to_dict(game)))
    assert game_from_dict(data).moves == game.moves
    record = json.loads(json.dumps(record_of(FinishedGame.of(game, FINISHED))))
    assert list(there(finished_game(record).moves)) == game.moves
    assert moves_from_json(moves_to_json(game.moves), 2, 13) == game.moves


def test_a_game_resumed_mid_turn_keeps_its_whole_log() -> None:
    game = loaded([3, 3, 3, 1, 2, 3, 3], names=("ANN", "BOB"))
    game.roll()
    game.toggle(3)
    game.toggle(4)
    resumed = game_from_dict(json.loads(json.dumps(game_to_dict(game))))
    resumed.source = game.source
    resumed.roll()
    resumed.post(Category.THREES)
    assert [m.kind for m in there(resumed.moves)] == ["roll", "roll", "post"]
    assert there(resumed.moves)[1] == Move(0, 1, MoveKind.ROLL, (3, 3, 3, 3, 3), (3, 4))


def test_an_older_save_without_a_log_loads_and_its_record_has_no_moves() -> None:
    game = random_game()
    data = game_to_dict(game)
    del data["moves"]
    older = game_from_dict(data)
    assert older.moves is None
    record = any_json(record_of(FinishedGame.of(older, FINISHED)))
    assert "moves" not in record and finished_game(record).moves is None


DAMAGES = [
    lambda m: m.append("roll"),
    lambda m: m.append([0, 1, "roll", "12345"]),
    lambda m: m.__setitem__(0, [7, 1, "roll", "12345", "01234"]),
    lambda m: m.__setitem__(0, [0, 99, "roll", "12345", "01234"]),
    lambda m: m.__setitem__(0, [0, 1, "shake", "12345", "01234"]),
    lambda m: m.__setitem__(0, [0, 1, ["roll"], "12345", "01234"]),   # a kind that is not even text
    lambda m: m.__setitem__(0, [0, 1, "roll", "12347", "01234"]),
    lambda m: m.__setitem__(0, [0, 1, "roll", "1234", "01234"]),
    lambda m: m.__setitem__(0, [0, 1, "roll", "12345", "00"]),
    lambda m: m.__setitem__(0, [0, 1, "roll", "12345", "9"]),
    lambda m: m.__setitem__(0, [0, 1, "roll", "12345", ""]),
    lambda m: m.__setitem__(0, [0, 1, "post", "12345", "sevens"]),
    lambda m: m.__setitem__(0, [0, 1, "extra", "66666", "chance"]),
    lambda m: m.__setitem__(0, [0, 1, "post", 12345, "chance"]),
    lambda m: m.__setitem__(0, [0, True, "post", "12345", "chance"]),
    lambda m: m.reverse(),
]


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_log_is_a_damaged_save_and_an_invalid_record(damage: Callable) -> None:
    game = random_game()
    data = json.loads(json.dumps(game_to_dict(game)))
    damage(data["moves"])
    with pytest.raises(DamagedSave):
        game_from_dict(data)
    record = json.loads(json.dumps(record_of(FinishedGame.of(game, FINISHED))))
    damage(record["moves"])
    with pytest.raises(InvalidRecord):
        check_record(record)


def test_a_log_that_is_not_a_list_is_a_damaged_save() -> None:
    data = game_to_dict(random_game())
    for bad in ("moves", {"a": 1}, 3):
        with pytest.raises(DamagedSave):
            game_from_dict({**data, "moves": bad})


def test_an_old_record_without_moves_still_reads_everywhere() -> None:
    session = Session([Player("ANN"), Player("BOB")], source=SeededDice(4))
    new = random_game(4)
    old = any_json(record_of(FinishedGame.of(new, FINISHED)))
    del old["moves"]
    games = [finished_game(old), finished_game(record_of(FinishedGame.of(new, FINISHED)))]
    assert games[0].moves is None
    assert any("ANN" in line for line in stats_lines(games))
    assert any(line.startswith("ANN") or "ANN" in line for line in render.recap_lines(games))
    match = parse_match("challenge 3")
    assert match.standings_lines([game.totals for game in games], None)
    assert games[0].game().players[0].card.total == old["players"][0]["total"]
    session.results = games
    assert session_from_dict(json.loads(json.dumps(session_to_dict(session)))).results == games
