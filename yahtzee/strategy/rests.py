"""What cards still score in a table's own play, worked out once per table, for the cards
whose distribution finals does not work out exactly: each card's own spread, exact (see
moments), and the shape of the remaining score of each kind of card (boxes open, the Yahtzee
box, the upper bonus) in units of a card's own spread, measured in games; a card's
distribution is its kind's shape placed at its own expected score and spread.

The games: REST_GAMES of the table's own play and as many that stray once into a box drawn
at random, so that cards the table seldom leaves (a zero in YAHTZEE early) have shapes of
their own. cache.ready_rests keeps them beside the table.
"""
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Optional, Protocol

import numpy as np

from .batch import Cards, NumpyDice, SolvedTable, play_turns
from .dicemath import DICE, ROLL_PROBABILITY, ROLLS, YAHTZEE_ROLLS
from .moments import solve_moments
from .progress import Progress
from .statespace import STATE_COUNT, States, states_of
from .tables import BOX_COUNT, UP_CAP, UPPER_BITS, YAHTZEE_BIT

REST_GAMES = 40_000  # games whose turns measure the shapes of remaining scores
SHAPE_REACH = 1000  # a measured shape's offsets from the mean: -1000..1000 steps
STEPS_PER_SPREAD = 100  # a step is a hundredth of the card's own spread: offsets reach 10 spreads
SMOOTHING = 4  # the shapes' histograms are smoothed over about this many steps
MIN_SAMPLE = 2000  # the fewest remaining scores a shape is measured from


OFFSETS = np.arange(-SHAPE_REACH, SHAPE_REACH + 1)
FULL_CARD_KINDS = 9  # the kinds of a full card come first; nothing is to come there


@dataclass(frozen=True)
class Rests:
    """What cards still score in the table's own play: each state's own spread, and the
    shape of each kind of card (see rest_kinds) around its own mean."""

    spreads: np.ndarray  # every state's: the standard deviation of its remaining score, exact
    shapes: np.ndarray   # kinds x offsets -SHAPE_REACH..SHAPE_REACH
    centres: np.ndarray  # each shape's own mean offset (near 0: it is moved by that much less)
    alike: np.ndarray    # each kind's spread over the cards of it in the games (see winturns)

    @cached_property
    def alike_spreads(self) -> np.ndarray:
        """Every state's spread of cards alike: its kind's."""
        return self.alike[state_kinds()]


class MeasuredTable(SolvedTable, Protocol):
    """A table whose rests are measured: a table.StrategyTable (the table module imports this one, through solver)."""

    @property
    def rules(self) -> Hashable: ...

    @property
    def objective(self) -> Hashable: ...


# The measured rests of each (rules, objective), apart from a table's memo, which is emptied when full.
MEASURED_RESTS: dict[tuple[Hashable, Hashable], Rests] = {}


def rest_kinds(states: States) -> np.ndarray:
    """The kind of each card as the measured shapes tell them apart: boxes open, Yahtzee box
    (open, a zero, a fifty), upper bonus (won, still possible, lost)."""
    up_open = np.zeros(len(states), dtype=np.int64)
    for bit in UPPER_BITS:
        up_open += np.where(states.mask >> bit & 1, 0, DICE * (bit + 1))
    bonus = np.where(states.up >= UP_CAP, 0, np.where(states.up + up_open >= UP_CAP, 1, 2))
    opens = BOX_COUNT - _filled_counts(states.mask)
    return (opens * 3 + states.case) * 3 + bonus


@cache
def state_kinds() -> np.ndarray:
    """The kind of every state (value table indices)."""
    return rest_kinds(states_of(np.arange(STATE_COUNT)))


def measured_rests(table: MeasuredTable, progress: Optional[Progress] = None) -> Rests:
    """The table's rests: remembered, or measured now (see measure_rests)."""
    key = (table.rules, table.objective)
    if key not in MEASURED_RESTS:
        MEASURED_RESTS[key] = measure_rests(table, progress=progress)
    return MEASURED_RESTS[key]


