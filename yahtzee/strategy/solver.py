"""The optimal solitaire strategy by dynamic programming over turn-start states.

A turn-start state is (filled boxes as a 13-bit mask, upper sum capped at 63, whether the
Yahtzee box holds 50). Its value is the best expected score still to come. States are
solved a level at a time (the same number of filled boxes), in batches with the states
along the last axis, so every step is a row gather or an element-wise operation.
"""
import os
import queue
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from .. import scoring
from .dicemath import (CHILDREN, DICE, KEEPS, PARENTS, ROLL_OFFSET, ROLL_PROBABILITY, ROLLS, SUB_KEEPS,
                       YAHTZEE_ROLLS, size_rows)
from .tables import BOX_COUNT, FULL_CARD, UP_CAP, UP_STATES, UPPER_BITS, YAHTZEE_BIT, rule_tables

CHUNK = 512
THREADS = min(2, os.cpu_count() or 1)
NO_BOX = -1


@dataclass(frozen=True)
class Objective:
    """What a player maximises: expected score, or a risk-shaped or Yahtzee-loving variant.

    risk > 0 dislikes spread and risk < 0 likes it (an exponential utility, exact over the
    whole game); yahtzee_reward adds that many points of delight for a 50 in the Yahtzee box.
    """

    name: str = "expected"
    risk: float = 0.0
    yahtzee_reward: float = 0.0


EXPECTED_SCORE = Objective()


@dataclass(frozen=True)
class States:
    """A batch of turn-start states, one per column."""

    mask: np.ndarray
    up: np.ndarray
    fifty: np.ndarray

    @property
    def case(self):
        """The Yahtzee-box case of each state."""
        filled = (self.mask >> YAHTZEE_BIT) & 1
        return np.where(filled == 0, 0, 1 + self.fifty)

    def __len__(self):
        return len(self.mask)

    def part(self, cut):
        """The states in slice `cut`."""
        return States(self.mask[cut], self.up[cut], self.fifty[cut])


def state_index(mask, up, fifty):
    """The flat index of states in a value table."""
    return (mask * UP_STATES + up) * 2 + fifty


def empty_values():
    """A value table for every state, all zero (the value of a full card)."""
    return np.zeros((FULL_CARD + 1) * UP_STATES * 2)


