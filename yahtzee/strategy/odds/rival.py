"""*rival: a computer player that plays to finish first at the table, not for its own mean.

Every turn of a game of thirteen rounds with others at the table is played for the win,
every roll and keep. Before its last turn the chance is estimated (see earlyturns: each final
score normal, the card's own mean and the spread of cards alike); its last turn (the one
that fills its card) is worked out as the coach works out the win chance (see winchance):
exact when the others have finished, against their cards' own final-score distributions
when they have not. Between choices with the same chance (a game already won or lost) it
takes the higher expected score. Alone, in a race, or where the tables are not exact (a dice
bank), it plays the exact table for the highest mean. The simulation of its games (headless.duels)
plays by the same plans.
"""

import numpy as np

from ...model.choices import Action
from ...model.game import Game
from ...model.rules import Rules
from ...model.scorecard import Scorecard
from ...model.scoring import Category
from ...model.words import Text
from ..exact.dicemath import ROLL_PROBABILITY, SUB_KEEPS
from ..exact.objective import EXPECTED_SCORE
from ..exact.position import card_state
from ..exact.rulearrays import BOX_COUNT
from ..exact.statespace import state_index
from ..exact.table import StrategyTable, TableLoader
from ..play.advisor import keep_values
from ..play.players import Policy, turn_key
from .earlyturns import TurnPlans, best_of, final_normals, turn_plans
from .winchance import card_stages, others_ahead, postings

RIVAL_OBJECTIVES = (EXPECTED_SCORE,)


class RivalPlayer:
    """*rival, asked for one action at a time like the other computer players."""

    mood = "rival"

    def __init__(self, rules: Rules, table_loader: TableLoader) -> None:
        self.rules = rules
        self.table = table_loader(rules, EXPECTED_SCORE)
        self.policy = Policy(self.table)

    @property
    def note(self) -> Text:
        """'' when its tables are exact for the rules, else what it does instead."""
        return self.table.note

    def next_action(self, game: Game) -> Action:
        """Reroll(marked) or Post(box) for the current player's rolled dice."""
        if not self.plays_for_the_win(game):
            return self.policy.plan(turn_key(game)).action(game.turn.dice, game.turn.rolls)
        plans = self.last_turn_plans(game) if self.plays_last_turn(game) else self.estimated_plans(game)
        return plans.action(game.turn.dice, game.turn.rolls)

    def prepare(self, games: list[Game]) -> None:
        """Work out, together, the table's plans for the coming turn of each of these games."""
        self.policy.prepare([turn_key(game) for game in games if not self.plays_for_the_win(game)])

    def plays_for_the_win(self, game: Game) -> bool:
        """Others at the table, a game of thirteen rounds, rules the tables solve exactly."""
        return game.race_target is None and len(game.players) > 1 and self.table.exact

    @staticmethod
    def plays_last_turn(game: Game) -> bool:
        """This turn fills the card."""
        return len(game.current.card.boxes) == BOX_COUNT - 1

    def last_turn_plans(self, game: Game) -> TurnPlans:
        """The last turn played for the win (see win_plan)."""
        card = game.current.card
        return win_plan(self.table, card.boxes, card.total, others_ahead(self.table, game))

    def estimated_plans(self, game: Game) -> TurnPlans:
        """A turn before the last played for the win against the best of the others' finals."""
        finals = [final_normals(self.table, *card_start(player.card))
                  for seat, player in enumerate(game.players) if seat != game.seat]
        mask, up, fifty = card_state(game.current.card.boxes)
        return turn_plans(self.table, np.array([mask]), np.array([up]), np.array([fifty]),
                          np.array([game.current.card.total]), best_of(finals))


def card_start(card: Scorecard) -> tuple[np.ndarray, np.ndarray]:
    """(state index, total) of a card as arrays of one, for final_normals."""
    return np.array([state_index(*card_state(card.boxes))]), np.array([card.total])


def win_plan(table: StrategyTable, boxes: dict[Category, int], total: int, ahead: np.ndarray) -> TurnPlans:
    """The whole turn of a card played for the win against `ahead` (see winchance.ahead_chances);
    equal chances go to the higher expected score. One card's TurnPlans."""
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
    return TurnPlans(np.array(box_plan)[:, :, None],
                     np.array(keep_plan, dtype=np.int64).reshape(rolls - 1, len(ROLL_PROBABILITY), 1))


def ranked(chances: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """One number that orders choices by their chance to win, then by their expected score."""
    return np.rint(chances * 1e9) * 1e4 + expected
