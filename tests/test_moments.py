"""The exact moments of a card's remaining score: against exact distributions (few boxes
open, every rule that changes a turn's arithmetic), a known figure, and games played out."""

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from numpy import ndarray

from yahtzee.model.rules import ACORN, FIVEOAK, HASBRO, YAHTC, Rules
from yahtzee.strategy.exact.moments import EVERY_GAME, solve_moments
from yahtzee.strategy.exact.sidebyside import Cards, NumpyDice, play_turns
from yahtzee.strategy.exact.statespace import STATE_COUNT, level_states, state_index, states_of
from yahtzee.strategy.exact.table import Loader, StrategyTable
from yahtzee.strategy.odds.finals import open_count, remaining_distributions
from yahtzee.strategy.odds.futures import OPEN_SLOTS, fifty_moments, futures_at, open_slots, spreads_of
from yahtzee.strategy.odds.rests import Rests

pytestmark = pytest.mark.slow(7)

SMALL_LEVELS = 2  # cards with at most two boxes open: quick to solve, exact distributions to hand


def sample_states(levels: int, count: int, seed: int) -> list[int]:
    """`count` states drawn from the cards with at most `levels` boxes open, the fullest not full."""
    states = np.unique(np.concatenate([level_states(13 - opened, 512).index for opened in range(1, levels + 1)]))
    return np.random.default_rng(seed).choice(states, count, replace=False).tolist()


def moments_of(pmf: ndarray) -> tuple[Any, Any]:
    """The mean and the second raw moment of a distribution (index = points)."""
    points = np.arange(len(pmf))
    return pmf @ points, pmf @ points ** 2


@pytest.mark.parametrize("rules", [HASBRO, YAHTC, FIVEOAK, ACORN], ids=lambda rules: rules.name)
def test_the_moments_are_those_of_the_exact_distribution(loader: Loader, rules: Rules) -> None:
    """yahtc's extra turn comes back to the same state, fiveoak's roll bonus makes the roll
    numbers differ, acorn blanks a box: each against the distribution counted outcome by outcome."""
    table = loader(rules)
    moments = solve_moments(table, levels=SMALL_LEVELS)
    states = sample_states(SMALL_LEVELS, 25, seed=len(rules.name))
    assert max(open_count(state) for state in states) == SMALL_LEVELS
    for state, pmf in remaining_distributions(table, states).items():
        mean, square = moments_of(pmf)
        assert moments[EVERY_GAME, 1, state] == pytest.approx(table.values[state], rel=1e-12)  # the table's own play
        assert moments[EVERY_GAME, 1, state] == pytest.approx(mean, rel=1e-9)
        assert moments[EVERY_GAME, 2, state] == pytest.approx(square, rel=1e-9)


def test_an_empty_cards_spread_is_the_known_one_and_a_full_cards_is_nothing(rests: Rests) -> None:
    spreads = rests.spreads
    assert spreads[state_index(0, 0, 0)] == pytest.approx(59.61, abs=0.005)  # the published optimal solitaire figure
    assert spreads[state_index(2 ** 13 - 1, 63, 1)] == 0.0
    assert (spreads >= 0).all() and np.isfinite(spreads).all()


@pytest.mark.parametrize("mask, up, fifty", [(0b0_0000_1110_0101, 9, 0), (0b1_1000_0011_1000, 30, 1),
                                             (0b0_1111_0000_0000, 0, 0)])
