"""The dice as index tables: every roll, every keep and how keeps and rolls connect."""
from collections.abc import Sequence
from itertools import combinations_with_replacement
from math import factorial, prod

import numpy as np

from ...model.dice import DICE_COUNT, FACES

DICE = DICE_COUNT  # the strategy modules' short name
FACE_COUNT = len(FACES)  # the arrays hold face f at index f - 1


def _multisets(size: int) -> list[tuple[int, ...]]:
    """Every sorted multiset of `size` faces, those with more different faces first (so the
    keeps with at least n smaller keeps inside them come first: see PARENTS)."""
    return sorted(combinations_with_replacement(FACES, size), key=lambda keep: -len(set(keep)))


# Every keep (a sorted multiset of 0-5 faces), smallest first; the 252 rolls come last.
KEEPS = tuple(keep for size in range(DICE + 1) for keep in _multisets(size))
KEEP_INDEX = {keep: index for index, keep in enumerate(KEEPS)}
SIZE_START = tuple(sum(1 for k in KEEPS if len(k) < size) for size in range(DICE + 2))
ROLLS = KEEPS[SIZE_START[DICE]:]
ROLL_INDEX = {roll: index for index, roll in enumerate(ROLLS)}
ROLL_OFFSET = SIZE_START[DICE]


def size_rows(size: int) -> slice:
    """The slice of KEEPS holding the keeps of `size` dice."""
    return slice(SIZE_START[size], SIZE_START[size + 1])


def _children(size: int) -> np.ndarray:
    """For each keep of `size` dice, the keep after one more die shows each face."""
    return np.array([[KEEP_INDEX[tuple(sorted(keep + (face,)))] for face in FACES]
                     for keep in KEEPS[size_rows(size)]], dtype=np.intp)


def _drop_one(keep: tuple[int, ...]) -> list[int]:
    """The distinct keeps one die smaller than `keep`."""
    return sorted({KEEP_INDEX[keep[:i] + keep[i + 1:]] for i in range(len(keep))})


def _parents(size: int) -> tuple[np.ndarray, list[int]]:
    """For each keep of `size` dice, the keeps one die smaller, padded by repetition; and
    for each column, how many keeps have a parent of their own there (a leading run)."""
    rows = [_drop_one(keep) for keep in KEEPS[size_rows(size)]]
    width = max(len(row) for row in rows)
    counts = [sum(1 for row in rows if len(row) > column) for column in range(width)]
    assert all(len(row) > column for column, count in enumerate(counts) for row in rows[:count])
    return np.array([row + row[:1] * (width - len(row)) for row in rows], dtype=np.intp), counts


def _sub_keep_table() -> np.ndarray:
    """SUB_KEEPS: each roll's rerolling keeps (the smaller keeps inside it, in order), padded
    by repetition."""
    counts = np.array([[keep.count(face) for face in FACES] for keep in KEEPS])
    inside = np.asarray((counts[None, :ROLL_OFFSET] <= counts[ROLL_OFFSET:, None]).all(axis=2))
    rows = [np.flatnonzero(row).tolist() for row in inside]
    width = max(len(row) for row in rows)
    return np.array([row + row[:1] * (width - len(row)) for row in rows], dtype=np.intp)


def _roll_probabilities() -> np.ndarray:
    """The chance of each sorted roll of five dice: its orders among the 6^5 (5! over the
    orders of its equal faces)."""
    counts = np.array([factorial(DICE) // prod(factorial(roll.count(face)) for face in set(roll)) for roll in ROLLS],
                      dtype=np.float64)
    return counts / counts.sum()


CHILDREN = tuple(_children(size) for size in range(DICE))
PARENTS = (None,) + tuple(_parents(size) for size in range(1, DICE + 1))  # (parents, run lengths)
SUB_KEEPS = _sub_keep_table()
ROLL_PROBABILITY = _roll_probabilities()
YAHTZEE_ROLLS = tuple(ROLL_INDEX[(face,) * DICE] for face in FACES)


def sub_keeps(roll: Sequence[int]) -> list[int]:
    """The distinct keeps that reroll at least one die of a sorted roll."""
    return sorted(set(SUB_KEEPS[ROLL_INDEX[tuple(roll)]].tolist()))


# The Generator's type is quoted here and where the engine loads at a game's start: numpy.random
# then loads only where dice are thrown by numpy (simulations, measuring rests).
def random_faces(rng: "np.random.Generator", shape: tuple[int, ...]) -> np.ndarray:
    """Faces thrown at random, an array of `shape`."""
    return rng.integers(FACES.start, FACES.stop, size=shape)


def over_rolls(rows: np.ndarray) -> np.ndarray:
    """The average of `rows` (one value or row per roll) weighted by each roll's chance, the
    same to the last bit on every processor: a matrix product's order of sums is the BLAS
    kernel's, and a table whose values differ in their last bits breaks near-ties differently."""
    weights = ROLL_PROBABILITY.reshape((-1,) + (1,) * (rows.ndim - 1))
    return np.multiply(rows, weights).sum(axis=0)
