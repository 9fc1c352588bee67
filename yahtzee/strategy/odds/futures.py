"""A card's futures: with 50 in YAHTZEE at the end or not, with the upper bonus or not (up to
four), each with its exact chance, mean and spread, from the moments' families (see moments),
which rests keeps for every state (the families with a fifty only for the states with YAHTZEE
open, in their open slots)."""
from dataclasses import dataclass
from functools import cached_property
from typing import Optional

import numpy as np

from ..exact.moments import BONUS_AT_END, BOTH_AT_END, EVERY_GAME, FIFTY_AT_END, ORDERS
from ..exact.rulearrays import BOX_COUNT, FULL_CARD, UP_STATES, YAHTZEE_BIT
from ..exact.statespace import states_of

OPEN_SLOTS = 2 ** (BOX_COUNT - 1) * UP_STATES  # the states with YAHTZEE open, where two futures may come
FUTURES = 4  # with neither, the bonus, the fifty, both at the end: 2 * fifty + bonus
LEAST_FUTURE = 1e-6  # a future at least this likely has a shape of its own


@dataclass(frozen=True)
class Exact:
    """What moments gives rests: every state's spread, and its moments with a fifty, the
    bonus and both at the end."""

    spreads: np.ndarray
    fifty: np.ndarray  # 3 x the states with YAHTZEE open (open_slots)
    bonus: np.ndarray  # 3 x every state
    both: np.ndarray  # 3 x the states with YAHTZEE open

    @classmethod
    def of(cls, moments: np.ndarray) -> "Exact":
        """From moments.solve_moments's arrays."""
        return cls(spreads_of(moments[EVERY_GAME]), kept_open(moments[FIFTY_AT_END]),
                   moments[BONUS_AT_END].astype(np.float32), kept_open(moments[BOTH_AT_END]).astype(np.float32))


def kept_open(moments: np.ndarray) -> np.ndarray:
    """A family's moments (orders x every state) of the states with YAHTZEE open, in their
    open_slots: the cards without the YAHTZEE bit, in order, at every upper sum, 'not fifty'
    (a view of the table's own layout, state_index's, copied once)."""
    above = FULL_CARD >> (YAHTZEE_BIT + 1)  # the boxes after YAHTZEE, as a number
    table = moments.reshape(len(moments), above + 1, 2, 1 << YAHTZEE_BIT, UP_STATES, 2)
    return table[:, :, 0, :, :, 0].reshape(len(moments), OPEN_SLOTS)


def open_slots(index: np.ndarray) -> np.ndarray:
    """Where the moments with a fifty at the end of each state are kept: its filled boxes but
    YAHTZEE, then its upper sum; -1 for a state with YAHTZEE filled (its future is one)."""
    states = states_of(index)
    below, above = states.mask & ((1 << YAHTZEE_BIT) - 1), (states.mask >> (YAHTZEE_BIT + 1)) << YAHTZEE_BIT
    others = below | above
    kept = ((states.mask >> YAHTZEE_BIT) & 1 == 0) & (states.fifty == 0)  # a fifty with YAHTZEE open never comes
    return np.where(kept, others * UP_STATES + states.up, -1)


def fifty_moments(kept: np.ndarray, index: np.ndarray) -> np.ndarray:
    """E[R^k; a fifty (or both) at the end] of states at these value table indices, from the
    moments kept for YAHTZEE open (a state with YAHTZEE filled: 0; the fifty is no future of it)."""
    return moments_in_slots(kept, open_slots(index))


def moments_in_slots(kept: np.ndarray, slots: np.ndarray) -> np.ndarray:
    """fifty_moments of the states with these open_slots."""
    return np.where(slots >= 0, kept[:, np.maximum(slots, 0)], 0.0)


def spreads_of(moments: np.ndarray) -> np.ndarray:
    """The standard deviation of every state's remaining score, from its raw moments."""
    return np.sqrt(np.maximum(moments[2] - moments[1] ** 2, 0.0))


@dataclass(frozen=True)
class Futures:
    """Of cards: the chance, mean and spread of each future (FUTURES x cards): the game ends
    with neither the fifty nor the upper bonus, with the bonus, with the fifty, with both
    (2 * fifty + bonus; the fifty counts only where YAHTZEE is still open)."""

    chances: np.ndarray
    means: np.ndarray
    spreads: np.ndarray

    @classmethod
    def of(cls, joint: np.ndarray) -> "Futures":
        """From each future's raw moments E[R^k; that future], FUTURES x orders x cards, worked
        out in their place (the means and spreads of a million cards in fresh arrays cost more
        in new pages than their arithmetic): `joint` is spent."""
        shares = np.maximum(joint[:, 0], LEAST_FUTURE)
        means = np.divide(joint[:, 1], shares, out=joint[:, 1])
        seconds = np.divide(joint[:, 2], shares, out=joint[:, 2])
        np.subtract(seconds, np.square(means, out=shares), out=seconds)
        np.maximum(seconds, 0.0, out=seconds)
        return cls(joint[:, 0], means, np.sqrt(seconds, out=seconds))

    @cached_property
    def possible(self) -> np.ndarray:
        """The futures each card may take (FUTURES x cards): at least LEAST_FUTURE likely."""
        return self.chances >= LEAST_FUTURE

    @cached_property
    def several(self) -> np.ndarray:
        """The cards with more than one future."""
        return self.possible.sum(axis=0) > 1


def futures_at(exact: Exact, means: np.ndarray, index: np.ndarray, slots: Optional[np.ndarray] = None) -> Futures:
    """The futures of the states at these value table indices, of these expected scores (their
    open_slots, if the caller has them already). Each future's moments are worked out in place,
    step by step in the same precisions (bonus - both in single): no stacked copies of the
    moments of the million cards rests measures."""
    slots = open_slots(index) if slots is None else slots
    fifty, both = moments_in_slots(exact.fifty, slots), moments_in_slots(exact.both, slots)
    bonus = exact.bonus[:, index]
    joint = np.empty((FUTURES, ORDERS + 1, len(index)))
    neither = joint[0]  # every game's moments, less those of the other futures
    neither[0], neither[1] = 1.0, means
    np.square(exact.spreads[index], out=neither[2])
    neither[2] += means ** 2
    np.subtract(neither, fifty, out=neither)
    np.subtract(neither, bonus, out=neither)
    np.add(neither, both, out=neither)
    np.subtract(bonus, both, out=joint[1])
    np.subtract(fifty, both, out=joint[2])
    joint[3] = both
    return Futures.of(joint)
