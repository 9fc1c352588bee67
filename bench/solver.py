"""Strategy engine figures: each rule set's whole preparation, with three rolls a turn and with four
(the table build with its moments in one pass, and its rests) in CPU seconds against the target,
each build's start value, the table build as the game runs it against yatzy-solver's, the peak
memory of a build, the advisor's latency and the simulation's speed. Prints each figure (with
"met"/"NOT met" where it has a target); asserts nothing. The last line is one JSON object.

The comparison with yatzy-solver (a Rust solver of the same games) runs where its Python
package is installed: `pip install -e '.[bench]'`. Whole processes, interleaved: ours as the
game starts it (`python -m yahtzee.strategy.storage.buildprocess`, an empty cache folder, no
shipped tables), theirs `ys.Solver.build(ys.Variant(V))`; the median wall time of each, their
start values checked equal.

Usage: python bench/solver.py [--quick] (quick: one rule set prepared, one race of no bonus alone,
fewer positions and games)
"""
import importlib.util
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from yahtzee.model import scoring  # noqa: E402
from yahtzee.model.rules import ACORN, FIVEOAK, FREE_JOKER, HASBRO, NO_BONUS, YAHTC, Rules  # noqa: E402
from yahtzee.model.scoring import Category  # noqa: E402
from yahtzee.speech.languages import text  # noqa: E402
from yahtzee.strategy.exact.moments import solve_moments  # noqa: E402
from yahtzee.strategy.exact.objective import EXPECTED_SCORE  # noqa: E402
from yahtzee.strategy.exact.table import StrategyTable  # noqa: E402
from yahtzee.strategy.headless.pool import Simulation  # noqa: E402
from yahtzee.strategy.headless.simulate import simulate  # noqa: E402
from yahtzee.strategy.odds.futures import Exact  # noqa: E402
from yahtzee.strategy.odds.rests import measure_rests  # noqa: E402
from yahtzee.strategy.play.advisor import advise_position  # noqa: E402
from yahtzee.strategy.storage.buildprocess import request  # noqa: E402
from yahtzee.strategy.storage.cache import build_table, checked_table, save_table  # noqa: E402

QUICK = "--quick" in sys.argv[1:]
POSITIONS = 500 if QUICK else 10_000
GAMES = 5_000 if QUICK else 100_000
REST_GAMES = 2_000 if QUICK else None  # None: measure_rests' own count, as the game measures
RACES = 1 if QUICK else 5
PREPARATION_TARGET = 10.0  # CPU seconds for a rule set's table, moments and rests
RATIO_TARGET = 0.5  # our wall time over yatzy-solver's
# Every variant the solver solves exactly, each with three rolls a turn and with four (a dice bank is
# planned approximately from the same rules' table: its preparation is theirs).
NAMED = (HASBRO, FREE_JOKER, NO_BONUS, FIVEOAK, ACORN, YAHTC)
SOLVED = NAMED + tuple(rules.with_options(rolls=4) for rules in NAMED)
PREPARED = (NO_BONUS,) if QUICK else SOLVED
# The games both solvers build: ours and yatzy-solver's variant id.
SHARED_GAMES = ((HASBRO, "american+forced-joker"), (FREE_JOKER, "american"), (NO_BONUS, "american+no-bonus"))
RACED = SHARED_GAMES[2:] if QUICK else SHARED_GAMES  # quick: the game whose build is the shortest
THEIR_BUILD = ("import yatzy_solver as ys\n"
               "solver = ys.Solver.build(ys.Variant({variant!r}))\n"
               "print(solver.state_value('upper 0 | filled -'))\n")


class Spent(NamedTuple):
    """What some work took: wall and CPU seconds (this process's and its children's)."""

    wall: float
    cpu: float


def cpu_seconds() -> float:
    """CPU seconds used so far by this process, its threads and its finished children."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def timed(work: Callable[[], Any]) -> tuple[Any, Spent]:
    """work()'s result and what it took."""
    wall, cpu = time.perf_counter(), cpu_seconds()
    result = work()
    return result, Spent(time.perf_counter() - wall, cpu_seconds() - cpu)


