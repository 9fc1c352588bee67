"""The game at this terminal, assembled: the console, the session under the preferences and
this run's options, the strategy services, the stop signals, and the flow of screens."""
import argparse
import contextlib
import os
import signal
import sys
import time
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional, TextIO, Union

from .coach.services import StrategyServices
from .coach.tablekeeper import TableKeeper, WaitsShown
from .consoles.keymode import InputClosed, KeyConsole, StopRequested
from .consoles.keyterminal import toolkit
from .consoles.plain import PlainConsole
from .consoles.screenreader import AccessibleConsole
from .consoles.terminalio import KeySource, PressReader
from .consoles.winkeys import console_takes_ansi, watch_console_close
from .manual import read_manual
from .model.dice import DiceFileError, DiceSource, LoadedDice, RandomDice, SeededDice
from .model.session import Session
from .model.words import Refusal, Say, Sentence, Text
from .net.log import TableLog
from .net.tracing import trace_memory_if_asked
from .present.palette import painter, wants_colour
from .present.render import can_draw_unicode
from .saves.dicefile import read_dice_file
from .saves.folder import Folders
from .saves.prefs import RunSettings, game_settings
from .saves.store import HISTORY, Saves, local_now
from .screens.context import Context, Services, Settings
from .screens.dialog import ProgramConsole
from .screens.flow import Keeper, finish, keep_for_later, run
from .screens.prompts import QuitGame
from .screens.seatview import ContextSeating
from .screens.waiting import progress_note, progress_step
from .speech.languages import _, text
from .usage import missing_package, usage_error

SWITCH_SECONDS = 0.0005  # how long a thread runs before another may (the interpreter's switch interval)
SERVE_STOP_SECONDS = 10.0  # the most each of a server's tables is waited for as it saves and stops
STOP_LOOK_SECONDS = 0.5  # how often a server with nothing else to do looks for a stop signal

if TYPE_CHECKING:  # asyncssh loads only when a table is hosted (hosted_table)
    from .consoles.keyreader import KeyReader
    from .model.seatowners import SeatsSnapshot
    from .net.hostconsole import TableConsole
    from .net.seat import RemoteSeat
    from .net.seating import Seating
    from .net.server import TableServer



def play(args: argparse.Namespace, saves: Saves, folders: Folders) -> int:
    """The game itself, at this terminal; returns the exit code."""
    settings = settings_of(args, saves)
    plain = is_plain(args, sys.stdin, sys.stdout, os.environ)
    missing = missing_package(packages_needed(plain, bool(args.host)))
    if missing is not None:
        return missing
    if not plain and not console_takes_ansi():
        plain = True
        saves.notices.append(_("This console cannot draw the game's screens (it takes no ANSI sequences): "
                               "the game is played in plain mode."))  # the plain console says it first
    colour = not (plain or args.accessible) and wants_colour(os.environ, sys.stdout.isatty(),
                                                             args.no_color)
    theme = args.theme or settings.prefs.theme
    try:
        source = dice_source(args)
        game_settings(settings.for_games())  # a bad --rules or --match is told before a table listens
    except (DiceFileError, ValueError) as error:
        return usage_error(error)

    ctx = make_context(settings, saves, source, strategy_of(args, folders.cache))
    console: ProgramConsole
    if args.host:
        hosted = hosting(plain or args.accessible, colour, theme, args.host, folders.saves, ContextSeating(ctx))
        if isinstance(hosted, int):
            return hosted
        console = hosted
    else:
        console = make_console(plain, colour, theme, args.accessible)
    catch_stop_signals(console)
    run_flow(console, ctx)
    return 0


def hosting(in_lines: bool, colour: bool, theme: str, address: tuple[str, int], folder: Path,
            seating: ContextSeating) -> "Union[TableConsole[ContextSeating], int]":
    """The table this terminal hosts (its console in key mode), or the exit code of a usage error
    said in one line."""
    if in_lines:
        return usage_error(_("--host needs a terminal in key mode (not --plain or --accessible)"))
    if not can_host(sys.platform):
        return usage_error(_("--host serves a table from Linux, macOS or another POSIX system (friends may "
                             "join from Windows)"))
    try:
        return hosted_table(colour, theme, address, folder, seating)
    except Refusal as problem:  # a key file the table cannot use
        return usage_error(problem)
    except OSError as error:
        where = (_(" (the saves folder {path} cannot be written: choose another with --saves)").format(
            path=folder) if isinstance(error, PermissionError) else "")
        return usage_error(_("cannot host a table at {address}: {error}").format(
            address=":".join(map(str, address)), error=error.strerror or error) + where)


