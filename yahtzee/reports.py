"""The commands that print instead of playing: --stats, --simulate and --review."""
import errno
import json
import os
import sys
from argparse import Namespace
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from .coach.replay import CannotReview, Decision, Review
from .coach.reviews import Reviewer
from .coach.tablekeeper import TableKeeper, WaitsShown
from .model.choices import Option, OptionKind
from .model.moods import UnknownMood, mood_named
from .model.rules import UnknownRules, rules_named
from .model.words import source_text
from .present.stats import stats_lines
from .present.verdicts import review_lines
from .saves.shapes import JSONObject
from .speech.languages import N_, _, ngettext, number, text
from .strategy.exact.progress import text_progress
from .usage import usage_error

if TYPE_CHECKING:
    from .saves.store import Saves
    from .strategy.headless.pool import Rivalry, Simulation

WORKING_OUT = N_("Working out the best strategy")  # before the bar while a table is built


def printing(command: Callable[..., int], *args: object) -> int:
    """Run a command that prints; a reader that stops early (`| head`) is no error."""
    try:
        return command(*args)
    except OSError as error:
        if not reader_gone(error):
            raise
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (standard output from here on: what is buffered goes nowhere)
        return 0


def reader_gone(error: OSError) -> bool:
    """Whether a write failed because the pipe's reader is gone: on Windows a write to such a
    pipe fails with EINVAL (ERROR_NO_DATA), not as a broken pipe."""
    return isinstance(error, BrokenPipeError) or (sys.platform == "win32" and error.errno == errno.EINVAL)


def show_stats(saves: "Saves") -> int:
    """--stats: print the hall of fame and the player tables."""
    games = saves.read_history()
    for line in [*map(text, saves.take_notices()), *stats_lines(games)]:
        print(line)
    return 0


def run_simulation(args: Namespace, cache: Path) -> int:
    """--simulate: headless games of one computer player under --rules; their figures as
    text or JSON, with progress bars on stderr when it is a terminal."""
    from .strategy.exact.rulearrays import UnsupportedRules
    from .strategy.headless.simulate import simulate
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
                         build_progress=text_progress(sys.stderr, _(WORKING_OUT)) if shown else None)
    except UnsupportedRules as error:
        return usage_error(error)
    if args.json:
        print(json.dumps(simulation_to_json(stats)))
    else:
        print("\n".join(simulation_lines(stats, mood)))
    return 0


def simulation_lines(stats: "Simulation", mood: Optional[str] = None) -> list[str]:
    """The statistics --simulate prints, as lines of text for a player."""
    games = number(stats.games, ",")
    title = (_("{games} games of {mood}").format(games=games, mood="*" + mood.lstrip("*")) if mood
             else _("{games} games").format(games=games))
    return [
        title,
        "  " + _("mean {mean}   stdev {stdev}   median {median}").format(
            mean=number(stats.mean, ".2f"), stdev=number(stats.stdev, ".2f"),
            median=number(stats.median, "g")),
        "  " + _("lowest {low}   highest {high}").format(low=stats.lowest, high=stats.highest),
        "  " + _("upper bonus in {bonus} of games, a Yahtzee in {yahtzee}, a Yahtzee bonus in "
                 "{extra}").format(bonus=number(stats.upper_bonus_rate, ".1%"),
                                   yahtzee=number(stats.yahtzee_rate, ".1%"),
                                   extra=number(stats.extra_yahtzee_rate, ".1%")),
        *(rivalry_lines(stats.rivalry) if stats.rivalry else []),
        "  " + _("{seconds} s, {speed} games a second").format(
            seconds=number(stats.seconds, ".1f"), speed=number(stats.games_per_second, ",.0f")),
    ]


def rivalry_lines(rivalry: "Rivalry") -> list[str]:
    """*rival's share of wins against *thinker, as lines of text."""
    share, interval = number(rivalry.win_share, ".2%"), number(rivalry.win_interval, ".2%")
    mean = number(rivalry.opponent_mean, ".2f")
    return ["  " + _("won {share} ± {interval} (95%) of its two-player games against *thinker").format(
                share=share, interval=interval),
            "  " + _("(ties count half; *thinker averaged {mean})").format(mean=mean)]


def simulation_to_json(stats: "Simulation") -> JSONObject:
    """The figures --simulate --json prints (and *rival's results against *thinker)."""
    figures = {"games": stats.games, "mean": stats.mean, "stdev": stats.stdev, "median": stats.median,
               "min": stats.lowest, "max": stats.highest, "upper_bonus_rate": stats.upper_bonus_rate,
               "yahtzee_rate": stats.yahtzee_rate, "seconds": stats.seconds}
    return {**figures, **(asdict(stats.rivalry) if stats.rivalry else {})}


def show_review(args: Namespace, saves: "Saves", cache: Path) -> int:
    """--review [N]: the review of the N-th most recent game of the history, as text or JSON;
    a game that cannot be reviewed is a one-line usage error."""
    games = saves.read_history()
    if args.review > len(games):
        return usage_error(ngettext("--review {number}: the history holds {count} game",
                                    "--review {number}: the history holds {count} games",
                                    len(games)).format(number=args.review, count=len(games)))
    finished = games[-args.review]
    progress = text_progress(sys.stderr, _(WORKING_OUT)) if sys.stderr.isatty() else None
    tables = TableKeeper(cache, WaitsShown(progress))
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
        # At a terminal, fitted to 80 columns; into a pipe, a line a decision of tab-separated fields.
        print("\n".join(review_lines(review, title, fit=sys.stdout.isatty())))
    return 0


def review_to_json(review: Review) -> JSONObject:
    """The review as one JSON object."""
    return {"players": list(review.players),
            "decisions": [decision_to_json(d) for d in review.decisions],
            "totals": review.totals, "win_means": review.win_means, "accuracy": review.accuracy,
            "costliest": {name: [decision_to_json(d) for d in costly]
                          for name, costly in review.costliest.items()},
            "note": source_text(review.note)}  # in English, as files keep words


def decision_to_json(decision: Decision) -> JSONObject:
    """A decision as JSON data: the points it gave away, and the win % where judged by it."""
    data: JSONObject = {"player": decision.player, "round": decision.round, "roll": decision.roll,
            "kind": decision.kind, "dice": list(decision.dice), "done": option_to_json(decision.done),
            "best": option_to_json(decision.best), "cost": round(decision.cost, 3),
            "judged_by": "win_chance" if decision.by_win else "expected_score"}
    if decision.likeliest is None or decision.win_cost is None:
        return data
    return {**data, "likeliest": option_to_json(decision.likeliest), "win_cost": round(decision.win_cost, 3)}


def option_to_json(option: Option) -> JSONObject:
    """The choice an option makes, as JSON values (its expected score apart)."""
    if option.kind is OptionKind.KEEP:
        return {"kind": "keep", "kept": list(option.kept)}
    assert option.box is not None
    data = {"kind": "extra_turn" if option.extra_turn else "blank" if option.blank else "post",
            "box": option.box.value, "points": option.points}
    bonuses = {"upper_bonus": option.upper_bonus, "yahtzee_bonus": option.yahtzee_bonus,
               "roll_bonus": option.roll_bonus}
    return {**data, **{name: points for name, points in bonuses.items() if points}}
