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
E[R^k; a fifty at the end]; with it 1 where the card won the upper bonus, over the games that
end with the bonus; with both, over those that end with both. A card with YAHTZEE open has two
kinds of future, with the fifty and without, the one about 50 points above the other, and a
card whose bonus is still to be won two more, with it and without, 35 points apart: rests
places a shape on each.
"""
from dataclasses import dataclass
from math import comb
from typing import Optional

import numpy as np

from ...model import scoring
from .dicemath import FACE_COUNT, KEEPS, ROLL_OFFSET, ROLL_PROBABILITY, ROLLS, YAHTZEE_ROLLS
from .progress import Progress
from .rulearrays import BOX_COUNT, FULL_CARD, UP_CAP, UP_STATES, YAHTZEE_BIT, RuleTables
from .sidebyside import IS_UPPER, PostingArrays, SolvedTable
from .solver import TurnSolver
from .stages import CHUNK, TurnStages, Workspace, rerolled, turn_stages
from .statespace import (
    STATE_COUNT,
    States,
    distinct_states,
    fill_unreachable,
    open_boxes,
    state_index,
    whole_batches,
    yahtzee_filled_masks,
)
from .team import level_team

ORDERS = 2  # raw moments E[R] and E[R^2] of the remaining score R
# The families of moments: over every game, over those ending with 50 in YAHTZEE, with the upper
# bonus, with both.
EVERY_GAME, FIFTY_AT_END, BONUS_AT_END, BOTH_AT_END = 0, 1, 2, 3
FAMILIES = 4
WITH_FIFTY = (FIFTY_AT_END, BOTH_AT_END)
Column = tuple[int, int]  # a moment worked out: (family, order)
FIVE_ALIKE = np.array(YAHTZEE_ROLLS)
ROLL_NUMBERS = np.arange(len(ROLLS))[:, None]
# The states whose moments are worked out together: half a build's CHUNK, whose chances and plans stay in cache.
MOMENT_CHUNK = CHUNK // 2


def solve_moments(table: SolvedTable, progress: Optional[Progress] = None, levels: int = BOX_COUNT,
                  processes: int = 1) -> np.ndarray:
    """The raw moments of every state's remaining score, families x orders x value table
    indices: [EVERY_GAME, k] = E[R^k] (k = 0: 1), [FIFTY_AT_END, k] = E[R^k; the game ends with
    50 in YAHTZEE] (k = 0: its chance), [BONUS_AT_END, k] = E[R^k; it ends with the upper bonus],
    [BOTH_AT_END, k] = E[R^k; it ends with both]. `progress(done, total)` is told after each level. With
    fewer `levels`, only the cards with at least BOX_COUNT - levels boxes filled. With
    `processes` 2, a forked helper solves half of each level where the system can fork (see
    team: only for a process that does nothing else meanwhile); the moments are the same."""
    turns, engine = TurnMoments(table), table.engine
    with level_team(processes, (FAMILIES, ORDERS + 1)) as team:
        moments = team.values
        if team.leads:
            moments[:, 0] = full_card_counts()
        team.level_done()  # both start from them, written once: a late helper must not write them again
        rows = moments.reshape(-1, STATE_COUNT)
        for done, filled in enumerate(range(BOX_COUNT - 1, BOX_COUNT - 1 - levels, -1)):
            for number, states in enumerate(moment_batches(engine, filled)):
                if team.takes(number):
                    turns.solve_batch(states, moments)
                    engine.share_solved(rows, states)
            team.level_done()
            if team.leads:
                settle_fifties(moments, filled)
            team.level_done()  # the level is whole before either process reads it
            if progress and team.leads:
                progress(done + 1, levels)
        if team.leads:
            for row in rows:
                fill_unreachable(row)
        return moments if team.size == 1 else moments.copy()  # the helper ends as the block does


def moment_batches(engine: TurnSolver, filled: int) -> list[States]:
    """The states with `filled` boxes filled whose moments are worked out, in batches: those a
    build solves (TurnSolver.level_batches); TurnSolver.share_solved gives the others theirs, as
    their values (the same play, the same points to come, the bonus alike). Without an extra
    turn, in batches of MOMENT_CHUNK: a state's moments are then the same to the bit in any
    batch of two or more. With one, in the build's batches of CHUNK: a batch where a turn may
    come back divides every state's moments by its chance of none (see TurnMoments.solve_batch),
    which moves the last bits of those of the batch's other states."""
    chunk = CHUNK if engine.extra_turns else MOMENT_CHUNK
    states = whole_batches(distinct_states(filled, engine.fifty_matters), chunk)
    return [states.part(slice(start, start + chunk)) for start in range(0, len(states), chunk)]