def can_host(platform: str) -> bool:
    """Whether a table can be hosted here: its seats are pipes a POSIX system waits on."""
    return platform != "win32"


def packages_needed(plain: bool, hosting: bool) -> list[str]:
    """The packages this run needs: numpy for the advice and the computer players, and those
    of key mode and of hosting a table when they are used."""
    return ["numpy", *([] if plain else ["prompt_toolkit", "colorama"]), *(["asyncssh"] if hosting else [])]


def hosted_table(colour: bool, theme: str, address: tuple[str, int], folder: Path,
                 seating: ContextSeating) -> "TableConsole[ContextSeating]":
    """The host's console behind a table that friends join over SSH, listening already; how to
    join is told under the first screen. Each friend's terminal draws in the host's theme, in
    the colours, glyphs and language of its own TERM and locale; the table asks the game's
    `seating` about the seats."""
    from .consoles.keyreader import KeyReader
    from .net.credentials import table_credentials
    from .net.hostconsole import TableConsole
    from .net.server import TableServer
    trace_memory_if_asked(os.environ)
    credentials = table_credentials(folder)
    # The game's thread and the SSH server's share the interpreter: a switch sooner than the
    # default 5 ms lets a friend's key reach the game, and its screen the friend, without queueing.
    sys.setswitchinterval(SWITCH_SECONDS)

    def serve(notify: Callable[[Text], None], changed: Callable[[], None],
              seats: "Callable[[], SeatsSnapshot]") -> "TableServer":
        """The SSH server: it tells the table its lines for the host and when a friend comes
        or goes, and it reads the game's `seats` at the door."""
        return TableServer(credentials, *address, notify=notify, log=TableLog(folder), changed=changed, seats=seats)

    keys = toolkit().create_input()
    host_reader = KeyReader(keys.fileno())  # the host's terminal, as the table's wait watches it
    host = key_console(colour, theme, keys, host_reader)
    table = TableConsole(host, host_reader, serve, partial(seat_console, theme), seating)
    table.server.start()
    host.message_from_thread(table.server.how_to_join())
    host.message_from_thread(Say("This table's host key: {fingerprint}").format(fingerprint=credentials.fingerprint))
    host.message_from_thread(Say("F7 shows who is at the table; there a number removes someone."))
    return table


def seat_console(theme: str, seat: "RemoteSeat", reader: "KeyReader", at_host: bool = False) -> KeyConsole:
    """A console at an SSH seat, in `theme` and the seat's own colours, glyphs and language
    (`at_host`: the host's keys are offered there)."""
    return KeyConsole(input=seat, output=seat, terminal_size=seat.terminal_size, reader=reader,
                      paint=painter(seat.colour and theme), unicode=seat.unicode,
                      flashes=seat.colour and theme != "mono", language=seat.language, at_host=at_host)


def serve_tables(args: argparse.Namespace, folders: Folders) -> int:
    """Serve many tables over SSH until a stop signal (--serve): each login comes to the page of
    tables; a table's creator hosts it from their terminal. Returns the exit code."""
    if args.host or args.plain or args.accessible:
        return usage_error(_("--serve runs alone: not with --host, --plain or --accessible"))
    if not can_host(sys.platform):
        return usage_error(_("--serve serves tables from Linux, macOS or another POSIX system (players "
                             "may join from Windows)"))
    missing = missing_package(packages_needed(False, True))
    if missing is not None:
        return missing
    from .net.hall import Hall
    trace_memory_if_asked(os.environ)
    folder = Path(args.saves) if args.saves else folders.saves / "serve"
    try:
        served = Saves(folder, now=local_now)  # the server's own: its preferences and every table's history
        game_settings(settings_of(args, served).for_games())  # a bad --rules told now, as a bad dice file
        dice_source(args)
        hall = Hall(folder, args.serve, partial(seat_console, args.theme or "classic"),
                    partial(play_served_table, args, folders.cache, folder), served.read_history,
                    args.access)
        sys.setswitchinterval(SWITCH_SECONDS)
        hall.server.start()
    except (Refusal, ValueError) as problem:
        return usage_error(problem)
    except OSError as error:
        return usage_error(_("cannot serve at {address}: {error}").format(
            address=":".join(map(str, args.serve)), error=error.strerror or error))
    print(text(hall.how_to_log_in()), flush=True)
    hall.close(wait_for_stop_signal(), SERVE_STOP_SECONDS)
    print(text(Say("The server stopped; every table's game is saved.")), flush=True)
    return 0


