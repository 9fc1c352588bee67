"""The turn-start states: (filled boxes as a 13-bit mask, upper sum capped at 63, whether
the Yahtzee box holds 50), where each lives in a value table, and which can happen."""
import functools
from dataclasses import dataclass
from typing import Union, overload

import numpy as np
import numpy.typing as npt

from .dicemath import DICE
from .rulearrays import BOX_COUNT, FULL_CARD, UP_CAP, UP_STATES, UPPER_BITS, YAHTZEE_BIT

STATE_COUNT = (FULL_CARD + 1) * UP_STATES * 2  # the length of a value table


@dataclass(frozen=True)
class States:
    """A batch of turn-start states, one per column."""

    mask: np.ndarray
    up: np.ndarray
    fifty: np.ndarray

    @property
    def case(self) -> np.ndarray:
        """The Yahtzee-box case of each state."""
        filled = (self.mask >> YAHTZEE_BIT) & 1
        return np.where(filled == 0, 0, 1 + self.fifty)

    @property
    def index(self) -> np.ndarray:
        """Where each state lives in a value table."""
        return state_index(self.mask, self.up, self.fifty)

    def __len__(self) -> int:
        return len(self.mask)

    def part(self, cut: Union[slice, np.ndarray]) -> "States":
        """The states in slice `cut`."""
        return States(self.mask[cut], self.up[cut], self.fifty[cut])


@overload
def state_index(mask: int, up: int, fifty: int) -> int: ...
@overload
def state_index(mask: np.ndarray, up: Union[int, np.ndarray], fifty: Union[int, np.ndarray]) -> np.ndarray: ...
def state_index(mask: Union[int, np.ndarray], up: Union[int, np.ndarray],
                fifty: Union[int, np.ndarray]) -> Union[int, np.ndarray]:
    """The flat index of states in a value table."""
    return (mask * UP_STATES + up) * 2 + fifty