class Engine:
    """The turn arithmetic for one rule set and objective, over batches of states."""

    def __init__(self, rules, objective=EXPECTED_SCORE):
        self.rules = rules
        self.objective = objective
        self.tables = rule_tables(rules)
        self.rerolls = rules.rolls_per_turn - 1
        self._plain_points = self.tables.points
        self._distinct = [np.unique(self._plain_points[:, box]) for box in range(BOX_COUNT)]
        self._point_rows = [np.searchsorted(self._distinct[box], self._plain_points[:, box])
                            for box in range(BOX_COUNT)]

    # -- posting ---------------------------------------------------------------------
    def after_posting(self, values, box, points, states):
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

    def post_values(self, values, states, work, want_boxes=False):
        """The best posting value of every roll (rolls x states), and the box when asked."""
        best = work.post
        best.fill(-np.inf)
        boxes = np.full(best.shape, NO_BOX, dtype=np.int8) if want_boxes else None
        for box in range(BOX_COUNT):
            row_values = self.after_posting(values, box, self._distinct[box][:, None], states)
            row_values[:, (states.mask >> box) & 1 == 1] = -np.inf
            candidate = np.take(row_values, self._point_rows[box], axis=0, out=work.candidate)
            if want_boxes:
                boxes[candidate > best] = box
            np.maximum(best, candidate, out=best)
        self._post_five_alike(values, states, best, boxes)
        return best, boxes

    def _post_five_alike(self, values, states, best, boxes):
        """Five alike may be a joker: their legal boxes and points depend on the card."""
        case, faces = states.case, np.arange(6)[:, None]
        legal = self.tables.yahtzee_legal[case, states.mask, faces]
        matching_filled = (states.mask >> np.array(UPPER_BITS)[:, None]) & 1
        row_best = np.full(legal.shape, -np.inf)
        row_box = np.full(legal.shape, NO_BOX, dtype=np.int8)
        for box in range(BOX_COUNT):
            points = self.tables.five_points[case, matching_filled, faces, box]
            value = self.after_posting(values, box, points, states)
            value[(legal >> box) & 1 == 0] = -np.inf
            row_box[value > row_best] = box
            np.maximum(row_best, value, out=row_best)
        bonus = self.tables.bonus[case, faces]
        rows = list(YAHTZEE_ROLLS)
        best[rows] = row_best + bonus + self.objective.yahtzee_reward * (bonus > 0)
        if boxes is not None:
            boxes[rows] = row_box

    # -- utility: expected score, or an exponential utility for a risk-minded player ------
    def to_utility(self, post):
        """Turn posting values, in place, into utilities to average and maximise; returns the offset."""
        risk = self.objective.risk
        if not risk:
            return None
        offset = post.max(axis=0)
        np.subtract(post, offset, out=post)
        np.multiply(post, -risk, out=post)
        np.exp(post, out=post)
        np.multiply(post, -np.sign(risk), out=post)
        return offset

    def from_utility(self, utility, offset):
        """The certainty equivalent (in points) of a utility."""
        risk = self.objective.risk
        if not risk:
            return utility
        return offset - np.log(-np.sign(risk) * utility) / risk

    # -- keeping and rerolling -------------------------------------------------------
    @staticmethod
    def keep_values(work):
        """Fill work.keeps with every keep's expected value, from the roll values in its last rows."""
        keeps = work.keeps
        for size in range(DICE - 1, -1, -1):
            children = CHILDREN[size]
            total, scratch = keeps[size_rows(size)], work.scratch[:len(children)]
            np.take(keeps, children[:, 0], axis=0, out=total)
            for face in range(1, 6):
                np.add(total, np.take(keeps, children[:, face], axis=0, out=scratch), out=total)
            total *= 1 / 6
        return keeps

    @staticmethod
    def best_reroll(work):
        """Each roll's value when rerolls remain: the best keep inside it, into work.post."""
        keeps, best = work.keeps, work.best
        best[0] = keeps[0]
        for size in range(1, DICE + 1):
            rows = size_rows(size)
            acc, scratch = best[rows], work.scratch[:rows.stop - rows.start]
            acc[...] = keeps[rows]
            for column in PARENTS[size].T:
                np.maximum(acc, np.take(best, column, axis=0, out=scratch), out=acc)
        work.post[...] = best[ROLL_OFFSET:]
        return work.post

    def turn_start_values(self, values, states, work=None):
        """The value of each state at the start of its turn."""
        work = work or Workspace(len(states))
        post, _ = self.post_values(values, states, work)
        offset = self.to_utility(post)
        for _ in range(self.rerolls):
            self.keep_values(work)
            self.best_reroll(work)
        return self.from_utility(ROLL_PROBABILITY @ work.post, offset)

    # -- decisions -----------------------------------------------------------------
    def turn_plans(self, values, states):
        """The best box for every roll, and for each number of rerolls left (1, 2, ...) the
        best keep of every roll or -1 to post now: arrays of rolls x states."""
        boxes = np.empty((len(ROLLS), len(states)), dtype=np.int8)
        choices = np.empty((self.rerolls, len(ROLLS), len(states)), dtype=np.int16)
        for start in range(0, len(states), CHUNK):
            cut = slice(start, start + CHUNK)
            boxes[:, cut], choices[:, :, cut] = self._turn_plans(values, states.part(cut))
        return boxes, choices

    def _turn_plans(self, values, states):
        """turn_plans for one batch of at most CHUNK states."""
        work = Workspace(len(states))
        post, boxes = self.post_values(values, states, work, want_boxes=True)
        self.to_utility(post)
        post_now = post.copy()
        choices = []
        for _ in range(self.rerolls):
            keeps = self.keep_values(work)
            # ties go to posting now: a reroll that cannot gain is no reroll
            best = post_now + 1e-9 * (1 + np.abs(post_now))
            choice = np.full(best.shape, -1, dtype=np.int16)
            for column in SUB_KEEPS.T:
                candidate = np.take(keeps, column, axis=0, out=work.candidate)
                better = candidate > best
                choice[better] = np.broadcast_to(column[:, None], better.shape)[better]
                np.maximum(best, candidate, out=best)
            choices.append(choice)
            self.best_reroll(work)
        return boxes, np.array(choices)

    # -- whole table ---------------------------------------------------------------
    def solve(self, progress=None):
        """The value of every turn-start state; `progress(done, total)` is told as it goes."""
        values = empty_values()
        levels = [level_states(filled) for filled in range(BOX_COUNT - 1, -1, -1)]
        total, done = sum(len(s) for s in levels), 0
        workspaces = queue.SimpleQueue()
        for _ in range(THREADS):
            workspaces.put(Workspace(CHUNK))

        def solve_part(part):
            work = workspaces.get()
            try:
                values[state_index(part.mask, part.up, part.fifty)] = self.turn_start_values(values, part, work)
            finally:
                workspaces.put(work)
            return len(part)

        # numpy lets go of the interpreter lock in its loops, so two threads use two cores.
        with ThreadPoolExecutor(THREADS) as pool:
            for states in levels:
                parts = [states.part(slice(start, start + CHUNK)) for start in range(0, len(states), CHUNK)]
                for solved in pool.map(solve_part, parts):
                    done += solved
                    if progress:
                        progress(done, total)
        _copy_to_unused_fifty(values)
        _fill_unreachable(values)
        return values


