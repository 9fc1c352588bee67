"""Key mode on the Windows console, on any system: the Windows side of the key seam
(yahtzee.consoles.winkeys) driven by a faithful fake of the calls it makes (prompt_toolkit's
Win32Input.read_keys and flush_keys, WaitForMultipleObjects on the console's input handle and
an event, SetEvent/ResetEvent, the window's size), under the same KeyConsole and screens as
POSIX. What runs on Windows itself is type-checked there (mypy --platform win32 in .ci/run);
no test here runs on Windows."""
import ast
import collections
import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable, Optional

import pytest
from helpers import ScreenOutput, clock, loaded_session, there
from prompt_toolkit.key_binding import KeyPress
from prompt_toolkit.keys import Keys
from syntax import parsed, walked

from yahtzee.consoles.keymode import KeyConsole
from yahtzee.consoles.stops import InputClosed, StopRequested
from yahtzee.consoles.terminalio import KeySource
from yahtzee.consoles.winkeys import WAIT_FAILED, WAIT_TIMEOUT, WindowsCalls, WindowsKeyReader
from yahtzee.model.game import Player
from yahtzee.saves.prefs import Prefs
from yahtzee.screens.context import Context, Services
from yahtzee.screens.flow import Keeper, run_from
from yahtzee.screens.steps import Moment, Screen

INPUT, WAKE = object(), object()  # the console's input handle and the wake-up event
PACKAGE = Path(__file__).resolve().parent.parent / "yahtzee"


class FakeWindows:
    """The Windows console as the reader sees it, after prompt_toolkit's sources. Records wait
    in the console's input buffer, and its handle is signalled while any wait there: a key's
    press and, a moment later, its release; focus, menu and mouse records. read_keys takes them
    all and never blocks: a key press for each press record, a mouse "key" for each mouse
    record, nothing for the others; and it never reports an error (ConsoleInputReader.read does
    not look at ReadConsoleInputW's result). A lone Esc is held until flush_keys, as Win32Input's
    parser holds it. WaitForMultipleObjects answers the index of the first signalled handle in
    the order given, WAIT_TIMEOUT when the time runs out, and WAIT_FAILED once the console is
    gone (its handle is no handle then)."""

    def __init__(self) -> None:
        self.buffer: collections.deque[Optional[KeyPress]] = collections.deque()  # records: a KeyPress, or None
        self.held: list[KeyPress] = []
        self.event = False
        self.size = (80, 24)
        self.closed = False
        self.changed = threading.Condition()
        self.waits = 0

    def type(self, *presses: Any) -> None:
        """Keys pressed and released at the console (from the test's thread)."""
        with self.changed:
            for press in presses:
                if press.key == Keys.Escape:
                    self.held.append(press)
                else:
                    self.buffer.append(press)
                self.buffer.append(None)  # the key's release
            self.changed.notify_all()

    def record_without_key(self) -> None:
        """A record that is no key arrives: a key's late release, a focus or menu event."""
        with self.changed:
            self.buffer.append(None)
            self.changed.notify_all()

    def move_mouse(self, x: int = 10, y: int = 5) -> None:
        """The mouse moves over the console: prompt_toolkit makes a mouse "key" of the record."""
        with self.changed:
            self.buffer.append(KeyPress(Keys.WindowsMouseEvent, f"NONE;MOUSE_MOVE;{x};{y}"))
            self.changed.notify_all()

    def resize(self, columns: Any, lines: Any) -> None:
        with self.changed:
            self.size = (columns, lines)

    def close(self) -> None:
        with self.changed:
            self.closed = True
            self.changed.notify_all()

    def read_keys(self) -> list[Any]:
        with self.changed:
            taken = [record for record in self.buffer if record is not None]
            self.buffer.clear()
            return taken

    def flush_keys(self) -> list[Any]:
        with self.changed:
            taken, self.held = self.held, []
            return taken

    def wait(self, handles: list[object], timeout: float) -> int:
        assert handles == [INPUT, WAKE]
        self.waits += 1
        with self.changed:
            ready = self.changed.wait_for(lambda: self.buffer or self.event or self.closed, timeout)
            if self.closed:
                return WAIT_FAILED
            if not ready:
                return WAIT_TIMEOUT
            return 0 if self.buffer else 1

    def set_event(self, handle: Any) -> None:
        assert handle is WAKE
        with self.changed:
            self.event = True
            self.changed.notify_all()

    def reset_event(self, handle: object) -> None:
        assert handle is WAKE
        with self.changed:
            self.event = False

    def calls(self) -> WindowsCalls:
        return WindowsCalls(read_keys=self.read_keys, flush_keys=self.flush_keys, wait=self.wait,
                            input_handle=INPUT, wake_event=WAKE, set_event=self.set_event,
                            reset_event=self.reset_event, size=lambda: self.size)


