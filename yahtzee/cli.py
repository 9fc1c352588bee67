"""The command line: options, the console for this terminal, then the screens."""
import argparse
import contextlib
import os
import signal
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, NoReturn, Optional, TextIO, Union

from . import __version__
from .language import N_, _
from .moods import MOODS
from .usage import usage_error

if TYPE_CHECKING:  # only for the reader: the command line imports what it needs when it needs it
    from .console import KeyConsole, PlainConsole
    from .dice import LoadedDice, RandomDice, SeededDice
    from .saves import Saves
    from .saves.folder import EarlierSaves, Folders
    from .screens import Context, Keeper

    Console = Union[PlainConsole, KeyConsole]

PROJECT_DIR = Path(__file__).resolve().parent.parent
MANUAL = Path(__file__).resolve().parent / "YAHTZEE.DOC"  # the project's YAHTZEE.DOC links to it
DESCRIPTION = N_("Computer Yahtzee for 1-4 players at one keyboard. The full manual is "
                 "YAHTZEE.DOC, shown from the title screen (--paths says where it is).")


class TranslatedHelp(argparse.HelpFormatter):
    """argparse's help, its own words in the player's language."""

    def add_usage(self, usage: Optional[str], actions: Iterable[argparse.Action],
                  groups: Iterable[argparse._MutuallyExclusiveGroup], prefix: Optional[str] = None) -> None:
        super().add_usage(usage, actions, groups, prefix or _("usage: "))


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a bad option in one line, its help in the player's language."""

    def __init__(self, **options: Any) -> None:
        super().__init__(add_help=False, formatter_class=TranslatedHelp, **options)
        self._optionals.title = _("options")
        self.add_argument("-h", "--help", action="help", help=_("show this help message and exit"))

    def error(self, message: str) -> NoReturn:
        sys.exit(usage_error(_("{message} (try --help)").format(message=message)))


def positive_int(text: str) -> int:
    """A whole number of at least 1, for --simulate."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("invalid whole number: '{text}'").format(text=text)) from None
    if value < 1:
        raise argparse.ArgumentTypeError(_("must be at least 1, not {value}").format(value=value))
    return value


def theme_name(text: str) -> str:
    """A colour theme's name, for --theme."""
    from .palette import THEMES
    if text not in THEMES:
        raise argparse.ArgumentTypeError(_("unknown theme '{name}' (known: {known})").format(
            name=text, known=", ".join(THEMES)))
    return text


def language_code(text: str) -> str:
    """A language the game speaks, for --lang."""
    from .language import UnknownLanguage, checked
    try:
        return checked(text)
    except UnknownLanguage as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def early_language(argv: Optional[Sequence[str]]) -> str:
    """The language for --help and usage errors, before the preferences are read: --lang
    when it names one, else the environment's."""
    from .language import UnknownLanguage, choose
    words = list(sys.argv[1:] if argv is None else argv)
    given = [word.partition("=")[2] for word in words if word.startswith("--lang=")]
    given += [words[n + 1] for n, word in enumerate(words[:-1]) if word == "--lang"]
    try:
        return choose(given[-1] if given else None, None)
    except UnknownLanguage:
        return choose(None, None)


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    """The options from the command line; a bad value exits with a one-line error."""
    parser = OneLineParser(
        prog="yahtzee.py",
        description=_(DESCRIPTION))
    parser.add_argument("--plain", action="store_true",
                        help=_("one command per line, no colours (automatic when not on a terminal)"))
    parser.add_argument("--lang", type=language_code, metavar="CODE",
                        help=_("the language for this run: en or de (else the preference's)"))
    parser.add_argument("--accessible", action="store_true",
                        help=_("for a screen reader: every change said once in words, as lines"))
    parser.add_argument("--no-color", action="store_true", help=_("no colours"))
    parser.add_argument("--theme", type=theme_name, metavar="NAME",
                        help=_("colours: classic (the 1987 look), light (for a light background) "
                               "or mono (bold and reverse only)"))
    parser.add_argument("--seed", type=int, metavar="N", help=_("reproducible dice from this seed"))
    parser.add_argument("--dice-file", metavar="PATH",
                        help=_("loaded dice: faces 1-6 separated by spaces, used in order"))
    parser.add_argument("--saves", metavar="DIR",
                        help=_("where saves live (default: $YAHTZEE_SAVES, else saves/ beside yahtzee.py, "
                               "else the user data folder)"))
    parser.add_argument("--rules", metavar="NAME",
                        help=_("the rules for this run: hasbro (default), yahtc, acorn, fiveoak, "
                               "freejoker or nobonus (the preferences keep a lasting choice)"))
    parser.add_argument("--match", metavar="KIND",
                        help=_("'single', 'challenge N', 'race N' or 'first_to N' for this run"))
    parser.add_argument("--duplicate", action="store_true",
                        help=_("duplicate dice for this run: every player rolls the same dice"))
    add_report_options(parser)
    return parser.parse_args(argv)


