"""The Windows side of the key seam: the console's own key events through prompt_toolkit's
Win32Input, a wait on the console's input handle and on an event that wakes it, and the
window's size looked at while waiting (Windows sends no SIGWINCH). The POSIX side, a
descriptor through a VT100 parser, is yahtzee.consoles.keyreader; above the seam all is shared.

The reader is given the Windows calls it makes (WindowsCalls), so that a faithful fake drives
it on any system (tests/test_windows_keys.py); `windows_reader` makes the real ones, and
imports prompt_toolkit's Windows modules, only on win32.

The console's input handle is signalled by every record in its buffer, and most are no key: a
key's release, a focus or menu event, a mouse move (which prompt_toolkit turns into a mouse
"key"). A wait that wakes to such a record waits on for the rest of its time."""
import collections
import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional

from .stops import InputClosed

if TYPE_CHECKING:
    from prompt_toolkit.key_binding import KeyPress

SIZE_POLL_SECONDS = 0.25  # how often a wait looks whether the window was resized
WAIT_TIMEOUT, WAIT_FAILED = 0x102, 0xFFFFFFFF  # WaitForMultipleObjects' answers besides a handle's index
# prompt_toolkit's Keys (str values: this module loads no prompt_toolkit, as plain mode needs none)
NO_KEYS = {"<windows-mouse-event>", "<cursor-position-response>", "<ignore>"}  # presses that are no key of the game's
PASTE, ENTER = "<bracketed-paste>", "c-m"


@dataclass(frozen=True)
class WindowsCalls:
    """What the reader asks of Windows: the key presses among the records waiting (never
    blocking; records that are no key give none), those held for a timeout (a lone Esc),
    WaitForMultipleObjects on handles for some seconds (the index of the first one signalled,
    WAIT_TIMEOUT or WAIT_FAILED), the console's input handle and the wake-up event with its
    two switches, and the window's size."""

    read_keys: Callable[[], "list[KeyPress]"]
    flush_keys: Callable[[], "list[KeyPress]"]
    wait: Callable[[list[Any], float], int]
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
        is waiting (or the wait is woken), False when the time ran out (records that are no
        key do not end it)."""
        deadline = time.monotonic() + max(0.0, timeout)
        while not self.presses:
            if self._wait(max(0.0, deadline - time.monotonic())):
                return True
            if time.monotonic() >= deadline:
                return bool(self.presses)
        return True

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
        """Wait for records or the wake-up event; whether the wait was woken (keys read are
        queued). A failed wait (the console is gone) ends the input."""
        handles = [self.calls.input_handle, self.calls.wake_event]
        ready = self.calls.wait(handles, timeout)
        if ready == 1:
            self.calls.reset_event(self.calls.wake_event)
            return True
        if ready not in (0, WAIT_TIMEOUT):
            raise InputClosed("the console is gone")
        self.presses.extend(game_keys(self._read(self.calls.read_keys if ready == 0 else self.calls.flush_keys)))
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


def game_keys(presses: "list[KeyPress]") -> "list[KeyPress]":
    """The presses that are keys of the game's: no mouse, and a paste (which the Windows
    reader makes of a quick burst of characters) as the keys typed."""
    found = []
    for press in presses:
        if press.key == PASTE:
            typed, named = type(press), type(press.key)  # prompt_toolkit's KeyPress and Keys
            found += [typed(named(ENTER), "\r") if char in "\r\n" else typed(char, char)
                      for char in press.data.replace("\r\n", "\r")]
        elif press.key not in NO_KEYS:
            found.append(press)
    return found


CLOSE_EVENTS = (2, 5, 6)  # CTRL_CLOSE_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT
CLOSE_WAIT_SECONDS = 4.5  # Windows ends the process 5 s after a close event: the save comes first


class CloseWatch:
    """Closing the console window (or logging off) saves the game: the close event, which
    Windows hands to a thread of its own, asks the game to stop and ends a read under way in
    the game's thread (plain mode waits in one), then waits until the game says it is saved
    (Windows ends the process as soon as the handler returns)."""

    def __init__(self, stop: Callable[[], None], end_read: Callable[[], None]) -> None:
        self.stop = stop
        self.end_read = end_read
        self.saved = threading.Event()

    def handle(self, event: int) -> bool:
        """The console's control handler: True when the event was ours to handle."""
        if event not in CLOSE_EVENTS:
            return False  # Ctrl-C and Ctrl-Break: the key and SIGBREAK do
        with contextlib.suppress(BaseException):  # a stop is the game's thread's to raise, never Windows' thread's
            self.stop()
        with contextlib.suppress(OSError):
            self.end_read()
        self.saved.wait(CLOSE_WAIT_SECONDS)
        return True


