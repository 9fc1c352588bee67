"""A strategy table as a value: the value of every turn-start state for one rule set and
objective, the turn arithmetic that goes with it, and the tables that plan for rules the
solver does not solve exactly (a dice bank) with the values of the nearest ones it does."""
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Protocol

import numpy as np

from ...model.rules import Rules
from ...model.words import Say, Text
from .objective import Objective
from .rulearrays import UnsupportedRules, check_plannable, check_supported, planning_rules
from .solver import TurnSolver
from .statespace import start_value, state_index


@dataclass
class StrategyTable:
    """The value of every turn-start state for one rule set and objective.

    For rules the solver does not solve exactly (a dice bank), `values` are those of
    `plan_rules`, the nearest rules it does solve, and the advice is a heuristic: see note.
    """

    rules: Rules
    objective: Objective
    values: np.ndarray
    _engine: Optional[TurnSolver] = field(default=None, repr=False, compare=False)
    memo: dict[Hashable, Any] = field(default_factory=dict, repr=False, compare=False)  # per-state results
    plan_rules: Optional[Rules] = None
    # The moments (moments.solve_moments's) a build worked out with the values, until its rests are measured from them.
    moments: Optional[np.ndarray] = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.plan_rules is None:
            self.plan_rules = self.rules

    @property
    def exact(self) -> bool:
        """True when the values are the exact optimum for the rules played."""
        return self.plan_rules == self.rules

    @property
    def note(self) -> Text:
        """One sentence for the player when the advice is approximate ('' when it is exact)."""
        if self.exact:
            return ""
        assert self.plan_rules is not None  # set by __post_init__
        return heuristic_note(self.rules, self.plan_rules)

    @property
    def engine(self) -> TurnSolver:
        """The turn arithmetic that goes with the table (built on first use)."""
        self.warm()
        assert self._engine is not None
        return self._engine

    def warm(self) -> None:
        """Work out the turn arithmetic now, if it is not yet."""
        if self._engine is None:
            self._engine = TurnSolver(self.rules, self.objective)

    @property
    def start_value(self) -> float:
        """The expected score (or certainty equivalent) of a new game."""
        return start_value(self.values)

    def value(self, mask: int, up: int, fifty: int) -> float:
        """The value still to come from a turn-start state."""
        return float(self.values[state_index(mask, up, fifty)])


TableLoader = Callable[[Rules, Objective], StrategyTable]


class Loader(Protocol):
    """A TableLoader whose objective, left out, is the expected score: what table_loader gives."""

    def __call__(self, rules: Rules, objective: Objective = ...) -> StrategyTable: ...


def heuristic_note(rules: Rules, plan_rules: Rules) -> Say:
    """What the approximate advice for `rules` does, in one sentence."""
    return Say("Advice for {rules} is approximate: it plans with the exact table for {plan}, uses "
               "banked rolls as extra rerolls and gives rolls saved for later no value.").format(
        rules=rules.describe(), plan=plan_rules.describe())


def planned_with(rules: Rules, plan: StrategyTable) -> StrategyTable:
    """A table for `rules` that plans with the values of the exact table `plan` (the heuristic)."""
    check_plannable(rules)
    return StrategyTable(rules, plan.objective, plan.values, plan_rules=plan.rules)


def nearest_exact(rules: Rules) -> Rules:
    """The rules whose exact table plans for these: themselves where the solver solves them
    exactly, else the nearest rules it does (the same without a dice bank)."""
    return rules if is_solved_exactly(rules) else planning_rules(rules)


def table_for(rules: Rules, objective: Objective, exact_table: TableLoader) -> StrategyTable:
    """The table for `rules`: the exact one `exact_table` gives, or for rules not solved
    exactly, the nearest exact one, planning for the rules played."""
    table = exact_table(nearest_exact(rules), objective)
    return table if table.rules == rules else planned_with(rules, table)


def is_solved_exactly(rules: Rules) -> bool:
    """True when the solver finds the exact optimum for these rules."""
    try:
        check_supported(rules)
    except UnsupportedRules:
        return False
    return True
