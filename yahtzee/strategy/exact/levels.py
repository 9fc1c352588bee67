"""A whole table solved, level by level from the fullest cards, each level in batches (shared
by two processes where the system can fork); a state whose turn may give it an extra turn is
found as a fixed point (yahtChallenge)."""
from typing import Callable, Optional, Protocol

import numpy as np

from .rulearrays import BOX_COUNT
from .stages import CHUNK, Workspace
from .statespace import States, distinct_states, fill_unreachable, whole_batches
from .team import level_team

BUILD_CHUNK = 1024  # the widest batch of a build: wider ones would cost more time than the calls they save
# Batches of at least two states: the rolls' average of a lone state is summed in another order
# (numpy sums one column pairwise), and a table's bits must not depend on how it was cut.
LEAST_BATCH = 2


class LevelEngine(Protocol):
    """The turn arithmetic a level's batches ask of solver.TurnSolver (which imports this module)."""

    extra_turns: bool
    fifty_matters: bool

    def turn_start_values(self, values: np.ndarray, states: States, work: Optional[Workspace] = None) -> np.ndarray:
        """The value of each state at the start of its turn."""

    def plain_post_values(self, values: np.ndarray, states: States, work: Workspace,
                          want_boxes: bool = False) -> Optional[np.ndarray]:
        """The postings without a yahtChallenge extra turn."""

    def offer_extra_turn(self, values: np.ndarray, states: States, work: Workspace,
                         boxes: Optional[np.ndarray] = None) -> None:
        """Five alike may take the extra turn instead."""

    def start_from_postings(self, work: Workspace) -> np.ndarray:
        """The turn's start value once its postings are worked out."""

    def share_solved(self, values: np.ndarray, states: States) -> None:
        """A solved batch's values given to the states it stands for."""


