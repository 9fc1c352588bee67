"""The best postings with their boxes, worked out the quick way (a zero on every roll at once,
five alike from the same rows), are those worked out a box at a time, box for box."""
import numpy as np
import pytest
from helpers import there

from yahtzee.model.rules import ACORN, FIVEOAK, FREE_JOKER, HASBRO, NO_BONUS, YAHTC, Rules
from yahtzee.strategy.exact import statespace
from yahtzee.strategy.exact.firstbest import NO_BOX, FirstBest
from yahtzee.strategy.exact.objective import Objective
from yahtzee.strategy.exact.rulearrays import BOX_COUNT
from yahtzee.strategy.exact.solver import TurnSolver
from yahtzee.strategy.exact.stages import Workspace
from yahtzee.strategy.exact.table import StrategyTable

pytestmark = pytest.mark.slow(7)


def same_boxes_either_way(engine: TurnSolver, values: np.ndarray, filled: int, most: int) -> None:
    """At up to `most` states with `filled` boxes filled: the quick postings' values and boxes
    are those worked out a box at a time (with a roll bonus, the best fitting ones' too)."""
    states = statespace.level_states(filled, 1)
    states = states.part(slice(None, None, max(1, len(states) // most)))
    quick, each_box = Workspace(len(states)), Workspace(len(states))
    quick_boxes = engine.post_best(values, states, quick, want_boxes=True)
    each_boxes = engine.post_each_box(values, states, each_box, want_boxes=True)
    assert quick_boxes is not None and each_boxes is not None
    assert np.array_equal(quick.base, each_box.base), filled
    assert np.array_equal(quick_boxes[0], each_boxes[0]), filled
    if engine.tables.roll_bonus:
        assert np.array_equal(quick.fit, each_box.fit) and np.array_equal(quick_boxes[1], each_boxes[1]), filled
        assert np.isfinite(quick.fit).any()
    assert engine.plain_post_values(values, states, Workspace(len(states)), want_boxes=True) is not None


@pytest.mark.parametrize("filled", [0, 2, 6, 11, 12])
def test_the_quick_boxes_are_those_worked_out_a_box_at_a_time_in_the_1987_table(table: StrategyTable,
                                                                                filled: int) -> None:
    same_boxes_either_way(TurnSolver(HASBRO), table.values, filled, 400)


@pytest.mark.parametrize("rules", [FREE_JOKER, NO_BONUS, YAHTC, ACORN, FIVEOAK, HASBRO.with_options(rolls=4)],
                         ids=lambda rules: rules.name + str(rules.rolls_per_turn))
def test_the_quick_boxes_are_those_worked_out_a_box_at_a_time_under_other_rules(rules: Rules) -> None:
    """The fullest levels of each rule set's own table, solved here (a whole table read in every
    worker that runs one of these would cost the suite more than the check)."""
    engine = TurnSolver(rules)
    values = engine.solve(levels=4)
    for filled in range(BOX_COUNT - 4, BOX_COUNT):
        same_boxes_either_way(engine, values, filled, 300)


def test_of_equal_postings_the_first_box_is_kept_in_whatever_order_they_come() -> None:
    best, chosen = np.array([[1.0, 2.0, 3.0]]), FirstBest(np.array([[4, 4, 4]], dtype=np.int8))
    chosen.merge(best, np.array([2.0, 2.0, 2.0]), FirstBest(np.array([2, 7, 1], dtype=np.int8)))
    assert there(chosen.boxes).tolist() == [[2, 4, 4]] and best.tolist() == [[2.0, 2.0, 3.0]]
    chosen.raise_to(best, np.array([[2.0, 5.0, 3.0]]), 9)  # a later box: only where higher
    assert there(chosen.boxes).tolist() == [[2, 9, 4]]
    merged = chosen.merged_rows(best[[0]], np.array([0]), np.array([[2.0, 5.0, 3.0]]), 3)
    assert there(chosen.boxes).tolist() == [[2, 3, 3]] and merged.tolist() == [[2.0, 5.0, 3.0]]
    nothing = FirstBest(None)
    nothing.raise_to(best, np.array([[9.0, 0.0, 0.0]]), 1)
    assert nothing.boxes is None and best[0, 0] == 9.0 and NO_BOX == -1


@pytest.mark.parametrize("rules", [HASBRO, YAHTC], ids=lambda rules: rules.name)
def test_a_risk_minded_or_yahtzee_loving_table_posts_in_the_same_boxes_either_way(rules: Rules) -> None:
    """The advice of the computers' own tables asks for boxes too: their fullest levels, solved."""
    engine = TurnSolver(rules, Objective("bold", risk=-0.02, yahtzee_reward=20.0))
    values = engine.solve(levels=4)
    states = statespace.level_states(BOX_COUNT - 4, 1)
    states = states.part(slice(None, None, max(1, len(states) // 300)))
    quick, each_box = Workspace(len(states)), Workspace(len(states))
    quick_boxes = engine.post_best(values, states, quick, want_boxes=True)
    each_boxes = engine.post_each_box(values, states, each_box, want_boxes=True)
    assert quick_boxes is not None and each_boxes is not None
    assert np.array_equal(quick.base, each_box.base) and np.array_equal(quick_boxes[0], each_boxes[0])
