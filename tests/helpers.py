"""Shared test helpers: the fixed clock, key codes, one wait, scripted consoles, loaded games,
the program run through pipes (in a process of its own or in this one)."""
import collections
import contextlib
import datetime
import io
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Optional, TextIO, TypeVar, Union

import pyte
import pyte.modes as mo
from prompt_toolkit.input import DummyInput, PipeInput, create_pipe_input
from prompt_toolkit.key_binding import KeyPress
from prompt_toolkit.output import DummyOutput
from pyte.graphics import BG_AIXTERM, BG_ANSI, FG_AIXTERM, FG_ANSI
from wcwidth import wcwidth

from yahtzee.coach.services import StrategyServices
from yahtzee.consoles.keymode import KeyConsole
from yahtzee.consoles.keyreader import KeyReader
from yahtzee.consoles.plain import PlainConsole
from yahtzee.consoles.stops import InputClosed
from yahtzee.model.dice import DiceSource, LoadedDice, RandomState, SeededDice
from yahtzee.model.game import Game, Player
from yahtzee.model.rules import Rules
from yahtzee.model.session import Session
from yahtzee.model.words import Text
from yahtzee.present.look import Screenful
from yahtzee.present.palette import Paint, strip_controls
from yahtzee.saves.prefs import Prefs, RunSettings
from yahtzee.saves.shapes import JSONValue
from yahtzee.saves.store import Saves
from yahtzee.screens.context import Context, Services, Settings
from yahtzee.speech.languages import text
from yahtzee.strategy.exact.objective import Objective
from yahtzee.strategy.exact.table import StrategyTable

if sys.platform != "win32":
    from prompt_toolkit.input.posix_pipe import PosixPipeInput

FULL_SIZE = os.terminal_size((80, 24))
NOON = datetime.datetime(2026, 12, 1, 12, 0, tzinfo=datetime.timezone.utc)
STAMP = NOON.strftime("%Y%m%d-%H%M%S")  # how a file set aside at NOON is named
# How long any wait for the game lasts before the test fails: long, as a game started while
# the other workers compute can take many seconds to draw.
WAIT_SECONDS = 60
POLL_SECONDS = 0.01
T = TypeVar("T")


def texts(words: Iterable[Text]) -> list[str]:
    """Each of these words as text in the language being spoken (the saves folder's notices, say)."""
    return [text(said) for said in words]


def clock() -> datetime.datetime:
    """The injected clock of the tests: always NOON."""
    return NOON


def wait_until(condition: Callable[[], T], timeout: float = WAIT_SECONDS, poll: float = POLL_SECONDS,
               failure: Optional[Callable[[], str]] = None) -> T:
    """The first true value of `condition()`, asked every `poll` seconds (0: `condition` waits
    itself, as a read with a timeout does); an AssertionError saying `failure()` once `timeout`
    seconds have passed without one."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(failure() if failure else f"not true within {timeout} s")
        if poll:
            time.sleep(poll)


# Why a test is skipped on Windows (the posix marker) or under Wine (wine_lacks): see setup.cfg.
PTY = "a game in a pseudo-terminal (pexpect.spawn)"
POSIX_READER = "the POSIX key reader (a pipe read through select; Windows' reader is test_windows_keys')"
LOCK_ERRNO = "Wine's _locking refuses a held lock with errno 0, not EACCES: msvcrt.locking raises OSError(0, 'Error')"
SYMLINKS = "os.symlink: Wine 8's CreateSymbolicLinkW fails (WinError 2)"
NO_CRYPTOGRAPHY = "asyncssh's cryptography wants bcryptprimitives.dll"
XDG_HOME = "the user's folders under HOME (on Windows they are under the user's profile)"
# An embeddable Windows Python: its ._pth file fixes sys.path (no PYTHONPATH, no -S)
ISOLATED = any(Path(sys.base_prefix).glob("python*._pth"))

class FastScreen(pyte.Screen):
    """pyte's Screen, drawing a run of plain characters faster (a cell a dictionary look-up, not
    a new cell each): most of what the game writes; anything else is pyte's own drawing."""

    def __init__(self, columns: int, lines: int) -> None:
        super().__init__(columns, lines)
        # (attributes) -> {character: its cell}, cells being immutable
        self._cells: dict[tuple[Any, ...], dict[str, pyte.screens.Char]] = {}

    def draw(self, data: str) -> None:
        text = data.translate(self.g1_charset if self.charset else self.g0_charset)
        if not (text.isascii() and text.isprintable()) or mo.IRM in self.mode:
            super().draw(data)
            return
        cursor, columns, wrap = self.cursor, self.columns, mo.DECAWM in self.mode
        attributes = cursor.attrs[1:]
        cells = self._cells.setdefault(attributes, {})
        line = self.buffer[cursor.y]
        for char in text:
            if cursor.x == columns:
                if wrap:
                    self.dirty.add(cursor.y)
                    self.carriage_return()
                    self.linefeed()
                    line = self.buffer[cursor.y]
                else:
                    cursor.x -= 1
            cell = cells.get(char)
            if cell is None:
                cell = cells[char] = pyte.screens.Char(char, *attributes)
            line[cursor.x] = cell
            cursor.x += 1
        self.dirty.add(cursor.y)


