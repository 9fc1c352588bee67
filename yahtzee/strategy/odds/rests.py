"""What cards still score in a table's own play, worked out once per table, for the cards
whose distribution finals does not work out exactly: each card's own spread, exact (see
moments), and the shape of the remaining score of each kind of card (boxes open, the Yahtzee
box, the upper bonus) in units of a card's own spread, measured in games; a card's
distribution is its kind's shape placed at its own expected score and spread.

A card with YAHTZEE open has two futures, one with 50 in YAHTZEE at the end and one without,
some 50 points apart, and a card whose upper bonus is still to be won two more, with the bonus
and without, 35 points apart: one shape placed on them together misreads the cards whose
chance of the fifty or of the bonus is unusual (a card far behind, zeros in the upper boxes, a
bonus nearly out of reach). So such a card's distribution is one shape for each future it may
take (fifty or not, bonus or not: up to four), each its kind's shape for that future
(measured over the games that took it), placed at that future's exact mean and spread
(moments' families), weighed by the card's own exact chance of it.

The games: REST_GAMES of the table's own play and as many that stray once into a box drawn
at random, so that cards the table seldom leaves (a zero in YAHTZEE early) have shapes of
their own. cache.ready_rests keeps them beside the table.
"""
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Optional, Protocol

import numpy as np

from ..exact.dicemath import DICE, ROLL_PROBABILITY, ROLLS, YAHTZEE_ROLLS
from ..exact.moments import ORDERS, solve_moments
from ..exact.progress import Progress
from ..exact.rulearrays import BOX_COUNT, UP_CAP, UPPER_BITS, YAHTZEE_BIT
from ..exact.sidebyside import Cards, NumpyDice, SolvedTable, play_turns
from ..exact.statespace import STATE_COUNT, States, states_of
from .futures import FUTURES, OPEN_SLOTS, Exact, Futures, futures_at, open_slots

REST_GAMES = 40_000  # games whose turns measure the shapes of remaining scores
SHAPE_REACH = 1000  # a measured shape's offsets from the mean: -1000..1000 steps
STEPS_PER_SPREAD = 100  # a step is a hundredth of the card's own spread: offsets reach 10 spreads
SMOOTHING = 4  # the shapes' histograms are smoothed over about this many steps
MIN_SAMPLE = 2000  # the fewest remaining scores a shape is measured from
# Kept in single precision, as the package brings them: what they place is whole points.
SINGLE = ("bonus", "both")


OFFSETS = np.arange(-SHAPE_REACH, SHAPE_REACH + 1)
FULL_CARD_KINDS = 9  # the kinds of a full card come first; nothing is to come there
FILLED_COUNTS = np.array([bin(mask).count("1") for mask in range(2 ** BOX_COUNT)], dtype=np.int64)


@dataclass(frozen=True)
class Rests:
    """What cards still score in the table's own play: each state's own spread, and the
    shape of each kind of card (see rest_kinds) around its own mean."""

    spreads: np.ndarray  # every state's: the standard deviation of its remaining score, exact
    shapes: np.ndarray   # kinds x offsets -SHAPE_REACH..SHAPE_REACH
    centres: np.ndarray  # each shape's own mean offset (near 0: it is moved by that much less)
    alike: np.ndarray    # each kind's spread over the cards of it in the games (see earlyturns)
    fifty: np.ndarray    # E[R^k; a fifty at the end], k = 0, 1, 2, of every state with YAHTZEE open (open_slots)
    bonus: np.ndarray    # E[R^k; the upper bonus at the end] of every state
    both: np.ndarray     # E[R^k; both at the end] of every state with YAHTZEE open (open_slots)
    futures: np.ndarray  # FUTURES x kinds x offsets: the shape of each future (see Futures)
    future_centres: np.ndarray  # FUTURES x kinds: each future's shape's own mean offset

    @cached_property
    def alike_spreads(self) -> np.ndarray:
        """Every state's spread of cards alike: its kind's."""
        return self.alike[state_kinds()]

    @cached_property
    def exact(self) -> "Exact":
        """The exact moments kept with them."""
        return Exact(self.spreads, self.fifty, self.bonus, self.both)


