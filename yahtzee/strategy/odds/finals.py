"""What a card still scores under the exact table's play: its distribution, state by state.

A turn's outcomes are worked out exactly: the table's decisions for every roll (the same
ones the simulation plays by), the chance of every roll they lead to, and for each posting
its points, bonuses included, and the state after it. From them the remaining score of a
card with few boxes open (EXACT_OPEN) is an exact distribution: a dynamic programme over
every state its play can reach, the fullest cards first.

A card with more boxes open has too many states ahead for that. Its next EXACT_TURNS turns
are worked out exactly all the same; a card they leave with at most EXACT_OPEN boxes open is
exact again, and what follows the others is each card's own mean and spread (both exact: the
table, and moments) with the shape measured over cards alike (see rests).

States with the same future (statespace.same_future: upper sums that the open boxes take to
the bonus alike) have the same distribution: it is worked out once, for the one that stands
for them all.
"""
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Optional

import numpy as np

from ..exact.dicemath import CHILDREN, DICE, FACE_COUNT, ROLL_OFFSET, ROLL_PROBABILITY, ROLLS, size_rows
from ..exact.rulearrays import BOX_COUNT, UP_CAP, UP_STATES
from ..exact.sidebyside import Cards
from ..exact.stages import CHUNK
from ..exact.statespace import States, same_future, state_index, states_of
from ..exact.table import StrategyTable
from .rests import shape_at

EXACT_OPEN = 5  # the most open boxes whose remaining score is worked out exactly (at once)
EXACT_TURNS = 2  # with more open, the turns worked out exactly before the measured shapes
EXTRA_ROOM = 8  # extra turns in a row a distribution has room for (yahtChallenge; more: under 1e-10)
LOOP_STEPS = 24  # extra turns (a chance under 1/20 each) followed this deep
MEMO_LIMIT = 20_000  # remembered distributions per table, emptied when full


@dataclass(frozen=True)
class Outcomes:
    """The outcomes of a batch of states' turns: entry i is a turn of state `column[i]` of the
    batch that gains `gain[i]` points (bonuses included) and ends in state `after[i]` (a value
    table index), with chance `chance[i]`."""

    column: np.ndarray
    gain: np.ndarray
    after: np.ndarray
    chance: np.ndarray


def turn_outcomes(table: StrategyTable, states: States) -> Outcomes:
    """Every outcome of a turn played by the table from each of `states`, with its chance."""
    parts = [_chunk_outcomes(table, states.part(slice(start, start + CHUNK)), start)
             for start in range(0, len(states), CHUNK)]
    return Outcomes(*(np.concatenate([getattr(part, name) for part in parts])
                      for name in ("column", "gain", "after", "chance")))


def _chunk_outcomes(table: StrategyTable, states: States, first_column: int) -> Outcomes:
    """turn_outcomes of one batch of states, its columns counted from `first_column`."""
    engine = table.engine
    stages = engine.turn_stages(table.values, states)
    width = len(states)
    mass = np.repeat(ROLL_PROBABILITY[:, None], width, axis=1)
    rolls, columns, boxes, used, chances = [], [], [], [], []
    for stage in range(engine.rolls):
        keeps = stages.plan_keeps(stage) if stage < engine.rolls - 1 else np.full(mass.shape, -1)
        posting = (keeps < 0) & (mass > 0)
        roll, column = np.nonzero(posting)
        rolls.append(roll)
        columns.append(column)
        boxes.append(stages.boxes[stage][roll, column])
        used.append(np.full(len(roll), stage + 1))
        chances.append(mass[roll, column])
        mass = _rerolled(np.where(keeps >= 0, mass, 0.0), keeps, width)
    roll, column = np.concatenate(rolls), np.concatenate(columns)
    cards = Cards.empty(len(roll))
    cards.mask[:], cards.upper[:], cards.fifty[:] = states.mask[column], states.up[column], states.fifty[column]
    before = cards.totals
    cards.post(engine.tables, np.arange(len(roll)), roll, np.concatenate(boxes).astype(np.int64),
               np.concatenate(used))
    after = same_future(state_index(cards.mask, np.minimum(cards.upper, UP_CAP), cards.fifty))
    return _merged(column + first_column, cards.totals - before, after, np.concatenate(chances))


