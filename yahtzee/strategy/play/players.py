"""Computer players: each mood is the exact best policy for its own objective.

thinker maximises expected score; norisk and gambler maximise an exponential utility of
the final score (disliking or liking spread); yclover counts a Yahtzee as worth more than
its points; nowhere takes one of those four moods at random each turn. Under a dice bank
they play the heuristic the table's note describes: the turn is planned for every roll it
may have, banked ones included, on the values of the same rules without a bank.
"""
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Optional

import numpy as np

from ...model.choices import Action, Post, Reroll
from ...model.game import Game
from ...model.moods import mood_named
from ...model.rules import Rules
from ...model.words import Text
from ..exact.dicemath import KEEPS, ROLL_INDEX
from ..exact.objective import EXPECTED_SCORE, Objective
from ..exact.position import card_state, reroll_marks
from ..exact.rulearrays import BOXES
from ..exact.statespace import States
from ..exact.table import StrategyTable, TableLoader

OBJECTIVES = {
    "thinker": EXPECTED_SCORE,
    "norisk": Objective("norisk", risk=0.05),
    "gambler": Objective("gambler", risk=-0.015),
    "yclover": Objective("yclover", yahtzee_reward=300.0),
}
MEMO_LIMIT = 50_000
TurnKey = tuple[int, int, int, int]  # (mask, up, fifty, rolls this turn)


@dataclass(frozen=True)
class TurnPlan:
    """One state's decisions for a turn of some number of rolls: per roll number 1, 2, ...
    the box for each roll and (before the last) the keep or -1 to post."""

    boxes: list[list[int]]
    choices: list[list[int]]

    def action(self, dice: Sequence[int], rolls_used: int) -> Action:
        """Reroll or Post for these dice after `rolls_used` rolls."""
        roll = ROLL_INDEX[tuple(sorted(dice))]
        if rolls_used <= len(self.choices):
            keep = self.choices[rolls_used - 1][roll]
            if keep >= 0:
                return Reroll(reroll_marks(dice, KEEPS[keep]))
        return Post(BOXES[self.boxes[min(rolls_used, len(self.boxes)) - 1][roll]])


def turn_key(game: Game) -> TurnKey:
    """(mask, up, fifty, rolls this turn) of the current player: what a TurnPlan is for."""
    card = game.current.card
    return card_state(card.boxes) + (game.rules.rolls_per_turn + card.bank,)


class Policy:
    """The decisions of one table, worked out a turn at a time and remembered."""

    def __init__(self, table: StrategyTable) -> None:
        self.table = table
        self.plans: dict[TurnKey, TurnPlan] = {}

    def plan(self, key: TurnKey) -> TurnPlan:
        """The TurnPlan of a (mask, up, fifty, rolls) turn."""
        plan = self.plans.get(key)
        if plan is None:
            self.prepare([key])
            plan = self.plans[key]
        return plan

    def prepare(self, keys: Iterable[TurnKey]) -> None:
        """Work out the plans of many turns at once (they replace older ones when many)."""
        todo = sorted(set(keys) - self.plans.keys())
        if not todo:
            return
        if len(self.plans) + len(todo) > MEMO_LIMIT:
            self.plans.clear()
        for rolls in sorted({key[3] for key in todo}):
            self._prepare_turns([key for key in todo if key[3] == rolls], rolls)

    def _prepare_turns(self, keys: list[TurnKey], rolls: int) -> None:
        """Work out the plans of turns that have the same number of rolls."""
        columns = States(*(np.array(part, dtype=np.int64) for part in list(zip(*keys))[:3]))
        boxes, choices = self.table.engine.turn_plans(self.table.values, columns, rolls)
        boxes, choices = boxes.transpose(2, 0, 1).tolist(), choices.transpose(2, 0, 1).tolist()
        for index, key in enumerate(keys):
            self.plans[key] = TurnPlan(boxes[index], choices[index])


class ComputerPlayer:
    """A computer player of one mood, asked for one action at a time."""

    def __init__(self, mood: str, rules: Rules, table_loader: TableLoader, rng: Optional[random.Random] = None,
                 turn_seed: Optional[str] = None) -> None:
        self.mood = mood_named(mood)
        self.rules = rules
        self.rng = rng or random.Random()
        # With a turn seed, nowhere's mood for a turn comes from the seed and the turn alone, so
        # a game saved and resumed mid-turn plays on in the same mood; without, from rng in turn order.
        self.turn_seed = turn_seed
        moods = [self.mood] if self.mood in OBJECTIVES else list(OBJECTIVES)
        self.policies = {m: Policy(table_loader(rules, OBJECTIVES[m])) for m in moods}
        self._turn_moods: dict[tuple[int, int, int, int, int], str] = {}

    @property
    def note(self) -> Text:
        """'' when the player plays the exact optimum for its mood, else what it does instead."""
        return next(iter(self.policies.values())).table.note

    def next_action(self, game: Game) -> Action:
        """Reroll(marked) or Post(box) for the current player's rolled dice."""
        policy = self.policies[self.mood_for_turn(game)]
        return policy.plan(turn_key(game)).action(game.turn.dice, game.turn.rolls)

    def mood_for_turn(self, game: Game) -> str:
        """The mood this turn is played in (nowhere settles on one per turn)."""
        if len(self.policies) == 1:
            return self.mood
        if self.turn_seed is not None:
            draw = random.Random(f"{self.turn_seed}/{game.number}/{game.round}/{game.seat}/{game.turn.extra}")
            return draw.choice(sorted(self.policies))
        turn = (id(game), game.number, game.round, game.seat, game.turn.extra)
        mood = self._turn_moods.get(turn)
        if mood is None:
            if len(self._turn_moods) > MEMO_LIMIT:
                self._turn_moods.clear()
            mood = self._turn_moods[turn] = self.rng.choice(sorted(self.policies))
        return mood

    def prepare(self, games: Iterable[Game]) -> None:
        """Work out, together, the plans for the coming turn of each of these games."""
        states: dict[str, list[TurnKey]] = {mood: [] for mood in self.policies}
        for game in games:
            states[self.mood_for_turn(game)].append(turn_key(game))
        for mood, policy in self.policies.items():
            policy.prepare(states[mood])