class MeasuredTable(SolvedTable, Protocol):
    """A table whose rests are measured: a table.StrategyTable (the table module imports this one, through solver)."""

    @property
    def rules(self) -> Hashable: ...

    @property
    def objective(self) -> Hashable: ...

    moments: Optional[np.ndarray]  # those a build worked out with the values, until the rests are measured


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


def measured_rests(table: MeasuredTable, progress: Optional[Progress] = None, processes: int = 1) -> Rests:
    """The table's rests: remembered, or measured now (see measure_rests), from the moments its
    build worked out if it did (the table then lets them go)."""
    key = (table.rules, table.objective)
    if key not in MEASURED_RESTS:
        exact = None if table.moments is None else Exact.of(table.moments)
        table.moments = None
        MEASURED_RESTS[key] = measure_rests(table, progress=progress, exact=exact, processes=processes)
    return MEASURED_RESTS[key]


def has_rests(table: MeasuredTable) -> bool:
    """The table's rests are ready in this process."""
    return (table.rules, table.objective) in MEASURED_RESTS


def remember_rests(table: MeasuredTable, rests: Rests) -> None:
    """Keep rests read or measured elsewhere for the table (see cache.ready_rests)."""
    MEASURED_RESTS[table.rules, table.objective] = rests


def rest_arrays() -> dict[str, tuple[tuple[int, ...], np.dtype]]:
    """The shape and dtype of each array of Rests."""
    kinds, width = (BOX_COUNT + 1) * 9, 2 * SHAPE_REACH + 1
    shapes = {"spreads": (STATE_COUNT,), "shapes": (kinds, width), "centres": (kinds,), "alike": (kinds,),
              "fifty": (ORDERS + 1, OPEN_SLOTS), "bonus": (ORDERS + 1, STATE_COUNT), "both": (ORDERS + 1, OPEN_SLOTS),
              "futures": (FUTURES, kinds, width), "future_centres": (FUTURES, kinds)}
    return {name: (shape, np.dtype(np.float32 if name in SINGLE else np.float64)) for name, shape in shapes.items()}


def measure_rests(table: MeasuredTable, games: int = REST_GAMES, seed: int = 0,
                  progress: Optional[Progress] = None, exact: Optional[Exact] = None,
                  processes: int = 1) -> Rests:
    """Rests: every state's spread and its moments with a fifty at the end, exact
    (moments.solve_moments), then the shapes measured over `games` seeded games of the table's
    own play, from every turn's start: each turn start's remaining score off its expected one,
    in its own spreads (and apart, for each future, off that future's). Half the games stray
    once, at a turn drawn at random, into a box drawn at random, YAHTZEE as often as all
    others together (so that cards the table itself seldom leaves, a zero in YAHTZEE early
    above all, are measured too); those count only from the turn after. `progress(done, 26)`
    is told after each level of the moments and before each turn (and may raise to stop).
    `exact` moments already worked out are taken as they are; else with `processes` 2 they
    are worked out by two processes where the system can fork (see moments)."""
    if exact is None:
        halves = None if progress is None else lambda done, total: progress(done, 2 * total)
        exact = Exact.of(solve_moments(table, halves, processes=processes))
    cards, strays, (rows, kinds, at, totals) = played_games(table, games, seed, progress)
    scored = cards.totals[rows] - totals
    sample = Sample(kinds, (scored - table.values[at]) / np.maximum(exact.spreads[at], 1e-9))
    shapes = sample.shapes()
    alike = sample.alike_spreads(exact.spreads[at], own_play=strays[rows] < 0)
    states, state_of = np.unique(at, return_inverse=True)  # the turn starts' states, each once
    slots = open_slots(states)
    futures = futures_at(exact, table.values[states], states, slots)
    taken = 2 * (cards.fifty[rows] & (slots[state_of] >= 0)) + (cards.upper[rows] >= UP_CAP)
    future_shapes = np.stack([future_sample(futures, state_of, took, kinds, scored, taken).shapes(fallback=shapes)
                              for took in range(FUTURES)])
    return Rests(exact.spreads, shapes, shapes @ OFFSETS, alike, exact.fifty, exact.bonus, exact.both, future_shapes,
                 future_shapes @ OFFSETS)