def rules_key(rules: Rules) -> str:
    """A rule set's key in the figures: 'hasbro', 'hasbro, 4 rolls'."""
    return rules.name + "".join(f", {value} {option}" for option, value in rules.options.items())


def verdict(met: bool) -> str:
    """'met' or 'NOT met'."""
    return "met" if met else "NOT met"


def prepared(rules: Rules) -> tuple[StrategyTable, dict[str, Any]]:
    """Build a rule set's table alone (as the game builds it for the advice), then its moments
    apart (for information); then the whole preparation as a build asked for the rests too
    makes it: the table with its moments in one pass, and the rests from those moments. Print
    each, and the preparation apart too (the table, its moments and the rests' games)."""
    name = text(rules.describe())
    table, build = timed(lambda: build_table(rules))
    print(f"{name:32} built in {build.wall:6.2f} s ({build.cpu:6.2f} s of CPU), start value "
          f"{table.start_value:.7f}", flush=True)
    _, moments = timed(lambda: solve_moments(table))
    both, together = timed(lambda: build_table(rules, moments=True))
    games = {} if REST_GAMES is None else {"games": REST_GAMES}
    found = both.moments
    assert found is not None  # asked of the build
    _, rests = timed(lambda: measure_rests(both, exact=Exact.of(found), **games))
    whole, alone = together.cpu + rests.cpu, build.cpu + moments.cpu + rests.cpu
    print(f"{name:32} moments {moments.cpu:6.2f} s of CPU apart (for information), the table with its moments "
          f"{together.cpu:6.2f} s, rests {rests.cpu:6.2f} s (from those moments"
          f"{'' if REST_GAMES is None else f', {REST_GAMES:,} games'}); whole preparation {whole:6.2f} s of CPU "
          f"(apart {alone:6.2f} s; target <= {PREPARATION_TARGET:.0f} s: {verdict(whole <= PREPARATION_TARGET)})",
          flush=True)
    return table, {"start_value": round(table.start_value, 7), "build_wall": round(build.wall, 3),
                   "build_cpu": round(build.cpu, 3), "moments_cpu": round(moments.cpu, 3),
                   "together_cpu": round(together.cpu, 3), "apart_cpu": round(alone, 3),
                   "rests_cpu": round(rests.cpu, 3), "preparation_cpu": round(whole, 3)}


def our_build(rules: Rules) -> tuple[float, Spent]:
    """Our table built as the game builds it, in a process of its own on an empty cache folder:
    its start value and what the process took."""
    with tempfile.TemporaryDirectory() as folder:
        argv = [sys.executable, "-m", "yahtzee.strategy.storage.buildprocess",
                request(rules, EXPECTED_SCORE, Path(folder))]
        environment = {**os.environ, "YAHTZEE_SHIPPED": ""}  # no shipped table: a build
        _, spent = timed(lambda: subprocess.run(argv, env=environment, stdout=subprocess.DEVNULL, check=True))
        table = checked_table(rules, EXPECTED_SCORE, folder)
        if table is None:
            raise SystemExit(f"the build process kept no table for {rules_key(rules)}")
        return table.start_value, spent


def their_build(variant: str) -> tuple[float, Spent]:
    """yatzy-solver's table of a variant, built in a process of its own: its start value and
    what the process took."""
    argv = [sys.executable, "-c", THEIR_BUILD.format(variant=variant)]
    done, spent = timed(lambda: subprocess.run(argv, capture_output=True, text=True, check=True))
    return float(done.stdout.split()[-1]), spent


