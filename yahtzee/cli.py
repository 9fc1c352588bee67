"""The command line: options, the console for this terminal, then the screens."""
import argparse
import os
import signal
import sys
from pathlib import Path

from . import __version__

PROJECT_DIR = Path(__file__).resolve().parent.parent
MANUAL = PROJECT_DIR / "YAHTZEE.DOC"


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a bad option in one line."""

    def error(self, message):
        self.exit(2, f"{self.prog}: {message} (try --help)\n")


def positive_int(text):
    """A whole number of at least 1, for --simulate."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid whole number: '{text}'") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def parse_args(argv=None):
    """The options from the command line; a bad value exits with a one-line error."""
    parser = OneLineParser(
        prog="yahtzee.py",
        description="Computer Yahtzee for 1-4 players at one keyboard. "
                    "The full manual is YAHTZEE.DOC beside yahtzee.py "
                    "(also shown from the title screen).")
    parser.add_argument("--plain", action="store_true",
                        help="one command per line, no colours (automatic when not on a terminal)")
    parser.add_argument("--no-color", action="store_true", help="no colours")
    parser.add_argument("--seed", type=int, metavar="N", help="reproducible dice from this seed")
    parser.add_argument("--dice-file", metavar="PATH",
                        help="loaded dice: faces 1-6 separated by spaces, used in order")
    parser.add_argument("--saves", metavar="DIR",
                        help="where saves live (default: saves/ beside yahtzee.py, or $YAHTZEE_SAVES)")
    parser.add_argument("--rules", metavar="NAME",
                        help="the rules for this run: hasbro (default), yahtc, acorn, fiveoak, "
                             "freejoker or nobonus (the preferences keep a lasting choice)")
    parser.add_argument("--match", metavar="KIND",
                        help="'single', 'challenge N', 'race N' or 'first_to N' for this run")
    parser.add_argument("--stats", action="store_true",
                        help="show the hall of fame and the players' statistics, then exit")
    parser.add_argument("--simulate", type=positive_int, metavar="N",
                        help="play N solitaire games of a computer player under --rules and print its figures")
    parser.add_argument("--player", default="thinker", metavar="MOOD",
                        help="the computer player for --simulate: thinker, norisk, gambler, "
                             "yclover or nowhere")
    parser.add_argument("--json", action="store_true", help="--simulate prints one JSON object")
    parser.add_argument("--version", action="version", version=f"Computer Yahtzee {__version__}")
    return parser.parse_args(argv)


def is_plain(args, stdin, stdout, environ):
    """Plain mode when asked, when either end is not a terminal, or on a dumb terminal."""
    return (args.plain or not (stdin.isatty() and stdout.isatty())
            or environ.get("TERM") == "dumb")


def dice_source(args):
    """The dice the options ask for: loaded, seeded or truly random."""
    from .dice import LoadedDice, RandomDice, SeededDice, read_dice_file
    base = SeededDice(args.seed) if args.seed is not None else RandomDice()
    return LoadedDice(read_dice_file(args.dice_file), base) if args.dice_file else base


def read_manual():
    """YAHTZEE.DOC as lines (empty when it is missing)."""
    try:
        return MANUAL.read_text(encoding="utf-8").splitlines()
    except OSError:
        return []


def make_console(plain, colour):
    """The console for this terminal: plain lines or single keys."""
    from .console import KeyConsole, PlainConsole
    from .palette import painter
    from .render import can_draw_unicode
    if plain:
        return PlainConsole(ring=sys.stdout.isatty())
    return KeyConsole(paint=painter(colour), unicode=can_draw_unicode(sys.stdout.encoding))


def run_settings(args):
    """The game settings the command line chooses for this run only."""
    chosen = {"rules": args.rules, "match": args.match}
    return {key: value for key, value in chosen.items() if value is not None}


def catch_stop_signals(console):
    """SIGTERM and SIGHUP (where there is one) stop the game at the next safe moment."""
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), lambda signum, frame: console.request_stop(signum))


def ignore_stop_signals():
    """While the last save runs, a late SIGHUP or SIGTERM must not cut it short."""
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)


