"""The exact moments of what every card still scores under the table's play.

One backward pass over the turn-start states, the fullest cards first, as the solver's: each
turn is played by the table's own choices (every roll, keep and posting, the same ones the
simulation plays by), and a posting of g points into a state whose remaining score R' has raw
moments E[R'^j] gives E[(g + R')^k] = sum over j of C(k, j) g^(k-j) E[R'^j]; a keep averages
its rolls' moments, as it averages their values. A yahtChallenge extra turn comes back to the
same state: the chance q that a turn does is found as the moment of order 0 (with the state's
own moments taken as 0), and each moment is the rest divided by 1 - q.

The same pass, with a full card's moment of order 0 its fifty (1 when YAHTZEE holds 50, else
0) instead of 1, gives the moments over the games that end with 50 in YAHTZEE:
E[R^k; a fifty at the end]. A card with YAHTZEE open has two kinds of future, with the fifty
and without, the one about 50 points above the other: rests places a shape on each.
"""
from math import comb
from typing import Optional

import numpy as np

from ...model import scoring
from .dicemath import ROLLS, over_rolls
from .progress import Progress
from .rulearrays import BOX_COUNT, UP_CAP, YAHTZEE_BIT
from .sidebyside import IS_UPPER, Posting, SolvedTable
from .stages import CHUNK, TurnStages, Workspace
from .statespace import STATE_COUNT, States, fill_unreachable, level_states, share_hopeless, state_index, states_of

ORDERS = 2  # raw moments E[R] and E[R^2] of the remaining score R
EVERY_GAME, FIFTY_AT_END = 0, 1  # the families of moments: over every game, over those ending with 50


def solve_moments(table: SolvedTable, progress: Optional[Progress] = None, levels: int = BOX_COUNT) -> np.ndarray:
    """The raw moments of every state's remaining score, families x orders x value table
    indices: [EVERY_GAME, k] = E[R^k] (k = 0: 1), [FIFTY_AT_END, k] = E[R^k; the game ends with
    50 in YAHTZEE] (k = 0: its chance). `progress(done, total)` is told after each level. With
    fewer `levels`, only the cards with at least BOX_COUNT - levels boxes filled."""
    moments = np.zeros((2, ORDERS + 1, STATE_COUNT))
    moments[EVERY_GAME, 0] = 1.0
    moments[FIFTY_AT_END, 0] = states_of(np.arange(STATE_COUNT)).fifty  # what counts of a full card
    rows = moments.reshape(-1, STATE_COUNT)
    for done, filled in enumerate(range(BOX_COUNT - 1, BOX_COUNT - 1 - levels, -1)):
        states = level_states(filled, CHUNK)
        for start in range(0, len(states), CHUNK):
            _solve_batch(table, states.part(slice(start, start + CHUNK)), moments)
        for row in rows:
            share_hopeless(row, filled)
        if progress:
            progress(done + 1, levels)
    for row in rows:
        fill_unreachable(row)
    return moments


def _solve_batch(table: SolvedTable, states: States, moments: np.ndarray) -> None:
    """Write the moments of a batch of states (their turns' later states already solved)."""
    engine = table.engine
    stages = engine.turn_stages(table.values, states)
    keeps = [stages.plan_keeps(stage) for stage in range(engine.rolls - 1)]
    postings = [_chosen_postings(table, states, stages, 0)]
    for stage in range(1, engine.rolls):  # the same unless a roll bonus (FiveOAK) makes them differ
        same = not engine.stage_bonus(stage + 1) and not engine.stage_bonus(stage)
        postings.append(postings[-1] if same else _chosen_postings(table, states, stages, stage))
    own = states.index
    returns = [after == own for _gain, after in postings]  # an extra turn: the same state again
    looping = any(back.any() for back in returns)
    if looping:
        moments[:, :, own] = 0.0  # a turn that comes back counts none of the state's own moments yet
    seen = [moments[:, :, after] for _gain, after in postings]
    work = Workspace(len(states))
    stay = np.ones(len(states))
    for family, order in _to_solve(looping):
        for rows, back, (_gain, after) in zip(seen, returns, postings):
            rows[:, :, back] = moments[:, :, after[back]]
        posts = [_posted_moment(rows[family], order, gain) for rows, (gain, _after) in zip(seen, postings)]
        moment = posts[-1]
        for stage in range(engine.rolls - 2, -1, -1):
            work.post[...] = moment
            engine.keep_values(work)
            chosen = keeps[stage]
            kept = np.take_along_axis(work.keeps, np.maximum(chosen, 0), axis=0)
            moment = np.where(chosen >= 0, kept, posts[stage])
        rest = over_rolls(moment)
        if (family, order) == (EVERY_GAME, 0):
            stay = rest  # 1 - the chance of coming back to the same state
        moments[family, order, own] = rest / stay


def _to_solve(looping: bool) -> list[tuple[int, int]]:
    """The (family, order) moments a batch works out, in order: every game's chance (1) only
    where a turn may come back to the same state, first, as the others are divided by it."""
    return [(family, order) for family in (EVERY_GAME, FIFTY_AT_END) for order in range(ORDERS + 1)
            if order or family == FIFTY_AT_END or looping]


def _posted_moment(after_moments: np.ndarray, order: int, gain: np.ndarray) -> np.ndarray:
    """E[(gain + R')^order] for each posting, R' the remaining score of its state after (whose
    raw moments are after_moments[j], j = 0, 1, ...)."""
    terms = (comb(order, j) * gain ** (order - j) * after_moments[j] for j in range(order + 1))
    return sum(terms, np.zeros(gain.shape))


def _chosen_postings(table: SolvedTable, states: States, stages: TurnStages,
                     stage: int) -> tuple[np.ndarray, np.ndarray]:
    """The points and the state after of the table's posting of every roll (rolls x states)
    after roll number stage + 1 (an extra turn: its bonus, and the same state)."""
    shape = (len(ROLLS), len(states))
    mask, up, fifty = (np.broadcast_to(part, shape).ravel() for part in (states.mask, states.up, states.fifty))
    boxes = stages.boxes[stage].ravel().astype(np.int64)
    rolls = np.repeat(np.arange(len(ROLLS)), len(states))
    posting = Posting.of(table.engine.tables, mask, fifty, rolls, boxes, np.full(len(rolls), stage + 1))
    posted = posting.posted
    points = np.where(posted, posting.points, 0)
    new_up = up + np.where(IS_UPPER[boxes], points, 0)
    crossed = (up < UP_CAP) & (new_up >= UP_CAP)
    gain = points + posting.yahtzee_bonus + posting.roll_bonus + np.where(crossed, scoring.UPPER_BONUS, 0)
    fifty = fifty | (posted & (boxes == YAHTZEE_BIT) & (points == scoring.YAHTZEE_POINTS))
    after = state_index(np.where(posted, mask | 1 << boxes, mask), np.minimum(new_up, UP_CAP), fifty)
    return gain.reshape(shape).astype(float), after.reshape(shape)
