"""Turns played for the win before the last one, for many cards at once.

Every roll and keep of the turn is chosen for the chance to finish ahead of the others, as
turn_stages does for the coach, but with both final scores taken as normal: each posting's
card goes on with the table's own play, its final score's mean the table's (its total, the
posting's points and the state's expected remainder) and its spread that of cards alike
(boxes open, the YAHTZEE box, the upper bonus: see rests). The others are one normal too (the
best of several folded together by Clark's moments). Between choices with the same chance (a
game all but won or lost) the higher expected score is taken. The normal keeps the work small
enough to play every turn of many games; the last turn is worked out exactly elsewhere
(rival.win_plan).

Why not each card's own spread, exact, as the win % column has it: a card's own spread is
often wide for a reason a normal misreads (an upper bonus or a fifty that is won or missed
whole), and a choice made among postings for their spread takes the ones the normal flatters.
Over the same 20,000 games against *thinker (bench/rival.py), *rival won 50.89% with each
card's own spread and 52.11% with the spread of cards alike.
"""
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...model import scoring
from ...model.choices import Action, Post, Reroll
from ...model.scoring import Category
from ..exact.dicemath import CHILDREN, DICE, FACE_COUNT, KEEPS, ROLL_INDEX, ROLLS, SUB_KEEPS, YAHTZEE_ROLLS, size_rows
from ..exact.position import reroll_marks
from ..exact.rulearrays import BOX_COUNT, BOXES, UP_CAP, UPPER_BITS, YAHTZEE_BIT, RuleTables
from ..exact.statespace import state_index
from ..exact.table import StrategyTable
from .rests import measured_rests

EXTRA_TURN = BOX_COUNT  # the column of an extra turn, after the thirteen boxes
TIE_BREAK = 1e-7  # the weight of a point of expected score beside the chance to win
NOT_LEGAL = -np.inf
CHUNK = 500  # cards worked out together (their arrays: CHUNK x rolls x columns)
_FACES = np.arange(FACE_COUNT)
_BITS = np.arange(BOX_COUNT)
_UPPER = np.isin(_BITS, UPPER_BITS)
_FIVE = np.array(YAHTZEE_ROLLS)


@dataclass(frozen=True)
class Normal:
    """A final score taken as normal: its mean and its spread (0 for a finished card)."""

    mean: np.ndarray
    spread: np.ndarray


@dataclass(frozen=True)
class TurnPlans:
    """Per roll number, roll and card: the column to post in and, before the last roll, the
    keep to reroll or -1 to post (the shape batch.play_turn reads, one column a card)."""

    boxes: np.ndarray  # roll numbers x rolls x cards
    keeps: np.ndarray  # roll numbers - 1 x rolls x cards

    def choose_keeps(self, stage: int, rolls: np.ndarray, columns: np.ndarray) -> np.ndarray:
        """The keep (or -1) of roll `rolls[i]` for card `columns[i]` after roll number stage + 1."""
        return self.keeps[stage, rolls, columns]

    def action(self, dice: tuple[int, ...], rolls_used: int, card: int = 0) -> Action:
        """Reroll or Post for one card's dice after `rolls_used` rolls."""
        roll = ROLL_INDEX[tuple(sorted(dice))]
        if rolls_used <= len(self.keeps) and self.keeps[rolls_used - 1, roll, card] >= 0:
            return Reroll(reroll_marks(dice, KEEPS[self.keeps[rolls_used - 1, roll, card]]))
        column = self.boxes[rolls_used - 1, roll, card]
        return Post(Category.YAHTZEE if column == EXTRA_TURN else BOXES[column])

    def batch_boxes(self) -> np.ndarray:
        """The boxes as the batch's post reads them (an extra turn is a posting in YAHTZEE)."""
        return np.where(self.boxes == EXTRA_TURN, YAHTZEE_BIT, self.boxes)