def settle_fifties(moments: np.ndarray, filled: int) -> None:
    """The moments with a fifty at the end of the cards with `filled` boxes filled, YAHTZEE
    among them: nothing still to come changes its points, so they are those of every game
    (and of the bonus) where it holds 50, and none where it holds a zero."""
    table = moments.reshape(FAMILIES, ORDERS + 1, -1, UP_STATES, 2)
    masks = yahtzee_filled_masks(filled)
    for with_fifty, without in ((FIFTY_AT_END, EVERY_GAME), (BOTH_AT_END, BONUS_AT_END)):
        table[with_fifty][:, masks, :, 1] = table[without][:, masks, :, 1]
        table[with_fifty][:, masks, :, 0] = 0.0


def full_card_counts() -> np.ndarray:
    """Each family's moment of order 0 of every state as a full card: 1 where its games count
    (laid out as state_index lays out the states: card, upper sum, fifty)."""
    counts = np.zeros((FAMILIES, FULL_CARD + 1, UP_STATES, 2))
    counts[EVERY_GAME] = 1.0
    counts[FIFTY_AT_END, ..., 1] = 1.0
    counts[BONUS_AT_END, :, UP_CAP:] = 1.0
    counts[BOTH_AT_END, :, UP_CAP:, 1] = 1.0
    return counts.reshape(FAMILIES, STATE_COUNT)


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

    def open_part(self, boxes: tuple[int, ...]) -> "PostingRows":
        """The rows of these `boxes` (those open in at least one of a batch's states: the others
        are never posted in), numbered anew."""
        live = np.flatnonzero(np.isin(self.box, boxes))
        renumbered = np.full(len(self.box) + FACE_COUNT, -1)
        renumbered[live] = np.arange(len(live))
        renumbered[len(self.box):] = len(live) + np.arange(FACE_COUNT)
        return PostingRows(self.box[live], self.points[live], self.fits[live], renumbered[self.of_roll])


class TurnMoments:
    """The moments of batches of states, each turn played by the table's choices: the chance
    of every posting carried forward through the keeps from the first roll, summed per
    posting row of PostingRows (and per roll bonus), and each state's moments the sum over
    its rows of that chance times the row's posted moments."""

    def __init__(self, table: SolvedTable) -> None:
        self.table = table
        self.engine: TurnSolver = table.engine
        self.rows = PostingRows.of(self.engine.tables)
        self.works: dict[int, Workspace] = {}
        self.open_rows: dict[tuple[int, ...], PostingRows] = {}  # PostingRows.open_part of each set of open boxes
        self.rooms: list[np.ndarray] = [np.empty((FAMILIES, 0)), np.empty((FAMILIES, 0))]  # see gathered

    def workspace(self, width: int) -> Workspace:
        """The reused workspace for batches of `width` states."""
        return self.works.get(width) or self.works.setdefault(width, Workspace(width))

    def solve_batch(self, states: States, moments: np.ndarray, stages: Optional[TurnStages] = None) -> None:
        """Write the moments of a batch of states (their turns' later states already solved),
        from their turn's `stages` with plans if given (turn_stages), else worked out here."""
        engine, width = self.engine, len(states)
        if stages is None:
            stages = turn_stages(engine, self.table.values, states, engine.rolls, plan=True,
                                 work=self.workspace(width))
        own = states.index
        plain_after, postings = self.postings(states, stages)
        looping = any((five_after == own).any() for _gain, five_after, _rows in postings.values())
        if looping:
            moments[:, :, own] = 0.0  # a turn that comes back counts none of the state's own moments yet
        chances = self.row_chances(stages, postings, width)
        families = _families((states.case == 0).any())  # YAHTZEE filled: settle_fifties gives those with a fifty
        plain_seen = self.gathered(moments, families, plain_after, 0)  # a plain posting never comes back
        weights = _weights([(chances[bonus], gain) for bonus, (gain, _after, _rows) in postings.items()],
                           len(plain_after))
        five_after = np.concatenate([five_after for _gain, five_after, _rows in postings.values()])
        stay = np.ones(width)
        for columns in _to_solve(looping, families):
            rest = np.zeros((len(columns), width))
            rest += _expected(weights, plain_seen, self.gathered(moments, families, five_after, 1), columns)
            for column, (family, order) in enumerate(columns):
                if (family, order) == (EVERY_GAME, 0):
                    stay = rest[column]  # 1 - the chance of coming back to the same state
                moments[family, order, own] = rest[column] / stay

    def gathered(self, moments: np.ndarray, families: list[int], after: np.ndarray, room: int) -> dict[int, np.ndarray]:
        """_gathered into the memory of `room` (0: the rows but five alike's, 1: five alike's), kept
        batch after batch: fresh arrays of this size cost page faults, more than their gathering."""
        size = (ORDERS + 1) * after.size
        if self.rooms[room].shape[1] < size:
            self.rooms[room] = np.empty((FAMILIES, size))
        return _gathered(moments, families, after, self.rooms[room][:, :size])

    def postings(self, states: States,
                 stages: TurnStages) -> tuple[np.ndarray, dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]]:
        """The state after every posting row but five alike's (rows x states: the same for
        every roll number); and for each roll bonus the turn's roll numbers bring: the gain of
        every posting row, the state after of five alike's, and each roll's row, flat (rolls x
        states: row * states + state). The same bonus, the same boxes and postings."""
        engine = self.engine
        boxes = tuple(open_boxes(states))
        open_rows = self.open_rows.get(boxes) or self.open_rows.setdefault(boxes, self.rows.open_part(boxes))
        plain_gain, after = _posting_rows(open_rows, states)
        firsts: dict[int, int] = {}  # each roll bonus, and the first stage (roll number - 1) that brings it
        for stage in range(engine.rolls):
            firsts.setdefault(engine.stage_bonus(stage + 1), stage)
        chosen = np.array(list(firsts.values()))
        five_gains, five_afters = _five_alike_postings(engine.tables, states, stages.boxes[chosen], chosen + 1)
        found: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        for (bonus, stage), five_gain, five_after in zip(firsts.items(), five_gains, five_afters):
            gain = (plain_gain + bonus * open_rows.fits[:, None]).astype(float)
            rows = _posting_row_of(open_rows, stages.boxes[stage], len(states))
            found[bonus] = (np.concatenate([gain, five_gain]), five_after, rows)
        return after, found

    def row_chances(self, stages: TurnStages, postings: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]],
                    width: int) -> dict[int, np.ndarray]:
        """For each roll bonus, the chance that the turn posts by each posting row (rows x
        states), over the roll numbers that bring that bonus. The first roll is each roll's
        own chance; after each roll number, what reaches a roll goes to its chosen keep or its
        posting row, in one count, and a keep passes it on to the rolls that rerolling
        around it brings."""
        engine, last = self.engine, self.engine.rolls - 1
        chance = np.repeat(ROLL_PROBABILITY, width)
        keeps, scratch = np.empty((len(KEEPS), width)), np.empty((2 * len(ROLLS), width))
        found: dict[int, np.ndarray] = {}
        for stage in range(engine.rolls):
            bonus = engine.stage_bonus(stage + 1)
            count = len(postings[bonus][0])
            rows = postings[bonus][2]
            kept = 0 if stage == last else ROLL_OFFSET  # the rows of the keeps before the posting rows
            spots = rows if stage == last else _spots(stages.plan_keeps(stage), rows, width)
            shares = np.bincount(spots, weights=chance, minlength=(kept + count) * width)
            posted = shares[kept * width:].reshape(count, width)
            found[bonus] = found[bonus] + posted if bonus in found else posted
            if stage < last:
                keeps[:ROLL_OFFSET] = shares[:ROLL_OFFSET * width].reshape(ROLL_OFFSET, width)
                chance = rerolled(keeps, scratch).ravel()
        return found