def watch_console_close(stop: Callable[[], None], register: Optional[Callable[[Callable[[int], bool]], None]] = None,
                        end_read: Optional[Callable[[], None]] = None) -> CloseWatch:
    """Closing the window calls `stop`, ends the game's thread's read (`end_read`) and waits
    for `CloseWatch.saved` (`register` installs the handler: SetConsoleCtrlHandler on
    Windows, a fake in tests, nothing elsewhere; `end_read` cancels the main thread's read
    on Windows)."""
    if register is None and sys.platform == "win32":
        register, end_read = register_console_handler, end_read or cancel_main_thread_read
    watch = CloseWatch(stop, end_read or (lambda: None))
    if register is not None:
        register(watch.handle)
    return watch


def console_takes_ansi() -> bool:
    """Whether this console draws the ANSI sequences key mode writes (colours, cursor moves),
    asked to where it can: every console since Windows 10 does once asked; an older one (or one
    set to "use legacy console") cannot. Elsewhere a terminal always does."""
    if sys.platform == "win32":
        return enable_virtual_terminal()
    return True


def windows_reader(source: object, size: "Callable[[], os.terminal_size]") -> WindowsKeyReader:
    """The reader of the Windows console whose prompt_toolkit input is `source` (a Win32Input,
    or a Win32PipeInput as tests feed keys), looking at the window's `size` as it waits
    (keymode.window_size: the console itself, not COLUMNS and LINES, which do not change as
    the window does)."""
    if sys.platform == "win32":
        return console_reader(source, size)
    raise OSError("the Windows console reader runs only on Windows")


if sys.platform == "win32":  # Windows' own: mypy reads it under --platform win32 (as CI runs it)
    import ctypes
    from ctypes import windll, wintypes

    HANDLERS: list[Any] = []  # kept alive as long as Windows may call them

    def register_console_handler(handle: Callable[[int], bool]) -> None:
        """Install `handle` as a console control handler."""
        # Windows reads a 32-bit BOOL back: a one-byte c_bool leaves three bytes of whatever
        # was there, and a False may read as TRUE.
        routine = ctypes.WINFUNCTYPE(wintypes.BOOL, wintypes.DWORD)(handle)
        HANDLERS.append(routine)
        windll.kernel32.SetConsoleCtrlHandler(routine, True)

    # WaitForMultipleObjects as Windows declares it: its DWORD answer read whole (prompt_toolkit's
    # wait_for_handles reads WAIT_FAILED as -1, the last handle: a dead console looked like a wake-up).
    WAIT_FOR_HANDLES = ctypes.WINFUNCTYPE(wintypes.DWORD, wintypes.DWORD, ctypes.POINTER(wintypes.HANDLE),
                                          wintypes.BOOL, wintypes.DWORD)(("WaitForMultipleObjects", windll.kernel32))

    THREAD_TERMINATE = 0x0001  # the access CancelSynchronousIo needs
    STD_OUTPUT_HANDLE, ENABLE_VIRTUAL_TERMINAL_PROCESSING = -11, 0x0004

    def enable_virtual_terminal() -> bool:
        """Ask the console behind standard output to draw ANSI sequences; whether it does."""
        kernel32 = windll.kernel32
        handle = wintypes.HANDLE(kernel32.GetStdHandle(STD_OUTPUT_HANDLE))
        mode = wintypes.DWORD()
        if not kernel32.GetConsoleMode(handle, ctypes.byref(mode)):
            return False
        wanted = mode.value | ENABLE_VIRTUAL_TERMINAL_PROCESSING
        return mode.value == wanted or bool(kernel32.SetConsoleMode(handle, wanted))

    def cancel_main_thread_read() -> None:
        """End the console read the main thread is blocked in (it fails: the operation was aborted)."""
        kernel32 = windll.kernel32
        thread = kernel32.OpenThread(THREAD_TERMINATE, False, threading.main_thread().native_id)
        if not thread:
            raise ctypes.WinError()
        try:
            kernel32.CancelSynchronousIo(wintypes.HANDLE(thread))
        finally:
            kernel32.CloseHandle(wintypes.HANDLE(thread))

    def console_reader(source: object, window: "Callable[[], os.terminal_size]") -> WindowsKeyReader:
        """The reader made of the real Windows calls."""
        from prompt_toolkit.eventloop.win32 import create_win32_event
        from prompt_toolkit.input import win32, win32_pipe
        assert isinstance(source, (win32.Win32Input, win32_pipe.Win32PipeInput))  # the console's, or a test's pipe

        def wait(handles: list[Any], timeout: float) -> int:
            array = (wintypes.HANDLE * len(handles))(*handles)
            return int(WAIT_FOR_HANDLES(len(handles), array, False, round(timeout * 1000)))

        def size() -> tuple[int, int]:
            columns, lines = window()
            return columns, lines

        return WindowsKeyReader(WindowsCalls(
            read_keys=source.read_keys, flush_keys=source.flush_keys, wait=wait, input_handle=source.handle,
            wake_event=create_win32_event(), set_event=windll.kernel32.SetEvent,
            reset_event=windll.kernel32.ResetEvent, size=size))