def state_spreads(table: StrategyTable) -> np.ndarray:
    """The spread of the remaining score of every state of the table, that of cards alike,
    kept with the table's rests: the memo, emptied when full, would work it out again."""
    return measured_rests(table).alike_spreads


def final_normals(table: StrategyTable, states: np.ndarray, totals: np.ndarray) -> Normal:
    """The final scores of cards at the start of a turn in `states` (value table indices)."""
    return Normal(totals + table.values[states], state_spreads(table)[states])


def best_of(finals: Sequence[Normal]) -> Normal:
    """The highest of several independent normal finals, as one normal (Clark's moments)."""
    best = finals[0]
    for other in finals[1:]:
        spread = np.hypot(best.spread, other.spread)
        alpha = (best.mean - other.mean) / np.maximum(spread, 1e-9)
        high, low = normal_cdf(alpha), normal_cdf(-alpha)
        density = np.exp(-alpha ** 2 / 2) / math.sqrt(2 * math.pi)
        mean = best.mean * high + other.mean * low + spread * density
        second = ((best.mean ** 2 + best.spread ** 2) * high + (other.mean ** 2 + other.spread ** 2) * low
                  + (best.mean + other.mean) * spread * density)
        best = Normal(mean, np.sqrt(np.maximum(second - mean ** 2, 0.0)))
    return best


def normal_cdf(z: np.ndarray) -> np.ndarray:
    """The standard normal distribution function (Abramowitz and Stegun 7.1.26, within 1e-7)."""
    z = np.asarray(z, dtype=float)
    x = np.abs(z) / math.sqrt(2)
    t = 1 / (1 + 0.3275911 * x)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    half_tail = poly * np.exp(-x * x) / 2
    return np.where(z >= 0, 1 - half_tail, half_tail)


def turn_plans(table: StrategyTable, mask: np.ndarray, up: np.ndarray, fifty: np.ndarray, totals: np.ndarray,
               others: Normal) -> TurnPlans:
    """The whole turn of each card (turn-start mask, capped upper sum, fifty, total) played for
    the win against the others' final score `others` (one normal per card)."""
    parts = [_chunk_plans(table, mask[cut], up[cut], fifty[cut], totals[cut], others.mean[cut], others.spread[cut])
             for cut in (slice(start, start + CHUNK) for start in range(0, len(mask), CHUNK))]
    return TurnPlans(np.concatenate([part[0] for part in parts], axis=-1),
                     np.concatenate([part[1] for part in parts], axis=-1))


