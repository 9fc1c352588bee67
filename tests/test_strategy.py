"""The strategy engine: exact start values, golden positions, the advisor agreeing with the
solver, computer players that play legally and differently, and a cache that trusts nothing."""
import dataclasses
import math
import random
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Union

import numpy as np
import pytest
from helpers import read_table

from yahtzee.model import scoring
from yahtzee.model.choices import Post, Reroll
from yahtzee.model.dice import LoadedDice, RandomState, SeededDice
from yahtzee.model.game import Game, Player
from yahtzee.model.moods import MOODS
from yahtzee.model.rules import FREE_JOKER, HASBRO, NO_BONUS, Rules
from yahtzee.model.scoring import Category
from yahtzee.reports import simulation_lines
from yahtzee.strategy.exact import stages, statespace
from yahtzee.strategy.exact.dicemath import ROLL_PROBABILITY, ROLLS, over_rolls
from yahtzee.strategy.exact.levels import LevelSolver
from yahtzee.strategy.exact.objective import EXPECTED_SCORE, Objective
from yahtzee.strategy.exact.position import card_state, card_total
from yahtzee.strategy.exact.progress import progress_bar
from yahtzee.strategy.exact.rulearrays import FULL_CARD, check_tables
from yahtzee.strategy.exact.solver import TurnSolver
from yahtzee.strategy.exact.statespace import States, empty_values
from yahtzee.strategy.exact.table import StrategyTable
from yahtzee.strategy.headless.simulate import simulate
from yahtzee.strategy.odds.computers import computer_player
from yahtzee.strategy.odds.rival import RivalPlayer
from yahtzee.strategy.play.advisor import advise, advise_position, choice_cost, cost_of_post, cost_of_reroll
from yahtzee.strategy.play.players import OBJECTIVES, ComputerPlayer
from yahtzee.strategy.storage import cache

pytestmark = pytest.mark.slow(10)

C = Category
START_VALUES = {"hasbro": 254.5877287, "freejoker": 254.5896095, "nobonus": 245.8707745}
ALL_RULES = {rules.name: rules for rules in (HASBRO, FREE_JOKER, NO_BONUS)}


@pytest.fixture(scope="session")
def cache_dir(shared_table_cache: Path) -> Path:
    """The test run's shared table folder (tests/conftest.py), so each table is built once."""
    return shared_table_cache


@pytest.fixture(scope="session")
def loader(cache_dir: Path) -> Callable:
    return cache.table_loader(cache_dir)


@pytest.fixture(scope="session")
def hasbro(loader: Callable) -> StrategyTable:
    return loader(HASBRO)


# -- the solver ----------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(START_VALUES))
def test_start_values_match_the_table(loader: Callable, name: str) -> None:
    assert loader(ALL_RULES[name]).start_value == pytest.approx(START_VALUES[name], abs=1e-6)


@pytest.mark.parametrize("name", sorted(START_VALUES))
def test_solver_tables_agree_with_scoring_on_many_cards(name: str) -> None:
    rules = ALL_RULES[name]
    check_tables(TurnSolver(rules).tables, rules, masks=range(0, FULL_CARD, 211), whole=FULL_CARD)


def test_the_last_turn_with_only_chance_open_is_worth_70_thirds() -> None:
    # Each die on its own: the last reroll keeps 4-6 (worth 4.25), the one before keeps 5-6,
    # so a die is worth 11/6 + 4/6 * 4.25 = 14/3 and five dice 70/3.
    values = empty_values()
    state = States(*(np.array([v]) for v in (FULL_CARD ^ (1 << 12), 0, 0)))
    assert TurnSolver(HASBRO).turn_start_values(values, state)[0] == pytest.approx(70 / 3, abs=1e-12)


def test_the_average_over_rolls_adds_them_in_roll_order_to_the_last_bit() -> None:
    # A fixed order of sums gives a table the same bits on every processor; a BLAS product's
    # order is its kernel's, and the measured rests follow each near-tie the table breaks.
    rows = np.random.default_rng(5).random((len(ROLLS), 7)) * 300
    in_order = [0.0] * 7
    for chance, row in zip(ROLL_PROBABILITY.tolist(), rows.tolist()):
        in_order = [total + chance * value for total, value in zip(in_order, row)]
    assert over_rolls(rows).tolist() == in_order