def has_rests(table: MeasuredTable) -> bool:
    """The table's rests are ready in this process."""
    return (table.rules, table.objective) in MEASURED_RESTS


def remember_rests(table: MeasuredTable, rests: Rests) -> None:
    """Keep rests read or measured elsewhere for the table (see cache.ready_rests)."""
    MEASURED_RESTS[table.rules, table.objective] = rests


def rest_arrays_shapes() -> dict[str, tuple[int, ...]]:
    """The shape of each array of Rests."""
    kinds = (BOX_COUNT + 1) * 9
    return {"spreads": (STATE_COUNT,), "shapes": (kinds, 2 * SHAPE_REACH + 1), "centres": (kinds,), "alike": (kinds,)}


def measure_rests(table: MeasuredTable, games: int = REST_GAMES, seed: int = 0,
                  progress: Optional[Progress] = None, spreads: Optional[np.ndarray] = None) -> Rests:
    """Rests: every state's spread, exact (moments.solve_moments), then the shapes measured
    over `games` seeded games of the table's own play, from every turn's start: each turn
    start's remaining score off its expected one, in its own spreads. Half the games stray
    once, at a turn drawn at random, into a box drawn at random, YAHTZEE as often as all
    others together (so that cards the table itself seldom leaves, a zero in YAHTZEE early
    above all, are measured too); those count only from the turn after. `progress(done, 26)`
    is told after each level of the spreads and before each turn (and may raise to stop).
    `spreads` already worked out are taken as they are."""
    if spreads is None:
        halves = None if progress is None else lambda done, total: progress(done, 2 * total)
        spreads = spreads_of(solve_moments(table, halves))
    rng = np.random.default_rng(seed)
    cards = Cards.empty(2 * games)
    dice, playing = NumpyDice(rng), np.arange(2 * games)
    strays = np.concatenate([np.full(games, -1), rng.integers(BOX_COUNT - 1, size=games)])
    starts: list[tuple[np.ndarray, ...]] = []
    for turn in range(BOX_COUNT):
        if progress:
            progress(BOX_COUNT + turn, 2 * BOX_COUNT)
        states = cards.states(playing)
        counted = strays[playing] < turn
        starts.append((playing[counted], rest_kinds(states)[counted],
                       (cards.totals[playing] + table.values[states.index])[counted], spreads[states.index][counted]))
        straying = strays[playing] == turn
        _stray(table, cards, playing[straying], rng)
        play_turns(table, cards, playing[~straying], dice)
        playing = playing[~cards.is_full[playing]]
    rows, kinds, expected, spread = (np.concatenate(part) for part in zip(*starts))
    offsets = (cards.totals[rows] - expected) / np.maximum(spread, 1e-9)
    opens, cases = kinds // 9, kinds // 3 % 3
    own_play = strays[rows] < 0
    shapes = np.zeros(((BOX_COUNT + 1) * 9, 2 * SHAPE_REACH + 1))
    shapes[:FULL_CARD_KINDS, SHAPE_REACH] = 1.0  # nothing is to come
    alike = np.zeros(len(shapes))
    for count in range(1, BOX_COUNT + 1):
        for case in range(3):
            for bonus in range(3):
                kind = (count * 3 + case) * 3 + bonus
                same_case = (opens == count) & (cases == case)
                chosen = _alike(opens == count, same_case, kinds == kind)
                sample = offsets[chosen]
                # The spread is each card's own, exact: the sample gives the shape alone.
                shapes[kind] = _shape((sample - sample.mean()) / max(sample.std(), 1e-9) * STEPS_PER_SPREAD)
                # The spread of cards alike as the table's own play meets them: the strays left out.
                unstrayed = chosen & own_play if (chosen & own_play).any() else chosen
                alike[kind] = np.sqrt(np.mean(spread[unstrayed] ** 2))
    return Rests(spreads, shapes, shapes @ OFFSETS, alike)