def wait_for_stop_signal() -> int:
    """Sleep until SIGTERM or SIGINT comes; which one came."""
    came: list[int] = []
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda signum, frame: came.append(signum))
    while not came:
        time.sleep(STOP_LOOK_SECONDS)  # a signal cuts the sleep short
    ignore_stop_signals()
    return came[0]


def play_served_table(args: argparse.Namespace, cache: Path, folder: Path, name: str, table: Path,
                      hosted: "Callable[[Seating], ProgramConsole]",
                      opened: "Callable[[Callable[[], Session]], None]") -> None:
    """A table of the server hosted at `name`'s terminal, played until it ends at the console
    `hosted` makes, its saves in the folder `table` (a saved game there is offered first)."""
    saves = Saves(table, now=local_now, history=folder / HISTORY)
    ctx = make_context(settings_of(args, saves), saves, dice_source(args), strategy_of(args, cache))
    ctx.hosted_by = name.casefold()
    seating = ContextSeating(ctx)
    console = hosted(seating)
    opened(seating.seated)
    run_flow(console, ctx, signals=False)


def waits_shown_at(console: ProgramConsole) -> WaitsShown:
    """A wait for a strategy table shown at `console`, stopped by its stop signals, and the
    builder's notices told there (from the builder's thread)."""
    return WaitsShown(table_progress(console), stop_check(console),
                      lambda line: console.message_from_thread(Sentence(line)))


def make_context(settings: Settings, saves: Saves, source: DiceSource,
                 strategy: Optional[StrategyServices]) -> Context:
    """The screens' context: a new session under the preferences and this run's options."""
    session = Session([], verify=settings.prefs.verify, sound=settings.prefs.sound, source=source)
    ctx = Context(session, Services(local_now, saves, strategy, read_manual()), settings)
    ctx.apply_game_settings()
    return ctx


def make_console(plain: bool, colour: bool, theme: str = "classic", accessible: bool = False) -> ProgramConsole:
    """The console for this terminal: plain lines, single keys said as lines for a screen
    reader, or single keys (in `theme`'s colours when colour is on)."""
    if plain:
        return PlainConsole(ring=sys.stdout.isatty())
    if accessible:
        return AccessibleConsole()
    return key_console(colour, theme)


def key_console(colour: bool, theme: str, keys: "Optional[KeySource]" = None,
                reader: "Optional[PressReader]" = None) -> KeyConsole:
    """A key-mode console for this terminal (reading `keys` with `reader` where they are given)."""
    return KeyConsole(input=keys, reader=reader, paint=painter(colour and theme),
                      unicode=can_draw_unicode(sys.stdout.encoding), flashes=bool(colour) and theme != "mono")


def is_plain(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, environ: Mapping[str, str]) -> bool:
    """Plain mode when asked, when either end is not a terminal, or on a dumb terminal."""
    return (args.plain or not (stdin.isatty() and stdout.isatty())
            or environ.get("TERM") == "dumb")


def dice_source(args: argparse.Namespace) -> DiceSource:
    """The dice the options ask for: loaded, seeded or truly random."""
    if args.duplicate and args.dice_file:
        raise ValueError(_("--duplicate cannot be used with --dice-file: loaded dice come in file order"))
    base = SeededDice(args.seed) if args.seed is not None else RandomDice()
    return LoadedDice(read_dice_file(args.dice_file), base) if args.dice_file else base


def settings_of(args: argparse.Namespace, saves: Saves) -> Settings:
    """The preferences in `saves` and this run's options (loaded or seeded dice offer the dice's own options)."""
    return Settings(saves.load_prefs(), run_settings(args), dice_options=args.seed is not None
                    or args.dice_file is not None)


