"""*rival against *thinker: two-player games with duplicate dice, the first seat alternating.
Prints the rival's share of wins (ties count half) with its 95% interval against the target
(the interval's upper end at or above 51.93%, the share measured before each card had its
own spread: near-optimal two-player play gains little over the table's, so the aim is to
keep it), and the time of a decision in the
game itself (target: at most 50 ms), timed over whole two-player games through the game model
against *thinker, the tables and their arithmetic ready as the game readies them (p99 over
all its decisions); asserts nothing. The last line is one JSON object.
Usage: python bench/rival.py [--quick] [GAMES] [SEED] (quick: 2,000 games, 3 of them timed)"""
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from yahtzee.model.dice import RandomDice  # noqa: E402
from yahtzee.model.game import Game, Player  # noqa: E402
from yahtzee.model.rules import HASBRO  # noqa: E402
from yahtzee.strategy.headless.simulate import play_turn, simulate  # noqa: E402
from yahtzee.strategy.odds.computers import computer_player  # noqa: E402
from yahtzee.strategy.odds.earlyturns import state_spreads  # noqa: E402
from yahtzee.strategy.storage.cache import ready_rests, table_loader  # noqa: E402

GAMES = 200_000
TARGET_HIGH = 0.5193  # the interval's upper end reaches the share measured before (2026-12-02)
DECISION_TARGET = 0.050
TIMED_GAMES = 20
QUICK = "--quick" in sys.argv[1:]
QUICK_GAMES, QUICK_TIMED_GAMES = 2_000, 3


def decision_times(cache, seed, timed_games):
    """The seconds each of *rival's decisions took in `timed_games` games against *thinker."""
    loader = table_loader(cache)
    rival, thinker = computer_player("rival", HASBRO, loader), computer_player("thinker", HASBRO, loader)
    rival.table.warm()
    ready_rests(rival.table, cache)  # as the game readies them (read from the package)
    state_spreads(rival.table)
    timed = TimedPlayer(rival)
    for number in range(timed_games):
        game = Game.start([Player("RIVAL", "computer"), Player("THINK", "computer")][::1 - 2 * (number % 2)],
                          HASBRO, RandomDice(random.Random(f"{seed}/{number}")))
        while not game.is_over:
            play_turn(game, timed if game.current.name == "RIVAL" else thinker)
    return timed.times


class TimedPlayer:
    """A computer player whose every decision is timed."""

    def __init__(self, player):
        self.player, self.times = player, []

    def next_action(self, game):
        """The player's action, its time kept."""
        start = time.perf_counter()
        action = self.player.next_action(game)
        self.times.append(time.perf_counter() - start)
        return action


def main(argv):
    """Play the games and print the figures."""
    numbers = [word for word in argv if word != "--quick"]
    games = int(numbers[0]) if numbers else QUICK_GAMES if QUICK else GAMES
    seed = int(numbers[1]) if len(numbers) > 1 else 1
    timed_games = QUICK_TIMED_GAMES if QUICK else TIMED_GAMES
    cache = os.environ.get("YAHTZEE_CACHE") or tempfile.mkdtemp(prefix="yahtzee-bench-")
    times = sorted(decision_times(Path(cache), seed, timed_games))
    p50, p99 = times[len(times) // 2], times[int(len(times) * 0.99)]
    print(f"*rival's decisions in {timed_games} games: {len(times)}, p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
          f"worst {times[-1] * 1000:.1f} ms  target p99 <= {DECISION_TARGET * 1000:.0f} ms: "
          f"{'met' if p99 <= DECISION_TARGET else 'NOT met'}")
    stats = simulate(games, "rival", HASBRO, seed=seed, cache_dir=cache)
    rivalry = stats.rivalry
    low, high = rivalry.win_share - rivalry.win_interval, rivalry.win_share + rivalry.win_interval
    print(f"*rival vs *thinker, {stats.games:,} games, duplicate dice, first seat alternating")
    print(f"  win share {rivalry.win_share:.2%} (95% interval {low:.2%} to {high:.2%}; ties count half)"
          f"  target: the interval's upper end >= {TARGET_HIGH:.2%}: {'met' if high >= TARGET_HIGH else 'NOT met'}")
    print(f"  mean score: *rival {stats.mean:.2f}, *thinker {rivalry.opponent_mean:.2f}")
    print(f"  {stats.seconds:.1f} s, {stats.games_per_second:,.0f} games a second")
    print(json.dumps({"games": stats.games, "win_share": rivalry.win_share, "win_interval": rivalry.win_interval,
                      "mean": stats.mean, "opponent_mean": rivalry.opponent_mean, "seconds": stats.seconds,
                      "decision_p50": p50, "decision_p99": p99}))

if __name__ == "__main__":
    main(sys.argv[1:])