def screen_lines(screen: pyte.Screen) -> list[str]:
    """pyte's Screen.display, the same lines, faster: a line is its cells' characters joined,
    unless a wide character is in it (then pyte's own reading, which skips the cell after one)."""
    lines = []
    for y in range(screen.lines):
        row = screen.buffer[y]
        line = "".join([row[x].data for x in range(screen.columns)])
        if not line.isascii() and any(wcwidth(char) == 2 for char in set(line)):
            # display is a property: its getter, read on a stand-in screen of this one line
            line = pyte.Screen.display.fget(_OneLine(screen, row))[0]  # type: ignore[attr-defined]
        lines.append(line)
    return lines


class _OneLine:
    """One line of a screen, as pyte's display reads a screen."""

    def __init__(self, screen: pyte.Screen, row: dict[int, Any]) -> None:
        self.columns, self.lines, self.buffer = screen.columns, 1, [row]


_COLOURS = {name: code for table in (FG_ANSI, FG_AIXTERM) for code, name in table.items()}
_BACKGROUNDS = {name: code for table in (BG_ANSI, BG_AIXTERM) for code, name in table.items()}
_STYLES = {"bold": 1, "italics": 3, "underscore": 4, "blink": 5, "reverse": 7, "strikethrough": 9}


def _colour_code(colour: str, names: dict[str, int], base: int) -> list[int]:
    """The SGR parameters of a pyte colour: a name, or six hex digits (256 and true colours)."""
    if colour in names:
        return [names[colour]]
    red, green, blue = (int(colour[at:at + 2], 16) for at in (0, 2, 4))
    return [base, 2, red, green, blue]


def sgr(char: pyte.screens.Char) -> str:
    """The one SGR sequence that sets everything a cell looks like, from the defaults."""
    codes = [0] + [code for style, code in _STYLES.items() if getattr(char, style)]
    if char.fg != "default":
        codes += _colour_code(char.fg, _COLOURS, 38)
    if char.bg != "default":
        codes += _colour_code(char.bg, _BACKGROUNDS, 48)
    return "\x1b[" + ";".join(map(str, codes)) + "m"


def coloured_lines(screen: pyte.Screen) -> list[str]:
    """The screen's lines with their colours and styles: one SGR sequence wherever the look
    changes (each setting everything from the defaults), the default look again at each line's
    end, spaces in the default look at the end left out."""
    plain = sgr(screen.default_char)
    lines = []
    for y in range(screen.lines):
        row = screen.buffer[y]
        cells = [row[x] for x in range(screen.columns)]
        while cells and cells[-1].data == " " and sgr(cells[-1]) == plain:
            cells.pop()
        line, look = [], plain
        for cell in cells:
            if sgr(cell) != look:
                look = sgr(cell)
                line.append(look)
            line.append(cell.data)
        lines.append("".join(line) + (plain if look != plain else ""))
    return lines