def add_report_options(parser: argparse.ArgumentParser) -> None:
    """The options that print something and exit instead of playing."""
    parser.add_argument("--stats", action="store_true",
                        help=_("show the hall of fame and the players' statistics, then exit"))
    parser.add_argument("--simulate", type=positive_int, metavar="N",
                        help=_("play N solitaire games of a computer player under --rules and print its figures"))
    parser.add_argument("--player", default="thinker", metavar="MOOD",
                        help=_("the computer player for --simulate: {moods}").format(moods=", ".join(MOODS)))
    parser.add_argument("--review", type=positive_int, nargs="?", const=1, metavar="N",
                        help=_("review the N-th most recent game of the history (default 1, the last), then exit"))
    parser.add_argument("--json", action="store_true", help=_("--simulate or --review prints one JSON object"))
    parser.add_argument("--paths", action="store_true",
                        help=_("say where the saved game, history, preferences, tables and manual are, and exit"))
    parser.add_argument("--version", action="version", version=f"Computer Yahtzee {__version__}",
                        help=_("show the version and exit"))


def is_plain(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, environ: Mapping[str, str]) -> bool:
    """Plain mode when asked, when either end is not a terminal, or on a dumb terminal."""
    return (args.plain or not (stdin.isatty() and stdout.isatty())
            or environ.get("TERM") == "dumb")


def dice_source(args: argparse.Namespace) -> "Union[LoadedDice, SeededDice, RandomDice]":
    """The dice the options ask for: loaded, seeded or truly random."""
    from .dice import LoadedDice, RandomDice, SeededDice, read_dice_file
    if args.duplicate and args.dice_file:
        raise ValueError(_("--duplicate cannot be used with --dice-file: loaded dice come in file order"))
    base = SeededDice(args.seed) if args.seed is not None else RandomDice()
    return LoadedDice(read_dice_file(args.dice_file), base) if args.dice_file else base


def read_manual() -> list[str]:
    """YAHTZEE.DOC as lines (empty when it is missing)."""
    try:
        return MANUAL.read_text(encoding="utf-8").splitlines()
    except OSError:
        return []


def make_console(plain: bool, colour: bool, theme: str = "classic", accessible: bool = False) -> "Console":
    """The console for this terminal: plain lines, single keys said as lines for a screen
    reader, or single keys (in `theme`'s colours when colour is on)."""
    from .console import KeyConsole, PlainConsole
    from .palette import painter
    from .render import can_draw_unicode
    if plain:
        return PlainConsole(ring=sys.stdout.isatty())
    if accessible:
        from .accessible import AccessibleConsole
        return AccessibleConsole()
    return KeyConsole(paint=painter(colour and theme), unicode=can_draw_unicode(sys.stdout.encoding),
                      flashes=bool(colour) and theme != "mono")


def run_settings(args: argparse.Namespace) -> dict[str, Union[str, bool]]:
    """The game settings the command line chooses for this run only."""
    chosen = {"rules": args.rules, "match": args.match, "duplicate": args.duplicate or None}
    return {key: value for key, value in chosen.items() if value is not None}


def stop_signal_names(console: "Console") -> tuple[str, ...]:
    """The signals that stop the game at a safe moment: in key mode a SIGINT from outside too
    (Ctrl-C at the keyboard arrives there as a key, and asks first)."""
    return ("SIGTERM", "SIGHUP") + (() if console.plain else ("SIGINT",))


def catch_stop_signals(console: "Console") -> None:
    """SIGTERM, SIGHUP (where there is one) and, in key mode, SIGINT stop the game safely."""
    for name in stop_signal_names(console):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), lambda signum, frame: console.request_stop(signum))


def ignore_stop_signals() -> None:
    """While the last save runs, a late SIGHUP, SIGTERM or SIGINT must not cut it short."""
    for name in ("SIGTERM", "SIGHUP", "SIGINT"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)