def test_a_mid_game_cards_mean_and_spread_are_those_of_its_games_played_out(
        table: StrategyTable, rests: Rests, mask: int, up: int, fifty: int) -> None:
    """Cards with seven to nine boxes open (the third: the upper boxes open and YAHTZEE a zero)
    played to the end 40,000 times by the table: mean and spread within four standard errors."""
    state = state_index(mask, up, fifty)
    games = 40_000
    cards = Cards.empty(games)
    start = states_of([state])
    cards.mask[:], cards.upper[:], cards.fifty[:] = start.mask[0], start.up[0], start.fifty[0]
    before, dice, playing = cards.totals, NumpyDice(np.random.default_rng(mask)), np.arange(games)
    while len(playing):
        play_turns(table, cards, playing, dice)
        playing = playing[~cards.is_full[playing]]
    scored = cards.totals - before
    spread = rests.spreads[state]
    assert abs(scored.mean() - table.values[state]) < 4 * spread / np.sqrt(games)
    assert abs(scored.std() - spread) < 4 * spread / np.sqrt(2 * games)  # the standard error of a spread
    # The games that end with 50 in YAHTZEE (where it is open: else no moments with the fifty are
    # kept), with the upper bonus, with both: their share, and their mean and second moment.
    index = np.array([state])
    with_fifty = cards.fifty.astype(float) * (1 - (mask >> 11) & 1)
    bonus = (cards.upper >= 63).astype(float)
    for ended, kept in ((with_fifty, fifty_moments(rests.fifty, index)), (bonus, rests.bonus[:, index]),
                        (with_fifty * bonus, fifty_moments(rests.both, index))):
        if kept[0, 0] < 10 / games:  # too rare to be counted in so many games: rare there too
            assert ended.mean() <= 20 / games
            continue
        for counted, exact in zip((ended, ended * scored, ended * scored ** 2), kept[:, 0].tolist()):
            assert abs(counted.mean() - exact) < 4 * counted.std() / np.sqrt(games) + 1e-6 * exact + 1e-12
    # Each of the four futures: as likely as the games that take it, and its mean theirs.
    futures = futures_at(rests.exact, table.values[index], index)
    taken = 2 * with_fifty + bonus
    for future in range(4):
        took = taken == future
        assert abs(took.mean() - futures.chances[future, 0]) < 4 * took.std() / np.sqrt(games) + 20 / games
        if took.sum() > 100:
            assert abs(scored[took].mean() - futures.means[future, 0]) < 4 * scored[took].std() / np.sqrt(took.sum())


def test_a_card_with_only_yahtzee_open_ends_with_a_fifty_as_often_as_five_alike_come_in_three_rolls(
        table: StrategyTable, rests: Rests) -> None:
    """With YAHTZEE alone open the table plays for five alike (4.60%, the known figure): what is
    still to come is 50 exactly when they come."""
    state = state_index((1 << 13) - 1 ^ 1 << 11, 63, 0)
    chance, first, second = fifty_moments(rests.fifty, np.array([state]))[:, 0]
    assert chance == pytest.approx(table.values[state] / 50, rel=1e-12)
    assert chance == pytest.approx(0.0460, abs=0.0001)
    assert (first, second) == pytest.approx((50 * chance, 2500 * chance), rel=1e-12)


def test_the_spreads_are_the_square_root_of_the_variance() -> None:
    moments = np.array([[1.0, 1.0], [10.0, 0.0], [116.0, 0.0]])  # mean 10, variance 16; a full card
    assert spreads_of(moments).tolist() == [4.0, 0.0]


def test_the_moments_with_the_fifty_are_kept_once_for_every_state_with_yahtzee_open() -> None:
    every = np.arange(STATE_COUNT)
    slots = open_slots(every)
    states = states_of(every)
    open_ones = ((states.mask >> 11) & 1 == 0) & (states.fifty == 0)
    assert sorted(slots[open_ones].tolist()) == list(range(OPEN_SLOTS))  # each in a slot of its own
    assert (slots[~open_ones] == -1).all()


@pytest.mark.parametrize("rules", [HASBRO, YAHTC], ids=lambda rules: rules.name)
def test_two_processes_work_out_the_same_moments_as_one(loader: Loader, rules: Rules) -> None:
    """Where the system can fork, a helper solves half of each level into shared memory: every
    moment is the one a single process works out, to the bit (yahtc's extra turn included)."""
    table = loader(rules)
    levels = 3  # the three fullest levels: up to 17 batches a level (25 for yahtc), so each process takes some
    assert np.array_equal(solve_moments(table, levels=levels, processes=2), solve_moments(table, levels=levels))


def test_a_helper_that_starts_late_changes_no_moment(loader: Loader, monkeypatch: pytest.MonkeyPatch) -> None:
    """The forked helper may start after the leader has solved a level's first batches: the
    moments it starts from are not written again then (they once were, by both)."""
    import contextlib
    import time

    from yahtzee.strategy.exact import moments as module
    table = loader(HASBRO)
    alone = solve_moments(table, levels=2)
    team_of = module.level_team

    @contextlib.contextmanager
    def late_helper(processes: int, rows: Any) -> Iterator[Any]:
        with team_of(processes, rows) as team:
            if not team.leads:
                time.sleep(1.0)  # the leader solves its first batches meanwhile
            yield team

    monkeypatch.setattr(module, "level_team", late_helper)
    assert np.array_equal(solve_moments(table, levels=2, processes=2), alone)