class ConsoleInput:
    """The Win32Input as the KeyConsole keeps it: its raw mode (the reader reads it, not this)."""

    def fileno(self) -> int:
        raise AssertionError("a Windows console is never read through a descriptor")

    def raw_mode(self) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()


def windows_console(fake: FakeWindows) -> tuple[KeyConsole, ScreenOutput]:
    """A KeyConsole on the Windows reader, drawing on an 80x24 screen (or the fake's size)."""
    output = ScreenOutput(os.terminal_size((80, 24)))
    console = KeyConsole(input=ConsoleInput(), output=output, reader=WindowsKeyReader(fake.calls()),
                         terminal_size=lambda: os.terminal_size(fake.size), sleep=lambda seconds: None)
    return console, output


def later(seconds: float, action: Callable) -> threading.Timer:
    """Do `action` from another thread after a moment (while the console waits)."""
    timer = threading.Timer(seconds, action)
    timer.start()
    return timer


def test_key_presses_f_keys_and_a_lone_esc_come_as_the_screens_tokens() -> None:
    fake = FakeWindows()
    console, _ = windows_console(fake)
    fake.type(KeyPress("R"), KeyPress(Keys.F8), KeyPress(Keys.F10), KeyPress(Keys.ControlC), KeyPress("1"))
    assert [console.read_key() for _ in range(5)] == ["r", "F8", "F10", "F10", "1"]
    fake.type(KeyPress(Keys.Escape))  # held by the parser until its timeout, then a key as it is
    assert console.read_key() == "escape"


def test_keys_typed_ahead_are_kept_in_order_and_a_poll_never_waits() -> None:
    fake = FakeWindows()
    console, _ = windows_console(fake)
    assert console.reader.poll() is None
    fake.type(*(KeyPress(key) for key in "135r"))
    assert [console.read_key() for _ in range(4)] == ["1", "3", "5", "r"]
    started = time.monotonic()
    assert console.pause(0) is None and time.monotonic() - started < 0.1


def test_a_message_from_another_thread_wakes_the_wait_and_is_shown_at_once() -> None:
    fake = FakeWindows()
    console, output = windows_console(fake)
    console.show(["the screen"])
    later(0.1, lambda: console.message_from_thread("the strategy table is ready"))
    later(0.4, lambda: fake.type(KeyPress("y")))
    assert console.read_key("a question") == "y"
    assert "the strategy table is ready" in output.text()


def test_a_resized_window_is_drawn_again_while_waiting() -> None:
    fake = FakeWindows()
    console, output = windows_console(fake)
    console.show(["the screen"])
    draws = len(output.written)
    later(0.05, lambda: fake.resize(70, 20))  # smaller than the game's 80x24: it says so at once
    later(0.8, lambda: fake.resize(100, 30))
    later(1.4, lambda: fake.type(KeyPress("x")))
    assert console.read_key("a question") == "x"
    redraws = "".join(output.written[draws:])
    assert "needs 80x24" in redraws and redraws.rstrip().endswith("the screen")


def test_a_stop_request_ends_the_wait() -> None:
    fake = FakeWindows()
    console, _ = windows_console(fake)
    later(0.1, lambda: console.request_stop(getattr(signal, "SIGBREAK", signal.SIGTERM)))
    with pytest.raises(StopRequested):
        console.read_key("a question")


def test_a_closed_console_ends_the_input() -> None:
    fake = FakeWindows()
    console, _ = windows_console(fake)
    later(0.1, fake.close)
    with pytest.raises(InputClosed):
        console.read_key("a question")


