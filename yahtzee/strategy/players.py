"""Computer players: each mood is the exact best policy for its own objective.

thinker maximises expected score; norisk and gambler maximise an exponential utility of
the final score (disliking or liking spread); yclover counts a Yahtzee as worth more than
its points; nowhere takes one of those four moods at random each turn.
"""
import random
from dataclasses import dataclass

import numpy as np

from ..scoring import Category
from .dicemath import KEEPS, ROLL_INDEX
from .moods import mood_named
from .position import card_state, reroll_marks
from .solver import EXPECTED_SCORE, Objective, States

BOXES = tuple(Category)
OBJECTIVES = {
    "thinker": EXPECTED_SCORE,
    "norisk": Objective("norisk", risk=0.05),
    "gambler": Objective("gambler", risk=-0.015),
    "yclover": Objective("yclover", yahtzee_reward=300.0),
}
MEMO_LIMIT = 50_000


@dataclass(frozen=True)
class Reroll:
    """Reroll the marked dice (five bools, in the dice's places)."""

    marked: tuple


@dataclass(frozen=True)
class Post:
    """Post the dice in a box."""

    box: Category


@dataclass(frozen=True)
class TurnPlan:
    """One state's decisions: the box for each roll, and per rerolls left the keep or -1."""

    boxes: list
    choices: list

    def action(self, dice, rolls_left):
        """Reroll or Post for these dice with `rolls_left` rolls to come."""
        roll = ROLL_INDEX[tuple(sorted(dice))]
        if rolls_left > 0:
            keep = self.choices[min(rolls_left, len(self.choices)) - 1][roll]
            if keep >= 0:
                return Reroll(reroll_marks(dice, KEEPS[keep]))
        return Post(BOXES[self.boxes[roll]])


class Policy:
    """The decisions of one table, worked out a turn-start state at a time and remembered."""

    def __init__(self, table):
        self.table = table
        self.plans = {}

    def plan(self, state):
        """The TurnPlan of a (mask, up, fifty) state."""
        plan = self.plans.get(state)
        if plan is None:
            self.prepare([state])
            plan = self.plans[state]
        return plan

    def prepare(self, states):
        """Work out the plans of many states at once (they replace older ones when many)."""
        todo = sorted(set(states) - self.plans.keys())
        if not todo:
            return
        if len(self.plans) + len(todo) > MEMO_LIMIT:
            self.plans.clear()
        columns = States(*(np.array(part, dtype=np.int64) for part in zip(*todo)))
        boxes, choices = self.table.engine.turn_plans(self.table.values, columns)
        boxes, choices = boxes.T.tolist(), choices.transpose(2, 0, 1).tolist()
        for index, state in enumerate(todo):
            self.plans[state] = TurnPlan(boxes[index], choices[index])


class ComputerPlayer:
    """A computer player of one mood, asked for one action at a time."""

    def __init__(self, mood, rules, table_loader, rng=None):
        self.mood = mood_named(mood)
        self.rules = rules
        self.rng = rng or random.Random()
        moods = [self.mood] if self.mood in OBJECTIVES else list(OBJECTIVES)
        self.policies = {m: Policy(table_loader(rules, OBJECTIVES[m])) for m in moods}
        self._turn_moods = {}

    def next_action(self, game):
        """Reroll(marked) or Post(box) for the current player's rolled dice."""
        policy = self.policies[self.mood_for_turn(game)]
        return policy.plan(card_state(game.current.card.boxes)).action(game.turn.dice, game.rolls_left)

    def mood_for_turn(self, game):
        """The mood this turn is played in (nowhere settles on one per turn)."""
        if len(self.policies) == 1:
            return self.mood
        turn = (id(game), game.number, game.round, game.seat)
        mood = self._turn_moods.get(turn)
        if mood is None:
            if len(self._turn_moods) > MEMO_LIMIT:
                self._turn_moods.clear()
            mood = self._turn_moods[turn] = self.rng.choice(sorted(self.policies))
        return mood

    def prepare(self, games):
        """Work out, together, the plans for the coming turn of each of these games."""
        states = {mood: [] for mood in self.policies}
        for game in games:
            states[self.mood_for_turn(game)].append(card_state(game.current.card.boxes))
        for mood, policy in self.policies.items():
            policy.prepare(states[mood])


def computer_player(mood, rules, table_loader, rng=None):
    """A computer player: mood '*thinker', 'norisk', ...; table_loader(rules, objective) -> table."""
    return ComputerPlayer(mood, rules, table_loader, rng)
