"""The Windows side of the key seam: the console's own key events through prompt_toolkit's
Win32Input, a wait on the console's input handle and on an event that wakes it, and the
window's size looked at while waiting (Windows sends no SIGWINCH). The POSIX side, a
descriptor through a VT100 parser, is yahtzee.consoles.keyreader; above the seam all is shared.

The reader is given the Windows calls it makes (WindowsCalls), so that a faithful fake drives
it on any system (tests/test_windows_keys.py); `windows_reader` makes the real ones, and
imports prompt_toolkit's Windows modules, only on win32."""
import collections
import contextlib
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional

from .stops import InputClosed

if TYPE_CHECKING:
    from prompt_toolkit.key_binding import KeyPress

SIZE_POLL_SECONDS = 0.25  # how often a wait looks whether the window was resized


@dataclass(frozen=True)
class WindowsCalls:
    """What the reader asks of Windows: the key presses waiting (never blocking), those held
    for a timeout (a lone Esc), a wait on handles (which one is ready, or None when the time
    ran out), the console's input handle and the wake-up event with its two switches, and
    the window's size."""

    read_keys: Callable[[], "list[KeyPress]"]
    flush_keys: Callable[[], "list[KeyPress]"]
    wait: Callable[[list[Any], float], Any]
    input_handle: Any
    wake_event: Any
    set_event: Callable[[Any], None]
    reset_event: Callable[[Any], None]
    size: Callable[[], tuple[int, int]]


class WindowsKeyReader:
    """Key presses from the Windows console for the whole game, so keys typed ahead are never lost."""

    wake_fd = None  # no pipe for a signal to write to: a stop request sets the event itself

    def __init__(self, calls: WindowsCalls) -> None:
        self.calls = calls
        self.presses: collections.deque[KeyPress] = collections.deque()
        self._size = calls.size()

    def close(self) -> None:
        """Nothing to let go: the console's handles are the process's."""

    def wake(self) -> None:
        """End the wait under way (from another thread or a signal handler)."""
        self.calls.set_event(self.calls.wake_event)

    def next_press(self) -> "KeyPress | None":
        """The next key press; None when woken (a resize, a stop request) before one came."""
        while not self.presses:
            if self._wait(SIZE_POLL_SECONDS) or self._resized():
                return None if not self.presses else self.presses.popleft()
        return self.presses.popleft()

    def has_press(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for a key press without taking it: True as soon as one
        is waiting (or the wait is woken), False when the time ran out."""
        if self.presses:
            return True
        return self._wait(max(0.0, timeout)) or bool(self.presses)

    def press_within(self, timeout: float) -> "KeyPress | None":
        """The next key press if one comes within `timeout` seconds, else None."""
        if not self.presses:
            self.has_press(timeout)
        return self.presses.popleft() if self.presses else None

    def poll(self) -> "KeyPress | None":
        """A key press waiting now, or None, without waiting."""
        return self.press_within(0)

    def discard(self) -> None:
        """Forget every key read but not yet taken."""
        self.presses.clear()

    def _wait(self, timeout: float) -> bool:
        """Wait for keys or the wake-up event; whether the wait was woken (keys read are queued)."""
        ready = self.calls.wait([self.calls.input_handle, self.calls.wake_event], timeout)
        if ready is self.calls.wake_event:
            self.calls.reset_event(self.calls.wake_event)
            return True
        self.presses.extend(self._read(self.calls.read_keys if ready is not None else self.calls.flush_keys))
        return False

    def _read(self, read: "Callable[[], list[KeyPress]]") -> "list[KeyPress]":
        """The presses a Windows call gives; a console that is gone ends the input."""
        try:
            return read()
        except (OSError, EOFError):
            raise InputClosed("the console is gone") from None

    def _resized(self) -> bool:
        """Whether the window changed size since the last look (the wait ends for a redraw)."""
        size = self.calls.size()
        changed, self._size = size != self._size, size
        return changed


CLOSE_EVENTS = (2, 5, 6)  # CTRL_CLOSE_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT
CLOSE_WAIT_SECONDS = 4.5  # Windows ends the process 5 s after a close event: the save comes first


class CloseWatch:
    """Closing the console window (or logging off) saves the game: the close event, which
    Windows hands to a thread of its own, asks the game to stop, then waits until the game
    says it is saved (Windows ends the process as soon as the handler returns)."""

    def __init__(self, stop: Callable[[], None]) -> None:
        self.stop = stop
        self.saved = threading.Event()

    def handle(self, event: int) -> bool:
        """The console's control handler: True when the event was ours to handle."""
        if event not in CLOSE_EVENTS:
            return False  # Ctrl-C and Ctrl-Break: the key and SIGBREAK do
        with contextlib.suppress(Exception):  # a console that stops by raising does it in its own thread
            self.stop()
        self.saved.wait(CLOSE_WAIT_SECONDS)
        return True


def watch_console_close(stop: Callable[[], None], register: Optional[Callable[[Callable[[int], bool]], None]] = None
                        ) -> CloseWatch:
    """Closing the window calls `stop` and waits for `CloseWatch.saved` (`register` installs
    the handler: SetConsoleCtrlHandler on Windows, a fake in tests, nothing elsewhere)."""
    watch = CloseWatch(stop)
    if register is not None:
        register(watch.handle)
    elif sys.platform == "win32":
        register_console_handler(watch.handle)
    return watch


def windows_reader(source: object) -> WindowsKeyReader:
    """The reader of the Windows console whose prompt_toolkit input is `source` (a Win32Input,
    or a Win32PipeInput as tests feed keys)."""
    if sys.platform == "win32":
        return console_reader(source)
    raise OSError("the Windows console reader runs only on Windows")


if sys.platform == "win32":  # Windows' own: mypy reads it under --platform win32 (as CI runs it)
    import ctypes
    import shutil
    from ctypes import windll

    HANDLERS: list[Any] = []  # kept alive as long as Windows may call them

    def register_console_handler(handle: Callable[[int], bool]) -> None:
        """Install `handle` as a console control handler."""
        routine = ctypes.WINFUNCTYPE(ctypes.c_bool, ctypes.c_uint)(handle)
        HANDLERS.append(routine)
        windll.kernel32.SetConsoleCtrlHandler(routine, True)

    def console_reader(source: object) -> WindowsKeyReader:
        """The reader made of the real Windows calls."""
        from prompt_toolkit.eventloop.win32 import create_win32_event, wait_for_handles
        from prompt_toolkit.input import win32, win32_pipe
        assert isinstance(source, (win32.Win32Input, win32_pipe.Win32PipeInput))  # the console's, or a test's pipe

        def wait(handles: list[Any], timeout: float) -> Any:
            return wait_for_handles(handles, round(timeout * 1000))

        def size() -> tuple[int, int]:
            columns, lines = shutil.get_terminal_size()
            return columns, lines

        return WindowsKeyReader(WindowsCalls(
            read_keys=source.read_keys, flush_keys=source.flush_keys, wait=wait, input_handle=source.handle,
            wake_event=create_win32_event(), set_event=windll.kernel32.SetEvent,
            reset_event=windll.kernel32.ResetEvent, size=size))