def test_a_whole_turn_plays_through_the_windows_reader_as_through_posix() -> None:
    fake = FakeWindows()
    console, output = windows_console(fake)
    session = loaded_session([2, 2, 3, 3, 3] * 3, verify=True)
    session.players.append(Player("ANN"))
    session.new_game()
    ctx = Context(session, Services(clock))
    ctx.settings.prefs = Prefs(dice_roll="off")
    fake.type(*(KeyPress(key) for key in " rhy"), KeyPress(Keys.F10), KeyPress("y"))
    with contextlib.suppress(Exception), console.running():
        run_from(console, ctx, Keeper(ctx), Moment(Screen.PLAY))
    boxes = there(session.game).players[0].card.boxes
    assert boxes == {"full_house": 25} or [(box.value, points) for box, points in boxes.items()] == [("full_house", 25)]
    assert "ANN posts 25 in FULL HOUSE." in output.text() or "Quit the game?" in output.text()


def test_a_pause_is_not_cut_short_by_records_that_are_no_key() -> None:
    """A key's release, a focus or menu event signal the console's handle too, and give no key:
    the wait goes on for the rest of its time."""
    fake = FakeWindows()
    console, _ = windows_console(fake)
    later(0.1, fake.record_without_key)
    later(0.3, fake.record_without_key)
    started = time.monotonic()
    assert console.reader.press_within(0.8) is None
    assert time.monotonic() - started >= 0.75
    later(0.1, fake.record_without_key)
    later(0.3, lambda: fake.type(KeyPress("r")))
    assert there(console.reader.press_within(2.0)).key == "r"


def test_the_mouse_is_no_key_and_a_paste_is_the_keys_typed() -> None:
    """A mouse move gives prompt_toolkit's mouse "key": no key of the game's, and it cuts no
    pause. A paste (a quick burst, which the Windows reader makes one paste of) is its keys."""
    fake = FakeWindows()
    console, _ = windows_console(fake)
    later(0.1, fake.move_mouse)
    started = time.monotonic()
    assert console.pause(0.6) is None and time.monotonic() - started >= 0.55
    fake.move_mouse()
    with fake.changed:
        fake.buffer.append(KeyPress(Keys.BracketedPaste, "ann\r\nb"))
    fake.type(KeyPress("1"))
    assert [console.read_key() for _ in range(6)] == ["a", "n", "n", "enter", "b", "1"]


def test_a_failed_wait_ends_the_input_and_is_no_wake_up() -> None:
    """WaitForMultipleObjects answers WAIT_FAILED once the console is gone; the reader reads
    Windows' DWORD itself (prompt_toolkit's wait_for_handles took it for the last handle, the
    wake-up event), and the reads that follow give nothing, never an error."""
    fake = FakeWindows()
    console, _ = windows_console(fake)
    fake.close()
    with pytest.raises(InputClosed):
        console.reader.press_within(1.0)
    assert fake.waits == 1 and fake.read_keys() == []


def test_the_console_handler_is_declared_as_windows_calls_it() -> None:
    """Windows calls the control handler with a DWORD and reads a 32-bit BOOL back."""
    tree = parsed(PACKAGE / "consoles" / "winkeys.py")
    calls = [node for node in walked(tree) if isinstance(node, ast.Call)]
    declared = [ast.unparse(node.func) + "(" + ", ".join(ast.unparse(arg) for arg in node.args) + ")"
                for node in calls if ast.unparse(node.func).endswith("WINFUNCTYPE")]
    assert "ctypes.WINFUNCTYPE(wintypes.BOOL, wintypes.DWORD)" in declared


def test_a_redraw_erases_from_the_home_not_the_whole_display() -> None:
    """Erasing the whole display (2J) at every redraw pushes a screen into the scrollback of
    the Windows console and Windows Terminal: a redraw homes and erases to the end."""
    fake = FakeWindows()
    console, output = windows_console(fake)
    console.show(["the first screen"])
    console.show(["the second screen"])
    written = "".join(output.written)
    assert "\x1b[2J" not in written and written.count("\x1b[H\x1b[J") >= 2
    assert "second screen" in output.text() and "first screen" not in output.text()


def test_the_windows_reader_looks_at_the_console_not_at_columns_and_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """COLUMNS and LINES stay as they were when the window is resized: the Windows reader is
    given terminalio.window_size, which asks the console first."""
    from yahtzee.consoles import terminalio
    asked = []
    monkeypatch.setattr(terminalio.sys, "platform", "win32")
    def windows_reader(source: KeySource, size: Callable[[], os.terminal_size]) -> str:
        asked.append(size)
        return "reader"
    monkeypatch.setattr(terminalio, "windows_reader", windows_reader)
    assert terminalio.reader_for(ConsoleInput()) == "reader" and asked == [terminalio.window_size]
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    monkeypatch.setattr(terminalio.os, "get_terminal_size", lambda fd: os.terminal_size((120, 40)))
    assert tuple(terminalio.window_size()) == (120, 40)


