"""Simulation: games played side by side as arrays are real games of the computer players."""
import dataclasses
import json
import math
from pathlib import Path
from typing import Any, Callable, Union

import numpy as np
import pytest
from helpers import run_game
from numpy import ndarray

from yahtzee.model import scoring
from yahtzee.model.dice import LoadedDice
from yahtzee.model.game import Game, Player
from yahtzee.model.rules import ACORN, FIVEOAK, FREE_JOKER, HASBRO, NO_BONUS, YAHTC, Rules
from yahtzee.model.scorecard import Scorecard
from yahtzee.model.scoring import Category
from yahtzee.strategy.exact import sidebyside
from yahtzee.strategy.exact.dicemath import ROLLS
from yahtzee.strategy.exact.sidebyside import play_games, roll_numbers
from yahtzee.strategy.headless import simulate as simulation
from yahtzee.strategy.headless.simulate import play_turn, simulate
from yahtzee.strategy.odds.computers import computer_player
from yahtzee.strategy.play.players import OBJECTIVES
from yahtzee.strategy.storage import cache

pytestmark = pytest.mark.slow(9)

HASBRO_START = 254.5877287
YAHTC_START = 248.7122399


@pytest.fixture(scope="session")
def loader(shared_table_cache: Path) -> Callable:
    """Tables kept in the test run's shared cache folder, so each is built once."""
    return cache.table_loader(shared_table_cache)


class RecordedDice:
    """Dice for a batch that remember every face each game used, to replay it one by one;
    `five_alike` of the first rolls show five alike, to reach the extra-Yahtzee rules."""

    def __init__(self, count: int, seed: int, five_alike: float = 0.0) -> None:
        self.rng, self.five_alike = np.random.default_rng(seed), five_alike
        self.used: list[list[Any]] = [[] for _ in range(count)]

    def roll(self, games: ndarray, counts: ndarray) -> ndarray:
        faces = self.rng.integers(1, 7, size=(len(games), 5))
        alike = (counts == 5) & (self.rng.random(len(games)) < self.five_alike)
        faces[alike] = faces[alike, :1]
        for game, row, count in zip(games, faces, counts):
            self.used[game] += row[:count].tolist()
        return faces


def replayed(rules: Rules, mood: str, loader: Callable, faces: list[int]) -> Scorecard:
    """A game of the one-by-one computer player on loaded faces, played to the end."""
    dice = LoadedDice(faces)
    game = Game.start([Player("CPU", "computer")], rules, dice)
    player = computer_player(mood, rules, loader)
    while not game.is_over:
        play_turn(game, player)
    assert dice.faces == [], "the one-by-one game rolled fewer dice"
    return game.players[0].card


@pytest.mark.parametrize("rules, mood, five_alike", [
    (HASBRO, "thinker", 0.0), (HASBRO, "thinker", 0.4), (HASBRO, "norisk", 0.0), (HASBRO, "gambler", 0.2),
    (HASBRO, "yclover", 0.0), (FREE_JOKER, "thinker", 0.4), (NO_BONUS, "thinker", 0.4),
    (YAHTC, "thinker", 0.4), (ACORN, "thinker", 0.4), (FIVEOAK, "thinker", 0.4),
], ids=lambda value: getattr(value, "name", str(value)))
def test_games_side_by_side_are_the_games_the_player_plays_one_by_one(
        loader: Callable, rules: Rules, mood: str, five_alike: float) -> None:
    count = 12
    dice = RecordedDice(count, seed=len(mood) + int(10 * five_alike), five_alike=five_alike)
    cards = play_games(count, [loader(rules, OBJECTIVES[mood])], np.random.default_rng(0), dice)
    for game in range(count):
        card = replayed(rules, mood, loader, dice.used[game])
        assert {box: int(cards.points[game, bit]) for bit, box in enumerate(Category)} == card.boxes
        assert (cards.yahtzee_bonus[game], cards.roll_bonus[game]) == (card.yahtzee_bonus, card.roll_bonus)
        assert cards.totals[game] == card.total


