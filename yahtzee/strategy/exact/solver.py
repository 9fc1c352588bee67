"""The optimal solitaire strategy by dynamic programming over turn-start states.

A turn-start state is (filled boxes as a 13-bit mask, upper sum capped at 63, whether the
Yahtzee box holds 50). Its value is the best expected score still to come. States are
solved a level at a time (the same number of filled boxes), in batches with the states
along the last axis, so every step is a row gather or an element-wise operation.
"""
from typing import Callable, Optional

import numpy as np

from ...model import scoring
from ...model.rules import Rules
from .dicemath import FACE_COUNT, YAHTZEE_ROLLS, over_rolls
from .firstbest import NO_BOX, FirstBest, Posted, five_alike_best
from .levels import LevelSolver
from .objective import EXPECTED_SCORE, Objective
from .rulearrays import (
    BOX_COUNT,
    UP_CAP,
    UPPER_BITS,
    YAHTZEE_BIT,
    YAHTZEE_FIFTY,
    YAHTZEE_ZERO,
    RuleTables,
    rule_tables,
)
from .stages import TurnStages, Workspace, best_reroll, keep_values, turn_plans, turn_stages
from .statespace import States, open_boxes, share_solved, state_index

FIVE_ALIKE = list(YAHTZEE_ROLLS)
FIVE_ALIKE_FACES = np.arange(FACE_COUNT)[:, None]  # a row for each face of five alike
FEW_ROLLS = 64  # a box that scores on at most so many rolls is posted as a zero first (see post_best)


def fifty_matters(tables: RuleTables) -> bool:
    """True unless five alike score, fit and earn the same whether the Yahtzee box holds 50
    or a zero: then (no bonus, no joker) the 'fifty' flag changes nothing still to come."""
    return not all(np.array_equal(table[YAHTZEE_ZERO], table[YAHTZEE_FIFTY])
                   for table in (tables.five_points, tables.bonus, tables.yahtzee_legal, tables.turn_bonus))