class ScreenOutput(DummyOutput):
    """An output drawn on a pyte screen, as a terminal of that size would show it. What is
    written is drawn when the screen is looked at (a game's thread may write meanwhile)."""

    def __init__(self, size: os.terminal_size) -> None:
        self.size = size
        self._screen = FastScreen(size.columns, size.lines)
        self._stream = pyte.Stream(self._screen)
        self.written: list[str] = []  # every write, as it was sent
        self._drawn = 0  # how many of them are on the screen
        self._lock = threading.Lock()

    def write_raw(self, data: str) -> None:
        self.written.append(data)

    def _draw(self, upto: Optional[int] = None) -> None:
        """Draw what was written and is not on the screen yet (up to write number `upto`)."""
        end = len(self.written) if upto is None else upto
        while self._drawn < end:
            self._stream.feed(self.written[self._drawn])
            self._drawn += 1

    @property
    def screen(self) -> FastScreen:
        """The pyte screen, with everything written so far drawn on it."""
        with self._lock:
            self._draw()
        return self._screen

    def text(self, upto: Optional[int] = None, colours: bool = False) -> str:
        """The screen as the player sees it, one string (as it stood after write number
        `upto`, for a screen not drawn past it; with `colours`, as coloured_lines)."""
        with self._lock:
            self._draw(upto)
            lines = coloured_lines(self._screen) if colours else screen_lines(self._screen)
        return "\n".join(line if colours else line.rstrip() for line in lines)


def key_pipe() -> AbstractContextManager[PipeInput]:
    """prompt_toolkit's pipe input for this platform (as a context manager): on Windows one whose
    reads, once its keys have run out and its write end is closed, end the input (a closed
    Win32PipeInput is signalled for ever and reads nothing), so that a script never hangs."""
    if sys.platform != "win32":
        return create_pipe_input()
    else:  # (else: mypy checks it as Windows code only)
        from ctypes import windll

        from prompt_toolkit.input.win32_pipe import Win32PipeInput

        class EndingPipe(Win32PipeInput):
            def read_keys(self) -> list[KeyPress]:
                keys = super().read_keys()
                if self.closed:  # closed while read: signalled again, as close() left it
                    windll.kernel32.SetEvent(self.handle)
                if not keys and self.closed:
                    keys = self.flush_keys()  # what the parser held (a lone Esc), as an ended pipe lets go
                    if not keys:
                        raise EOFError("the script's keys have run out")
                return keys

        @contextlib.contextmanager
        def created() -> Iterator[PipeInput]:
            with Win32PipeInput.create() as pipe:
                pipe.__class__ = EndingPipe
                yield pipe
        return created()


def end_of_keys(pipe: PipeInput) -> None:
    """Close the pipe's write end: the input ends once the keys sent are read."""
    if sys.platform == "win32":
        pipe.close()
    else:
        assert isinstance(pipe, PosixPipeInput)
        pipe.pipe.close_write()


class KeyScript:
    """A KeyConsole fed from a prompt_toolkit pipe, remembering every screen it drew and, in
    `seen`, the whole terminal as it stood each time a key or a line was read (after the
    previous key had done its work); `paint` as the console's (no colours by default)."""

    ended: Optional[Exception]  # how a whole program's keys ran out (play_keys), None: they did not

    def __init__(self, keys: str, size: os.terminal_size = FULL_SIZE, more_to_come: bool = False,
                 paint: Optional[Paint] = None) -> None:
        self._pipe = key_pipe()
        self.pipe = self._pipe.__enter__()
        self.pipe.send_text(keys)
        if not more_to_come:
            end_of_keys(self.pipe)  # a script that runs out ends the input, never hangs
        self.size = size
        self.output = ScreenOutput(size)
        painted: dict[str, Any] = {"paint": paint, "flashes": True} if paint else {}
        self.console = KeyConsole(input=self.pipe, output=self.output, terminal_size=lambda: size,
                                  sleep=lambda seconds: None, **painted)
        self._reads: list[int] = []  # how much had been written at each read
        # the terminal at each read, drawn when first asked for: with and without colours
        self._seen: dict[bool, list[str]] = {}
        for name in ("read_key", "read_text"):
            self._watch(name)
        self.screens: list[list[str]] = []
        self.messages: list[str] = []
        show, message, remind = self.console.show, self.console.message, self.console.remind

        def shown(screen: Screenful, brief: Optional[Iterable[Text]] = None) -> None:
            self.screens.append([strip_controls(line) for line in self.console.drawn(screen)])
            show(screen, brief)

        def messaged(said: Text) -> None:
            self.messages.append(self.console.words(said))
            message(said)

        def reminded(said: Text) -> None:
            self.messages.append(self.console.words(said))
            remind(said)
        # the script notes what the console shows and says, then lets it do so
        self.console.show = shown  # type: ignore[method-assign]
        self.console.message = messaged  # type: ignore[method-assign]
        self.console.remind = reminded  # type: ignore[method-assign]

    @property
    def seen(self) -> list[str]:
        """The terminal at each read, as text."""
        return self._seen_as(colours=False)

    @property
    def seen_in_colour(self) -> list[str]:
        """The terminal at each read, with its colours (as coloured_lines)."""
        return self._seen_as(colours=True)

    def _seen_as(self, colours: bool) -> list[str]:
        seen = self._seen.setdefault(colours, [])
        if len(seen) < len(self._reads):
            replay = ScreenOutput(self.size)
            replay.written = self.output.written
            seen[:] = [replay.text(upto=written, colours=colours) for written in self._reads]
        return seen

    def _watch(self, name: str) -> None:
        """Note how far the terminal was drawn when the console's `name` read waits for a key."""
        read, reader = getattr(self.console, name), self.console.reader
        next_press = reader.next_press

        def first_press(*args: Any, **kwargs: Any) -> Optional[KeyPress]:
            reader.next_press = next_press  # type: ignore[method-assign]  # watched for the first press of a read
            self._reads.append(len(self.output.written))
            return next_press(*args, **kwargs)

        def watched(*args: Any, **kwargs: Any) -> Any:
            reader.next_press = first_press  # type: ignore[method-assign]  # the read's first press noted
            try:
                return read(*args, **kwargs)
            finally:
                reader.next_press = next_press  # type: ignore[method-assign]  # as it was
        setattr(self.console, name, watched)

    def close(self) -> None:
        self.console.reader.close()
        self._pipe.__exit__(None, None, None)


