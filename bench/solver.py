"""Strategy engine figures: table build time and memory, the start value of every variant
solved exactly, advisor latency, simulation speed. Prints them; asserts nothing. The last
line is one JSON object."""
import json
import random
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from yahtzee.model import scoring  # noqa: E402
from yahtzee.model.rules import ACORN, FIVEOAK, FREE_JOKER, HASBRO, NO_BONUS, YAHTC  # noqa: E402
from yahtzee.model.scoring import Category  # noqa: E402
from yahtzee.strategy.headless.simulate import simulate  # noqa: E402
from yahtzee.strategy.play.advisor import advise_position  # noqa: E402
from yahtzee.strategy.storage.cache import build_table, save_table  # noqa: E402

POSITIONS = 10_000
GAMES = 100_000
# Every variant the solver solves exactly (a dice bank is planned approximately, not solved).
SOLVED = (HASBRO, HASBRO.with_options(rolls=4), FREE_JOKER, NO_BONUS, FIVEOAK, ACORN, YAHTC)


def timed_builds():
    """Build each solved variant's table cold; returns {'hasbro, 4 rolls': (seconds, table)}."""
    builds = {}
    for rules in SOLVED:
        name = rules.name + "".join(f", {value} {option}" for option, value in rules.options.items())
        started = time.perf_counter()
        table = build_table(rules)
        builds[name] = (time.perf_counter() - started, table)
        print(f"{rules.describe():28} built in {builds[name][0]:6.2f} s, start value {table.start_value:.7f}",
              flush=True)
    return builds


def traced_peak_mb():
    """Peak memory allocated while building the hasbro table again, in MB."""
    tracemalloc.start()
    build_table(HASBRO)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2 ** 20


def random_position(rng):
    """A card with random boxes filled by random dice, new dice and rolls left."""
    boxes = {}
    for box in rng.sample(list(Category), rng.randint(0, 12)):
        boxes[box] = scoring.score(box, [rng.randint(1, 6) for _ in range(5)])
    dice = tuple(rng.randint(1, 6) for _ in range(5))
    return boxes, 0, dice, rng.randint(0, 2)


def advice_latency_ms(table):
    """Median and 99th percentile of advise_position over random positions, in ms."""
    rng = random.Random(5)
    times = []
    for _ in range(POSITIONS):
        position = random_position(rng)
        started = time.perf_counter()
        advise_position(table, *position)
        times.append(time.perf_counter() - started)
    times.sort()
    return statistics.median(times) * 1e3, times[int(len(times) * 0.99)] * 1e3


def simulation_figures(tables):
    """Thinker games per second under hasbro and yahtc, the tables read from a cache."""
    with tempfile.TemporaryDirectory() as folder:
        for table in tables:
            save_table(table, folder)
        figures = {}
        for table in tables:
            started = time.perf_counter()
            stats = simulate(GAMES, "thinker", table.rules, seed=1, cache_dir=folder)
            wall = time.perf_counter() - started
            figures[table.rules.name] = stats
            print(f"simulation, {table.rules.name}: {GAMES:,} thinker games in {stats.seconds:.2f} s "
                  f"({wall:.2f} s with the table read), {stats.games_per_second:,.0f} games/s, "
                  f"mean {stats.mean:.2f} +- {stats.stdev / GAMES ** 0.5:.2f}", flush=True)
    return figures


def main():
    builds = timed_builds()
    peak = traced_peak_mb()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory of a build (tracemalloc) {peak:.1f} MB; process peak RSS {rss:.1f} MB")
    median, p99 = advice_latency_ms(builds["hasbro"][1])
    print(f"advice over {POSITIONS:,} random positions: median {median:.3f} ms, p99 {p99:.3f} ms")
    simulations = simulation_figures([builds["hasbro"][1], builds["yahtc"][1]])
    print(json.dumps({
        "build_seconds": round(builds["hasbro"][0], 3),
        "build_seconds_by_rules": {name: round(seconds, 3) for name, (seconds, _) in builds.items()},
        "peak_mb": round(peak, 1), "max_rss_mb": round(rss, 1),
        "start_ev": {name: round(table.start_value, 7) for name, (_, table) in builds.items()},
        "advice_median_ms": round(median, 4), "advice_p99_ms": round(p99, 4),
        "games_per_second": round(simulations["hasbro"].games_per_second, 1),
        "games_per_second_by_rules": {name: round(stats.games_per_second, 1) for name, stats in simulations.items()},
    }))


if __name__ == "__main__":
    main()
