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
from dataclasses import dataclass
from math import comb
from typing import Optional

import numpy as np

from ...model import scoring
from .dicemath import FACE_COUNT, KEEPS, ROLL_OFFSET, ROLLS, YAHTZEE_ROLLS, over_rolls
from .progress import Progress
from .rulearrays import BOX_COUNT, UP_CAP, YAHTZEE_BIT, RuleTables
from .sidebyside import IS_UPPER, Posting, SolvedTable
from .solver import Engine, open_boxes
from .stages import CHUNK, TurnStages, Workspace, turn_stages
from .statespace import STATE_COUNT, States, fill_unreachable, level_states, share_hopeless, state_index, states_of
from .team import level_team

ORDERS = 2  # raw moments E[R] and E[R^2] of the remaining score R
EVERY_GAME, FIFTY_AT_END = 0, 1  # the families of moments: over every game, over those ending with 50
Column = tuple[int, int]  # a moment worked out: (family, order)
FIVE_ALIKE = np.array(YAHTZEE_ROLLS)


def solve_moments(table: SolvedTable, progress: Optional[Progress] = None, levels: int = BOX_COUNT,
                  processes: int = 1) -> np.ndarray:
    """The raw moments of every state's remaining score, families x orders x value table
    indices: [EVERY_GAME, k] = E[R^k] (k = 0: 1), [FIFTY_AT_END, k] = E[R^k; the game ends with
    50 in YAHTZEE] (k = 0: its chance). `progress(done, total)` is told after each level. With
    fewer `levels`, only the cards with at least BOX_COUNT - levels boxes filled. With
    `processes` 2, a forked helper solves half of each level where the system can fork (see
    team: only for a process that does nothing else meanwhile); the moments are the same."""
    turns = TurnMoments(table)
    with level_team(processes, (2, ORDERS + 1)) as team:
        moments = team.values
        moments[EVERY_GAME, 0] = 1.0
        moments[FIFTY_AT_END, 0] = states_of(np.arange(STATE_COUNT)).fifty  # what counts of a full card
        rows = moments.reshape(-1, STATE_COUNT)
        for done, filled in enumerate(range(BOX_COUNT - 1, BOX_COUNT - 1 - levels, -1)):
            states = level_states(filled, CHUNK)
            for number, start in enumerate(range(0, len(states), CHUNK)):
                if team.takes(number):
                    turns.solve_batch(states.part(slice(start, start + CHUNK)), moments)
            team.level_done()
            if team.leads:
                for row in rows:
                    share_hopeless(row, filled)
            team.level_done()  # the level is whole before either process reads it
            if progress and team.leads:
                progress(done + 1, levels)
        if team.leads:
            for row in rows:
                fill_unreachable(row)
        return moments if team.size == 1 else moments.copy()  # the helper ends as the block does