def table_progress(console):
    """A progress(done, total) callback that shows the strategy table's build on the console."""
    from .strategy import progress_bar
    shown = []

    def report(done, total):
        if done >= total and not shown:
            return  # read from the cache: nothing was worked out
        step = (100 * done // total if total else 100) // (25 if console.plain else 2)
        if step not in shown:
            shown.append(step)
            console.status(f"Working out the best strategy (only once): {progress_bar(done, total, 30)}")
        if done >= total:
            if len(shown) > 1:
                console.discard_typeahead()  # keys pressed during the build answered nothing
            shown.clear()

    return report


def cache_dir(saves_dir, environ):
    """Where strategy tables are kept: $YAHTZEE_CACHE, else a cache folder in the saves."""
    return Path(environ["YAHTZEE_CACHE"]) if environ.get("YAHTZEE_CACHE") else saves_dir / "cache"


def show_stats(saves):
    """--stats: print the hall of fame and the player tables."""
    from .stats import stats_lines
    records = saves.read_history()
    for line in [*saves.take_notices(), *stats_lines(records)]:
        print(line)
    return 0


SIMULATION_KEYS = ("games", "mean", "stdev", "median", "min", "max", "upper_bonus_rate",
                   "yahtzee_rate", "seconds")


def run_simulation(args, saves_dir):
    """--simulate: headless games of one computer player under --rules; their figures as
    text or JSON, with progress bars on stderr when it is a terminal."""
    import json
    from .rules import UnknownRules, rules_named
    from .strategy import UnknownMood, mood_named, text_progress
    from .strategy.simulate import format_simulation, simulate
    try:
        mood = mood_named(args.player)
        rules = rules_named(args.rules or "hasbro")
    except (UnknownMood, UnknownRules) as error:
        print(f"yahtzee.py: {error}", file=sys.stderr)
        return 2
    shown = sys.stderr.isatty()
    stats = simulate(args.simulate, mood, rules, seed=args.seed, cache_dir=cache_dir(saves_dir, os.environ),
                     progress=text_progress(sys.stderr, f"Playing {args.simulate:,} games") if shown else None,
                     build_progress=text_progress(sys.stderr) if shown else None)
    if args.json:
        print(json.dumps({key: stats[key] for key in SIMULATION_KEYS}))
    else:
        print("\n".join(format_simulation(stats, mood)))
    return 0


def main(argv=None):
    """Run the game; returns the process exit code."""
    args = parse_args(argv)
    from .coach import Coach
    from .console import InputClosed, StopRequested
    from .dice import DiceFileError
    from .game import Session
    from .palette import wants_colour
    from .saves import Saves, choose_saves_dir, local_now
    from .screens import QuitGame, Table, game_settings, keep_for_later, run, sentence

    saves_dir = choose_saves_dir(args.saves, os.environ, PROJECT_DIR)
    if args.simulate:
        return run_simulation(args, saves_dir)
    saves = Saves(saves_dir, now=local_now)
    if args.stats:
        return show_stats(saves)
    try:
        source = dice_source(args)
    except DiceFileError as error:
        print(f"yahtzee.py: {error}", file=sys.stderr)
        return 2
    plain = is_plain(args, sys.stdin, sys.stdout, os.environ)
    if not plain:
        import colorama
        colorama.just_fix_windows_console()
    colour = not plain and wants_colour(os.environ, sys.stdout.isatty(), args.no_color)
    console = make_console(plain, colour)
    prefs = saves.load_prefs()
    try:
        rules, match = game_settings({**prefs, **run_settings(args)})
    except ValueError as error:
        print(f"yahtzee.py: {error}", file=sys.stderr)
        return 2
    session = Session([], verify=prefs["verify"], sound=prefs["sound"], source=source,
                      rules=rules, match=match)
    table = Table(session, local_now, saves, read_manual(), prefs,
                  dice_options=args.seed is not None or args.dice_file is not None,
                  coach=Coach(cache_dir(saves_dir, os.environ), table_progress(console), args.seed),
                  run_settings=run_settings(args))
    catch_stop_signals(console)
    with console.running():
        for notice in saves.take_notices():
            console.message(sentence(notice))
        saves.notify = lambda line: console.message(sentence(line))
        try:
            run(console, table)
            saves.remove_autosave()
        except (QuitGame, KeyboardInterrupt):
            ignore_stop_signals()
            keep_for_later(console, table)
        except InputClosed:
            ignore_stop_signals()
            keep_for_later(console, table, quiet=True)
        except StopRequested:
            pass  # every roll, toggle and posting is already saved
    return 0