def played_games(table: MeasuredTable, games: int, seed: int,
                 progress: Optional[Progress]) -> tuple[Cards, np.ndarray, tuple[np.ndarray, ...]]:
    """measure_rests' seeded games, played to their end: the cards, each game's straying turn
    (-1: none), and every counted turn start's game, kind, state and total then. A game that
    strays leaves the game of the table's own play it pairs with at its straying turn, with
    that game's card: its turns before are that game's, never played twice."""
    rng = np.random.default_rng(seed)
    cards = Cards.empty(2 * games)
    dice, playing = NumpyDice(rng), np.arange(games)
    strays = np.concatenate([np.full(games, -1), rng.integers(BOX_COUNT - 1, size=games)])
    starts: list[tuple[np.ndarray, ...]] = []
    for turn in range(BOX_COUNT):
        if progress:
            progress(BOX_COUNT + turn, 2 * BOX_COUNT)
        leaving = games + np.flatnonzero(strays[games:] == turn)
        cards.copy(leaving - games, leaving)
        states = cards.states(playing)
        counted = strays[playing] < turn
        starts.append((playing[counted], rest_kinds(states)[counted], states.index[counted],
                       cards.totals[playing][counted]))
        _stray(table, cards, leaving, rng)
        play_turns(table, cards, playing, dice)
        playing = np.concatenate([playing, leaving])
        playing = playing[~cards.is_full[playing]]
    return cards, strays, tuple(np.concatenate(part) for part in zip(*starts))


def future_sample(futures: "Futures", state_of: np.ndarray, took: int, kinds: np.ndarray, scored: np.ndarray,
                  taken: np.ndarray) -> "Sample":
    """The cards with several futures whose game took future `took` (see Futures: of the
    states, each card's at `state_of`), each remaining score off that future's mean in its spreads."""
    chosen = futures.several[state_of] & (taken == took)
    state = state_of[chosen]
    offsets = (scored[chosen] - futures.means[took][state]) / np.maximum(futures.spreads[took][state], 1e-9)
    return Sample(kinds[chosen], offsets)


@dataclass(frozen=True)
class Groups:
    """The cards of a sample grouped by a key: each group's positions, in the sample's order."""

    order: np.ndarray
    starts: np.ndarray

    @classmethod
    def of(cls, keys: np.ndarray, count: int) -> "Groups":
        """The groups of keys 0..count - 1."""
        starts = np.concatenate([[0], np.cumsum(np.bincount(keys, minlength=count))])
        return cls(np.argsort(keys.astype(np.int16), kind="stable"), starts)  # radix-sorted: small keys

    def members(self, key: int) -> np.ndarray:
        """The positions of the cards with `key`."""
        return self.order[self.starts[key]:self.starts[key + 1]]


