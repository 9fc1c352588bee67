"""Headless games of one computer player, for its average, spread and rates.

Games are played side by side as arrays (see exact.sidebyside), in batches of BATCH games spread over
every core. Each batch has its own seed drawn from the simulation's, so a seed gives the
same games on any number of cores. Rules the solver plans for only approximately (a dice
bank) are played one game at a time through the game itself.
"""
import contextlib
import gc
import random
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Optional, Union

import numpy as np

from ...model.choices import Post
from ...model.dice import RandomDice
from ...model.game import Game, Player
from ...model.moods import mood_named
from ...model.rules import HASBRO, Rules
from ...model.scorecard import Scorecard
from ...model.scoring import YAHTZEE_POINTS, Category
from ..exact.objective import EXPECTED_SCORE
from ..exact.sidebyside import play_games as play_batch_games
from ..exact.table import StrategyTable, TableLoader
from ..odds.computers import computer_player
from ..odds.rival import RivalPlayer
from ..play.players import OBJECTIVES, ComputerPlayer
from ..storage.cache import ready_rests, table_loader
from .duels import simulate_rivalry
from .pool import (
    Figures,
    Progress,
    Simulation,
    batch_figures,
    batch_seeds,
    batch_sizes,
    batch_statistics,
    game_statistics,
)

BATCH = 25_000  # games played side by side: more share more turn-start states
ONE_BY_ONE_BATCH = 10_000


def simulate(n: int, mood: str, rules: Rules = HASBRO, seed: Optional[int] = None, cache_dir: Optional[Path] = None,
             progress: Optional[Progress] = None, build_progress: Optional[Progress] = None,
             workers: Optional[int] = None) -> Simulation:
    """Play `n` solitaire games of a computer player; returns their statistics.

    `progress(done, n)` hears of the games as they finish, `build_progress` of any table
    build; `workers` processes play (every core by default)."""
    mood = mood_named(mood)
    loader = table_loader(cache_dir, build_progress)
    if mood == "rival":
        ready_rests(loader(rules, EXPECTED_SCORE), cache_dir)  # the rival's win chances read them
        return simulate_rivalry(n, rules, seed, loader, progress, workers)
    moods = [mood] if mood in OBJECTIVES else sorted(OBJECTIVES)
    tables = [loader(rules, OBJECTIVES[m]) for m in moods]
    if not all(table.exact for table in tables):
        return simulate_one_by_one(n, mood, rules, seed, loader, progress)
    for table in tables:
        table.warm()  # the rule tables are worked out here, once, not in every worker
    sizes, seeds = batch_sizes(n, BATCH), batch_seeds(n, BATCH, seed)
    return batch_statistics(tables, sizes, seeds, workers, play_batch, progress)


def play_batch(tables: Sequence[StrategyTable], size: int, seed: np.random.SeedSequence) -> Figures:
    """Play `size` games side by side; their figures as arrays."""
    return batch_figures(play_batch_games(size, tables, np.random.default_rng(seed)))


# -- one game at a time, through the game itself (a dice bank) ---------------------------

def simulate_one_by_one(n: int, mood: str, rules: Rules, seed: Optional[int], loader: TableLoader,
                        progress: Optional[Progress] = None) -> Simulation:
    """Play `n` games one turn of each at a time with the computer player of the game."""
    rng = random.Random(seed)
    player = computer_player(mood, rules, loader, random.Random(rng.random()))
    started = time.perf_counter()
    cards: list[Scorecard] = []
    with cyclic_gc_paused():
        for start in range(0, n, ONE_BY_ONE_BATCH):
            count = min(ONE_BY_ONE_BATCH, n - start)
            games = play_games(count, player, rules, f"{seed if seed is not None else rng.random()}/{start}")
            cards += [game.players[0].card for game in games]
            if progress:
                progress(len(cards), n)
    return game_statistics(card_figures(cards), time.perf_counter() - started)


def play_turn(game: Game, player: Union[ComputerPlayer, RivalPlayer]) -> None:
    """Roll, then do what the player says until it posts (or takes an extra turn)."""
    game.roll()
    while True:
        action = player.next_action(game)
        if isinstance(action, Post):
            game.post(action.box)
            return
        for die, marked in enumerate(action.marked):
            if marked:
                game.toggle(die)
        game.roll()


def play_games(count: int, player: Union[ComputerPlayer, RivalPlayer], rules: Rules, dice_seed: str) -> list[Game]:
    """`count` finished solitaire games, played a turn of each at a time."""
    games = [Game.start([Player("CPU", "computer")], rules, RandomDice(random.Random(f"{dice_seed}/{i}")))
             for i in range(count)]
    playing = games
    while playing:
        player.prepare(playing)
        for game in playing:
            play_turn(game, player)
        playing = [game for game in playing if not game.is_over]
    return games


@contextlib.contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Games make no reference cycles, but the collector would keep rescanning the large
    memo of plans as it grows (a quarter of the time): pause it while they are played."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def card_figures(cards: Sequence[Scorecard]) -> Figures:
    """The figures of finished Scorecards, as play_batch gives them."""
    return {"total": np.array([card.total for card in cards]),
            "upper_bonus": np.array([card.upper_bonus > 0 for card in cards]),
            "yahtzee": np.array([card.boxes.get(Category.YAHTZEE) == YAHTZEE_POINTS for card in cards]),
            "extra_yahtzee": np.array([card.yahtzee_bonus > 0 for card in cards])}
