"""*rival: a computer player that plays to finish first at the table, not for its own mean.

Before its last turn it picks, each turn, one of three exact tables by the score situation:
far behind (its expected final score more than LEAD_MARGIN combined spreads under the best
other player's) it chases with the gambler's spread-loving table, far ahead it guards its
lead with the norisk table, and otherwise it plays for the highest mean. Its last turn (the
one that fills its card) is played for the win, every roll and keep (see winchance): exact
when the others have finished, against their estimated final scores when they have not.
Between choices with the same chance (a game already won or lost) it takes the higher
expected score. The simulation of its games (rivalry) plays by the same plan.
"""
from dataclasses import dataclass

import numpy as np

from ..scoring import Category
from .advisor import keep_values
from .dicemath import KEEPS, ROLL_INDEX, SUB_KEEPS
from .players import OBJECTIVES, Policy, Post, Reroll, turn_key
from .position import card_state, reroll_marks
from .rests import measured_spreads
from .solver import EXPECTED_SCORE
from .tables import BOX_COUNT, BOXES
from .winchance import card_stages, others_ahead, postings

CHASE, EVEN, GUARD = 0, 1, 2
RIVAL_OBJECTIVES = (OBJECTIVES["gambler"], EXPECTED_SCORE, OBJECTIVES["norisk"])
LEAD_MARGIN = 2.5
EXTRA_TURN = BOX_COUNT  # the plan's column for an extra turn, after the thirteen boxes


def situation_of(lead, spread):
    """CHASE, EVEN or GUARD for an expected lead (negative: behind) and its combined spread."""
    z = np.asarray(lead, dtype=float) / np.maximum(np.asarray(spread, dtype=float), 1e-9)
    return np.where(z < -LEAD_MARGIN, CHASE, np.where(z > LEAD_MARGIN, GUARD, EVEN))


class RivalPlayer:
    """*rival, asked for one action at a time like the other computer players."""

    mood = "rival"

    def __init__(self, rules, table_loader):
        self.rules = rules
        self.policies = [Policy(table_loader(rules, objective)) for objective in RIVAL_OBJECTIVES]
        self.table = self.policies[EVEN].table

    @property
    def note(self):
        """'' when its tables are exact for the rules, else what it does instead."""
        return self.table.note

    def next_action(self, game):
        """Reroll(marked) or Post(box) for the current player's rolled dice."""
        if self.plays_last_turn(game):
            return self.winning_action(game)
        plan = self.policies[self.situation(game)].plan(turn_key(game))
        return plan.action(game.turn.dice, game.turn.rolls)

    def prepare(self, games):
        """Work out, together, the plans for the coming turn of each of these games."""
        for kind, policy in enumerate(self.policies):
            policy.prepare([turn_key(game) for game in games
                            if not self.plays_last_turn(game) and self.situation(game) == kind])

    def plays_last_turn(self, game):
        """This turn fills the card, in a game of thirteen rounds with others at the table,
        under rules the tables solve exactly (a dice bank's banked rolls are not planned for)."""
        last_box = len(game.current.card.boxes) == BOX_COUNT - 1
        return last_box and game.race_target is None and len(game.players) > 1 and self.table.exact

    def situation(self, game):
        """CHASE, EVEN or GUARD, from the expected final scores at the table."""
        finals = [expected_final(self.table, player.card) for player in game.players]
        mine = finals[game.seat]
        others = [final for seat, final in enumerate(finals) if seat != game.seat]
        if not others:
            return EVEN
        best = max(others)
        return int(situation_of(mine[0] - best[0], np.hypot(mine[1], best[1])))

    def winning_action(self, game):
        """The choice with the best chance to win (see win_plan)."""
        card = game.current.card
        plan = win_plan(self.table, card.boxes, card.total, others_ahead(self.table, game))
        return plan.action(game.turn.dice, game.turn.rolls)


def expected_final(table, card):
    """(mean, spread) of a card's final score as the situation reads it: the table's expected
    remainder and the spread measured over cards alike (the simulation reads the same)."""
    state = card_state(card.boxes)
    open_count = BOX_COUNT - len(card.boxes)
    case = 0 if Category.YAHTZEE not in card.boxes else 1 + state[2]
    return card.total + table.value(*state), float(measured_spreads(table)[open_count, case])


@dataclass(frozen=True)
class WinPlan:
    """A turn played for the win: per roll number and roll, the column to post in (a box's
    bit, or EXTRA_TURN) and, before the last roll, the keep to reroll or -1 to post."""

    boxes: np.ndarray  # roll numbers x rolls
    keeps: np.ndarray  # roll numbers - 1 x rolls

    def action(self, dice, rolls_used):
        """Reroll or Post for these dice after `rolls_used` rolls."""
        roll = ROLL_INDEX[tuple(sorted(dice))]
        if rolls_used <= len(self.keeps) and self.keeps[rolls_used - 1][roll] >= 0:
            return Reroll(reroll_marks(dice, KEEPS[self.keeps[rolls_used - 1][roll]]))
        column = self.boxes[rolls_used - 1][roll]
        return Post(Category.YAHTZEE if column == EXTRA_TURN else BOXES[column])


def win_plan(table, boxes: dict, total: int, ahead: np.ndarray) -> WinPlan:
    """The whole turn of a card played for the win against `ahead` (see winchance.ahead_chances);
    equal chances go to the higher expected score."""
    rolls = table.rules.rolls_per_turn
    posts, keeps = card_stages(table, boxes, total, ahead, 1, rolls)
    box_plan, keep_plan = [], []
    for used in range(1, rolls + 1):
        post_rank = ranked(posts[used], postings(table, boxes, used).expected(table))
        box_plan.append(post_rank.argmax(axis=1))
        if used < rolls:
            keep_rank = ranked(keeps[used], keep_values(table, card_state(boxes), used, rolls - used))[SUB_KEEPS]
            best = keep_rank.argmax(axis=1)
            rerolls = keep_rank.max(axis=1) > post_rank.max(axis=1)
            keep_plan.append(np.where(rerolls, SUB_KEEPS[np.arange(len(SUB_KEEPS)), best], -1))
    return WinPlan(np.array(box_plan), np.array(keep_plan).reshape(rolls - 1, -1))


def ranked(chances: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """One number that orders choices by their chance to win, then by their expected score."""
    return np.rint(chances * 1e9) * 1e4 + expected