@pytest.mark.parametrize("rules", [HASBRO, NO_BONUS, YAHTC], ids=lambda r: r.name)
def test_one_turn_worked_out_for_the_states_with_the_same_future_plays_as_each_states_own(
        loader: Callable, rules: Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    shared = play_games(300, [loader(rules)], np.random.default_rng(5))
    monkeypatch.setattr(sidebyside, "turns_worked_out", lambda states: (states, np.arange(len(states))))
    each_own = play_games(300, [loader(rules)], np.random.default_rng(5))
    assert np.array_equal(shared.points, each_own.points) and np.array_equal(shared.totals, each_own.totals)


@pytest.mark.parametrize("rules", [HASBRO, YAHTC, ACORN, FIVEOAK], ids=lambda r: r.name)
def test_every_card_of_a_batch_obeys_the_rules(loader: Callable, rules: Rules) -> None:
    cards = play_games(400, [loader(rules)], np.random.default_rng(3))
    assert cards.is_full.all()
    possible = {box: {scoring.score(box, roll) for roll in ROLLS} | {0} for box in Category}
    for bit, box in enumerate(Category):
        assert set(cards.points[:, bit].tolist()) <= possible[box], box
    upper = cards.points[:, :6].sum(axis=1)
    assert (cards.upper_bonus == np.where(upper >= 63, 35, 0)).all()
    assert (cards.totals == cards.points.sum(axis=1) + cards.upper_bonus + cards.yahtzee_bonus
            + cards.roll_bonus).all()
    assert (cards.yahtzee_bonus[cards.points[:, 11] != 50] == 0).all()
    if not rules.roll_bonus:
        assert (cards.roll_bonus == 0).all()


def test_dice_in_any_order_are_the_same_roll() -> None:
    faces = np.array([[6, 1, 3, 1, 2], [1, 1, 2, 3, 6], [4, 4, 4, 4, 4]])
    assert [ROLLS[r] for r in roll_numbers(faces)] == [(1, 1, 2, 3, 6), (1, 1, 2, 3, 6), (4,) * 5]


def test_the_thinker_averages_the_tables_start_value(shared_table_cache: Path) -> None:
    stats = simulate(20_000, "thinker", seed=11, cache_dir=shared_table_cache)
    assert stats.games == 20_000
    assert abs(stats.mean - HASBRO_START) < 3 * stats.stdev / math.sqrt(stats.games)


def test_a_seed_gives_the_same_figures_on_any_number_of_cores(shared_table_cache: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulation, "BATCH", 200)
    figures = [dataclasses.replace(simulate(600, "nowhere", seed=4, cache_dir=shared_table_cache, workers=workers),
                                   seconds=0.0) for workers in (1, 2)]
    assert figures[0] == figures[1]
    other = simulate(600, "nowhere", seed=5, cache_dir=shared_table_cache)
    assert other.mean != figures[0].mean


def test_progress_is_told_batch_by_batch(shared_table_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulation, "BATCH", 100)
    told = []
    simulate(250, "thinker", seed=1, cache_dir=shared_table_cache, progress=lambda *done: told.append(done))
    assert told == [(100, 250), (200, 250), (250, 250)]


def run_simulation(*args: Any) -> dict[str, Union[int, float]]:
    """The figures --simulate prints as JSON, from a game process of its own."""
    done = run_game(["--simulate", *args, "--json"], timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_rules_option_is_played() -> None:
    hasbro = run_simulation("600", "--seed", "2")
    yahtc = run_simulation("600", "--seed", "2", "--rules", "yahtc")
    assert yahtc["mean"] != hasbro["mean"]
    assert abs(yahtc["mean"] - YAHTC_START) < 3 * yahtc["stdev"] / math.sqrt(600)


def test_unknown_rules_are_refused_in_one_line() -> None:
    done = run_game(["--simulate", "5", "--rules", "poker"])
    assert done.returncode == 2 and done.stdout == "" and done.stderr.strip().count("\n") == 0
    assert "unknown rules 'poker'" in done.stderr


def test_nowhere_is_reproducible_from_the_command_line() -> None:
    first, again = (run_simulation("100", "--player", "nowhere", "--seed", "9") for _ in range(2))
    assert {k: v for k, v in first.items() if k != "seconds"} == {k: v for k, v in again.items() if k != "seconds"}
