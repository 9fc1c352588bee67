"""*rival: a computer player that plays to finish first at the table, not for its own mean.

Before its last turn it picks, each turn, one of three exact tables by the score situation:
far behind (its expected final score more than LEAD_MARGIN combined spreads under the best
other player's) it chases with the gambler's spread-loving table, far ahead it guards its
lead with the norisk table, and otherwise it plays for the highest mean. Its last turn (the one that
fills its card) is played for the win, every roll and keep (see winchance): exact when the
others have finished, against their estimated final scores when they have not.
"""
import numpy as np

from .advisor import advise
from .players import OBJECTIVES, Policy, Post, Reroll, turn_key
from .solver import EXPECTED_SCORE
from .tables import BOX_COUNT
from .winchance import final_of, option_chances, remaining_spreads

CHASE, EVEN, GUARD = 0, 1, 2
RIVAL_OBJECTIVES = (OBJECTIVES["gambler"], EXPECTED_SCORE, OBJECTIVES["norisk"])
LEAD_MARGIN = 2.5


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

    @staticmethod
    def plays_last_turn(game):
        """This turn fills the card, in a game of thirteen rounds with others at the table."""
        last_box = len(game.current.card.boxes) == BOX_COUNT - 1
        return last_box and game.race_target is None and len(game.players) > 1

    def situation(self, game):
        """CHASE, EVEN or GUARD, from the expected final scores at the table."""
        spreads = remaining_spreads(self.table)
        finals = [final_of(self.table, player.card, spreads) for player in game.players]
        mine = finals[game.seat]
        others = [final for seat, final in enumerate(finals) if seat != game.seat]
        if not others:
            return EVEN
        best = max(others, key=lambda final: final.mean)
        return int(situation_of(mine.mean - best.mean, np.hypot(mine.spread, best.spread)))

    def winning_action(self, game):
        """The choice with the best chance to win (the higher mean among equal chances)."""
        options = advise(self.table, game)
        chances = option_chances(self.table, game, options)
        _, _, best = max(zip(chances, [option.value for option in options], options), key=lambda c: c[:2])
        if best.kind == "keep":
            return Reroll(best.reroll)
        return Post(best.box)
