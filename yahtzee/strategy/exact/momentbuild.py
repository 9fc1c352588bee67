"""A table's values and their moments in one pass over the levels: each batch's turn is worked
out once, with its plans (stages.turn_stages), and gives both the states' values and, played by
those plans, their moments (moments.TurnMoments). Both are the same to the bit as a build's
(TurnSolver.solve) and moments.solve_moments's: the best of a roll's keeps and postings is the
same maximum however it is taken, and a state's moments are the same in any batch of two or
more. Where a turn may come back (yahtChallenge), a batch whose values settle as a fixed point
(levels.LevelSolver.settle) offers its extra turn again with the settled values, its other
postings kept, and plays its turn by them, in the same batches as solve_moments."""
from dataclasses import dataclass
from typing import Optional

import numpy as np

from .dicemath import over_rolls
from .levels import LevelSolver
from .moments import FAMILIES, MOMENT_CHUNK, ORDERS, TurnMoments, full_card_counts, settle_fifties
from .progress import Progress
from .rulearrays import BOX_COUNT
from .solver import TurnSolver
from .stages import stages_from_postings, turn_stages
from .statespace import States, fill_unreachable
from .team import level_team

ROWS = 1 + FAMILIES * (ORDERS + 1)  # the shared table's rows: the values, then every moment


@dataclass(frozen=True)
class BuildingTable:
    """The table as it is built: what TurnMoments plays by (a sidebyside.SolvedTable)."""

    engine: TurnSolver
    values: np.ndarray


def solve_with_moments(engine: TurnSolver, progress: Optional[Progress] = None, levels: int = BOX_COUNT,
                       processes: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """The value of every state (TurnSolver.solve) and the moments of its remaining score
    (moments.solve_moments), `progress`, `levels` and `processes` as for both."""
    solver = LevelSolver(engine)
    levels_filled = range(BOX_COUNT - 1, BOX_COUNT - 1 - levels, -1)
    plan = [solver.level_batches(filled, processes, MOMENT_CHUNK) for filled in levels_filled]
    total, done = sum(len(states) for batches in plan for states in batches), 0
    with level_team(processes, (ROWS,)) as team:
        values, moments = team.values[0], team.values[1:].reshape(FAMILIES, ORDERS + 1, -1)
        both = BothPass(solver, BuildingTable(engine, values), moments)
        if team.leads:
            moments[:, 0] = full_card_counts()
        team.level_done()  # both start from them, written once: a late helper must not write them again
        for filled, batches in zip(levels_filled, plan):
            level_end = done + sum(len(states) for states in batches)
            for number, states in enumerate(batches):
                if team.takes(number):
                    both.solve_batch(states)
                    engine.share_solved(team.values, states)
                    done = min(done + team.size * len(states), level_end)  # the other solves as many
                    if progress and team.leads:
                        progress(done, total)
            team.level_done()
            if team.leads:
                settle_fifties(moments, filled)
            team.level_done()  # the level is whole before either process reads it
            if progress and team.leads and done < level_end:
                progress(level_end, total)
            done = level_end
        if team.leads:
            for row in team.values:
                fill_unreachable(row)
        if team.size == 1:
            return values.copy(), moments
        return values.copy(), moments.copy()  # the helper ends as the block does


class BothPass:
    """The values and moments of batches of states, into a table being built."""

    def __init__(self, solver: LevelSolver, table: BuildingTable, moments: np.ndarray) -> None:
        self.solver = solver
        self.table = table
        self.moments = moments
        self.turns = TurnMoments(table)

    def solve_batch(self, states: States) -> None:
        """Write the values and moments of a batch of states (their turns' later states solved)."""
        engine, values = self.table.engine, self.table.values
        work = self.turns.workspace(len(states))
        if engine.extra_turns and (states.case == 2).any():
            boxes = engine.plain_post_values(values, states, work, want_boxes=True)
            assert boxes is not None
            self.solver.settle_batch(values, states, work)
            engine.offer_extra_turn(values, states, work, boxes)  # the turn is played by the settled values
            stages = stages_from_postings(engine, work, boxes, engine.rolls, plan=True)
        else:
            stages = turn_stages(engine, values, states, engine.rolls, plan=True, work=work)
            values[states.index] = engine.from_utility(over_rolls(work.post), engine.utility_offset(work))
        self.turns.solve_batch(states, self.moments, stages)
