"""Shared test helpers: scripted consoles, loaded games, the program run in process."""
import contextlib
import io
import os
import signal
import sys

import pyte
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from yahtzee.consoles.keymode import KeyConsole
from yahtzee.consoles.plain import PlainConsole
from yahtzee.model.dice import LoadedDice, RandomState, SeededDice
from yahtzee.model.session import Session
from yahtzee.present.palette import strip_controls

FULL_SIZE = os.terminal_size((80, 24))


class ScreenOutput(DummyOutput):
    """An output drawn on a pyte screen, as a terminal of that size would show it."""

    def __init__(self, size):
        self.screen = pyte.Screen(size.columns, size.lines)
        self.stream = pyte.Stream(self.screen)
        self.written = []  # every write, as it was sent

    def write_raw(self, data):
        self.written.append(data)
        self.stream.feed(data)

    def text(self):
        """The screen as the player sees it, one string."""
        return "\n".join(line.rstrip() for line in self.screen.display)


class KeyScript:
    """A KeyConsole fed from a prompt_toolkit pipe, remembering every screen it drew and, in
    `seen`, the whole terminal as it stood each time a key or a line was read (after the
    previous key had done its work)."""

    def __init__(self, keys, size=FULL_SIZE, more_to_come=False):
        self._pipe = create_pipe_input()
        self.pipe = self._pipe.__enter__()
        self.pipe.send_text(keys)
        if not more_to_come:
            self.pipe.pipe.close_write()  # a script that runs out ends the input, never hangs
        self.size = size
        self.output = ScreenOutput(size)
        self.console = KeyConsole(input=self.pipe, output=self.output, terminal_size=lambda: size,
                                  sleep=lambda seconds: None)
        self.seen = []
        for name in ("read_key", "read_text"):
            self._watch(name)
        self.screens = []
        self.messages = []
        show, message, remind = self.console.show, self.console.message, self.console.remind
        self.console.show = lambda screen, brief=None: (self.screens.append(
            [strip_controls(line) for line in self.console.drawn(screen)]), show(screen, brief))
        self.console.message = lambda said: (self.messages.append(self.console.words(said)), message(said))
        self.console.remind = lambda said: (self.messages.append(self.console.words(said)), remind(said))

    def _watch(self, name):
        """Keep what the terminal shows when the console's `name` read is waiting for a key."""
        read, next_press = getattr(self.console, name), self.console._next_press

        def first_press(idle=None):
            self.console._next_press = next_press
            self.seen.append(self.output.text())
            return next_press(idle)

        def watched(*args, **kwargs):
            self.console._next_press = first_press
            try:
                return read(*args, **kwargs)
            finally:
                self.console._next_press = next_press
        setattr(self.console, name, watched)

    def close(self):
        self.console.reader.close()
        self._pipe.__exit__(None, None, None)


def plain_console(lines):
    """A PlainConsole reading the given lines; its output is in console.stdout."""
    return PlainConsole(io.StringIO("".join(line + "\n" for line in lines)), io.StringIO())


def loaded_session(faces, seed=0, **options):
    """A session whose dice come from `faces`, then from a seed."""
    return Session([], source=LoadedDice(faces, SeededDice(seed)), **options)


def read_table(rules, objective, folder):
    """The table stored in `folder`, or None when it is missing, damaged or for other rules."""
    from yahtzee.strategy.storage.cache import BadTable, checked_table
    try:
        return checked_table(rules, objective, folder)
    except BadTable:
        return None


class DealtDice:
    """Dice dealt in a fixed order that are not loaded ones: they stand in for a real game's
    dice where a test needs the game to count (loaded dice make a practice game)."""

    seed = None

    def __init__(self, faces):
        self.faces = list(faces)

    def start_turn(self, game, round_, seat):
        """Nothing to reseed."""

    def roll(self, count):
        """The next faces dealt."""
        taken, self.faces = self.faces[:count], self.faces[count:]
        return taken

    @property
    def state(self):
        """Saved as true randomness, as the game it stands in for."""
        return RandomState()


def play_keys(saves_folder, keys, faces, run_settings=None, dice=LoadedDice):
    """The whole program in process at a key console, as `yahtzee.py --dice-file` would run it
    with these run settings (--match, --rules) and the preferences in `saves_folder`, typed
    `keys` ahead (the faces dealt by `dice`); the script that drew it (`ended`: how the keys
    ran out, else None)."""
    from yahtzee.app import make_context
    from yahtzee.saves.prefs import RunSettings
    from yahtzee.saves.store import Saves, local_now
    from yahtzee.screens.context import Settings
    from yahtzee.screens.flow import Keeper, finish, run
    saves = Saves(saves_folder, now=local_now)
    ctx = make_context(Settings(saves.load_prefs(), run_settings or RunSettings(), dice_options=True), saves,
                       dice(list(faces)), None)
    script = KeyScript(keys)
    script.ended = None
    try:
        run(script.console, ctx, Keeper(ctx))
        finish(ctx)
    except Exception as error:  # the keys ran out (InputClosed) or a quit
        script.ended = error
    finally:
        script.close()
        saves.close()
    return script


def key_turn(box, answer="y"):
    """One key-mode turn's keys: any key rolls, R goes to posting, the box, then `answer`."""
    return " r" + box + (answer or "")


@contextlib.contextmanager
def signal_handlers_kept():
    """The stop signals' handlers as they were afterwards: a game run in process installs its
    own, and ignores the signals on its way out."""
    kept = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)}
    try:
        yield
    finally:
        for signum, handler in kept.items():
            signal.signal(signum, handler)


def run_program(lines, *args):
    """yahtzee.py run in process with these options, reading `lines` from a pipe (so in plain
    mode); (exit code, what it printed, what it wrote to stderr)."""
    from yahtzee import cli
    stdin, stdout, stderr = io.StringIO("".join(line + "\n" for line in lines)), io.StringIO(), io.StringIO()
    with signal_handlers_kept(), contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        real_stdin, sys.stdin = sys.stdin, stdin
        try:
            code = cli.main(list(args))
        finally:
            sys.stdin = real_stdin
    return code, stdout.getvalue(), stderr.getvalue()


def game_copy(game):
    """A copy of a game to try a move on: its cards, turn and log copied, its rules (a frozen
    value) and its dice source shared (the trials set their dice themselves)."""
    import copy
    return copy.deepcopy(game, {id(game.rules): game.rules, id(game.source): game.source})