def _masks_with(filled):
    """The cards with exactly `filled` boxes filled."""
    return [mask for mask in range(FULL_CARD + 1) if bin(mask).count("1") == filled]


class Workspace:
    """Reused arrays for a batch of `width` states (fresh arrays each time cost page faults)."""

    def __init__(self, width):
        self.keeps = np.empty((len(KEEPS), width))
        self.post = self.keeps[ROLL_OFFSET:]
        self.best = np.empty_like(self.keeps)
        self.candidate = np.empty((len(ROLLS), width))
        self.scratch = np.empty((len(ROLLS), width))


def _reachable_ups(upper_mask):
    """The capped upper sums that the filled upper boxes of `upper_mask` can add up to."""
    sums = {0}
    for bit in UPPER_BITS:
        if upper_mask >> bit & 1:
            face = bit + 1
            sums = {min(UP_CAP, total + count * face) for total in sums for count in range(DICE + 1)}
    return np.array(sorted(sums))


UPPER_MASK = sum(1 << bit for bit in UPPER_BITS)
REACHABLE_UPS = [_reachable_ups(upper) for upper in range(UPPER_MASK + 1)]


def level_states(filled):
    """Every reachable state with `filled` boxes filled (Yahtzee box open: only 'not fifty')."""
    masks, ups, fifties = [], [], []
    for mask in _masks_with(filled):
        reachable = REACHABLE_UPS[mask & UPPER_MASK]
        for fifty in (0, 1) if mask >> YAHTZEE_BIT & 1 else (0,):
            masks.append(np.full(len(reachable), mask))
            ups.append(reachable)
            fifties.append(np.full(len(reachable), fifty))
    states = [np.concatenate(column) for column in (masks, ups, fifties)]
    padding = -len(states[0]) % CHUNK  # whole batches only: repeat the last state
    return States(*(np.concatenate([column, np.repeat(column[-1:], padding)]) for column in states))


def _copy_to_unused_fifty(values):
    """With the Yahtzee box open the flag means nothing: give both flags the same value."""
    table = values.reshape(FULL_CARD + 1, UP_STATES, 2)
    open_masks = [m for m in range(FULL_CARD + 1) if not m >> YAHTZEE_BIT & 1]
    table[open_masks, :, 1] = table[open_masks, :, 0]


def _nearest_reachable_below():
    """For every (upper mask, upper sum), the largest reachable sum not above it."""
    table = np.zeros((UPPER_MASK + 1, UP_STATES), dtype=np.intp)
    for upper, reachable in enumerate(REACHABLE_UPS):
        table[upper] = reachable[np.searchsorted(reachable, np.arange(UP_STATES), side="right") - 1]
    return table


def _fill_unreachable(values):
    """Sums no card can have get the value of the nearest reachable sum below, never garbage."""
    table = values.reshape(FULL_CARD + 1, UP_STATES, 2)
    masks = np.arange(FULL_CARD + 1)
    table[...] = table[masks[:, None], _nearest_reachable_below()[masks & UPPER_MASK]]


def start_value(values):
    """The expected score of a new game."""
    return float(values[state_index(0, 0, 0)])
