"""*rival against *thinker: two-player games with duplicate dice, the first seat alternating.
Prints the rival's share of wins (ties count half) with its 95% interval against the target
(a share of at least 52.0% with the interval above 51.8%) and the time of a decision;
asserts nothing. Usage: python bench/rival.py [GAMES] [SEED]. The last line is one
JSON object."""
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from yahtzee.rules import HASBRO  # noqa: E402
from yahtzee.strategy.simulate import simulate  # noqa: E402

GAMES = 200_000
TARGET = 0.520
TARGET_LOW = 0.518


def main(argv):
    """Play the games and print the figures."""
    games = int(argv[0]) if argv else GAMES
    seed = int(argv[1]) if len(argv) > 1 else 1
    cache = os.environ.get("YAHTZEE_CACHE") or tempfile.mkdtemp(prefix="yahtzee-bench-")
    stats = simulate(games, "rival", HASBRO, seed=seed, cache_dir=cache)
    low, high = stats["win_share"] - stats["win_interval"], stats["win_share"] + stats["win_interval"]
    print(f"*rival vs *thinker, {stats['games']:,} games, duplicate dice, first seat alternating")
    print(f"  win share {stats['win_share']:.2%} (95% interval {low:.2%} to {high:.2%}; ties count half)"
          f"  target >= {TARGET:.1%} with the interval above {TARGET_LOW:.1%}: "
          f"{'met' if stats['win_share'] >= TARGET and low > TARGET_LOW else 'NOT met'}")
    print(f"  mean score: *rival {stats['mean']:.2f}, *thinker {stats['opponent_mean']:.2f}")
    print(f"  {stats['seconds']:.1f} s, {stats['games_per_second']:,.0f} games a second")
    print(json.dumps({key: stats[key] for key in ("games", "win_share", "win_interval", "mean", "opponent_mean",
                                                  "seconds")}))


if __name__ == "__main__":
    main(sys.argv[1:])
