"""The computer moods side by side: solitaire games of each (all but *rival, whose figures
bench/rival.py gives), their mean, spread and Yahtzee rate with standard errors, and whether
they differ as YAHTZEE.DOC says they do: *thinker scores most, *norisk spreads least and
*gambler more than *thinker, *yclover rolls the most Yahtzees. Asserts nothing; the last line
is one JSON object.
Usage: python bench/moods.py [--quick] [GAMES] [SEED] (quick: 1,000 games of each)"""
import json
import math
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from yahtzee.model.moods import MOODS  # noqa: E402
from yahtzee.strategy.headless.simulate import simulate  # noqa: E402

GAMES = 20_000
QUICK_GAMES = 1_000


def mood_figures(games, seed, cache):
    """Each mood's simulated figures: {mood: statistics}."""
    return {mood: simulate(games, mood, seed=seed, cache_dir=cache) for mood in MOODS if mood != "rival"}


def checks(stats):
    """Each claim of the manual about the moods, and whether the figures bear it out."""
    def most(key):
        return max(stats, key=lambda mood: getattr(stats[mood], key))
    return {
        "*thinker has the highest mean": most("mean") == "thinker",
        "*norisk has the smallest spread": min(stats, key=lambda mood: stats[mood].stdev) == "norisk",
        "*norisk < *thinker < *gambler in spread":
            stats["norisk"].stdev < stats["thinker"].stdev < stats["gambler"].stdev,
        "*yclover rolls the most Yahtzees": most("yahtzee_rate") == "yclover",
    }


def main():
    """Run the moods and print their figures and the checks."""
    numbers = [word for word in sys.argv[1:] if word != "--quick"]
    games = int(numbers[0]) if numbers else QUICK_GAMES if "--quick" in sys.argv[1:] else GAMES
    seed = int(numbers[1]) if len(numbers) > 1 else 7
    cache = os.environ.get("YAHTZEE_CACHE") or tempfile.mkdtemp(prefix="yahtzee-bench-")
    started = time.perf_counter()
    stats = mood_figures(games, seed, cache)
    seconds = time.perf_counter() - started
    print(f"{games:,} solitaire games of each mood, seed {seed} (standard errors in brackets)")
    for mood, figures in stats.items():
        rate = figures.yahtzee_rate
        print(f"  *{mood:8} mean {figures.mean:6.2f} ({figures.stdev / math.sqrt(games):.2f})"
              f"  spread {figures.stdev:5.2f} ({figures.stdev / math.sqrt(2 * games):.2f})"
              f"  Yahtzee rate {rate:.3f} ({math.sqrt(rate * (1 - rate) / games):.3f})")
    results = checks(stats)
    for claim, holds in results.items():
        print(f"  {claim}: {'met' if holds else 'NOT met'}")
    print(f"  {seconds:.1f} s")
    print(json.dumps({"games": games, "seed": seed, "seconds": round(seconds, 1), "checks": results,
                      "moods": {mood: {"mean": figures.mean, "stdev": figures.stdev,
                                       "yahtzee_rate": figures.yahtzee_rate} for mood, figures in stats.items()}}))


if __name__ == "__main__":
    main()
