"""The command line: the options, then what they ask for: a report, or the game (yahtzee.app)."""
import argparse
import io
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, Optional

from . import __version__
from .app import play, serve_tables
from .manual import MANUAL
from .model.moods import mood_list
from .model.words import Say
from .present.palette import UnknownTheme, checked_theme
from .reports import printing, run_simulation, show_review, show_stats
from .saves.folder import choose_folders, move_earlier_saves
from .saves.store import Saves, local_now
from .speech import languages as language
from .speech.languages import N_, _, text
from .speech.locales import UnknownLanguage, checked, choose
from .usage import missing_package, program_name, usage_error

if TYPE_CHECKING:  # only for the reader: the command line imports what it needs when it needs it
    from .saves.folder import EarlierSaves, Folders

PROJECT_DIR = Path(__file__).resolve().parent.parent
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


DEFAULT_PORT = 8022
LOOPBACK = "127.0.0.1"


def host_address(text: str) -> tuple[str, int]:
    """--host's '[ADDRESS:]PORT' as (address, port): the loopback address unless one is given."""
    address, _colon, port = text.rpartition(":")
    try:
        number = int(port)
    except ValueError:
        raise argparse.ArgumentTypeError(_("invalid port: '{text}'").format(text=port)) from None
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(_("a port is 0 to 65535, not {value}").format(value=number))
    return (address.strip("[]") or LOOPBACK), number


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
    try:
        return checked_theme(text)
    except UnknownTheme as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def language_code(code: str) -> str:
    """A language the game speaks, for --lang."""
    try:
        return checked(code)
    except UnknownLanguage as error:
        raise argparse.ArgumentTypeError(text(error.said)) from None


def early_language(argv: Optional[Sequence[str]]) -> str:
    """The language for --help and usage errors, before the preferences are read: --lang
    when it names one, else the environment's."""
    words = list(sys.argv[1:] if argv is None else argv)
    given = [word.partition("=")[2] for word in words if word.startswith("--lang=")]
    given += [words[n + 1] for n, word in enumerate(words[:-1]) if word == "--lang"]
    try:
        return choose(given[-1] if given else None, None)
    except UnknownLanguage:
        return choose(None, None)


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    """The options from the command line; a bad value exits with a one-line error."""
    return argument_parser().parse_args(argv)


def argument_parser() -> argparse.ArgumentParser:
    """The command line's options, each with its help."""
    parser = OneLineParser(
        prog=program_name(),
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
    add_table_options(parser)
    add_report_options(parser)
    return parser


def add_table_options(parser: argparse.ArgumentParser) -> None:
    """The options that serve tables over SSH: one at this terminal, or many with none."""
    parser.add_argument("--host", type=host_address, nargs="?", const=(LOOPBACK, DEFAULT_PORT),
                        metavar="[ADDRESS:]PORT",
                        help=_("also let friends join over SSH (port {port}, on this machine only unless an "
                               "address is given): ssh -p PORT NAME@HOST").format(port=DEFAULT_PORT))
    parser.add_argument("--access", choices=("password", "keys", "open"),
                        help=_("who may log in to --serve, kept in its folder: password (its password or a listed "
                               "key; the default), keys (listed keys only) or open (any name; a name first "
                               "used with a key is that key's)"))
    parser.add_argument("--serve", type=host_address, metavar="[ADDRESS:]PORT",
                        help=_("serve many tables over SSH with no terminal of its own: each player logs in "
                               "to the page of tables (the data in --saves DIR, else serve/ in the saves folder)"))


def add_report_options(parser: argparse.ArgumentParser) -> None:
    """The options that print something and exit instead of playing."""
    parser.add_argument("--stats", action="store_true",
                        help=_("show the hall of fame and the players' statistics, then exit"))
    parser.add_argument("--simulate", type=positive_int, metavar="N",
                        help=_("play N solitaire games of a computer player under --rules and print its figures"))
    parser.add_argument("--player", default="thinker", metavar="MOOD",
                        help=_("the computer player for --simulate: {moods}").format(moods=mood_list()))
    parser.add_argument("--review", type=positive_int, nargs="?", const=1, metavar="N",
                        help=_("review the N-th most recent game of the history (default 1, the last), then exit"))
    parser.add_argument("--json", action="store_true", help=_("--simulate or --review prints one JSON object"))
    parser.add_argument("--paths", action="store_true",
                        help=_("say where the saved game, history, preferences, tables and manual are, and exit"))
    parser.add_argument("--version", action="version", version=f"Computer Yahtzee {__version__}",
                        help=_("show the version and exit"))


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the game; returns the process exit code."""
    printable_streams()
    language.use(early_language(argv))
    args = parse_args(argv)
    folders = choose_folders(args.saves, os.environ, PROJECT_DIR)
    if args.paths:
        return show_paths(folders)
    if (args.simulate or args.review) and missing_package(["numpy"]) is not None:
        return 2
    if args.simulate:
        return printing(run_simulation, args, folders.cache)
    if args.serve:
        return serve_tables(args, folders)
    if args.access:
        return usage_error(_("--access is for a server of tables: --serve [ADDRESS:]PORT --access {access}").format(
            access=args.access))
    earlier = move_earlier_saves(PROJECT_DIR, folders)
    saves = Saves(folders.saves, now=local_now)
    if earlier is not None:
        saves.notices.append(earlier_saves_notice(earlier, folders))
    language.use(choose(args.lang, saves.load_prefs().language))
    if args.stats:
        return printing(show_stats, saves)
    if args.review:
        return printing(show_review, args, saves, folders.cache)
    return play(args, saves, folders)


def printable_streams() -> None:
    """What is printed to a pipe or file whose encoding lacks a character (a name, a folder;
    a Windows code page) shows a stand-in for it instead of stopping with an error."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")


def show_paths(folders: "Folders") -> int:
    """--paths: where this run keeps each kind of file."""
    print(_("saved game, history and preferences: {folder}").format(folder=folders.saves))
    print(_("strategy tables: {folder}").format(folder=folders.cache))
    print(_("manual: {file}").format(file=MANUAL))
    return 0


def earlier_saves_notice(earlier: "EarlierSaves", folders: "Folders") -> Say:
    """What the player is told of the saves an earlier install kept inside its environment
    (said once the language is chosen)."""
    if earlier.moved:
        return Say("the saves of an earlier install were moved from {old} to {new}").format(
            old=str(earlier.folder), new=str(folders.saves))
    return Say("the saves of an earlier install stay in {old}: {new} has saves of its own").format(
        old=str(earlier.folder), new=str(folders.saves))