def test_on_windows_the_package_asks_for_the_prompt_toolkit_that_hands_a_held_esc_on() -> None:
    """A lone Esc waits in Win32Input's parser until flush_keys, which Win32Input has since
    prompt_toolkit 3.0.52 (before, the base class's gave nothing: Esc was held for good)."""
    import configparser
    setup = configparser.ConfigParser()
    setup.read(PACKAGE.parent / "setup.cfg")
    requires = [line.strip() for line in setup["options"]["install_requires"].splitlines() if line.strip()]
    toolkit = [line for line in requires if line.startswith("prompt_toolkit")]
    assert 'prompt_toolkit>=3.0.52; sys_platform == "win32"' in toolkit
    assert all("win32" in line for line in toolkit)  # every platform's with its own floor


def test_a_folder_is_writable_when_a_file_can_be_made_there_whatever_access_says(monkeypatch: pytest.MonkeyPatch,
                                                                                 tmp_path: Path) -> None:
    """os.access reads no Windows folder permissions (nor a read-only file system): a file is tried."""
    from yahtzee.saves import folder
    monkeypatch.setattr(os, "access", lambda path, mode: True)  # as Windows answers for a denied folder
    assert folder.is_writable_folder(tmp_path)
    if Path("/proc/self").is_dir():
        assert not folder.is_writable_folder(Path("/proc/self"))  # a folder no file can be made in


def test_a_report_to_a_pipe_whose_code_page_lacks_a_character_prints_a_stand_in(monkeypatch: pytest.MonkeyPatch,
                                                                                tmp_path: Path) -> None:
    """A report piped under a Windows code page (cp1252 here) with a name outside it: a stand-in, no error."""
    import io
    import sys

    from yahtzee import cli
    piped = io.TextIOWrapper(io.BytesIO(), encoding="cp1252")
    monkeypatch.setattr(sys, "stdout", piped)
    assert cli.main(["--paths", "--saves", str(tmp_path / "名前")]) == 0
    piped.flush()
    assert "??" in piped.buffer.getvalue().decode("cp1252")


def test_closing_the_window_in_plain_mode_stops_the_game_in_its_own_thread_and_waits_for_its_save() -> None:
    """Plain mode waits in a read of the console: the close handler (in Windows' thread) asks
    the game to stop and ends that read (CancelSynchronousIo on Windows; here the pipe's other
    end is closed), and the game's thread stops, never Windows'."""
    import io

    from yahtzee.consoles.plain import PlainConsole
    from yahtzee.consoles.winkeys import CLOSE_EVENTS, watch_console_close
    read_end, write_end = os.pipe()
    keyboard = os.fdopen(write_end, "w")
    console = PlainConsole(stdin=os.fdopen(read_end, "r"), stdout=io.StringIO())
    watch = watch_console_close(lambda: console.request_stop(signal.SIGTERM), register=lambda handle: None,
                                end_read=keyboard.close)
    answered, raised = [], []

    def close() -> None:
        try:
            answered.append(watch.handle(CLOSE_EVENTS[0]))
        except BaseException as error:  # noqa: BLE001 - what would escape into Windows' thread
            raised.append(error)

    closing = threading.Thread(target=close)
    later(0.2, closing.start)
    with pytest.raises(StopRequested):
        console.read_key("a question")  # in the game's thread
    time.sleep(0.2)
    assert answered == [] and raised == []  # Windows is held back until the game is saved
    watch.saved.set()
    closing.join(2)
    assert answered == [True] and raised == []