def batch_bounds(count: int, processes: int, widest: int = BUILD_CHUNK) -> list[np.ndarray]:
    """Where to cut `count` states into batches of at most `widest` and at least LEAST_BATCH
    (a lone state is repeated), their number a multiple of `processes` when there are enough,
    their sizes as even as can be: the positions of each batch's states."""
    number = -(-count // widest)
    number += -number % processes
    number = max(1, min(number, count // LEAST_BATCH))
    positions = np.arange(max(count, LEAST_BATCH)).clip(max=count - 1)
    return np.array_split(positions, number)


class LevelSolver:
    """Solves an engine's table a level at a time."""

    def __init__(self, engine: LevelEngine) -> None:
        self.engine = engine

    def solve(self, progress: Optional[Callable[[int, int], None]] = None, levels: int = BOX_COUNT,
              processes: int = 1) -> np.ndarray:
        """The value of every turn-start state; `progress(done, total)` is told as it goes.
        With fewer `levels`, only the cards with at least BOX_COUNT - levels boxes filled.
        With `processes` 2, a forked helper solves half of each level where the system can
        fork (see team: only for a process that does nothing else meanwhile)."""
        plan = [self.level_batches(filled, processes) for filled in range(BOX_COUNT - 1, BOX_COUNT - 1 - levels, -1)]
        total, done = sum(len(states) for batches in plan for states in batches), 0
        room = Workspace(max(len(states) for batches in plan for states in batches))
        with level_team(processes) as team:
            values = team.values
            for batches in plan:
                level_end = done + sum(len(states) for states in batches)
                for number, states in enumerate(batches):
                    if team.takes(number):
                        self.solve_states(values, states, Workspace(len(states), room))
                        self.engine.share_solved(values, states)
                        done = min(done + team.size * len(states), level_end)  # the other solves as many
                        if progress and team.leads:
                            progress(done, total)
                team.level_done()
                if progress and team.leads and done < level_end:
                    progress(level_end, total)
                done = level_end
            if team.leads:
                fill_unreachable(values)
            return values if team.size == 1 else values.copy()  # the helper ends as the block does

    def level_batches(self, filled: int, processes: int, widest: int = BUILD_CHUNK) -> list[States]:
        """The distinct states with `filled` boxes filled, in batches of at most `widest`, as
        many for each process (see batch_bounds). With an extra turn, in whole batches of
        CHUNK whatever is asked: a fixed point settles a batch at a time, close enough but not
        to the last bit, so each state is solved in the same batch by every pass."""
        states = distinct_states(filled, self.engine.fifty_matters)
        if self.engine.extra_turns:
            states = whole_batches(states, CHUNK)
            return [states.part(slice(start, start + CHUNK)) for start in range(0, len(states), CHUNK)]
        return [states.part(cut) for cut in batch_bounds(len(states), processes, widest)]

    def solve_states(self, values: np.ndarray, states: States, work: Workspace) -> None:
        """Write the value of a batch of states into `values`; a state that may give itself an
        extra turn is found as a fixed point (see settle)."""
        if not (self.engine.extra_turns and (states.case == 2).any()):
            values[states.index] = self.engine.turn_start_values(values, states, work)
            return
        self.engine.plain_post_values(values, states, work)
        self.settle_batch(values, states, work)

    def settle_batch(self, values: np.ndarray, states: States, work: Workspace) -> None:
        """solve_states for a batch whose turn may come back, once its postings but the extra
        turn are in work.base and work.fit (plain_post_values): they are there again at the end."""
        plain = (work.base.copy(), work.fit.copy())
        self.engine.offer_extra_turn(values, states, work)
        values[states.index] = self.engine.start_from_postings(work)
        self.settle(values, states, work, states.index, plain)
        work.base[...], work.fit[...] = plain

    def settle(self, values: np.ndarray, states: States, work: Workspace, index: np.ndarray,
               plain: tuple[np.ndarray, ...]) -> None:
        """Find value = turn(value) for states whose turn may be taken again, each on its own.

        A turn takes the extra turn with a chance below 5%, so turn() is nearly flat: a plain
        step from the first pass (which valued the state at 0) lands close, and from there
        the secant through the last two guesses meets the fixed point, exactly once the
        choices stop changing. The postings other than the extra turn do not depend on the
        guess: they come in `plain` (work.base and work.fit as plain_post_values left them).
        Settled states are left out once they are many."""
        settling = np.flatnonzero(states.case == 2)
        if len(settling) < len(states):
            states, index, work = states.part(settling), index[settling], Workspace(len(settling))
            plain = tuple(part[:, settling] for part in plain)
        before: Optional[tuple[np.ndarray, ...]]
        before, guess = None, values[index]
        for _ in range(SETTLE_STEPS):
            values[index] = guess
            work.base[...], work.fit[...] = plain
            self.engine.offer_extra_turn(values, states, work)
            image = self.engine.start_from_postings(work)
            settled = np.abs(image - guess) < SETTLE_TOLERANCE
            if settled.all():
                values[index] = image
                return
            point = (guess, image)
            guess = np.where(settled, image, point[1] if before is None else secant_fixed_point(before, point))
            before = point
            if settled.mean() > 0.5:
                going = np.flatnonzero(~settled)
                values[index[settled]] = image[settled]
                states, index, guess, work = states.part(going), index[going], guess[going], Workspace(len(going))
                before = tuple(part[going] for part in before)
                plain = tuple(part[:, going] for part in plain)
        raise ArithmeticError("the extra-turn values did not settle")


SETTLE_STEPS = 40
SETTLE_TOLERANCE = 1e-10


def secant_fixed_point(first: tuple[np.ndarray, ...], second: tuple[np.ndarray, ...]) -> np.ndarray:
    """Where the line through (x, f(x)) at two guesses meets f(x) = x (f(x) where it cannot say)."""
    (x0, f0), (x1, f1) = first, second
    run = x1 - x0
    slope = np.divide(f1 - f0, run, out=np.zeros_like(run), where=np.abs(run) > 1e-12)
    sound = (slope >= 0) & (slope < 0.5)
    return np.where(sound, (f1 - slope * x1) / (1 - np.where(sound, slope, 0)), f1)