def spreads_of(moments: np.ndarray) -> np.ndarray:
    """The standard deviation of every state's remaining score, from its raw moments."""
    return np.sqrt(np.maximum(moments[2] - moments[1] ** 2, 0.0))


def _stray(table: SolvedTable, cards: Cards, games: np.ndarray, rng: np.random.Generator) -> None:
    """One turn of `games` posted at random: a first roll (not five alike) in an open box."""
    if not len(games):
        return
    plain = np.setdiff1d(np.arange(len(ROLLS)), YAHTZEE_ROLLS)
    weights = ROLL_PROBABILITY[plain] / ROLL_PROBABILITY[plain].sum()
    rolls = rng.choice(plain, size=len(games), p=weights)
    open_boxes = (cards.mask[games, None] >> np.arange(BOX_COUNT)) & 1 == 0
    draws = rng.random(open_boxes.shape)
    draws[:, YAHTZEE_BIT] = rng.random(len(games)) ** (1 / (open_boxes.sum(axis=1) - 1).clip(1))
    boxes = np.where(open_boxes, draws, -1.0).argmax(axis=1)
    cards.post(table.engine.tables, games, rolls, boxes, np.ones(len(games), dtype=np.int64))


def _alike(*chosen: np.ndarray) -> np.ndarray:
    """The narrowest of the `chosen` sets of cards (widest first) with enough cards in it."""
    enough = [pick for pick in chosen if pick.sum() >= MIN_SAMPLE]
    return enough[-1] if enough else chosen[0]


def _shape(offsets: np.ndarray) -> np.ndarray:
    """A smoothed histogram of offsets on -SHAPE_REACH..SHAPE_REACH (the ends take the rest)."""
    rounded = np.clip(np.rint(offsets).astype(np.int64), -SHAPE_REACH, SHAPE_REACH) + SHAPE_REACH
    counts = np.bincount(rounded, minlength=len(OFFSETS)).astype(float)
    kernel = np.exp(-np.arange(-3 * SMOOTHING, 3 * SMOOTHING + 1) ** 2 / (2 * SMOOTHING ** 2))
    smooth = np.convolve(counts, kernel / kernel.sum(), mode="same")
    return smooth / smooth.sum()


def _filled_counts(masks: np.ndarray) -> np.ndarray:
    """How many boxes each mask fills."""
    return ((np.asarray(masks)[:, None] >> np.arange(BOX_COUNT)) & 1).sum(axis=1)


def placed_shape(shape: np.ndarray, centre: float, mean: float, spread: float) -> np.ndarray:
    """A shape (the chance of each offset, in STEPS_PER_SPREAD steps a spread, -SHAPE_REACH..
    SHAPE_REACH, its own mean at `centre`) for a score of this `mean` and `spread`: on whole
    points 0, 1, ..., a share of each offset's chance on the two points around it, anything
    below 0 at 0."""
    support = np.flatnonzero(shape)  # a shape is mostly zeros: place only its support
    points = np.maximum(mean + (OFFSETS[support] - centre) * spread / STEPS_PER_SPREAD, 0.0)
    low = np.floor(points).astype(np.int64)
    upper_share = points - low
    chances = shape[support]
    pmf = np.bincount(low, weights=chances * (1 - upper_share), minlength=low.max() + 2)
    pmf[1:] += np.bincount(low, weights=chances * upper_share, minlength=low.max() + 1)
    return pmf


def shape_at(table: MeasuredTable, states: Sequence[int]) -> dict[int, np.ndarray]:
    """The measured shape of each state's kind placed at the state's own expected score and
    spread."""
    rests = measured_rests(table)
    return {int(state): placed_shape(rests.shapes[kind], rests.centres[kind], float(table.values[state]),
                                     float(rests.spreads[state]))
            for state, kind in zip(states, rest_kinds(states_of(states)))}