class ChunkReader(KeyReader):
    """The game's key reader, its keys arriving in `chunks` (text, seconds after the one
    before) that it reads apart, the seconds between them passing on its own clock, never
    slept: a sequence it holds counts as keys as they are if its wait runs out before the
    next chunk comes. Once the chunks run out, the input ends."""

    def __init__(self, chunks: Iterable[tuple[str, float]]) -> None:
        read_end, self._write_end = os.pipe()
        self.now = 0.0
        super().__init__(read_end, clock=lambda: self.now)
        self._chunks: collections.deque[tuple[float, str]] = collections.deque()
        arrival = 0.0
        for typed, seconds in chunks:
            arrival += seconds
            self._chunks.append((arrival, typed))

    def next_press(self) -> KeyPress:
        while True:
            press = self.poll()  # takes in a chunk that came, or lets a held sequence go
            if press is not None:
                return press
            due = self.flush_due()
            if due is not None and (not self._chunks or self.now + due < self._chunks[0][0]):
                self.now += due
            elif self._chunks:
                arrival, text = self._chunks.popleft()
                self.now = max(self.now, arrival)
                os.write(self._write_end, text.encode())
            else:
                raise InputClosed("end of input")

    def close(self) -> None:
        super().close()
        os.close(self._write_end)
        os.close(self.fd)


def chunked_console(chunks: Iterable[tuple[str, float]], size: os.terminal_size = FULL_SIZE) -> KeyConsole:
    """A KeyConsole whose keys come in `chunks` (ChunkReader's); its screen in console.output."""
    return KeyConsole(input=DummyInput(), output=ScreenOutput(size), terminal_size=lambda: size,
                      sleep=lambda seconds: None, reader=ChunkReader(chunks))


def plain_console(lines: Iterable[str]) -> PlainConsole:
    """A PlainConsole reading the given lines; its output is in console.stdout."""
    return PlainConsole(io.StringIO(typed(lines)), io.StringIO())


def any_json(value: JSONValue) -> Any:
    """A JSON value (a record, a save) as a test reads it: any shape, which the test asserts."""
    return value


def there(value: Optional[T]) -> T:
    """The value, asserted there (not None)."""
    assert value is not None
    return value


def present(values: Iterable[Optional[T]]) -> list[T]:
    """The values, each asserted there (not None)."""
    found = list(values)
    assert all(value is not None for value in found), found
    return [value for value in found if value is not None]


def printed(console: PlainConsole) -> str:
    """What a plain console made by plain_console (or on a StringIO of its own) has printed."""
    assert isinstance(console.stdout, io.StringIO)
    return console.stdout.getvalue()


def loaded_session(faces: Sequence[int], seed: int = 0, **options: Any) -> Session:
    """A session whose dice come from `faces`, then from a seed."""
    return Session([], source=LoadedDice(faces, SeededDice(seed)), **options)