def table_progress(console: "Console") -> Callable[[int, int], None]:
    """A progress(done, total) callback that shows a strategy table's build over the screen
    while the game waits for it (keys pressed meanwhile wait for the question on screen)."""
    from .strategy import progress_bar
    shown = [-1]

    def report(done: int, total: int) -> None:
        step = (100 * done // total) // (25 if console.plain else 2)
        if step != shown[0]:
            shown[0] = step
            shown_done = f"{100 * done // total}%" if console.plain else progress_bar(done, total, 30)
            console.status(_("Working out the best strategy (only once): {done}").format(done=shown_done))

    return report


def stop_check(console: "Console") -> Callable[[], None]:
    """Raises StopRequested once a stop signal has come: a wait for a table ends at once."""
    from .console import StopRequested

    def stopping() -> None:
        if console.stop:
            raise StopRequested(console.stop)

    return stopping


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the game; returns the process exit code."""
    from . import language
    language.install(early_language(argv))
    args = parse_args(argv)
    from .reports import printing, run_simulation, show_review, show_stats
    from .saves import Saves, choose_folders, local_now, move_earlier_saves
    folders = choose_folders(args.saves, os.environ, PROJECT_DIR)
    if args.paths:
        return show_paths(folders)
    if args.simulate:
        return printing(run_simulation, args, folders.cache)
    earlier = move_earlier_saves(PROJECT_DIR, folders)
    saves = Saves(folders.saves, now=local_now)
    if earlier is not None:
        saves.notices.append(earlier_saves_notice(earlier, folders))
    language.install(language.choose(args.lang, saves.load_prefs()["language"]))
    if args.stats:
        return printing(show_stats, saves)
    if args.review:
        return printing(show_review, args, saves, folders.cache)
    return play(args, saves, folders)


def show_paths(folders: "Folders") -> int:
    """--paths: where this run keeps each kind of file."""
    print(_("saved game, history and preferences: {folder}").format(folder=folders.saves))
    print(_("strategy tables: {folder}").format(folder=folders.cache))
    print(_("manual: {file}").format(file=MANUAL))
    return 0


def earlier_saves_notice(earlier: "EarlierSaves", folders: "Folders") -> str:
    """What the player is told of the saves an earlier install kept inside its environment."""
    if earlier.moved:
        return _("the saves of an earlier install were moved from {old} to {new}").format(
            old=earlier.folder, new=folders.saves)
    return _("the saves of an earlier install stay in {old}: {new} has saves of its own").format(
        old=earlier.folder, new=folders.saves)


def play(args: argparse.Namespace, saves: "Saves", folders: "Folders") -> int:
    """The game itself, at this terminal; returns the exit code."""
    from .dice import DiceFileError
    from .palette import wants_colour
    from .screens import sentence
    try:
        source = dice_source(args)
        ctx = make_context(args, saves, folders.cache, source)
    except (DiceFileError, ValueError) as error:
        return usage_error(error)
    plain = is_plain(args, sys.stdin, sys.stdout, os.environ)
    if not plain:
        import colorama  # type: ignore[import-untyped]
        colorama.just_fix_windows_console()
    colour = not (plain or args.accessible) and wants_colour(os.environ, sys.stdout.isatty(),
                                                             args.no_color)
    console = make_console(plain, colour, args.theme or ctx.pref("theme"), args.accessible)
    coach = ctx.services.coach
    assert coach is not None  # make_context gives one
    coach.progress, coach.stopping = table_progress(console), stop_check(console)
    coach.notify = lambda line: console.message_from_thread(sentence(line))  # told by the builder's thread
    catch_stop_signals(console)
    run_flow(console, ctx)
    return 0


def make_context(args: argparse.Namespace, saves: "Saves", tables_dir: Path,
                 source: "Union[LoadedDice, SeededDice, RandomDice]") -> "Context":
    """The screens' context: a new session under the preferences and this run's options."""
    from .coach import Coach
    from .dice import with_duplicate
    from .game import Session
    from .saves import local_now
    from .screens import Context, Services, Settings, game_settings
    prefs = saves.load_prefs()
    chosen = {**prefs, **run_settings(args)}
    rules, match = game_settings(chosen)
    session_source = with_duplicate(source, chosen.get("duplicate", False))
    session = Session([], verify=prefs["verify"], sound=prefs["sound"], source=session_source,
                      rules=rules, match=match)
    coach = Coach(tables_dir, None, args.seed)
    services = Services(local_now, saves, coach, read_manual())
    settings = Settings(prefs, run_settings(args),
                        dice_options=args.seed is not None or args.dice_file is not None)
    return Context(session, services, settings)


def run_flow(console: "Console", ctx: "Context") -> None:
    """Run the screens; every way out leaves the game saved or finished."""
    from .console import InputClosed, StopRequested
    from .screens import Keeper, QuitGame, finish, run, sentence
    saves, coach = ctx.services.saves, ctx.services.coach
    assert saves is not None and coach is not None  # make_context gives both
    keeper = Keeper(ctx)
    with console.running():
        for notice in saves.take_notices():
            console.message(sentence(notice))
        saves.notify = lambda line: console.message(sentence(line))
        try:
            ctx.prepare_tables()
            run(console, ctx, keeper)
            finish(ctx)
        except (QuitGame, KeyboardInterrupt):
            leave_saved(console, ctx, keeper)
        except (InputClosed, StopRequested):
            leave_saved(console, ctx, keeper, quiet=True)
        finally:
            coach.close()
            saves.close()


def leave_saved(console: "Console", ctx: "Context", keeper: "Keeper", quiet: bool = False) -> None:
    """Save on the way out; a terminal lost while saying goodbye is a normal way to leave too."""
    from .console import InputClosed
    from .screens import keep_for_later
    ignore_stop_signals()
    with contextlib.suppress(InputClosed):  # saved before the goodbye was written
        keep_for_later(console, ctx, keeper, quiet=quiet)