@dataclass(frozen=True)
class PostingRows:
    """The postings of the rolls that are not five alike, as few rows: per box, one for each
    distinct (points, fit to the box's pattern) of the rolls; the same points in the same
    box bring the same gain and the same state after (a roll bonus: when the roll fits too).
    Five alike, whose postings depend on the card, come after them, a row per face."""

    box: np.ndarray
    points: np.ndarray
    fits: np.ndarray
    of_roll: np.ndarray  # the row of roll r posted in box b, at b * len(ROLLS) + r

    @classmethod
    def of(cls, tables: RuleTables) -> "PostingRows":
        """The rows for a rule set's tables."""
        of_roll = np.empty((BOX_COUNT, len(ROLLS)), dtype=np.int64)
        keys: list[np.ndarray] = []
        boxes: list[np.ndarray] = []
        for box in range(BOX_COUNT):
            fits = tables.fits[:, box] if tables.roll_bonus else 0
            distinct, of_roll[box] = np.unique(tables.points[:, box] * 2 + fits, return_inverse=True)
            of_roll[box] += sum(len(key) for key in keys)
            keys.append(distinct)
            boxes.append(np.full(len(distinct), box))
        key = np.concatenate(keys)
        of_roll[:, FIVE_ALIKE] = len(key) + np.arange(FACE_COUNT)
        return cls(np.concatenate(boxes), key // 2, key % 2, of_roll.ravel())

    def open_part(self, states: States) -> "PostingRows":
        """The rows of the boxes open in at least one of the states (the others are never
        posted in), numbered anew."""
        live = np.flatnonzero(np.isin(self.box, open_boxes(states)))
        renumbered = np.full(len(self.box) + FACE_COUNT, -1)
        renumbered[live] = np.arange(len(live))
        renumbered[len(self.box):] = len(live) + np.arange(FACE_COUNT)
        return PostingRows(self.box[live], self.points[live], self.fits[live], renumbered[self.of_roll])


class TurnMoments:
    """The moments of batches of states, each turn played by the table's choices: the
    postings worked out per row of PostingRows, not per roll, and every moment of a batch
    carried through the keeps at once, as columns side by side."""

    def __init__(self, table: SolvedTable) -> None:
        self.table = table
        self.engine: Engine = table.engine
        self.rows = PostingRows.of(self.engine.tables)
        self.areas: dict[int, tuple[MomentWork, MomentWork]] = {}

    def solve_batch(self, states: States, moments: np.ndarray) -> None:
        """Write the moments of a batch of states (their turns' later states already solved)."""
        engine, width = self.engine, len(states)
        stages = turn_stages(engine, self.table.values, states, engine.rolls, plan=True)
        own = states.index
        plain_after, postings = self.postings(states, stages)
        looping = any((five_after == own).any() for _gain, five_after, _rows in postings.values())
        if looping:
            moments[:, :, own] = 0.0  # a turn that comes back counts none of the state's own moments yet
        keeps = [_keep_rows(stages.plan_keeps(stage), width) for stage in range(engine.rolls - 1)]
        stay = np.ones(width)
        fifties = not (states.case == 1).all()  # with a zero in YAHTZEE every moment with a fifty is 0
        for columns in _to_solve(looping, fifties):
            plain_seen = _gathered(moments, plain_after)
            posted = {bonus: (_posted_rows(plain_seen, _gathered(moments, five_after), gain, columns), rows)
                      for bonus, (gain, five_after, rows) in postings.items()}
            rest = self.carried(posted, keeps, width, len(columns))
            for column, (family, order) in enumerate(columns):
                if (family, order) == (EVERY_GAME, 0):
                    stay = rest[:, column]  # 1 - the chance of coming back to the same state
                moments[family, order, own] = rest[:, column] / stay

    def postings(self, states: States,
                 stages: TurnStages) -> tuple[np.ndarray, dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]]:
        """The state after every posting row but five alike's (rows x states: the same for
        every roll number); and for each roll bonus the turn's roll numbers bring: the gain of
        every posting row, the state after of five alike's, and each roll's row, flat (rolls x
        states: row * states + state). The same bonus, the same boxes and postings."""
        engine = self.engine
        found: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        open_rows = self.rows.open_part(states)
        after = np.empty(0)
        for stage in range(engine.rolls):
            bonus = engine.stage_bonus(stage + 1)
            if bonus not in found:
                gain, after = _posting_rows(open_rows, states, bonus)
                five_gain, five_after = _five_alike_postings(engine.tables, states, stages.boxes[stage], stage + 1)
                rows = _posting_row_of(open_rows, stages.boxes[stage], len(states))
                found[bonus] = (np.concatenate([gain, five_gain]), five_after, rows)
        return after, found

    def carried(self, posted: dict[int, tuple[np.ndarray, np.ndarray]], keeps: list[np.ndarray], width: int,
                count: int) -> np.ndarray:
        """Carry a batch's posted moments back through its keeps to the turn's start: states x
        count. `posted` holds per roll bonus the moments of every posting row (rows x states,
        flat, x count) and each roll's row (see postings); two work areas take turns, one read
        while the other is written."""
        engine = self.engine
        work, other = self.works(width * count)
        _read_rows(posted[engine.stage_bonus(engine.rolls)], work.post, count)
        for stage in range(engine.rolls - 2, -1, -1):
            engine.keep_values(work)
            _read_rows(posted[engine.stage_bonus(stage + 1)], work.posted, count)
            np.take(work.every.reshape(-1, count), keeps[stage], axis=0, out=other.post.reshape(-1, count), mode="clip")
            work, other = other, work
        return over_rolls(work.post.reshape(len(ROLLS), width, count))

    def works(self, width: int) -> tuple["MomentWork", "MomentWork"]:
        """The two reused work areas for rows of `width`."""
        if width not in self.areas:
            self.areas[width] = (MomentWork(width), MomentWork(width))
        return self.areas[width]


def _read_rows(posted: tuple[np.ndarray, np.ndarray], into: np.ndarray, count: int) -> None:
    """Each roll's posting moments (rolls x states x count) into the rows `into`, from its
    posting row's (see TurnMoments.carried)."""
    moments, rows = posted
    np.take(moments, rows, axis=0, out=into.reshape(-1, count), mode="clip")


class MomentWork(Workspace):
    """A Workspace whose keeps are followed by rows for the postings of every roll: a keep's
    moments and a posting's are read by one gather."""

    def __init__(self, width: int) -> None:
        super().__init__(width)
        self.every = np.empty((len(KEEPS) + len(ROLLS), width))
        self.keeps = self.every[:len(KEEPS)]
        self.post = self.keeps[ROLL_OFFSET:]
        self.posted = self.every[len(KEEPS):]


