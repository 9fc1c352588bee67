"""Headless games of one computer player, for its average, spread and rates."""
import contextlib
import gc
import random
import statistics
import time

from ..dice import RandomDice
from ..game import Game, Player
from ..rules import HASBRO
from ..scoring import YAHTZEE_POINTS, Category
from .cache import table_loader
from .players import Post, computer_player

BATCH = 10_000  # games played side by side, so each round's plans are worked out together


def play_turn(game, player):
    """Roll, then do what the player says until it posts (or takes an extra turn)."""
    game.roll()
    while True:
        action = player.next_action(game)
        if isinstance(action, Post):
            return game.post(action.box)
        for die, marked in enumerate(action.marked):
            if marked:
                game.toggle(die)
        game.roll()


def play_games(count, player, rules, dice_seed):
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


def simulate(n, mood, rules=HASBRO, seed=None, cache_dir=None, progress=None, build_progress=None):
    """Play `n` solitaire games of a computer player; returns their statistics."""
    rng = random.Random(seed)
    player = computer_player(mood, rules, table_loader(cache_dir, build_progress), random.Random(rng.random()))
    started = time.perf_counter()
    cards = []
    with cyclic_gc_paused():
        for start in range(0, n, BATCH):
            count = min(BATCH, n - start)
            games = play_games(count, player, rules,
                               f"{seed if seed is not None else rng.random()}/{start}")
            cards += [game.players[0].card for game in games]
            if progress:
                progress(len(cards), n)
    return game_statistics(cards, time.perf_counter() - started)


@contextlib.contextmanager
def cyclic_gc_paused():
    """Games make no reference cycles, but the collector would keep rescanning the large
    memo of plans as it grows (a quarter of the time): pause it while they are played."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def game_statistics(cards, seconds):
    """Mean, spread and rates of finished scorecards."""
    totals = [card.total for card in cards]
    games = len(totals)
    return {
        "games": games,
        "mean": statistics.fmean(totals),
        "stdev": statistics.stdev(totals) if games > 1 else 0.0,
        "median": statistics.median(totals),
        "min": min(totals),
        "max": max(totals),
        "upper_bonus_rate": sum(card.upper_bonus > 0 for card in cards) / games,
        "yahtzee_rate": sum(card.boxes.get(Category.YAHTZEE) == YAHTZEE_POINTS for card in cards) / games,
        "extra_yahtzee_rate": sum(card.yahtzee_bonus > 0 for card in cards) / games,
        "seconds": seconds,
        "games_per_second": games / seconds if seconds else 0.0,
    }


def format_simulation(stats, mood=None):
    """The statistics as lines of text for a player."""
    title = f"{stats['games']:,} games" + (f" of *{mood.lstrip('*')}" if mood else "")
    return [
        title,
        f"  mean {stats['mean']:.2f}   stdev {stats['stdev']:.2f}   median {stats['median']:g}",
        f"  lowest {stats['min']}   highest {stats['max']}",
        f"  upper bonus in {stats['upper_bonus_rate']:.1%} of games, "
        f"a Yahtzee in {stats['yahtzee_rate']:.1%}, a Yahtzee bonus in {stats['extra_yahtzee_rate']:.1%}",
        f"  {stats['seconds']:.1f} s, {stats['games_per_second']:,.0f} games a second",
    ]