def race(rules: Rules, variant: str) -> dict[str, Any]:
    """RACES builds of each, interleaved; print the medians, their ratio and the start values."""
    ours, theirs = [], []
    for _ in range(RACES):
        our_start, spent = our_build(rules)
        ours.append(spent)
        their_start, spent = their_build(variant)
        theirs.append(spent)
    wall = statistics.median(spent.wall for spent in ours), statistics.median(spent.wall for spent in theirs)
    cpu = statistics.median(spent.cpu for spent in ours), statistics.median(spent.cpu for spent in theirs)
    same = abs(our_start - their_start) < 1e-6
    print(f"{rules_key(rules):10} against yatzy-solver {variant!r} (median of {RACES}): wall {wall[0]:.2f} s "
          f"against {wall[1]:.2f} s, ratio {wall[0] / wall[1]:.2f} (target <= {RATIO_TARGET}: "
          f"{verdict(wall[0] / wall[1] <= RATIO_TARGET)}); CPU {cpu[0]:.2f} s against {cpu[1]:.2f} s; start values "
          f"{our_start:.7f} and {their_start:.7f}: {'equal' if same else 'DIFFERENT'}", flush=True)
    return {"ours_wall": round(wall[0], 3), "theirs_wall": round(wall[1], 3), "wall_ratio": round(wall[0] / wall[1], 3),
            "ours_cpu": round(cpu[0], 3), "theirs_cpu": round(cpu[1], 3), "start_values_equal": same}


def races() -> dict[str, Any]:
    """Each shared game raced against yatzy-solver, where it is installed."""
    if importlib.util.find_spec("yatzy_solver") is None:
        print("yatzy-solver is not installed (pip install -e '.[bench]'): no comparison")
        return {}
    return {rules_key(rules): race(rules, variant) for rules, variant in RACED}


def traced_peak_mb(rules: Rules) -> float:
    """Peak memory allocated while building a table again, in MB."""
    tracemalloc.start()
    build_table(rules)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2 ** 20


def random_position(rng: random.Random) -> tuple[dict[Category, int], int, tuple[int, ...], int]:
    """A card with random boxes filled by random dice, new dice and rolls left."""
    boxes = {}
    for box in rng.sample(list(Category), rng.randint(0, 12)):
        boxes[box] = scoring.score(box, [rng.randint(1, 6) for _ in range(5)])
    dice = tuple(rng.randint(1, 6) for _ in range(5))
    return boxes, 0, dice, rng.randint(0, 2)


def advice_latency_ms(table: StrategyTable) -> tuple[float, float]:
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


def simulation_figures(tables: list[StrategyTable]) -> dict[str, Simulation]:
    """Thinker games per second under each table's rules, the tables read from a cache."""
    with tempfile.TemporaryDirectory() as folder:
        for table in tables:
            save_table(table, folder)
        figures = {}
        for table in tables:
            started = time.perf_counter()
            stats = simulate(GAMES, "thinker", table.rules, seed=1, cache_dir=Path(folder))
            wall = time.perf_counter() - started
            figures[table.rules.name] = stats
            print(f"simulation, {table.rules.name}: {GAMES:,} thinker games in {stats.seconds:.2f} s "
                  f"({wall:.2f} s with the table read), {stats.games_per_second:,.0f} games/s, "
                  f"mean {stats.mean:.2f} +- {stats.stdev / GAMES ** 0.5:.2f}", flush=True)
    return figures


def main() -> None:
    """Measure and print, the last line one JSON object."""
    tables, preparation = {}, {}
    for rules in PREPARED:
        tables[rules_key(rules)], preparation[rules_key(rules)] = prepared(rules)
    compared = races()
    first = tables[rules_key(PREPARED[0])]
    peak = traced_peak_mb(first.rules)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory of a build ({first.rules.name}, tracemalloc) {peak:.1f} MB; process peak RSS {rss:.1f} MB")
    median, p99 = advice_latency_ms(first)
    print(f"advice over {POSITIONS:,} random positions ({first.rules.name}): median {median:.3f} ms, p99 {p99:.3f} ms")
    simulated = [table for key, table in tables.items() if key in ("hasbro", "yahtc")] or [first]
    simulations = simulation_figures(simulated)
    print(json.dumps({
        "quick": QUICK, "preparation": preparation, "yatzy_solver": compared,
        "peak_mb": round(peak, 1), "max_rss_mb": round(rss, 1),
        "advice_median_ms": round(median, 4), "advice_p99_ms": round(p99, 4),
        "games_per_second_by_rules": {name: round(stats.games_per_second, 1) for name, stats in simulations.items()},
    }))


if __name__ == "__main__":
    main()
