"""A table built with its moments in one pass: the values of a build and the moments of
solve_moments, to the bit, for every rule that changes a turn's arithmetic; and the rests
measured from them."""
from typing import Any

import numpy as np
import pytest

from yahtzee.model.rules import FIVEOAK, HASBRO, NO_BONUS, YAHTC, Rules
from yahtzee.strategy.exact.momentbuild import solve_with_moments
from yahtzee.strategy.exact.moments import solve_moments
from yahtzee.strategy.exact.objective import EXPECTED_SCORE
from yahtzee.strategy.exact.solver import TurnSolver
from yahtzee.strategy.exact.table import StrategyTable
from yahtzee.strategy.odds import rests as rests_module

pytestmark = pytest.mark.slow(7)

LEVELS = 3  # the three fullest levels: up to 17 batches a level (25 for yahtc), so each of two processes takes some


def apart(rules: Rules, levels: int) -> tuple[np.ndarray, np.ndarray]:
    """The values of a build and the moments solve_moments works out from them, for `levels` levels."""
    engine = TurnSolver(rules)
    values = engine.solve(levels=levels)
    return values, solve_moments(StrategyTable(rules, EXPECTED_SCORE, values, engine), levels=levels)


@pytest.mark.parametrize("rules", [HASBRO, NO_BONUS, FIVEOAK, YAHTC], ids=lambda rules: rules.name)
def test_one_pass_gives_the_builds_values_and_the_moments_to_the_bit(rules: Rules) -> None:
    """no bonus shares the fifty's states, fiveoak's roll bonus makes the roll numbers differ,
    yahtc's extra turn settles as a fixed point before its moments."""
    values, moments = solve_with_moments(TurnSolver(rules), levels=LEVELS)
    expected_values, expected_moments = apart(rules, LEVELS)
    assert np.array_equal(values, expected_values)
    assert np.array_equal(moments, expected_moments)


@pytest.mark.parametrize("rules", [HASBRO, YAHTC], ids=lambda rules: rules.name)
def test_two_processes_give_the_same_values_and_moments_as_one(rules: Rules) -> None:
    together = solve_with_moments(TurnSolver(rules), levels=LEVELS, processes=2)
    alone = solve_with_moments(TurnSolver(rules), levels=LEVELS)
    assert all(np.array_equal(mine, theirs) for mine, theirs in zip(together, alone))


def test_the_rests_are_measured_from_the_builds_moments_which_the_table_then_lets_go(
        monkeypatch: pytest.MonkeyPatch) -> None:
    engine = TurnSolver(NO_BONUS)
    values, moments = solve_with_moments(engine, levels=2)
    table = StrategyTable(NO_BONUS, EXPECTED_SCORE, values, engine, moments=moments)
    asked: dict[str, Any] = {}
    monkeypatch.setattr(rests_module, "measure_rests", lambda _table, **given: asked.update(given))
    monkeypatch.setattr(rests_module, "MEASURED_RESTS", {})
    rests_module.measured_rests(table)
    assert np.array_equal(asked["exact"].spreads, rests_module.Exact.of(moments).spreads)
    assert table.moments is None