def strategy_of(args: argparse.Namespace, cache: Path) -> StrategyServices:
    """The strategy services over the tables in `cache` (the computers' own seed with --seed)."""
    return StrategyServices.over(TableKeeper(cache), args.seed)


def run_settings(args: argparse.Namespace) -> RunSettings:
    """The game settings the command line chooses for this run only."""
    return RunSettings(rules=args.rules, match=args.match, duplicate=args.duplicate or None)


def table_progress(console: ProgramConsole) -> Callable[[int, int], None]:
    """A progress(done, total) callback that shows a strategy table's build over the screen
    where the game waits for it outside a wait screen (the recap's review of every game)."""
    shown = [-1]

    def report(done: int, total: int) -> None:
        share = done / total if total else 1.0
        step = progress_step(share, console.look.in_lines)
        if step != shown[0]:
            shown[0] = step
            console.status(progress_note(share, console.look.in_lines))

    return report


def stop_check(console: ProgramConsole) -> Callable[[], None]:
    """Raises StopRequested once a stop signal has come: a wait for a table ends at once."""

    def stopping() -> None:
        if console.stop:
            raise StopRequested(console.stop)

    return stopping


def run_flow(console: ProgramConsole, ctx: Context, signals: bool = True) -> None:
    """Run the screens; every way out leaves the game saved or finished. With `signals`, the
    process's own: the window's close is watched and a late stop signal ignored as it saves
    (not for one of a server's tables, which shares the process with the others)."""
    saves, strategy = ctx.services.saves, ctx.services.strategy
    assert saves is not None  # make_context gives it
    keeper = Keeper(ctx, console.message)
    closing = watch_console_close(lambda: console.request_stop(getattr(signal, "SIGBREAK", signal.SIGTERM)),
                                  register=None if signals else (lambda handler: None))
    shown = strategy.tables.shown_at(waits_shown_at(console)) if strategy is not None else contextlib.nullcontext()
    with console.running(), shown:
        for notice in saves.take_notices():
            console.message(Sentence(notice))
        try:
            ctx.prepare_tables()
            run(console, ctx, keeper)
            finish(ctx)
        except (QuitGame, KeyboardInterrupt):
            leave_saved(console, ctx, keeper, signals=signals)
        except InputClosed:  # what F10 says, where it can still be read (a pipe's end in plain mode)
            leave_saved(console, ctx, keeper, quiet=ctx.session.game is None, signals=signals)
        except StopRequested:
            leave_saved(console, ctx, keeper, quiet=True, signals=signals)
        finally:
            if strategy is not None:
                strategy.close()
            saves.close()
            closing.saved.set()


def leave_saved(console: ProgramConsole, ctx: Context, keeper: Keeper, quiet: bool = False,
                signals: bool = True) -> None:
    """Save on the way out (no late stop signal cutting it short, with `signals`); a terminal
    lost while saying goodbye is a normal way to leave too."""
    if signals:
        ignore_stop_signals()
    with contextlib.suppress(InputClosed):  # saved before the goodbye was written
        keep_for_later(console, ctx, keeper, quiet=quiet)


# The signals that stop the game at a safe moment in every mode (on Windows SIGBREAK, which
# closing the console window sends); SIGINT joins them in key mode.
STOP_SIGNALS = ("SIGTERM", "SIGHUP", "SIGBREAK")


def stop_signal_names(console: ProgramConsole) -> tuple[str, ...]:
    """The signals that stop the game at a safe moment: in key mode a SIGINT from outside too
    (Ctrl-C at the keyboard arrives there as a key, and asks first)."""
    return STOP_SIGNALS + (() if console.look.in_lines else ("SIGINT",))


def catch_stop_signals(console: ProgramConsole) -> None:
    """SIGTERM, SIGHUP (where there is one) and, in key mode, SIGINT stop the game safely."""
    for name in stop_signal_names(console):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), lambda signum, frame: console.request_stop(signum))


def ignore_stop_signals() -> None:
    """While the last save runs, no late stop signal (nor a SIGINT) must cut it short."""
    for name in (*STOP_SIGNALS, "SIGINT"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)
