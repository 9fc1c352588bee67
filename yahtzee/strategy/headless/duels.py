"""Two-player games of *rival against *thinker, played side by side as arrays with duplicate
dice: in each round both players draw from the same throws (the first roll takes the
round's first five, each reroll the next ones), so the same choices give the same dice.
The first seat alternates from game to game. The rival sees the other card as it stood at the
start of the round: sitting second, it would otherwise read in the other's card what this
round's throws, its own too, have just made (a game of duplicate dice played for real shows
it, but the measure is of play, not of that)."""
from collections.abc import Sequence
from dataclasses import fields
from typing import Optional

import numpy as np

from ...model.rules import Rules
from ...model.words import Say
from ..exact.dicemath import random_faces
from ..exact.rulearrays import BOX_COUNT, BOXES, UP_CAP, UnsupportedRules
from ..exact.sidebyside import DICE, Cards, play_turn, play_turns
from ..exact.table import StrategyTable, TableLoader
from ..odds.earlyturns import TurnPlans, final_normals, state_spreads, turn_plans
from ..odds.finals import remaining_pmfs
from ..odds.rival import RIVAL_OBJECTIVES, win_plan
from ..odds.winchance import Final, ahead_chances
from .pool import Figures, Progress, Simulation, batch_figures, batch_seeds, batch_sizes, batch_statistics


class RoundDice:
    """The duplicate dice of a batch of two-player games: one stream of throws a game and
    round; each player's turn starts at its beginning."""

    def __init__(self, rng: np.random.Generator, count: int, rolls: int) -> None:
        self.rng, self.count, self.width = rng, count, DICE * (rolls + 1)
        self.throws = np.zeros((count, self.width), dtype=np.int64)
        self.used = np.zeros(count, dtype=np.int64)

    def new_round(self) -> None:
        """Fresh throws for every game's round."""
        self.throws = random_faces(self.rng, (self.count, self.width))

    def new_turn(self) -> None:
        """The next player starts from the round's first throw."""
        self.used = np.zeros(self.count, dtype=np.int64)

    def roll(self, games: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """The next throws of `games` (row i's first counts[i] are used)."""
        faces = np.take_along_axis(self.throws[games], self.used[games, None] + np.arange(DICE), axis=1)
        self.used[games] += counts
        return faces


def play_rivalries(count: int, table: StrategyTable, rng: np.random.Generator) -> tuple[Cards, Cards]:
    """`count` two-player games of *rival against *thinker, both with the expected-score
    table; the rival sits first in the even-numbered games. Returns both Cards."""
    rival, thinker = Cards.empty(count), Cards.empty(count)
    dice = RoundDice(rng, count, table.engine.rolls)
    rival_first = np.arange(count) % 2 == 0
    games = np.arange(count)
    plans: dict[tuple[int, ...], TurnPlans] = {}
    while not (rival.is_full.all() and thinker.is_full.all()):
        dice.new_round()
        seen = copied(thinker)
        for seat_first in (True, False):
            dice.new_turn()
            turn = games[~thinker.is_full & (rival_first != seat_first)]
            play_turns(table, thinker, turn, dice)
            turn = games[~rival.is_full & (rival_first == seat_first)]
            play_rival_turns(table, rival, seen, turn, dice, plans)
    return rival, thinker


def copied(cards: Cards) -> Cards:
    """The cards as they stand now, apart from what is played on them later."""
    return Cards(**{field.name: getattr(cards, field.name).copy() for field in fields(Cards)})


def play_rival_turns(table: StrategyTable, rival: Cards, other: Cards, games: np.ndarray, dice: RoundDice,
                     plans: dict[tuple[int, ...], TurnPlans]) -> None:
    """Play the rival's turn in each of `games` for the win: estimated before the last, exact then."""
    last = rival.open_counts(games) == 1
    play_estimated_turns(table, rival, other, games[~last], dice)
    play_last_turns(table, rival, other, games[last], dice, plans)


def play_estimated_turns(table: StrategyTable, rival: Cards, other: Cards, games: np.ndarray, dice: RoundDice) -> None:
    """Play the rival's turn in each of `games` for the win against the other card (see odds.earlyturns)."""
    if not len(games):
        return
    states = rival.states(games)
    theirs = final_normals(table, other.states(games).index, other.totals[games])
    plans = turn_plans(table, states.mask, states.up, states.fifty, rival.totals[games], theirs)
    play_turn(table.engine, TurnPlans(plans.batch_boxes(), plans.keeps), rival, games, np.arange(len(games)), dice)


def play_last_turns(table: StrategyTable, rival: Cards, other: Cards, games: np.ndarray, dice: RoundDice,
                    plans: dict[tuple[int, ...], TurnPlans]) -> None:
    """Play the rival's last turn in each of `games` for the win against the other card."""
    if not len(games):
        return
    theirs = other.states(games).index
    columns: list[int] = []
    keys: dict[tuple[int, ...], int] = {}
    for game, their_state in zip(games, theirs):
        key = (int(rival.mask[game]), int(min(rival.upper[game], UP_CAP)), int(rival.fifty[game]),
               int(rival.totals[game]), int(their_state), int(other.totals[game]))
        if key not in plans:
            their_final = Final(key[5], remaining_pmfs(table, [key[4]])[key[4]])
            plans[key] = last_turn_plan(table, rival, game, their_final)
        columns.append(keys.setdefault(key, len(keys)))
    boxes = np.concatenate([plans[key].batch_boxes() for key in keys], axis=-1)
    keeps = np.concatenate([plans[key].keeps for key in keys], axis=-1)
    play_turn(table.engine, TurnPlans(boxes, keeps), rival, games, np.array(columns), dice)


def last_turn_plan(table: StrategyTable, cards: Cards, game: int, their_final: Final) -> TurnPlans:
    """The win plan of the last turn of one game's card against one final score."""
    filled = [bit for bit in range(BOX_COUNT) if cards.mask[game] >> bit & 1]
    boxes = {BOXES[bit]: int(cards.points[game, bit]) for bit in filled}
    return win_plan(table, boxes, int(cards.totals[game]), ahead_chances([their_final]))


RIVALRY_BATCH = 5_000  # plans of last turns are remembered per batch


def simulate_rivalry(n: int, rules: Rules, seed: Optional[int], loader: TableLoader,
                     progress: Optional[Progress] = None, workers: Optional[int] = None) -> Simulation:
    """Play `n` two-player games of *rival against *thinker with duplicate dice, the first
    seat alternating; the rival's statistics with its share of wins (ties half)."""
    tables = [loader(rules, objective) for objective in RIVAL_OBJECTIVES]
    if not all(table.exact for table in tables):
        raise UnsupportedRules(Say("*rival's games are not simulated for {rules}").format(rules=rules.describe()))
    for table in tables:
        table.warm()  # worked out once, not in every worker
        state_spreads(table)
    sizes, seeds = batch_sizes(n, RIVALRY_BATCH), batch_seeds(n, RIVALRY_BATCH, seed)
    return batch_statistics(tables, sizes, seeds, workers, play_rivalry_batch, progress)


def play_rivalry_batch(tables: Sequence[StrategyTable], size: int, seed: np.random.SeedSequence) -> Figures:
    """Play `size` rivalries side by side; the rival's figures, its results and the other's totals."""
    rival, thinker = play_rivalries(size, tables[0], np.random.default_rng(seed))
    mine, theirs = rival.totals, thinker.totals
    return {**batch_figures(rival), "won": (mine > theirs) + 0.5 * (mine == theirs), "opponent": theirs}
