"""The commands that print instead of playing: --stats, --simulate and --review."""
import json
import os
import sys
from argparse import Namespace
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from .coach.replay import CannotReview, review_to_json
from .coach.reviews import Reviewer
from .coach.tablekeeper import TableKeeper
from .model.moods import UnknownMood, mood_named
from .model.rules import UnknownRules, rules_named
from .present.stats import stats_lines
from .present.verdicts import review_lines
from .speech.languages import _, ngettext, number, text
from .strategy.exact.progress import text_progress
from .usage import usage_error

if TYPE_CHECKING:
    from .saves.store import Saves


def printing(command: Callable[..., int], *args: object) -> int:
    """Run a command that prints; a reader that stops early (`| head`) is no error."""
    try:
        return command(*args)
    except BrokenPipeError:
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (standard output from here on: what is buffered goes nowhere)
        return 0


def show_stats(saves: "Saves") -> int:
    """--stats: print the hall of fame and the player tables."""
    games = saves.read_history()
    for line in [*saves.take_notices(), *stats_lines(games)]:
        print(line)
    return 0


SIMULATION_KEYS = ("games", "mean", "stdev", "median", "min", "max", "upper_bonus_rate",
                   "yahtzee_rate", "seconds")
RIVALRY_KEYS = ("win_share", "win_interval", "opponent_mean")


def run_simulation(args: Namespace, cache: Path) -> int:
    """--simulate: headless games of one computer player under --rules; their figures as
    text or JSON, with progress bars on stderr when it is a terminal."""
    from .strategy.exact.rulearrays import UnsupportedRules
    from .strategy.headless.simulate import format_simulation, simulate
    try:
        mood = mood_named(args.player)
        rules = rules_named(args.rules or "hasbro")
    except (UnknownMood, UnknownRules) as error:
        return usage_error(error)
    shown = sys.stderr.isatty()
    try:
        stats = simulate(args.simulate, mood, rules, seed=args.seed, cache_dir=cache,
                         progress=text_progress(sys.stderr, _("Playing {count} games").format(
                             count=number(args.simulate, ","))) if shown else None,
                         build_progress=text_progress(sys.stderr) if shown else None)
    except UnsupportedRules as error:
        return usage_error(error)
    if args.json:
        print(json.dumps({key: stats[key] for key in SIMULATION_KEYS + RIVALRY_KEYS if key in stats}))
    else:
        print("\n".join(format_simulation(stats, mood)))
    return 0


def show_review(args: Namespace, saves: "Saves", cache: Path) -> int:
    """--review [N]: the review of the N-th most recent game of the history, as text or JSON;
    a game that cannot be reviewed is a one-line usage error."""
    games = saves.read_history()
    if args.review > len(games):
        return usage_error(ngettext("--review {number}: the history holds {count} game",
                                    "--review {number}: the history holds {count} games",
                                    len(games)).format(number=args.review, count=len(games)))
    finished = games[-args.review]
    progress = text_progress(sys.stderr) if sys.stderr.isatty() else None
    tables = TableKeeper(cache, progress)
    try:
        review = Reviewer(tables).review(finished)
    except CannotReview as error:
        return usage_error(error)
    finally:
        tables.close()
    if args.json:
        print(json.dumps(review_to_json(review)))
    else:
        title = _("Review of the game finished {finished}, rules: {rules}").format(
            finished=finished.finished, rules=text(finished.rules.describe()))
        # At a terminal, fitted to 80 columns; into a pipe, a line a decision (nothing limits its width).
        print("\n".join(review_lines(review, title, fit=sys.stdout.isatty())))
    return 0