def _chunk_plans(table: StrategyTable, mask: np.ndarray, up: np.ndarray, fifty: np.ndarray, totals: np.ndarray,
                 their_mean: np.ndarray, their_spread: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """turn_plans for one chunk of cards: (boxes, keeps)."""
    rolls = table.rules.rolls_per_turn
    gains, afters = batch_postings(table.engine.tables, mask, up, fifty)
    legal = afters >= 0
    spread = np.hypot(state_spreads(table)[np.where(legal, afters, 0)], their_spread[:, None, None])
    expected = totals[:, None, None] + gains + table.values[np.where(legal, afters, 0)]
    posts: dict[int, np.ndarray] = {}
    for used in range(1, rolls + 1):
        bonus = table.engine.tables.stage_bonus(used)
        if used > 1 and bonus == table.engine.tables.stage_bonus(used - 1):
            posts[used] = posts[used - 1]
            continue
        mean = (expected + bonus * _fits_with_extra(table))[legal]
        score = np.full(legal.shape, NOT_LEGAL)
        lead = mean - np.broadcast_to(their_mean[:, None, None], legal.shape)[legal]
        score[legal] = normal_cdf(lead / np.maximum(spread[legal], 1e-9)) + TIE_BREAK * mean
        posts[used] = score
    columns = {id(score): score.argmax(axis=2) for score in posts.values()}
    boxes = np.stack([columns[id(posts[used])].T for used in range(1, rolls + 1)])
    keeps = np.full((rolls - 1,) + boxes.shape[1:], -1, dtype=np.int64)
    best_posts = {id(score): np.take_along_axis(score, columns[id(score)][:, :, None], axis=2)[:, :, 0]
                  for score in posts.values()}
    best = best_posts[id(posts[rolls])]
    for used in range(rolls - 1, 0, -1):
        choices = batch_keep_values(best)[:, SUB_KEEPS]
        post_best = best_posts[id(posts[used])]
        rerolls = choices.max(axis=2) > post_best
        chosen = SUB_KEEPS[np.arange(len(ROLLS)), choices.argmax(axis=2)]
        keeps[used - 1] = np.where(rerolls, chosen, -1).T
        best = np.maximum(post_best, choices.max(axis=2))
    return boxes, keeps


def _fits_with_extra(table: StrategyTable) -> np.ndarray:
    """Where a roll bonus counts: the table's fits, and never for an extra turn."""
    fits = table.engine.tables.fits
    return np.concatenate([fits, np.zeros((len(ROLLS), 1), dtype=fits.dtype)], axis=1)


def batch_keep_values(roll_values: np.ndarray) -> np.ndarray:
    """For each card, the value of every keep from the value of every roll the reroll may bring."""
    values = np.empty((len(roll_values), len(KEEPS)))
    values[:, size_rows(DICE)] = roll_values
    for size in range(DICE - 1, -1, -1):
        values[:, size_rows(size)] = values[:, CHILDREN[size]].mean(axis=2)
    return values


def batch_postings(tables: RuleTables, mask: np.ndarray, up: np.ndarray,
                   fifty: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every roll's postings from turn-start states, as winchance.rule_postings works out one's,
    without the roll bonus: (gains, afters), each cards x rolls x (boxes + the extra turn)."""
    count = len(mask)
    case = np.where(mask >> YAHTZEE_BIT & 1, 1 + fifty, 0)
    legal = np.broadcast_to(((mask[:, None] >> _BITS) & 1 == 0)[:, None, :], (count, len(ROLLS), BOX_COUNT)).copy()
    legal[:, _FIVE] = (tables.yahtzee_legal[case[:, None], mask[:, None], _FACES][:, :, None] >> _BITS) & 1 == 1
    points = np.broadcast_to(tables.points, (count,) + tables.points.shape).copy()
    matching = (mask[:, None] >> np.array(UPPER_BITS)) & 1
    points[:, _FIVE] = tables.five_points[case[:, None], matching, _FACES]
    bonus = np.zeros((count, len(ROLLS)), dtype=np.int64)
    bonus[:, _FIVE] = tables.bonus[case[:, None], _FACES]
    up3, fifty3 = up[:, None, None], fifty[:, None, None]
    new_up = np.where(_UPPER, np.minimum(up3 + points, UP_CAP), up3)
    upper_bonus = np.where(_UPPER & (up3 < UP_CAP) & (up3 + points >= UP_CAP), scoring.UPPER_BONUS, 0)
    new_fifty = np.where(_BITS == YAHTZEE_BIT, (points == scoring.YAHTZEE_POINTS).astype(np.int64), fifty3)
    gains = np.zeros((count, len(ROLLS), BOX_COUNT + 1), dtype=np.int64)
    afters = np.full((count, len(ROLLS), BOX_COUNT + 1), -1, dtype=np.int64)
    gains[:, :, :BOX_COUNT] = points + upper_bonus + bonus[:, :, None]
    afters[:, :, :BOX_COUNT] = np.where(legal, state_index(mask[:, None, None] | (1 << _BITS), new_up, new_fifty), -1)
    turn_bonus = tables.turn_bonus[case[:, None], _FACES]
    gains[:, _FIVE, EXTRA_TURN] = turn_bonus
    afters[:, _FIVE, EXTRA_TURN] = np.where(turn_bonus > 0, state_index(mask, up, fifty)[:, None], -1)
    return gains, afters