class TurnSolver:
    """The turn arithmetic for one rule set and objective, over batches of states.

    A roll bonus (FiveOAK) makes a posting after roll k worth its bonus when the dice fit
    the box, so the turn is worked out a roll number at a time. A yahtChallenge extra turn
    is worth its bonus plus the value of the same state, read from `values`.
    """

    def __init__(self, rules: Rules, objective: Objective = EXPECTED_SCORE) -> None:
        self.rules = rules
        self.objective = objective
        self.tables = rule_tables(rules)
        self.rolls = rules.rolls_per_turn
        self.rerolls = self.rolls - 1
        self.extra_turns = bool(self.tables.turn_bonus.any())
        self._plain_points = self.tables.points
        self._distinct = [np.unique(self._plain_points[:, box]) for box in range(BOX_COUNT)]
        self._point_rows = [np.searchsorted(self._distinct[box], self._plain_points[:, box])
                            for box in range(BOX_COUNT)]
        plain_fits = self.tables.fits.copy()
        plain_fits[FIVE_ALIKE] = False  # five alike are posted apart
        self._fit_rows = [np.flatnonzero(plain_fits[:, box]) for box in range(BOX_COUNT)]
        self.fifty_matters = fifty_matters(self.tables)
        scoring_rows = [np.setdiff1d(np.flatnonzero(self._plain_points[:, box]), FIVE_ALIKE)
                        for box in range(BOX_COUNT)]
        # A lower box that scores on few rolls is posted as a zero on every roll at once, then
        # on the rolls it scores on: its points only add to the same card's value after (the
        # Yahtzee box's 50 changes the card, but only five alike score it, and they are apart).
        self._zero_first = {box: rows for box, rows in enumerate(scoring_rows)
                            if box not in UPPER_BITS and len(rows) <= FEW_ROLLS
                            and (box != YAHTZEE_BIT or not len(rows))}
        self._five_alike_rows = self._rows_of_five_alike()

    def _rows_of_five_alike(self) -> dict[int, np.ndarray]:
        """For the upper boxes and the Yahtzee box, whose card after depends on the points: the
        row of each points value among the box's distinct points, as five alike score them
        ({} when five alike can score points no other roll does: then they are worked out apart)."""
        rows = {}
        for box in UPPER_BITS + (YAHTZEE_BIT,):
            points = self.tables.five_points[..., box]
            if not np.isin(points, self._distinct[box]).all():
                return {}
            rows[box] = np.searchsorted(self._distinct[box], np.arange(points.max() + 1))
        return rows

    def stage_bonus(self, rolls: int) -> int:
        """The roll bonus for a fitting posting after `rolls` rolls."""
        return self.tables.stage_bonus(rolls)

    # -- posting ---------------------------------------------------------------------
    def after_posting(self, values: np.ndarray, box: int, points: np.ndarray, states: States) -> np.ndarray:
        """Points, upper bonus and delight of posting `points` in `box`, plus the value after."""
        mask, up, fifty = states.mask, states.up, states.fifty
        gain = points
        if box in UPPER_BITS:
            total = up + points
            crossed = (up < UP_CAP) & (total >= UP_CAP)
            gain = points + np.where(crossed, scoring.UPPER_BONUS, 0)
            up = np.minimum(total, UP_CAP)
        elif box == YAHTZEE_BIT:
            fifty = (points == scoring.YAHTZEE_POINTS).astype(np.int64) + 0 * fifty
            gain = points + self.objective.yahtzee_reward * fifty
        return gain + values[state_index(mask | (1 << box), up, fifty)]

    def post_values(self, values: np.ndarray, states: States, work: Workspace,
                    want_boxes: bool = False) -> Optional[np.ndarray]:
        """The best posting value of every roll (rolls x states) into work.base, the best
        among boxes whose pattern the roll fits into work.fit (for the roll bonus); with
        want_boxes, the boxes of both."""
        boxes = self.plain_post_values(values, states, work, want_boxes)
        if self.extra_turns:
            self.offer_extra_turn(values, states, work, boxes)
        return boxes

    def plain_post_values(self, values: np.ndarray, states: States, work: Workspace,
                          want_boxes: bool = False) -> Optional[np.ndarray]:
        """post_values without a yahtChallenge extra turn (the part that does not depend on
        the state's own value)."""
        if not self._five_alike_rows:
            return self.post_each_box(values, states, work, want_boxes)
        return self.post_best(values, states, work, want_boxes)

    def post_best(self, values: np.ndarray, states: States, work: Workspace,
                   want_boxes: bool = False) -> Optional[np.ndarray]:
        """The best posting value of every roll into work.base: the boxes that score on most
        rolls a row each, the others (see _zero_first) their zero on every roll at once and
        their points on the few rolls they score on; five alike from the same rows. With a roll
        bonus, the best fitting posting into work.fit (else -inf: nothing reads it). With
        want_boxes, the boxes of both as post_each_box finds them (see firstbest; NO_BOX)."""
        best, zero, posted = work.base, np.full(len(states), -np.inf), []
        found = np.full((2,) + best.shape, NO_BOX, dtype=np.int8) if want_boxes else None
        chosen, zero_box = FirstBest.of(found, len(states))
        any_row = False
        work.fit.fill(-np.inf)
        boxes = open_boxes(states)
        uppers = [box for box in boxes if box in UPPER_BITS]
        upper_rows = dict(zip(uppers, self._upper_rows(values, states, uppers))) if uppers else {}
        for box in boxes:
            row_values, after = (upper_rows[box], None) if box in upper_rows else self._rows_after(values, box, states)
            posted.append((box, row_values, after))
            if box in self._zero_first:
                zero_box.raise_to(zero, row_values[0], box)
            elif not any_row:
                row_values.take(self._point_rows[box], axis=0, out=best, mode="clip")
                chosen.fill(box)
                any_row = True
            else:
                chosen.raise_to(best, row_values.take(self._point_rows[box], axis=0, out=work.candidate, mode="clip"),
                                box)
        if any_row:
            chosen.merge(best, zero, zero_box)
        else:
            best[...] = zero
            chosen.fill(zero_box.boxes)
        self._merge_zero_first(posted, best, chosen)
        if self.tables.roll_bonus:
            self._keep_best_fits(posted, work.fit, found)
            self._post_five_alike(values, states, work, found)
        else:
            self._post_five_alike_best(states, work, posted, found)
        return found

    def _merge_zero_first(self, posted: Posted, best: np.ndarray, chosen: FirstBest) -> None:
        """Merge into `best` and `chosen` the points of the boxes posted as a zero first (_zero_first)."""
        for box, row_values, _after in posted:
            rows = self._zero_first.get(box, ())
            if len(rows):
                best[rows] = chosen.merged_rows(best[rows], rows, row_values[self._point_rows[box][rows]], box)

    def _keep_best_fits(self, posted: Posted, fit: np.ndarray, boxes: Optional[np.ndarray]) -> None:
        """The best fitting posting of every roll but five alike into `fit`, box by box from post_best's rows."""
        for box, row_values, _after in posted:
            rows = self._fit_rows[box]
            if len(rows):
                self._keep_best_fit(box, row_values.take(self._point_rows[box][rows], axis=0), fit, boxes)

    def _upper_rows(self, values: np.ndarray, states: States, boxes: list[int]) -> np.ndarray:
        """_rows_after of upper boxes, all at once (boxes x points x states): after_posting's
        arithmetic, each step one array operation for every box."""
        points = np.array([self._distinct[box] for box in boxes])[:, :, None]
        bits = np.array([1 << box for box in boxes])[:, None, None]
        total = states.up + points
        crossed = (states.up < UP_CAP) & (total >= UP_CAP)
        gain = points + np.where(crossed, scoring.UPPER_BONUS, 0)
        rows = gain + values[state_index(states.mask | bits, np.minimum(total, UP_CAP), states.fifty)]
        np.putmask(rows, np.broadcast_to(states.mask & bits != 0, rows.shape), -np.inf)
        return rows

    def _rows_after(self, values: np.ndarray, box: int, states: States) -> tuple[np.ndarray, Optional[np.ndarray]]:
        """after_posting of each of a box's distinct points (points x states, -inf where the box
        is filled); and for a box whose card after does not depend on its points (a lower box but
        the Yahtzee box), the value of that card (-inf alike), else None."""
        filled = (states.mask >> box) & 1 == 1
        if box in UPPER_BITS or box == YAHTZEE_BIT:
            row_values = self.after_posting(values, box, self._distinct[box][:, None], states)
            row_values[:, filled] = -np.inf
            return row_values, None
        after = values[state_index(states.mask | (1 << box), states.up, states.fifty)]
        after[filled] = -np.inf
        return self._distinct[box][:, None] + after, after

    def _post_five_alike_best(self, states: States, work: Workspace, posted: Posted,
                              boxes: Optional[np.ndarray] = None) -> None:
        """_post_five_alike for post_best: each open box's value read from its rows (`posted`),
        or its points added to the value of its card after (see firstbest.five_alike_best); the
        boxes into `boxes` if given."""
        case, faces = states.case, FIVE_ALIKE_FACES
        legal = self.tables.yahtzee_legal[case, states.mask, faces]
        matching_filled = (states.mask >> np.array(UPPER_BITS)[:, None]) & 1
        every_points = self.tables.five_points[case, matching_filled, faces]  # faces x states x boxes
        row_box = None if boxes is None else np.empty(legal.shape, dtype=np.int8)
        row_best = five_alike_best(every_points, legal, posted, self._five_alike_rows, row_box)
        work.base[FIVE_ALIKE] = row_best + self._five_alike_extra(case)
        if boxes is not None:
            boxes[0][FIVE_ALIKE] = row_box

    def post_each_box(self, values: np.ndarray, states: States, work: Workspace,
                       want_boxes: bool) -> Optional[np.ndarray]:
        """plain_post_values a box at a time over every roll, keeping the boxes if asked and
        the best fitting posting."""
        best, fit = work.base, work.fit
        best.fill(-np.inf)
        fit.fill(-np.inf)
        boxes = np.full((2,) + best.shape, NO_BOX, dtype=np.int8) if want_boxes else None
        open_ones = open_boxes(states)
        uppers = [box for box in open_ones if box in UPPER_BITS]
        upper_rows = dict(zip(uppers, self._upper_rows(values, states, uppers))) if uppers else {}
        for box in open_ones:
            row_values = upper_rows[box] if box in upper_rows else self._box_rows(values, box, states)
            candidate = row_values.take(self._point_rows[box], axis=0, out=work.candidate, mode="clip")
            if self.tables.roll_bonus and len(self._fit_rows[box]):
                self._keep_best_fit(box, candidate[self._fit_rows[box]], fit, boxes)
            if boxes is not None:  # boxes[0][candidate > best] = box: the boxes come in order, each a higher number
                np.maximum(boxes[0], np.multiply(candidate > best, box, dtype=np.int8), out=boxes[0])
            np.maximum(best, candidate, out=best)
        self._post_five_alike(values, states, work, boxes)
        return boxes

    def _box_rows(self, values: np.ndarray, box: int, states: States) -> np.ndarray:
        """after_posting of each of a box's distinct points (points x states), -inf where the box is filled."""
        row_values = self.after_posting(values, box, self._distinct[box][:, None], states)
        row_values[:, (states.mask >> box) & 1 == 1] = -np.inf
        return row_values

    def _keep_best_fit(self, box: int, here: np.ndarray, fit: np.ndarray, boxes: Optional[np.ndarray]) -> None:
        """Raise work.fit on the rolls that fit `box` with its postings of them (`here`)."""
        rows = self._fit_rows[box]
        if boxes is not None:
            better = here > fit[rows]
            boxes[1][rows] = np.where(better, box, boxes[1][rows])
        fit[rows] = np.maximum(fit[rows], here)

    def _post_five_alike(self, values: np.ndarray, states: States, work: Workspace,
                         boxes: Optional[np.ndarray]) -> None:
        """Five alike may be a joker or earn an extra turn: their boxes and points depend on the card.
        The best fitting posting is worked out only where something reads it (a roll bonus, or boxes)."""
        case, faces = states.case, FIVE_ALIKE_FACES
        legal = self.tables.yahtzee_legal[case, states.mask, faces]
        matching_filled = (states.mask >> np.array(UPPER_BITS)[:, None]) & 1
        every_points = self.tables.five_points[case, matching_filled, faces]  # faces x states x boxes
        fits = self.tables.fits[FIVE_ALIKE]
        with_fit = boxes is not None or bool(self.tables.roll_bonus)
        row_best, row_fit = np.full(legal.shape, -np.inf), np.full(legal.shape, -np.inf)
        row_box, fit_box = np.full(legal.shape, NO_BOX, dtype=np.int8), np.full(legal.shape, NO_BOX, dtype=np.int8)
        for box in open_boxes(states):
            value = self.after_posting(values, box, every_points[..., box], states)
            value[(legal >> box) & 1 == 0] = -np.inf
            if boxes is not None:
                row_box[value > row_best] = box
            np.maximum(row_best, value, out=row_best)
            if with_fit:
                value[~fits[:, box]] = -np.inf
                if boxes is not None:
                    fit_box[value > row_fit] = box
                np.maximum(row_fit, value, out=row_fit)
        extra = self._five_alike_extra(case)
        work.base[FIVE_ALIKE] = row_best + extra
        work.fit[FIVE_ALIKE] = row_fit + extra
        if boxes is not None:
            boxes[0][FIVE_ALIKE], boxes[1][FIVE_ALIKE] = row_box, fit_box

    def _five_alike_extra(self, case: np.ndarray) -> np.ndarray:
        """What five alike add beside the box: the Yahtzee bonus (and delight in it)."""
        bonus = self.tables.bonus[case, FIVE_ALIKE_FACES]
        return bonus + self.objective.yahtzee_reward * (bonus > 0)

    def offer_extra_turn(self, values: np.ndarray, states: States, work: Workspace,
                         boxes: Optional[np.ndarray] = None) -> None:
        """yahtChallenge: five alike may instead take their bonus and the same state's turn again
        (shown as the Yahtzee box, which is how the game takes it)."""
        case = states.case
        turn_bonus = self.tables.turn_bonus[case, FIVE_ALIKE_FACES]
        again = turn_bonus + self.objective.yahtzee_reward * (turn_bonus > 0) + \
            values[state_index(states.mask, states.up, states.fifty)] + self._five_alike_extra(case)
        again = np.where(turn_bonus > 0, again, -np.inf)
        if boxes is not None:
            boxes[0][FIVE_ALIKE] = np.where(again > work.base[FIVE_ALIKE], YAHTZEE_BIT, boxes[0][FIVE_ALIKE])
        work.base[FIVE_ALIKE] = np.maximum(work.base[FIVE_ALIKE], again)

    def stage_post(self, work: Workspace, rolls: int, offset: Optional[np.ndarray], out: np.ndarray) -> np.ndarray:
        """The best posting of every roll after `rolls` rolls, roll bonus included, as utilities."""
        bonus = self.stage_bonus(rolls)
        if bonus:
            np.add(work.fit, bonus, out=out)
            np.maximum(out, work.base, out=out)
        else:
            out[...] = work.base
        self.to_utility(out, offset)
        return out

    def stage_boxes(self, work: Workspace, boxes: np.ndarray, rolls: int) -> np.ndarray:
        """The box of the best posting of every roll after `rolls` rolls."""
        bonus = self.stage_bonus(rolls)
        if not bonus:
            return boxes[0]
        return np.where(work.fit + bonus > work.base, boxes[1], boxes[0])

    # -- utility: expected score, or an exponential utility for a risk-minded player ------
    def utility_offset(self, work: Workspace) -> Optional[np.ndarray]:
        """A per-state shift that keeps the utilities of the postings in range (None: no risk)."""
        if not self.objective.risk:
            return None
        offset = work.base.max(axis=0)
        top = max(self.tables.roll_bonus, default=0)
        return np.maximum(offset, work.fit.max(axis=0) + top) if top else offset

    def to_utility(self, post: np.ndarray, offset: Optional[np.ndarray]) -> np.ndarray:
        """Turn posting values, in place, into utilities to average and maximise."""
        risk = self.objective.risk
        if not risk:
            return post
        assert offset is not None
        np.subtract(post, offset, out=post)
        np.multiply(post, -risk, out=post)
        np.exp(post, out=post)
        np.multiply(post, -np.sign(risk), out=post)
        return post

    def from_utility(self, utility: np.ndarray, offset: Optional[np.ndarray]) -> np.ndarray:
        """The certainty equivalent (in points) of a utility."""
        risk = self.objective.risk
        if not risk:
            return utility
        assert offset is not None
        return offset - np.log(-np.sign(risk) * utility) / risk

    def roll_values(self, values: np.ndarray, states: States, work: Workspace, first: int,
                    last: int) -> Optional[np.ndarray]:
        """Each roll's value (as a utility) when it is roll number `first` of a turn that may
        go on to roll `last`, into work.post; returns the utility offset."""
        self.post_values(values, states, work)
        return self.values_from_postings(work, first, last)

    def values_from_postings(self, work: Workspace, first: int, last: int) -> Optional[np.ndarray]:
        """roll_values once the postings are in work.base and work.fit."""
        offset = self.utility_offset(work)
        self.stage_post(work, last, offset, work.post)
        for rolls in range(last - 1, first - 1, -1):
            keep_values(work)
            if self.stage_bonus(rolls):
                # rerolling nothing is no choice; posting now, with this roll's bonus, is
                np.maximum(work.post, self.stage_post(work, rolls, offset, work.candidate), out=work.post)
            best_reroll(work)
        return offset

    def turn_start_values(self, values: np.ndarray, states: States, work: Optional[Workspace] = None) -> np.ndarray:
        """The value of each state at the start of its turn."""
        work = work or Workspace(len(states))
        self.post_values(values, states, work)
        return self.start_from_postings(work)

    def start_from_postings(self, work: Workspace) -> np.ndarray:
        """turn_start_values once the postings are in work.base and work.fit."""
        offset = self.values_from_postings(work, 1, self.rolls)
        return self.from_utility(over_rolls(work.post), offset)

    # -- decisions -----------------------------------------------------------------
    def turn_plans(self, values: np.ndarray, states: States,
                   rolls: Optional[int] = None) -> tuple[np.ndarray, np.ndarray]:
        """Every decision of a turn for each state (see stages.turn_plans)."""
        return turn_plans(self, values, states, rolls or self.rolls)

    def turn_stages(self, values: np.ndarray, states: States, last: Optional[int] = None) -> TurnStages:
        """The whole turn of a batch of states (see stages.turn_stages)."""
        return turn_stages(self, values, states, last or self.rolls)

    # -- whole table ---------------------------------------------------------------
    def solve(self, progress: Optional[Callable[[int, int], None]] = None, levels: int = BOX_COUNT,
              processes: int = 1) -> np.ndarray:
        """The value of every turn-start state (see levels.LevelSolver.solve)."""
        return LevelSolver(self).solve(progress, levels, processes)

    def share_solved(self, values: np.ndarray, states: States) -> None:
        """Give a solved batch's values to the states it stands for (see level_batches), in
        every row of `values` (the moments share theirs all at once)."""
        share_solved(values, states, self.fifty_matters)