def _rerolled(mass: np.ndarray, keeps: np.ndarray, width: int) -> np.ndarray:
    """The chance of each roll after rerolling: `mass` of roll r goes to keep keeps[r]."""
    roll, column = np.nonzero(keeps >= 0)
    flat = keeps[roll, column] * width + column
    kept = np.bincount(flat, weights=mass[roll, column], minlength=(ROLL_OFFSET + len(ROLLS)) * width)
    kept = kept.astype(float).reshape(-1, width)
    for size in range(DICE):
        share = kept[size_rows(size)] / FACE_COUNT
        for face in range(FACE_COUNT):
            kept[CHILDREN[size][:, face]] += share  # one face makes different keeps different
    return kept[ROLL_OFFSET:]


def _merged(column: np.ndarray, gain: np.ndarray, after: np.ndarray, chance: np.ndarray) -> Outcomes:
    """The same outcomes with equal (column, gain, after) entries added together."""
    keys = (column.astype(np.int64) << 34) | (gain.astype(np.int64) << 22) | after
    distinct, inverse = np.unique(keys, return_inverse=True)
    return Outcomes(distinct >> 34, distinct >> 22 & 0xFFF, distinct & 0x3FFFFF,
                    np.bincount(inverse.ravel(), weights=chance))


def open_count(index: int) -> int:
    """How many boxes are open in the state at a value table index."""
    return BOX_COUNT - bin(int(index) // (2 * UP_STATES)).count("1")


def remaining_distributions(table: StrategyTable, roots: Sequence[int]) -> dict[int, np.ndarray]:
    """The exact distribution of the points still to come (index = points) from each root state
    (value table indices, at most EXACT_OPEN boxes open), under the table's play; remembered."""
    memo = table.memo.setdefault("remaining", {})
    if len(memo) > MEMO_LIMIT:
        memo.clear()  # before the states to do are chosen: every one asked for is then made here
    standing = _standing_for(roots)
    todo = sorted(set(standing.values()) - memo.keys())
    if todo:
        memo.update(_solve_remaining(table, todo))
    return {root: memo[stand] for root, stand in standing.items()}


def _standing_for(states: Sequence[int]) -> dict[int, int]:
    """The state that stands for each of `states` (see statespace.same_future)."""
    index = np.array(states, dtype=np.int64)
    return dict(zip(index.tolist(), same_future(index).tolist()))


def _solve_remaining(table: StrategyTable, roots: list[int]) -> dict[int, np.ndarray]:
    """The distributions of every state reachable from `roots`, by levels of filled boxes."""
    levels = _reachable(table, roots)
    highest = _highest_scores(levels)
    length = max(highest[root] for root in roots) + 1
    found: dict[int, np.ndarray] = {}
    for indices, outcomes in reversed(levels):
        known = np.array(sorted(found), dtype=np.int64)
        rows = np.zeros((len(known), length))
        for row, index in enumerate(known.tolist()):
            rows[row, :len(found[index])] = found[index]
        values = _level_distributions(indices, outcomes, known, rows, length)
        found.update((index, value[:highest[index] + 1]) for index, value in zip(indices.tolist(), values))
    return found


def _highest_scores(levels: Sequence[tuple[np.ndarray, Optional[Outcomes]]]) -> dict[int, int]:
    """The most points each state of `levels` can still score (extra turns: EXTRA_ROOM of them)."""
    highest: dict[int, int] = {}
    for indices, outcomes in reversed(levels):
        if outcomes is None:
            highest.update(dict.fromkeys(indices.tolist(), 0))
            continue
        loops = outcomes.after == indices[outcomes.column]
        onward = outcomes.gain + np.array([highest.get(after, 0) for after in outcomes.after.tolist()])
        best = np.zeros(len(indices), dtype=np.int64)
        np.maximum.at(best, outcomes.column[~loops], onward[~loops])
        extra = np.zeros(len(indices), dtype=np.int64)
        np.maximum.at(extra, outcomes.column[loops], outcomes.gain[loops])
        highest.update(zip(indices.tolist(), (best + EXTRA_ROOM * extra).tolist()))
    return highest


def _reachable(table: StrategyTable, roots: list[int]) -> list[tuple[np.ndarray, Optional[Outcomes]]]:
    """[(state indices, their turn outcomes)] for every level reachable from `roots`, the
    emptiest cards first; a full card's outcomes are empty."""
    levels, seen = [], set()
    frontier = sorted(set(roots))
    while frontier:
        by_open: dict[int, list[int]] = {}
        for index in frontier:
            by_open.setdefault(open_count(index), []).append(index)
        most = max(by_open)
        indices = np.array(sorted(by_open.pop(most)), dtype=np.int64)
        seen.update(indices.tolist())
        outcomes = turn_outcomes(table, states_of(indices)) if most else None
        levels.append((indices, outcomes))
        later = set() if outcomes is None else set(outcomes.after.tolist()) - seen
        frontier = sorted(later | {index for rest in by_open.values() for index in rest})
    return levels


def _level_distributions(indices: np.ndarray, outcomes: Optional[Outcomes], known: np.ndarray, rows: np.ndarray,
                         length: int) -> np.ndarray:
    """The distributions of one level's states from those of the states after their turns;
    an extra turn (the same state again) is followed LOOP_STEPS deep."""
    if outcomes is None:
        result = np.zeros((len(indices), length))
        result[:, 0] = 1.0
        return result
    loops = outcomes.after == indices[outcomes.column]
    onward = ~loops
    result = _shifted_sum(len(indices), outcomes.column[onward], outcomes.gain[onward],
                          rows[np.searchsorted(known, outcomes.after[onward])], outcomes.chance[onward], length)
    if loops.any():
        base = result
        for _ in range(LOOP_STEPS):
            result = base + _shifted_sum(len(indices), outcomes.column[loops], outcomes.gain[loops],
                                         result[outcomes.column[loops]], outcomes.chance[loops], length)
    return result


def _shifted_sum(count: int, column: np.ndarray, gain: np.ndarray, rows: np.ndarray, chance: np.ndarray,
                 length: int) -> np.ndarray:
    """For each of `count` states, the sum over its entries of chance x (rows moved up by gain)."""
    result = np.zeros((count, length))
    order = np.lexsort((column, gain))
    column, gain, rows, chance = column[order], gain[order], rows[order], chance[order]
    for points in np.unique(gain):
        low, high = np.searchsorted(gain, [points, points + 1])
        part = column[low:high]
        starts = np.flatnonzero(np.r_[True, part[1:] != part[:-1]])
        sums = np.add.reduceat(chance[low:high, None] * rows[low:high, :length - points], starts, axis=0)
        result[part[starts], points:] += sums
    return result


def remaining_pmfs(table: StrategyTable, states: Iterable[int], turns: int = EXACT_TURNS) -> dict[int, np.ndarray]:
    """The distribution of the points still to come from each state (value table indices):
    exact with at most EXACT_OPEN boxes open, else its next `turns` turns exactly and what
    follows them from the mean, spread and shape of the cards they leave (see the module)."""
    states = [int(state) for state in states]
    found = remaining_distributions(table, [state for state in states if open_count(state) <= EXACT_OPEN])
    larger = sorted(set(states) - found.keys())
    if larger:
        found.update(_turns_then_shapes(table, larger, turns))
    return found


def _turns_then_shapes(table: StrategyTable, states: list[int], turns: int) -> dict[int, np.ndarray]:
    """remaining_pmfs of states with many boxes open (remembered)."""
    memo = table.memo.setdefault(("estimated", turns), {})
    if len(memo) > MEMO_LIMIT:
        memo.clear()  # before the states to do are chosen: every one asked for is then made here
    standing = _standing_for(states)
    todo = sorted(set(standing.values()) - memo.keys())
    if not todo:
        return {state: memo[stand] for state, stand in standing.items()}
    if not turns:
        memo.update(shape_at(table, todo))
        return {state: memo[stand] for state, stand in standing.items()}
    outcomes = turn_outcomes(table, states_of(todo))
    afters = np.unique(outcomes.after).tolist()
    small = [after for after in afters if open_count(after) <= EXACT_OPEN]
    after_pmfs = {**remaining_distributions(table, small),
                  **_turns_then_shapes(table, sorted(set(afters) - set(small)), turns - 1)}
    for column, state in enumerate(todo):
        mine = np.flatnonzero(outcomes.column == column)
        entries = list(zip(outcomes.gain[mine].tolist(), outcomes.after[mine].tolist(),
                           outcomes.chance[mine].tolist()))
        pmf = np.zeros(max(gain + len(after_pmfs[after]) for gain, after, _chance in entries))
        for gain, after, chance in entries:
            rest = after_pmfs[after]
            pmf[gain:gain + len(rest)] += chance * rest
        memo[state] = pmf
    return {state: memo[stand] for state, stand in standing.items()}