@dataclass(frozen=True)
class Sample:
    """Remaining scores measured in games: the kind of each card and its offset in spreads."""

    kinds: np.ndarray
    offsets: np.ndarray

    @cached_property
    def groups(self) -> tuple[Groups, Groups, Groups]:
        """The cards by boxes open; by boxes open and YAHTZEE box; by kind (see rest_kinds)."""
        count = (BOX_COUNT + 1) * 9
        return (Groups.of(self.kinds // 9, count // 9), Groups.of(self.kinds // 3, count // 3),
                Groups.of(self.kinds, count))

    def alike(self, kind: int) -> np.ndarray:
        """The cards a kind's shape is measured from (their positions): the narrowest of its
        kind, the same boxes open and YAHTZEE box, the same boxes open, with at least
        MIN_SAMPLE cards."""
        opens, opens_case, kinds = self.groups
        return _alike(opens.members(kind // 9), opens_case.members(kind // 3), kinds.members(kind))

    def alike_spreads(self, spreads: np.ndarray, own_play: np.ndarray) -> np.ndarray:
        """Each kind's spread over its cards (the root mean square of their own `spreads`) as
        the table's own play meets them: the cards of a stray left out where the kind has others."""
        alike = np.zeros((BOX_COUNT + 1) * 9)
        for kind in range(FULL_CARD_KINDS, len(alike)):
            chosen = self.alike(kind)
            unstrayed = chosen[own_play[chosen]]
            alike[kind] = np.sqrt(np.mean(spreads[unstrayed if len(unstrayed) else chosen] ** 2))
        return alike

    def shapes(self, fallback: Optional[np.ndarray] = None) -> np.ndarray:
        """The shape of every kind; a kind without a card measured: `fallback`'s shape."""
        shapes = np.zeros(((BOX_COUNT + 1) * 9, 2 * SHAPE_REACH + 1))
        shapes[:FULL_CARD_KINDS, SHAPE_REACH] = 1.0  # nothing is to come
        for kind in range(FULL_CARD_KINDS, len(shapes)):
            chosen = self.alike(kind)
            if not len(chosen) and fallback is not None:
                shapes[kind] = fallback[kind]
                continue
            sample = self.offsets[chosen]
            # The spread is each card's own, exact: the sample gives the shape alone.
            shapes[kind] = _shape((sample - sample.mean()) / max(sample.std(), 1e-9) * STEPS_PER_SPREAD)
        return shapes


def _stray(table: SolvedTable, cards: Cards, games: np.ndarray, rng: "np.random.Generator") -> None:
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
    enough = [pick for pick in chosen if len(pick) >= MIN_SAMPLE]
    return enough[-1] if enough else chosen[0]


def _shape(offsets: np.ndarray) -> np.ndarray:
    """A smoothed histogram of offsets on -SHAPE_REACH..SHAPE_REACH (the ends take the rest)."""
    rounded = np.clip(np.rint(offsets).astype(np.int64), -SHAPE_REACH, SHAPE_REACH) + SHAPE_REACH
    counts = np.bincount(rounded, minlength=len(OFFSETS)).astype(float)
    kernel = np.exp(-np.arange(-3 * SMOOTHING, 3 * SMOOTHING + 1) ** 2 / (2 * SMOOTHING ** 2))
    smooth = np.convolve(counts, kernel / kernel.sum(), mode="same")
    return smooth / smooth.sum()


def _filled_counts(masks: np.ndarray) -> np.ndarray:
    """How many boxes each mask fills (read from a table: counting bits over a million cards
    took longer than the rest of their kinds)."""
    return FILLED_COUNTS[np.asarray(masks)]


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
    spread; where several futures may come, each future's shape placed at its own, weighed by
    its chance."""
    rests = measured_rests(table)
    index = np.asarray(states, dtype=np.int64)
    futures = futures_at(rests.exact, table.values[index], index)
    found = {}
    for card, (state, kind) in enumerate(zip(index.tolist(), rest_kinds(states_of(index)).tolist())):
        if not futures.several[card]:
            found[state] = placed_shape(rests.shapes[kind], rests.centres[kind], float(table.values[state]),
                                        float(rests.spreads[state]))
            continue
        taken = np.flatnonzero(futures.possible[:, card])
        weights = futures.chances[taken, card] / futures.chances[taken, card].sum()  # what the least ones had too
        parts = [weight * placed_shape(rests.futures[took, kind], rests.future_centres[took, kind],
                                       float(futures.means[took, card]), float(futures.spreads[took, card]))
                 for took, weight in zip(taken.tolist(), weights.tolist())]
        pmf = np.zeros(max(len(part) for part in parts))
        for part in parts:
            pmf[:len(part)] += part
        found[state] = pmf
    return found
