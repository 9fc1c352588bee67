"""What a key console reads and writes: the source of its key bytes, this platform's reader of
its key presses (the seam between POSIX and Windows), the sink of its screens, and the size of
the terminal window."""
import contextlib
import os
import shutil
import sys
from typing import TYPE_CHECKING, Optional, Protocol

from ..present.render import SCREEN_HEIGHT, SCREEN_WIDTH
from .winkeys import windows_reader

if TYPE_CHECKING:  # prompt_toolkit loads only for key mode
    from prompt_toolkit.key_binding import KeyPress


def window_size() -> os.terminal_size:
    """The terminal window's size as it is now (COLUMNS and LINES in the environment may be
    stale; the terminal itself is asked first; a terminal that says 0, as one whose size was
    never set does, counts as not saying)."""
    for stream in (sys.stdout, sys.stdin):
        try:
            size = os.get_terminal_size(stream.fileno())
        except (OSError, ValueError, AttributeError):
            continue
        if size.columns > 0 and size.lines > 0:
            return size
    return shutil.get_terminal_size((SCREEN_WIDTH, SCREEN_HEIGHT))


class KeySource(Protocol):
    """Where a console's key bytes come from: a terminal (prompt_toolkit's Input) or a pipe."""

    def fileno(self) -> int: ...

    def raw_mode(self) -> contextlib.AbstractContextManager[None]: ...


class PressReader(Protocol):
    """The seam between platforms: where a console's key presses come from, for the whole game.
    POSIX reads the terminal's descriptor through a VT100 parser (yahtzee.consoles.keyreader); Windows
    reads the console's own key events (yahtzee.consoles.winkeys)."""

    @property
    def wake_fd(self) -> Optional[int]:
        """A pipe a signal may write to, to end a wait (None where there is none: Windows)."""

    def next_press(self) -> "KeyPress | None":
        """The next key press; None when the wait was woken (a resize, a stop request)."""

    def has_press(self, timeout: float) -> bool:
        """Whether a key press comes within `timeout` seconds (or the wait is woken)."""

    def press_within(self, timeout: float) -> "KeyPress | None":
        """The next key press if one comes within `timeout` seconds."""

    def poll(self) -> "KeyPress | None":
        """A key press waiting now, without waiting."""

    def wake(self) -> None:
        """End the wait under way (from another thread or a signal handler)."""

    def close(self) -> None:
        """Let go of what the reader holds."""


def reader_for(source: KeySource) -> PressReader:
    """This platform's reader of the keys from `source`."""
    if sys.platform == "win32":
        return windows_reader(source, window_size)
    from .keyreader import KeyReader  # POSIX's own modules: termios, fcntl
    return KeyReader(source.fileno())


class ScreenSink(Protocol):
    """Where a console's screens go: a terminal (prompt_toolkit's Output) or a network seat."""

    def write_raw(self, data: str) -> None: ...

    def flush(self) -> None: ...

    def encoding(self) -> str: ...
