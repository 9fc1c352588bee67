"""A batch of states' whole turn worked out roll number by roll number, and the decisions
read from it: the best box of a roll, the best keep or none (for the computer players and
the simulation)."""
from dataclasses import dataclass
from typing import Optional, Protocol

import numpy as np

from .dicemath import CHILDREN, DICE, FACE_COUNT, KEEPS, PARENTS, ROLL_OFFSET, ROLLS, SUB_KEEPS, size_rows
from .statespace import States

CHUNK = 512  # states worked out together: their rows stay in the processor's cache
GATHERED_STATES = 16  # up to so many states, a turn's keeps are chosen from all options at once
PLANNED_ROLLS = 16  # from so many rolls to choose for a state on average, its whole plan is worked out
KEEP_NUMBERS = np.arange(ROLL_OFFSET, dtype=np.int16)[:, None]  # the rerolling keeps' own numbers


class Workspace:
    """Reused arrays for a batch of `width` states (fresh arrays each time cost page faults);
    with `room`, in the memory of that wider workspace."""

    def __init__(self, width: int, room: Optional["Workspace"] = None) -> None:
        self.keeps: np.ndarray = _array((len(KEEPS), width), room.keeps if room else None)
        self.post = self.keeps[ROLL_OFFSET:]
        self.base: np.ndarray = _array((len(ROLLS), width), room.base if room else None)
        self.fit: np.ndarray = _array((len(ROLLS), width), room.fit if room else None)
        self.candidate: np.ndarray = _array((len(ROLLS), width), room.candidate if room else None)
        self.scratch: np.ndarray = _array((len(ROLLS), width), room.scratch if room else None)
        self.stages: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    def stage_arrays(self, last: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The posts, keeps and plans of a turn of `last` rolls (see TurnStages), made once."""
        if last not in self.stages:
            width = self.keeps.shape[1]
            self.stages[last] = (np.empty((last, len(ROLLS), width)), np.empty((last - 1, ROLL_OFFSET, width)),
                                 np.empty((last - 1, len(ROLLS), width), dtype=np.intp))
        return self.stages[last]


def keep_values(work: Workspace) -> np.ndarray:
    """Fill work.keeps with every keep's expected value, from the roll values in its last rows."""
    keeps = work.keeps
    for size in range(DICE - 1, -1, -1):
        children = CHILDREN[size]
        total, scratch = keeps[size_rows(size)], work.scratch[:len(children)]
        keeps.take(children[:, 0], axis=0, out=total, mode="clip")
        for face in range(1, FACE_COUNT):
            np.add(total, keeps.take(children[:, face], axis=0, out=scratch, mode="clip"), out=total)
        total *= 1 / FACE_COUNT
    return keeps

def rerolled(keeps: np.ndarray, scratch: np.ndarray) -> np.ndarray:
    """The chance of every roll once each keep's chance (KEEPS x states, the rerolling ones
    set) is passed on through its rerolls: a keep gets a sixth of what reaches each keep one
    die smaller inside it (the transpose of keep_values). The rows of the rolls;
    `scratch` holds two rows per roll."""
    share, part = scratch[:len(ROLLS)], scratch[len(ROLLS):]
    for size in range(1, DICE + 1):
        rows = size_rows(size)
        smaller = PARENTS[size]
        assert smaller is not None  # only the empty keep has no parents
        parents, counts = smaller
        here = share[:len(parents)]
        keeps.take(parents[:, 0], axis=0, out=here, mode="clip")
        for column, count in zip(parents.T[1:], counts[1:]):
            more = keeps.take(column[:count], axis=0, out=part[:count], mode="clip")
            np.add(here[:count], more, out=here[:count])
        if size < DICE:
            np.multiply(here, 1 / FACE_COUNT, out=here)
            np.add(keeps[rows], here, out=keeps[rows])
        else:
            np.multiply(here, 1 / FACE_COUNT, out=keeps[rows])
    return keeps[ROLL_OFFSET:]


def best_reroll(work: Workspace) -> np.ndarray:
    """Each roll's value when rerolls remain: the best keep inside it, into work.post.
    Worked out in place: every row of work.keeps is left holding the best keep inside it
    (keep_values fills them afresh)."""
    keeps = work.keeps
    for size in range(1, DICE + 1):
        rows = size_rows(size)
        best, scratch = keeps[rows], work.scratch[:rows.stop - rows.start]
        smaller = PARENTS[size]
        assert smaller is not None  # only the empty keep has no parents
        parents, counts = smaller
        for column, count in zip(parents.T, counts):
            part = best[:count]
            np.maximum(part, keeps.take(column[:count], axis=0, out=scratch[:count], mode="clip"), out=part)
    return work.post


def _array(shape: tuple[int, int], memory: Optional[np.ndarray]) -> np.ndarray:
    """An uninitialised array of `shape`, new or at the start of `memory` (contiguous either way)."""
    if memory is None:
        return np.empty(shape)
    return memory.reshape(-1)[:shape[0] * shape[1]].reshape(shape)


class TurnEngine(Protocol):
    """The turn arithmetic these stages ask of solver.TurnSolver (which imports this module)."""

    def post_values(self, values: np.ndarray, states: States, work: Workspace,
                    want_boxes: bool = False) -> Optional[np.ndarray]: ...

    def stage_boxes(self, work: Workspace, boxes: np.ndarray, rolls: int) -> np.ndarray: ...

    def utility_offset(self, work: Workspace) -> Optional[np.ndarray]: ...

    def stage_post(self, work: Workspace, rolls: int, offset: Optional[np.ndarray], out: np.ndarray) -> np.ndarray: ...

    def stage_bonus(self, rolls: int) -> int: ...


@dataclass(frozen=True)
class TurnStages:
    """A batch of states' turn, per roll number 1, 2, ...: each roll's posting utility and
    best box (roll numbers x rolls x states), and before the last roll number the utility
    of every keep that rerolls at least one die (roll numbers x keeps of 0-4 dice x states);
    if planned as it was worked out, each roll's best keep or -1 (see plan_keeps)."""

    posts: np.ndarray
    boxes: np.ndarray
    keeps: np.ndarray
    plans: Optional[np.ndarray] = None

    def choose_keeps(self, stage: int, rolls: np.ndarray, columns: np.ndarray) -> np.ndarray:
        """The best keep (or -1: post now) of roll `rolls[i]` of state `columns[i]` after roll
        number stage + 1. For many rolls a state, read from every roll's plan (plan_keeps: the
        same keeps), which costs less than looking through each roll's options."""
        if len(rolls) >= PLANNED_ROLLS * self.keeps.shape[2]:
            return self.plan_keeps(stage)[rolls, columns]
        options, keeps = SUB_KEEPS[rolls], self.keeps[stage]
        flat = options * keeps.shape[1] + columns[:, None]
        utility = keeps.take(flat, mode="clip")  # keeps[options, columns], flat and unchecked: faster
        return best_keeps(utility, options, self.posts[stage][rolls, columns])

    def plan_keeps(self, stage: int) -> np.ndarray:
        """The best keep (or -1) of every roll of every state after roll number stage + 1
        (as best_keeps: for a few states at once, from all their options gathered; for many,
        through the keeps inside keeps, as best_sub_keeps)."""
        if self.plans is not None:
            return self.plans[stage]
        keeps, post_now = self.keeps[stage], self.posts[stage]
        if keeps.shape[1] <= GATHERED_STATES:
            options = np.broadcast_to(SUB_KEEPS[:, :, None], SUB_KEEPS.shape + keeps.shape[1:])
            return best_keeps(keeps[SUB_KEEPS], options, post_now)
        best, chosen = best_sub_keeps(keeps)
        return keep_or_post(best, chosen.astype(np.intp), post_now)


def best_sub_keeps(keeps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The utility and the keep of every roll's best rerolling keep (rolls x states), of
    equals the first (the one best_keeps takes): a keep's best inside it is the best of its
    own and of the keeps one die smaller's, size by size, as best_reroll finds it, with
    the keep that gave it carried along (a smaller keep comes first in KEEPS)."""
    width = keeps.shape[1]
    best, which = np.empty((len(KEEPS), width)), np.empty((len(KEEPS), width), dtype=np.int16)
    best[:ROLL_OFFSET], which[:ROLL_OFFSET] = keeps, KEEP_NUMBERS
    spare = len(ROLLS)
    utility, keep = np.empty((spare, width)), np.empty((spare, width), dtype=np.int16)
    better, equal = np.empty((spare, width), dtype=bool), np.empty((spare, width), dtype=bool)
    for size in range(1, DICE + 1):
        rows = size_rows(size)
        smaller = PARENTS[size]
        assert smaller is not None  # only the empty keep has no parents
        parents, counts = smaller
        best.take(parents[:, 0], axis=0, out=best[rows], mode="clip")  # a take that may raise buffers its out
        which.take(parents[:, 0], axis=0, out=which[rows], mode="clip")
        for column, count in zip(parents.T[1:], counts[1:]):
            here = slice(0, count)
            best.take(column[:count], axis=0, out=utility[here], mode="clip")
            which.take(column[:count], axis=0, out=keep[here], mode="clip")
            _take_better(best[rows][here], which[rows][here], utility[here], keep[here], better[here], equal[here])
        if size < DICE:
            here = slice(0, rows.stop - rows.start)
            np.greater(keeps[rows], best[rows], out=better[here])  # a keep itself comes after those inside it
            keep[here] = KEEP_NUMBERS[rows]
            put_where(which[rows], keep[here], better[here])
            np.maximum(best[rows], keeps[rows], out=best[rows])
    return best[ROLL_OFFSET:], which[ROLL_OFFSET:]


def _take_better(best: np.ndarray, which: np.ndarray, utility: np.ndarray, keep: np.ndarray, better: np.ndarray,
                 equal: np.ndarray) -> None:
    """Raise (best, which) to (utility, keep) where it is higher, or as high with a keep that
    comes first (`keep`, `better` and `equal` are spent)."""
    np.equal(utility, best, out=equal)
    np.less(keep, which, out=better)
    np.logical_and(equal, better, out=equal)
    np.greater(utility, best, out=better)
    np.logical_or(equal, better, out=equal)
    put_where(which, keep, equal)
    np.maximum(best, utility, out=best)


def put_where(target: np.ndarray, value: np.ndarray, where: np.ndarray) -> None:
    """target[where] = value[where] for integers, by arithmetic: a masked copy branches on every
    element, and is many times slower where the mask is irregular. `value` is spent."""
    np.subtract(value, target, out=value)
    np.multiply(value, where, out=value)
    np.add(target, value, out=target)


def best_keeps(utility: np.ndarray, options: np.ndarray, post_now: np.ndarray) -> np.ndarray:
    """The keep of `options` with the highest `utility` (both along axis 1), or -1 where it
    is no better than posting now: a reroll that cannot gain is no reroll."""
    pick = utility.argmax(axis=1)[:, None]
    best = np.take_along_axis(utility, pick, axis=1)[:, 0]
    chosen = np.take_along_axis(options, pick, axis=1)[:, 0]
    return keep_or_post(best, chosen, post_now)


def keep_or_post(best: np.ndarray, chosen: np.ndarray, post_now: np.ndarray,
                 margin: Optional[np.ndarray] = None) -> np.ndarray:
    """The `chosen` keep where its utility `best` beats posting now, else -1: a reroll that
    cannot gain is no reroll (its `margin` over posting now, reroll_margin's, if at hand)."""
    margin = reroll_margin(post_now) if margin is None else margin
    return (chosen + 1) * (best > margin) - 1  # np.where(best > margin, chosen, -1), without its branches


def reroll_margin(post_now: np.ndarray) -> np.ndarray:
    """What a reroll's utility must beat: posting now's, by a billionth of its size."""
    margin = np.abs(post_now)
    margin += 1
    margin *= 1e-9
    margin += post_now
    return margin


def turn_plans(engine: TurnEngine, values: np.ndarray, states: States, rolls: int) -> tuple[np.ndarray, np.ndarray]:
    """For a turn of `rolls` rolls, per roll number 1, 2, ...: the best box of every roll,
    and the best keep of every roll or -1 to post now (the last roll number has no keeps):
    arrays of roll numbers x rolls x states."""
    boxes = np.empty((rolls, len(ROLLS), len(states)), dtype=np.int8)
    choices = np.empty((rolls - 1, len(ROLLS), len(states)), dtype=np.int16)
    for start in range(0, len(states), CHUNK):
        cut = slice(start, start + CHUNK)
        stages = turn_stages(engine, values, states.part(cut), rolls)
        boxes[:, :, cut] = stages.boxes
        for stage in range(rolls - 1):
            choices[stage, :, cut] = stages.plan_keeps(stage)
    return boxes, choices


def turn_stages(engine: TurnEngine, values: np.ndarray, states: States, last: int, plan: bool = False,
                work: Optional[Workspace] = None) -> TurnStages:
    """The whole turn of a batch of states, roll number by roll number (see TurnStages); with
    `plan`, its keeps planned too, as each roll's best keep is found (best_sub_keeps then
    stands in for best_reroll: a roll's value is the best of it and of its keeps).
    A `work` for as many states is used if given, batch after batch (no fresh pages each
    time): the TurnStages then holds its arrays, good until its next use."""
    work = work or Workspace(len(states))
    found = engine.post_values(values, states, work, want_boxes=True)
    assert found is not None
    return stages_from_postings(engine, work, found, last, plan)


def stages_from_postings(engine: TurnEngine, work: Workspace, found: np.ndarray, last: int,
                         plan: bool = False) -> TurnStages:
    """turn_stages once the postings are in work.base and work.fit, their boxes `found`."""
    boxes = np.array([engine.stage_boxes(work, found, rolls) for rolls in range(1, last + 1)])
    offset = engine.utility_offset(work)
    posts, keeps, planned = work.stage_arrays(last)
    plans = planned if plan else None
    engine.stage_post(work, last, offset, work.post)
    posts[-1] = work.post
    shared = not any(engine.stage_bonus(rolls) for rolls in range(1, last + 1))
    if shared:
        posts = np.broadcast_to(posts[-1], posts.shape)  # no roll bonus: posting now is the same after every roll
    margins: dict[int, np.ndarray] = {}  # posting now is the same after every roll number with the same roll bonus
    for rolls in range(last - 1, 0, -1):
        keeps[rolls - 1] = keep_values(work)[:ROLL_OFFSET]
        bonus = engine.stage_bonus(rolls)
        if not shared:
            engine.stage_post(work, rolls, offset, posts[rolls - 1])
        if bonus:  # without one, posting now is posting after the next roll with these dice
            np.maximum(work.post, posts[rolls - 1], out=work.post)
        if plans is None:
            best_reroll(work)
            continue
        best, chosen = best_sub_keeps(keeps[rolls - 1])
        margin = margins.get(bonus)
        if margin is None:
            margin = margins[bonus] = reroll_margin(posts[rolls - 1])
        plans[rolls - 1] = keep_or_post(best, chosen, posts[rolls - 1], margin)
        np.maximum(work.post, best, out=work.post)
    return TurnStages(posts, boxes, keeps, plans)