def _to_solve(looping: bool, fifties: bool) -> list[list[Column]]:
    """The moments a batch works out, in passes: all at once; or, where a turn may come back
    to the same state, order by order, as each needs the state's own lower ones (and every
    game's chance first, as the others are divided by it). Without `fifties`, none with a
    fifty at the end."""
    families = (EVERY_GAME, FIFTY_AT_END) if fifties else (EVERY_GAME,)
    if looping:
        return [[(family, order) for family in families] for order in range(ORDERS + 1)]
    return [[(family, order) for family in families for order in range(ORDERS + 1) if order or family == FIFTY_AT_END]]


def _keep_rows(chosen: np.ndarray, width: int) -> np.ndarray:
    """Where MomentWork.every holds what each roll (rolls x states) goes on with, flat
    (row * states + state): its chosen keep's row, or with none its posting's."""
    rows = np.where(chosen >= 0, chosen, len(KEEPS) + np.arange(len(ROLLS))[:, None])
    return (rows * width + np.arange(width)).ravel()


def _gathered(moments: np.ndarray, after: np.ndarray) -> np.ndarray:
    """moments[:, :, after], a row at a time (faster than numpy's fancy indexing over the three axes)."""
    rows = moments.reshape(-1, moments.shape[-1])
    return np.stack([np.take(row, after) for row in rows]).reshape(moments.shape[:-1] + after.shape)


def _posted_rows(plain_seen: np.ndarray, five_seen: np.ndarray, gain: np.ndarray, columns: list[Column]) -> np.ndarray:
    """The moments of `columns` of every posting row: rows x states x columns, flat over the
    first two, from each row's gain and the moments of its state after (families x orders x
    rows x states: those of the rows but five alike's, then of five alike's)."""
    posted = np.empty(gain.shape + (len(columns),))
    plain = plain_seen.shape[2]
    for column, (family, order) in enumerate(columns):
        posted[:plain, :, column] = _posted_moment(plain_seen[family], order, gain[:plain])
        posted[plain:, :, column] = _posted_moment(five_seen[family], order, gain[plain:])
    return posted.reshape(-1, len(columns))


def _posted_moment(after_moments: np.ndarray, order: int, gain: np.ndarray) -> np.ndarray:
    """E[(gain + R')^order] for each posting, R' the remaining score of its state after (whose
    raw moments are after_moments[j], j = 0, 1, ...)."""
    terms = (comb(order, j) * gain ** (order - j) * after_moments[j] for j in range(order + 1))
    return sum(terms, np.zeros(gain.shape))


def _posting_row_of(rows: PostingRows, boxes: np.ndarray, width: int) -> np.ndarray:
    """The posting row of each roll in its chosen box (rolls x states), flat: row * width + state."""
    chosen = boxes.astype(np.int64) * len(ROLLS) + np.arange(len(ROLLS))[:, None]
    return (rows.of_roll[chosen] * width + np.arange(width)).ravel()


def _posting_rows(rows: PostingRows, states: States, bonus: int) -> tuple[np.ndarray, np.ndarray]:
    """The gain (points, roll bonus, upper bonus) and the state after of every posting row
    but five alike's, in every state (rows x states)."""
    box, points = rows.box[:, None], rows.points[:, None]
    new_up = states.up + np.where(IS_UPPER[box], points, 0)
    crossed = (states.up < UP_CAP) & (new_up >= UP_CAP)
    gain = points + bonus * rows.fits[:, None] + np.where(crossed, scoring.UPPER_BONUS, 0)
    fifty = states.fifty | ((box == YAHTZEE_BIT) & (points == scoring.YAHTZEE_POINTS))
    after = state_index(states.mask | 1 << box, np.minimum(new_up, UP_CAP), fifty)
    return gain.astype(float), after


def _five_alike_postings(tables: RuleTables, states: States, boxes: np.ndarray,
                         rolls_used: int) -> tuple[np.ndarray, np.ndarray]:
    """The points and the state after of the table's posting of five alike (faces x states),
    from their chosen `boxes` (rolls x states) after `rolls_used` rolls (an extra turn: its
    bonus, and the same state)."""
    shape = (FACE_COUNT, len(states))
    mask, up, fifty = (np.broadcast_to(part, shape).ravel() for part in (states.mask, states.up, states.fifty))
    box = boxes[FIVE_ALIKE].ravel().astype(np.int64)
    rolls = np.repeat(FIVE_ALIKE, len(states))
    posting = Posting.of(tables, mask, fifty, rolls, box, np.full(len(rolls), rolls_used))
    posted = posting.posted
    points = np.where(posted, posting.points, 0)
    new_up = up + np.where(IS_UPPER[box], points, 0)
    crossed = (up < UP_CAP) & (new_up >= UP_CAP)
    gain = points + posting.yahtzee_bonus + posting.roll_bonus + np.where(crossed, scoring.UPPER_BONUS, 0)
    fifty = fifty | (posted & (box == YAHTZEE_BIT) & (points == scoring.YAHTZEE_POINTS))
    after = state_index(np.where(posted, mask | 1 << box, mask), np.minimum(new_up, UP_CAP), fifty)
    return gain.reshape(shape).astype(float), after.reshape(shape)