def table_context(faces: Iterable[int] = (), players: Iterable[Union[str, tuple[Any, ...]]] = (),
                  session: Optional[Session] = None, saves: Optional[Saves] = None,
                  strategy: Optional[StrategyServices] = None, prefs: Optional[dict[str, Any]] = None,
                  **options: Any) -> Context:
    """The screens' context of a table whose dice are `faces`, then seeded (with these session
    options; or `session`), `players` seated (names, or Player's arguments), on the fixed clock,
    its `saves` (None: nothing is saved), `strategy` (None: no advisor) and `prefs`."""
    session = session if session is not None else loaded_session(list(faces), **options)
    session.players.extend(Player(player) if isinstance(player, str) else Player(*player) for player in players)
    return Context(session, Services(clock, saves, strategy), Settings(replace(Prefs(), **(prefs or {}))))


def read_table(rules: Rules, objective: Objective, folder: Path) -> Optional[StrategyTable]:
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

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)

    def start_turn(self, game: int, round_: int, seat: int) -> None:
        """Nothing to reseed."""

    def roll(self, count: int) -> list[int]:
        """The next faces dealt."""
        taken, self.faces = self.faces[:count], self.faces[count:]
        return taken

    @property
    def state(self) -> RandomState:
        """Saved as true randomness, as the game it stands in for."""
        return RandomState()


def play_keys(saves_folder: Path, keys: str, faces: Iterable[int], run_settings: Optional[RunSettings] = None,
              dice: Callable[[list[int]], DiceSource] = LoadedDice) -> KeyScript:
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


def key_turn(box: str, answer: Optional[str] = "y") -> str:
    """One key-mode turn's keys: any key rolls, R goes to posting, the box, then `answer`."""
    return " r" + box + (answer or "")


@contextlib.contextmanager
def signal_handlers_kept() -> Iterator[None]:
    """The stop signals' handlers as they were afterwards: a game run in process installs its
    own, and ignores the signals on its way out."""
    stops = [getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGBREAK", "SIGINT") if hasattr(signal, name)]
    kept = {signum: signal.getsignal(signum) for signum in stops}
    try:
        yield
    finally:
        for signum, handler in kept.items():
            signal.signal(signum, handler)


def typed(lines: Iterable[str]) -> str:
    """Lines as a player types them at the game, each ended by Enter."""
    return "".join(line + "\n" for line in lines)


def run_game(args: Sequence[str], input: Union[str, bytes, None] = None, env: Optional[Mapping[str, str]] = None,
             timeout: float = 60, text: bool = True, fresh: bool = False, in_process: bool = False,
             stdin: Optional[TextIO] = None, stdout: Optional[io.StringIO] = None) -> subprocess.CompletedProcess[Any]:
    """`python yahtzee.py ARGS` through pipes, as subprocess.run runs it: `input` read, the output
    captured. In a process of its own (forked where the environment allows, else and when
    `fresh` started afresh); or, where speed matters, `in_process` (cli.main in this process,
    in its environment), where a test may give the game its own `stdin` to read and `stdout`
    to print to."""
    if not in_process:
        assert stdin is None and stdout is None, "a stdin or stdout of the test's own is given in process only"
        from forkserver import run_forked
        return run_forked(args, input, env, timeout, text, fresh)
    assert env is None and text and not fresh and not isinstance(input, bytes), "in process: this environment, text"
    assert input is None or stdin is None, "the input, or a stdin that gives it"
    from yahtzee import cli
    reading = stdin if stdin is not None else io.StringIO(input or "")
    printing, errors = stdout if stdout is not None else io.StringIO(), io.StringIO()
    with signal_handlers_kept(), contextlib.redirect_stdout(printing), contextlib.redirect_stderr(errors):
        real_stdin, sys.stdin = sys.stdin, reading
        try:
            code = cli.main(list(args))
        finally:
            sys.stdin = real_stdin
    return subprocess.CompletedProcess(["yahtzee.py", *args], code, printing.getvalue(), errors.getvalue())


def game_copy(game: Game) -> Game:
    """A copy of a game to try a move on: its cards, turn and log copied, its rules (a frozen
    value) and its dice source shared (the trials set their dice themselves)."""
    import copy
    return copy.deepcopy(game, {id(game.rules): game.rules, id(game.source): game.source})