def states_of(indices: npt.ArrayLike) -> States:
    """The States at value table indices (state_index undone)."""
    indices = np.asarray(indices, dtype=np.int64)
    return States(indices // (2 * UP_STATES), indices // 2 % UP_STATES, indices % 2)


def empty_values() -> np.ndarray:
    """A value table for every state, all zero (the value of a full card)."""
    return np.zeros(STATE_COUNT)


@functools.cache
def _masks_with(filled: int) -> tuple[int, ...]:
    """The cards with exactly `filled` boxes filled (level_states and share_hopeless ask alike)."""
    masks = np.arange(FULL_CARD + 1)
    counts = sum(masks >> bit & 1 for bit in range(FULL_CARD.bit_length()))
    return tuple(np.flatnonzero(counts == filled).tolist())


def _reachable_ups(upper_mask: int) -> np.ndarray:
    """The capped upper sums that the filled upper boxes of `upper_mask` can add up to."""
    sums = {0}
    for bit in UPPER_BITS:
        if upper_mask >> bit & 1:
            face = bit + 1
            sums = {min(UP_CAP, total + count * face) for total in sums for count in range(DICE + 1)}
    return np.array(sorted(sums))


def _hopeless_below(upper_mask: int) -> int:
    """The upper sums below which the open upper boxes can no longer reach the bonus."""
    reach = sum(DICE * (bit + 1) for bit in UPPER_BITS if not upper_mask >> bit & 1)
    return max(0, UP_CAP - reach)


def _same_future(upper_mask: int, reachable: np.ndarray) -> np.ndarray:
    """For each capped upper sum, the smallest `reachable` sum with the same future (itself if
    none is reachable): every amount the open upper boxes can still add takes both sums to the
    bonus or neither, so nothing still to come tells them apart and the same arithmetic gives
    them the same value (the sums that can no longer reach the bonus are one such kind)."""
    to_come = {0}
    for bit in UPPER_BITS:
        if not upper_mask >> bit & 1:
            to_come = {total + count * (bit + 1) for total in to_come for count in range(DICE + 1)}
    reaching = np.array(sorted(UP_CAP - amount for amount in to_come))  # the sums that `amount` more takes to the bonus
    kinds = np.searchsorted(reaching, np.arange(UP_STATES), side="right")
    smallest: dict[int, int] = {}
    for up in reachable.tolist():
        smallest.setdefault(kinds[up], up)
    return np.array([smallest.get(kind, up) for up, kind in enumerate(kinds)])


def _alike_sums(same_future: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each (upper mask, sum) as upper mask * UP_STATES + sum: where its other reachable sums
    with the same future start in the third array, and how many there are (only the smallest
    of its kind lists them)."""
    start, count = np.zeros((2, len(same_future) * UP_STATES), dtype=np.int64)
    sums: list[int] = []
    for upper, (same, reachable) in enumerate(zip(same_future, REACHABLE_UPS)):
        for up in np.unique(same[reachable]).tolist():
            others = [other for other in reachable.tolist() if same[other] == up and other != up]
            start[upper * UP_STATES + up], count[upper * UP_STATES + up] = len(sums), len(others)
            sums += others
    return start, count, np.array(sums, dtype=np.int64)


UPPER_MASK = sum(1 << bit for bit in UPPER_BITS)
REACHABLE_UPS = [_reachable_ups(upper) for upper in range(UPPER_MASK + 1)]
HOPELESS_BELOW = [_hopeless_below(upper) for upper in range(UPPER_MASK + 1)]
SAME_FUTURE = [_same_future(upper, REACHABLE_UPS[upper]) for upper in range(UPPER_MASK + 1)]
ALIKE_START, ALIKE_COUNT, ALIKE_SUMS = _alike_sums(SAME_FUTURE)
SAME_FUTURE_SUMS = np.array(SAME_FUTURE)  # upper mask x sum: see _same_future


def same_future(index: np.ndarray) -> np.ndarray:
    """For states (value table indices), the one state that stands for each state with the
    same future (the same values, the same play, the same points to come): the smallest
    reachable sum with the same future, and 'not fifty' where the Yahtzee box is open."""
    states = states_of(index)
    fifty = np.where(states.mask >> YAHTZEE_BIT & 1, states.fifty, 0)
    return state_index(states.mask, SAME_FUTURE_SUMS[states.mask & UPPER_MASK, states.up], fifty)


def open_boxes(states: States) -> list[int]:
    """The boxes open in at least one of the states (the others need no look)."""
    open_anywhere = int(np.bitwise_or.reduce(FULL_CARD ^ states.mask))
    return [box for box in range(BOX_COUNT) if open_anywhere >> box & 1]


def level_states(filled: int, batch: int) -> States:
    """Every reachable state with `filled` boxes filled, each solved on its own (Yahtzee box
    open: only 'not fifty'; of the sums that can no longer reach the bonus, only 0: see
    share_hopeless): what the builds' distinct_states are checked against."""
    solved_ups = [reachable[(reachable == 0) | (reachable >= below)]
                  for reachable, below in zip(REACHABLE_UPS, HOPELESS_BELOW)]
    masks = np.array(_masks_with(filled), dtype=np.int64)
    # the 'fifty' states together and first: only they may settle, which takes longest
    parts = [_cards(masks[masks >> YAHTZEE_BIT & 1 == 1], 1, solved_ups), _cards(masks, 0, solved_ups)]
    return whole_batches(States(*(np.concatenate(column) for column in zip(*parts))), batch)


def whole_batches(states: States, batch: int) -> States:
    """The states with the last repeated until they fill whole batches of `batch`."""
    padding = -len(states) % batch
    return States(*(np.concatenate([column, np.repeat(column[-1:], padding)])
                    for column in (states.mask, states.up, states.fifty)))


def yahtzee_filled_masks(filled: int) -> list[int]:
    """The cards with `filled` boxes filled, YAHTZEE among them."""
    return [mask for mask in _masks_with(filled) if mask >> YAHTZEE_BIT & 1]


def _cards(masks: np.ndarray, fifty: int, solved_ups: list[np.ndarray]) -> tuple[np.ndarray, ...]:
    """The columns (mask, up, fifty) of the states of `masks` with the flag `fifty`, a card's
    solved sums (`solved_ups`, by its upper boxes) after another, in the order of `masks`."""
    ups = [solved_ups[upper] for upper in (masks & UPPER_MASK).tolist()]
    counts = [len(sums) for sums in ups]
    mask_column = np.repeat(masks, counts)
    up_column = np.concatenate(ups) if ups else np.zeros(0, dtype=np.int64)
    return mask_column, up_column, np.full(len(mask_column), fifty, dtype=np.int64)


def share_hopeless(values: np.ndarray, filled: int) -> None:
    """Give the cards with `filled` boxes filled whose upper sum can no longer win the bonus
    the value of the same card at sum 0: nothing still to come depends on the sum then, so
    the same arithmetic gives the same value."""
    table = values.reshape(FULL_CARD + 1, UP_STATES, 2)
    for mask in _masks_with(filled):
        below = HOPELESS_BELOW[mask & UPPER_MASK]
        table[mask, 1:below] = table[mask, 0]


def distinct_states(filled: int, fifty_matters: bool = True) -> States:
    """The states with `filled` boxes filled that a build solves: of a card's reachable sums
    with the same future (SAME_FUTURE) only the smallest, and only 'not fifty' where a 50 in
    the Yahtzee box changes nothing (not `fifty_matters`); share_solved gives the others
    their values."""
    solved_ups = [np.unique(same[reachable]) for same, reachable in zip(SAME_FUTURE, REACHABLE_UPS)]
    masks = np.array(_masks_with(filled), dtype=np.int64)
    fifty_masks = masks[masks >> YAHTZEE_BIT & 1 == 1] if fifty_matters else masks[:0]
    parts = [_cards(fifty_masks, 1, solved_ups), _cards(masks, 0, solved_ups)]
    return States(*(np.concatenate(column) for column in zip(*parts)))


def share_solved(values: np.ndarray, states: States, fifty_matters: bool = True) -> None:
    """Give the values of solved states (of distinct_states) to the states they stand for: the
    same card at the other reachable sums with the same future and, where the Yahtzee box's 50
    changes nothing (not `fifty_matters`), the same card with 50 there. In every row of
    `values`, along its last axis: the copies are found once for all the rows."""
    index = states.index
    kind = (states.mask & UPPER_MASK) * UP_STATES + states.up
    copies = ALIKE_COUNT[kind]
    source = np.repeat(index, copies)
    place = np.arange(len(source)) - np.repeat(np.cumsum(copies) - copies, copies)
    sums = ALIKE_SUMS[np.repeat(ALIKE_START[kind], copies) + place]
    alike = state_index(np.repeat(states.mask, copies), sums, np.repeat(states.fifty, copies))
    values[..., alike] = values[..., source]
    if not fifty_matters:
        filled = np.concatenate([states.mask, np.repeat(states.mask, copies)]) >> YAHTZEE_BIT & 1 == 1
        solved = np.concatenate([index, alike])[filled]
        values[..., solved + 1] = values[..., solved]  # the 'fifty' flag is the index's last bit


@functools.cache
def _filled_from() -> np.ndarray:
    """For every state (value table indices), the state fill_unreachable gives it the value of:
    the nearest reachable sum below, and 'not fifty' where the Yahtzee box is open."""
    every = states_of(np.arange(STATE_COUNT))
    nearest = np.zeros((UPPER_MASK + 1, UP_STATES), dtype=np.int64)
    for upper, reachable in enumerate(REACHABLE_UPS):
        nearest[upper] = reachable[np.searchsorted(reachable, np.arange(UP_STATES), side="right") - 1]
    fifty = np.where(every.mask >> YAHTZEE_BIT & 1, every.fifty, 0)
    found = state_index(every.mask, nearest[every.mask & UPPER_MASK, every.up], fifty)
    found.flags.writeable = False  # shared by every call
    return found


def fill_unreachable(values: np.ndarray) -> None:
    """States no game reaches get values too, never garbage: with the Yahtzee box open both
    flags the same, and a sum no card can have that of the nearest reachable sum below (in
    every row of `values`, along its last axis)."""
    source = _filled_from()
    for row in values.reshape(-1, STATE_COUNT):
        row[...] = row[source]


def start_value(values: np.ndarray) -> float:
    """The expected score of a new game."""
    return float(values[state_index(0, 0, 0)])