def _spots(plan: np.ndarray, rows: np.ndarray, width: int) -> np.ndarray:
    """Where each roll's chance goes (rolls x states, flat): its chosen keep's row (keep *
    width + state), or, with none, its posting row's after the rerolling keeps'. A keep's
    row comes before every posting row's; none (-1) makes a negative number, which read
    unsigned comes after them all: the smaller of the two, read unsigned, is the spot."""
    keeping = plan * width
    keeping += np.arange(width)
    posting = rows.reshape(plan.shape) + ROLL_OFFSET * width
    unsigned = posting.view(np.uint64)
    np.minimum(keeping.view(np.uint64), unsigned, out=unsigned)
    return posting.ravel()


def _families(fifties: bool) -> list[int]:
    """The families of moments a batch works out: without `fifties`, none with a fifty at the end."""
    return [family for family in range(FAMILIES) if fifties or family not in WITH_FIFTY]


def _to_solve(looping: bool, families: list[int]) -> list[list[Column]]:
    """The moments a batch works out, in passes: all at once; or, where a turn may come back
    to the same state, order by order, as each needs the state's own lower ones (and every
    game's chance first, as the others are divided by it)."""
    if looping:
        return [[(family, order) for family in families] for order in range(ORDERS + 1)]
    return [[(family, order) for family in families for order in range(ORDERS + 1) if order or family != EVERY_GAME]]


def _gathered(moments: np.ndarray, families: list[int], after: np.ndarray, room: np.ndarray) -> dict[int, np.ndarray]:
    """moments[family, :, after] of each family, a row at a time (faster than numpy's fancy indexing
    over the three axes), each straight into its place in room[family] (families x orders * after's
    size; a take that may raise, or a stack, copies it once more)."""
    found = {}
    for family in families:
        rows = moments[family]
        found[family] = room[family].reshape((len(rows),) + after.shape)
        for row, out in zip(rows, found[family]):
            row.take(after, out=out, mode="clip")  # every state after is in the table
    return found