def test_a_fourth_roll_is_worth_something_and_never_hurts(hasbro: StrategyTable) -> None:
    four = TurnSolver(dataclasses.replace(HASBRO, name="four", rolls_per_turn=4))
    masks = np.array([FULL_CARD ^ (1 << 12), FULL_CARD ^ (1 << 11), 0b1111111000000, 0])
    states = States(masks, np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64))
    three = TurnSolver(HASBRO).turn_start_values(hasbro.values, states)
    assert (four.turn_start_values(hasbro.values, states) > three + 0.1).all()


# -- the advisor ---------------------------------------------------------------------

def test_empty_card_straight_with_two_rerolls_posts_the_large_straight(hasbro: StrategyTable) -> None:
    options = advise_position(hasbro, {}, 0, (1, 2, 3, 4, 5), 2)
    best = options[0]
    assert best.best and best.kind == "box" and best.box is C.LARGE_STRAIGHT and best.points == 40
    assert sum(option.best for option in options) == 1
    assert [o.value for o in options] == sorted((o.value for o in options), reverse=True)
    assert {o.kind for o in options} == {"box", "keep"}


def test_an_extra_yahtzee_of_fours_goes_in_fours_for_20_plus_100(hasbro: StrategyTable) -> None:
    options = advise_position(hasbro, {C.YAHTZEE: 50}, 0, (4, 4, 4, 4, 4), 0)
    assert [(o.kind, o.box, o.points, o.yahtzee_bonus, o.gain) for o in options] == [("box", C.FOURS, 20, 100, 120)]
    assert options[0].best
    later = hasbro.value(1 << 11 | 1 << 3, 20, 1)
    assert options[0].value == pytest.approx(50 + 120 + later)


def test_keep_options_are_distinct_and_reroll_at_least_one_die(hasbro: StrategyTable) -> None:
    options = advise_position(hasbro, {C.CHANCE: 20}, 0, (6, 6, 2, 6, 2), 1)
    keeps = [o for o in options if o.kind == "keep"]
    assert len({o.kept for o in keeps}) == len(keeps) == 11   # (4 sixes kept 0..3) x (2 twos 0..2) - 1
    for option in keeps:
        assert len(option.reroll) == 5 and any(option.reroll)
        assert sorted(d for d, r in zip((6, 6, 2, 6, 2), option.reroll) if not r) == list(option.kept)