def test_a_console_that_takes_no_ansi_plays_in_plain_mode_and_says_so_once(monkeypatch: pytest.MonkeyPatch,
                                                                           tmp_path: Path) -> None:
    """A console before Windows 10 (or set to "use legacy console") shows escape sequences as
    text: key mode would draw garbage there, so the game plays in plain mode and says why."""
    from helpers import run_game, typed

    from yahtzee import app
    monkeypatch.setattr(app, "is_plain", lambda *args: False)  # a terminal at both ends
    monkeypatch.setattr(app, "console_takes_ansi", lambda: False)
    done = run_game(["--lang", "en", "--saves", str(tmp_path)], typed(["", "n", "f10", "y"]), in_process=True)
    code, out, err = done.returncode, done.stdout, done.stderr
    lines = out.splitlines()
    said = [line for line in lines if "ANSI" in line]
    assert code == 0 and err == "" and said == [
        "This console cannot draw the game's screens (it takes no ANSI sequences): the game is played in plain mode."]
    assert "\x1b" not in out and lines.index(said[0]) == 0


PLATFORM_MODULES = {"termios", "tty", "fcntl", "select", "msvcrt", "ctypes", "prompt_toolkit.input.win32",
                    "prompt_toolkit.eventloop.win32", "prompt_toolkit.input.vt100"}
# hosting is POSIX's: app.py says so
POSIX_SIDE = {"consoles/keyreader.py", "net/terminals.py", "net/seat.py", "net/server.py"}


def platform_imports(path: Path) -> Iterator[tuple[str, bool]]:
    """The platform's own modules `path` imports, each with whether a sys.platform test guards it."""
    tree = parsed(path)
    guarded: set[int] = set()
    for node in walked(tree):
        if isinstance(node, ast.If) and "sys.platform" in ast.unparse(node.test):
            guarded.update(id(inner) for inner in walked(node))
    for node in walked(tree):
        names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                 else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
        for name in names:
            if name in PLATFORM_MODULES:
                yield name, id(node) in guarded


def test_no_module_imports_a_platforms_own_modules_outside_its_side_of_a_seam() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE).as_posix()
        for name, guarded in platform_imports(path):
            if not guarded and where not in POSIX_SIDE:
                found.append(f"{where}: {name}")
    assert found == []


def test_a_table_is_hosted_only_where_its_seats_can_be_waited_on_and_ctrl_break_stops_the_game() -> None:
    from yahtzee.app import can_host, stop_signal_names
    assert not can_host("win32") and can_host("linux") and can_host("darwin")
    fake = FakeWindows()
    console, _ = windows_console(fake)
    assert "SIGBREAK" in stop_signal_names(console) and "SIGINT" in stop_signal_names(console)


def test_closing_the_console_window_stops_the_game_and_waits_for_its_save() -> None:
    from yahtzee.consoles.winkeys import CLOSE_EVENTS, watch_console_close
    fake = FakeWindows()
    console, _ = windows_console(fake)
    handlers: list[Callable[[int], bool]] = []
    watch = watch_console_close(lambda: console.request_stop(getattr(signal, "SIGBREAK", signal.SIGTERM)),
                                register=handlers.append)
    assert handlers == [watch.handle] and watch.handle(0) is False  # Ctrl-C: the key does it
    answered = []
    closing = threading.Thread(target=lambda: answered.append(watch.handle(CLOSE_EVENTS[0])))
    closing.start()  # as Windows calls the handler: in a thread of its own
    with pytest.raises(StopRequested):
        console.read_key("a question")  # the game stops at once...
    time.sleep(0.2)
    assert answered == []  # ...and Windows is held back until the game is saved
    watch.saved.set()
    closing.join(2)
    assert answered == [True]


def test_the_reader_of_windows_own_calls_reads_wakes_and_lets_a_lone_esc_go_and_elsewhere_is_refused() -> None:
    from yahtzee.consoles.terminalio import window_size
    from yahtzee.consoles.winkeys import windows_reader
    if sys.platform != "win32":
        with pytest.raises(OSError):
            windows_reader(ConsoleInput(), window_size)
        return
    else:  # (else: mypy checks it as Windows code only)
        from prompt_toolkit.input.win32_pipe import Win32PipeInput  # keys as the console's events would come
        with Win32PipeInput.create() as pipe:
            reader = windows_reader(pipe, window_size)  # WaitForMultipleObjects, CreateEvent, SetEvent, ResetEvent
            pipe.send_text("a")
            assert there(reader.next_press()).key == "a"
            started = time.monotonic()
            assert reader.press_within(0.3) is None and time.monotonic() - started >= 0.25
            reader.wake()
            assert reader.next_press() is None
            pipe.send_text("\x1b")  # held by the parser until a wait runs out
            assert there(reader.next_press()).key == Keys.Escape