def _weights(postings: list[tuple[np.ndarray, np.ndarray]], plain: int) -> list[np.ndarray]:
    """The chance of each posting row times its gain to the power m = 0, 1, ... ORDERS (rows x states),
    from each roll bonus's chances and gains: the rows but five alike's (the first `plain`) are the same
    for every bonus, their terms summed over the bonuses; five alike's follow, bonus by bonus."""
    found: list[list[np.ndarray]] = []
    for chance, gain in postings:
        powers = [chance]  # chance x gain^m, m = 0, 1, ...
        for _ in range(ORDERS):
            powers.append(powers[-1] * gain)
        found.append(powers)
    if len(found) == 1:
        return found[0]
    summed = []
    for order in range(ORDERS + 1):
        total = found[0][order][:plain].copy()
        for powers in found[1:]:
            total += powers[order][:plain]
        summed.append(np.concatenate([total] + [powers[order][plain:] for powers in found]))
    return summed


def _expected(weights: list[np.ndarray], plain_seen: dict[int, np.ndarray], five_seen: dict[int, np.ndarray],
              columns: list[Column]) -> np.ndarray:
    """The moments of `columns` over a turn's postings (columns x states): E[(g + R')^k] of a
    posting of gain g into a state whose remaining score R' has raw moments E[R'^j] is the
    sum over j of C(k, j) g^(k-j) E[R'^j], each term summed over the posting rows weighed by
    their chance times g^(k-j) (`weights`, see _weights). The moments of each row's state after:
    of each family, orders x rows x states, those of the rows but five alike's, then of five alike's."""
    plain = next(iter(plain_seen.values())).shape[1]
    found = np.zeros((len(columns), weights[0].shape[1]))
    for column, (family, order) in enumerate(columns):
        for j in range(order + 1):
            weight = weights[order - j]
            term = np.einsum("rs,rs->s", weight[:plain], plain_seen[family][j])
            term += np.einsum("rs,rs->s", weight[plain:], five_seen[family][j])
            found[column] += comb(order, j) * term
    return found


def _posting_row_of(rows: PostingRows, boxes: np.ndarray, width: int) -> np.ndarray:
    """The posting row of each roll in its chosen box (rolls x states), flat: row * width + state."""
    chosen = np.multiply(boxes, len(ROLLS), dtype=np.intp)
    chosen += ROLL_NUMBERS
    found = (rows.of_roll * width)[chosen]
    found += np.arange(width)
    return found.ravel()


def _posting_rows(rows: PostingRows, states: States) -> tuple[np.ndarray, np.ndarray]:
    """The gain but a roll bonus (points, upper bonus: integers) and the state after of every
    posting row but five alike's, in every state (rows x states)."""
    box, points = rows.box[:, None], rows.points[:, None]
    new_up = states.up + np.where(IS_UPPER[box], points, 0)
    crossed = (states.up < UP_CAP) & (new_up >= UP_CAP)
    gain = points + np.where(crossed, scoring.UPPER_BONUS, 0)
    fifty = states.fifty | ((box == YAHTZEE_BIT) & (points == scoring.YAHTZEE_POINTS))
    after = state_index(states.mask | 1 << box, np.minimum(new_up, UP_CAP), fifty)
    return gain, after


def _five_alike_postings(tables: RuleTables, states: States, boxes: np.ndarray,
                         rolls_used: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The points and the state after of the table's posting of five alike (stages x faces x
    states), from their chosen `boxes` (stages x rolls x states) after each stage's
    `rolls_used` rolls (an extra turn: its bonus, and the same state), all stages at once."""
    shape = (len(rolls_used), FACE_COUNT, len(states))
    mask, up, fifty = (np.broadcast_to(part, shape).ravel() for part in (states.mask, states.up, states.fifty))
    box = boxes[:, FIVE_ALIKE].ravel().astype(np.int64)
    rolls = np.broadcast_to(FIVE_ALIKE[:, None], shape).ravel()
    used = np.broadcast_to(rolls_used[:, None, None], shape).ravel()
    posting = PostingArrays.of(tables, mask, fifty, rolls, box, used)
    posted = posting.posted
    points = np.where(posted, posting.points, 0)
    new_up = up + np.where(IS_UPPER[box], points, 0)
    crossed = (up < UP_CAP) & (new_up >= UP_CAP)
    gain = points + posting.yahtzee_bonus + posting.roll_bonus + np.where(crossed, scoring.UPPER_BONUS, 0)
    fifty = fifty | (posted & (box == YAHTZEE_BIT) & (points == scoring.YAHTZEE_POINTS))
    after = state_index(np.where(posted, mask | 1 << box, mask), np.minimum(new_up, UP_CAP), fifty)
    return gain.reshape(shape).astype(float), after.reshape(shape)