@pytest.mark.parametrize("width", [1, 5, 16])
def test_a_few_states_keeps_chosen_at_once_are_those_chosen_a_keep_at_a_time(hasbro: StrategyTable, width: int,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(width)
    for _ in range(5):
        states = States(rng.integers(0, FULL_CARD, width), rng.integers(0, 64, width), rng.integers(0, 2, width))
        at_once = hasbro.engine.turn_plans(hasbro.values, states, 3)
        monkeypatch.setattr(stages, "GATHERED_STATES", 0)
        one_at_a_time = hasbro.engine.turn_plans(hasbro.values, states, 3)
        monkeypatch.undo()
        assert all(np.array_equal(a, b) for a, b in zip(at_once, one_at_a_time))
        assert (at_once[1] >= 0).any() and (at_once[1] < 0).any()  # keeps and postings both chosen


@pytest.mark.parametrize("width", [1, 40])
def test_the_keeps_read_from_a_states_plan_are_those_chosen_roll_by_roll(hasbro: StrategyTable, width: int,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(width)
    states = States(rng.integers(0, FULL_CARD, width), rng.integers(0, 64, width), rng.integers(0, 2, width))
    turn = hasbro.engine.turn_stages(hasbro.values, states)
    rolls, columns = rng.integers(0, len(ROLLS), 20 * width), rng.integers(0, width, 20 * width)
    for stage in range(2):
        planned = turn.choose_keeps(stage, rolls, columns)
        monkeypatch.setattr(stages, "PLANNED_ROLLS", len(rolls) + 1)
        assert np.array_equal(planned, turn.choose_keeps(stage, rolls, columns))
        monkeypatch.undo()


def random_card(rng: random.Random, filled: int) -> dict[Category, int]:
    """A card with `filled` boxes holding what random dice would score."""
    boxes = {box: scoring.score(box, [rng.randint(1, 6) for _ in range(5)])
             for box in rng.sample(list(Category), filled)}
    return boxes


@pytest.mark.parametrize("seed", range(4))
def test_the_advisor_averaged_over_the_first_roll_is_the_solver_value(hasbro: StrategyTable, seed: int) -> None:
    rng = random.Random(seed)
    boxes = random_card(rng, rng.randint(0, 10))
    best = [advise_position(hasbro, boxes, 0, roll, 2)[0].value for roll in ROLLS]
    expected_final = card_total(boxes, 0) + hasbro.value(*card_state(boxes))
    assert float(np.dot(ROLL_PROBABILITY, best)) == pytest.approx(expected_final, abs=1e-9)


def test_what_a_choice_costs(hasbro: StrategyTable) -> None:
    dice = (1, 2, 3, 4, 5)
    options = advise_position(hasbro, {}, 0, dice, 2)
    assert choice_cost(options, options[0]) == 0
    assert all(choice_cost(options, option) >= 0 for option in options)
    chance = cost_of_post(options, C.CHANCE)
    assert chance == pytest.approx(options[0].value - next(o.value for o in options if o.box is C.CHANCE))
    assert chance > 5
    assert cost_of_reroll(options, dice, (True, False, False, False, False)) > 0


def test_advise_reads_the_game(hasbro: StrategyTable) -> None:
    game = Game.start([Player("ANN")], HASBRO, LoadedDice([1, 2, 3, 4, 5]))
    game.roll()
    assert advise(hasbro, game)[0].box is C.LARGE_STRAIGHT


# -- computer players ------------------------------------------------------------------

class FiveAlikeOften:
    """Dice that show five alike on most first rolls, to exercise the joker rules."""

    seed = None
    state = RandomState()  # nothing to keep: a game of them is never saved

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def start_turn(self, game: int, round_: int, seat: int) -> None:
        self.first = True

    def roll(self, count: int) -> list[int]:
        if self.first and count == 5 and self.rng.random() < 0.5:
            self.first = False
            return [self.rng.randint(1, 6)] * 5
        self.first = False
        return [self.rng.randint(1, 6) for _ in range(count)]


def finish_game(game: Game, player: Union[ComputerPlayer, RivalPlayer]) -> Game:
    """Let the computer play the game out, checking every action it takes."""
    while not game.is_over:
        game.roll()
        while True:
            action = player.next_action(game)
            if isinstance(action, Post):
                assert action.box in game.legal_boxes()
                game.post(action.box)
                break
            assert isinstance(action, Reroll) and game.rolls_left > 0
            assert len(action.marked) == 5 and any(action.marked)
            for die, marked in enumerate(action.marked):
                if marked:
                    game.toggle(die)
            game.roll()
    return game


def start_midway(rules: Rules, seed: int, source: Union[FiveAlikeOften, SeededDice]) -> Game:
    """A game a few turns in, played so far by random legal choices."""
    rng = random.Random(seed)
    game = Game.start([Player("CPU", "computer")], rules, source)
    for _ in range(rng.randint(0, 10)):
        game.roll()
        game.post(rng.choice(game.legal_boxes()))
    return game


@pytest.mark.parametrize("mood", MOODS)
def test_every_mood_finishes_games_from_random_positions_legally(loader: Callable, mood: str) -> None:
    player = computer_player(mood, HASBRO, loader, random.Random(1))
    for seed in range(12):
        source = FiveAlikeOften(seed) if seed % 2 else SeededDice(seed)
        game = finish_game(start_midway(HASBRO, seed, source), player)
        assert game.is_over and game.players[0].card.is_full


@pytest.mark.parametrize("rules", [FREE_JOKER, NO_BONUS], ids=lambda r: r.name)
def test_the_thinker_plays_legally_under_other_rules(loader: Callable, rules: Rules) -> None:
    player = computer_player("*thinker", rules, loader, random.Random(2))
    for seed in range(10):
        finish_game(start_midway(rules, seed, FiveAlikeOften(seed)), player)


def test_the_thinker_takes_the_advisors_best_choice(hasbro: StrategyTable, loader: Callable) -> None:
    player = computer_player("thinker", HASBRO, loader)
    for seed in range(30):
        game = start_midway(HASBRO, seed, SeededDice(seed))
        game.roll()
        options = advise(hasbro, game)
        action = player.next_action(game)
        chosen = next(o for o in options if (o.kind == "box" and isinstance(action, Post) and o.box is action.box)
                      or (o.kind == "keep" and isinstance(action, Reroll) and o.reroll == action.marked))
        assert choice_cost(options, chosen) == pytest.approx(0, abs=1e-7)


def test_unknown_moods_are_refused(loader: Callable) -> None:
    with pytest.raises(ValueError, match="unknown player"):
        computer_player("*sleepy", HASBRO, loader)


# -- simulation ------------------------------------------------------------------------

def test_the_thinker_averages_the_optimal_expected_score(cache_dir: Path) -> None:
    stats = simulate(3000, "thinker", seed=11, cache_dir=cache_dir)
    standard_error = stats.stdev / math.sqrt(stats.games)
    assert abs(stats.mean - START_VALUES["hasbro"]) < 3 * standard_error
    assert stats.games == 3000 and stats.lowest <= stats.median <= stats.highest and stats.rivalry is None


def test_simulations_are_reproducible_with_a_seed(cache_dir: Path) -> None:
    assert simulate(200, "nowhere", seed=4, cache_dir=cache_dir).mean == \
        simulate(200, "nowhere", seed=4, cache_dir=cache_dir).mean


def test_the_moods_play_visibly_differently(cache_dir: Path) -> None:
    # 2,000 games each: only the differences many standard errors wide are asserted here
    # (bench/moods.py checks the finer orderings over 20,000 games each).
    stats = {mood: simulate(2_000, mood, seed=7, cache_dir=cache_dir, workers=1)
             for mood in ("thinker", "norisk", "gambler", "yclover")}
    assert stats["thinker"].mean > stats["yclover"].mean + 5          # SE of the gap about 2
    assert stats["norisk"].stdev < stats["gambler"].stdev - 5         # SE of the gap about 1.3
    assert stats["yclover"].yahtzee_rate > stats["thinker"].yahtzee_rate + 0.05   # SE about 0.015
    lines = simulation_lines(stats["thinker"], "thinker")
    assert lines[0].startswith("2,000 games of *thinker") and all(isinstance(line, str) for line in lines)


# -- the table cache -------------------------------------------------------------------

@pytest.fixture
def counted_builds(monkeypatch: pytest.MonkeyPatch, hasbro: StrategyTable) -> list[Any]:
    """build_table replaced by a quick copy of the real hasbro table, counting its calls."""
    calls = []

    def build(rules: Rules, objective: Objective = EXPECTED_SCORE, progress: Any = None, processes: int = 1,
              moments: bool = False) -> Any:
        calls.append(rules.name)
        return StrategyTable(rules, objective, hasbro.values.copy())

    monkeypatch.setattr(cache, "build_table", build)
    return calls


def damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how == "garbage":
        path.write_bytes(bytes(random.Random(1).randrange(256) for _ in range(5000)))
    elif how == "empty":
        path.write_bytes(b"")


@pytest.mark.usefixtures("no_shipped_tables")
@pytest.mark.parametrize("how", ["truncated", "garbage", "empty"])
def test_a_damaged_cache_file_is_rebuilt(
        tmp_path: Path, hasbro: StrategyTable, counted_builds: list[Any], how: str) -> None:
    cache.save_table(hasbro, tmp_path)
    path = tmp_path / cache.table_file_name(HASBRO, EXPECTED_SCORE)
    damage(path, how)
    assert read_table(HASBRO, EXPECTED_SCORE, tmp_path) is None
    table = cache.load_table(HASBRO, cache_dir=tmp_path)
    assert counted_builds == ["hasbro"]
    assert table.start_value == pytest.approx(START_VALUES["hasbro"], abs=1e-6)
    assert read_table(HASBRO, EXPECTED_SCORE, tmp_path) is not None
    assert not list(tmp_path.glob("*.tmp"))


@pytest.fixture
def no_bonus(loader: Callable) -> StrategyTable:
    """The real table of the no-bonus rules, read or built before any build is replaced: a
    build replaced by counted_builds would put the hasbro values in the run's shared cache
    under this table's name (which another test, in another worker, then read)."""
    return loader(NO_BONUS)


@pytest.mark.usefixtures("no_shipped_tables")
def test_a_table_of_other_rules_under_this_name_is_rebuilt(
        tmp_path: Path, no_bonus: StrategyTable, counted_builds: list[Any]) -> None:
    cache.save_table(no_bonus, tmp_path)
    (tmp_path / cache.table_file_name(NO_BONUS, EXPECTED_SCORE)).rename(
        tmp_path / cache.table_file_name(HASBRO, EXPECTED_SCORE))
    assert read_table(HASBRO, EXPECTED_SCORE, tmp_path) is None
    cache.load_table(HASBRO, cache_dir=tmp_path)
    assert counted_builds == ["hasbro"]


@pytest.mark.usefixtures("no_shipped_tables")
def test_a_tampered_value_fails_the_checksum(tmp_path: Path, hasbro: StrategyTable, counted_builds: list[Any]) -> None:
    values = hasbro.values.copy()
    values[123] += 1.0
    meta = cache.table_meta(HASBRO, EXPECTED_SCORE, hasbro.values)
    path = tmp_path / cache.table_file_name(HASBRO, EXPECTED_SCORE)
    with open(path, "wb") as file:
        np.savez(file, values=values, meta=np.array(__import__("json").dumps(meta)))
    assert read_table(HASBRO, EXPECTED_SCORE, tmp_path) is None
    cache.load_table(HASBRO, cache_dir=tmp_path)
    assert counted_builds == ["hasbro"]


def test_a_sound_cache_file_is_read_not_rebuilt(
        tmp_path: Path, hasbro: StrategyTable, counted_builds: list[Any]) -> None:
    cache.save_table(hasbro, tmp_path)
    table = cache.load_table(HASBRO, cache_dir=tmp_path)
    assert counted_builds == [] and np.array_equal(table.values, hasbro.values)


def test_a_cache_folder_that_cannot_be_written_still_gives_a_table(tmp_path: Path, counted_builds: list[Any]) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("in the way")
    table = cache.load_table(HASBRO, cache_dir=not_a_folder / "saves")
    assert table.start_value == pytest.approx(START_VALUES["hasbro"], abs=1e-6)


def test_a_failed_write_leaves_no_file(tmp_path: Path, hasbro: StrategyTable, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any) -> None:
        raise PermissionError("read-only")

    monkeypatch.setattr(cache.os, "replace", refuse)
    assert cache.save_table(hasbro, tmp_path) is False
    assert list(tmp_path.iterdir()) == []


def test_file_names_carry_the_rules_and_a_key_of_every_field() -> None:
    names = {cache.table_file_name(rules, EXPECTED_SCORE) for rules in ALL_RULES.values()}
    names |= {cache.table_file_name(HASBRO, objective) for objective in OBJECTIVES.values()}
    names.add(cache.table_file_name(dataclasses.replace(HASBRO, rolls_per_turn=4), EXPECTED_SCORE))
    assert len(names) == 3 + 3 + 1
    assert all(name.startswith("strategy-") and name.endswith(".npz") for name in names)


def test_sums_that_can_no_longer_win_the_bonus_are_solved_once_with_the_values_of_solving_each(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A hand count: with only THREES of the upper boxes open, at most 15 more come, so a sum
    # below 48 can never reach 63; with all six open, every sum still can.
    assert statespace.HOPELESS_BELOW[0b111011] == 48 and statespace.HOPELESS_BELOW[0] == 0
    engine = TurnSolver(HASBRO)
    shared = engine.solve(levels=3)
    solved_apart = [len(statespace.level_states(filled, 1)) for filled in range(10, 13)]
    monkeypatch.setattr(statespace, "HOPELESS_BELOW", [0] * len(statespace.HOPELESS_BELOW))
    # the build solves once each card's sums with the same future, of which these are some
    monkeypatch.setattr(statespace, "SAME_FUTURE", [np.arange(statespace.UP_STATES)] * len(statespace.SAME_FUTURE))
    monkeypatch.setattr(statespace, "ALIKE_COUNT", np.zeros_like(statespace.ALIKE_COUNT))
    every = engine.solve(levels=3)
    reachable = np.concatenate([statespace.level_states(filled, 1).index for filled in range(10, 13)])
    assert np.array_equal(shared[reachable], every[reachable])
    assert sum(solved_apart) < 0.8 * len(reachable)


def test_progress_is_reported_up_to_the_total(monkeypatch: pytest.MonkeyPatch) -> None:
    reports, solved = [], []
    engine = TurnSolver(HASBRO)
    # Every batch of states is handed out and counted; their arithmetic is other tests' business.
    monkeypatch.setattr(LevelSolver, "solve_states", lambda self, values, states, work: solved.append(len(states)))
    engine.solve(lambda done, total: reports.append((done, total)))
    assert reports[-1][0] == reports[-1][1] == sum(solved) and len(reports) == len(solved) > 100
    assert [d for d, _ in reports] == sorted(d for d, _ in reports)
    assert progress_bar(1, 4, width=8) == "[##......]  25%"


def test_plain_modes_start_loads_no_numpy_asyncssh_or_prompt_toolkit() -> None:
    code = ("import sys, yahtzee.cli, yahtzee.app, yahtzee.screens.flow, yahtzee.consoles.plain, "
            "yahtzee.coach.services, yahtzee.strategy; "
            "print([name for name in ('numpy', 'asyncssh', 'prompt_toolkit') if name in sys.modules])")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "[]"
