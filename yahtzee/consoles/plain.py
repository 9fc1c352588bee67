"""The door to a terminal, a pipe or a dumb terminal in plain mode: one command a line, no
colours, no cursor movement (key mode is yahtzee.consoles.keymode)."""
import collections
import contextlib
import shutil
import sys
import threading
from collections.abc import Iterable, Iterator
from typing import Optional, TextIO, Union

from ..model.words import Text
from ..present.keys import HOT_KEYS, PLAIN_WORDS, Key
from ..present.look import Drawing, Frame, Presentation, Screenful, drawn
from ..present.palette import BELL, wrapped_lines
from ..present.render import SCREEN_HEIGHT, SCREEN_WIDTH
from ..speech.languages import current, speaking, text
from .stops import InputClosed, StopRequested


class PlainConsole(Drawing):
    """One command a line, no colours, no cursor movement: for scripts, pipes and dumb terminals."""

    presentation = Presentation.LINES
    reads_lines = True
    flashes = False

    def __init__(self, stdin: Optional[TextIO] = None, stdout: Optional[TextIO] = None, ring: bool = False,
                 language: Optional[str] = None) -> None:
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        # Bytes the encoding lacks never stop the game; what is typed is read as UTF-8 whatever
        # the locale says (under the C locale a piped "Zoë" stays Zoë).
        if hasattr(self.stdin, "reconfigure"):
            self.stdin.reconfigure(encoding="utf-8", errors="replace")
        if hasattr(self.stdout, "reconfigure"):
            self.stdout.reconfigure(errors="replace")
        self.unicode = False
        self.ring = ring
        self.language = language or current()  # the language of the context that made it, unless told
        # Lines break between words at the terminal's width; a pipe has none: there every
        # record is one line, however long (a reader or a script wraps it, never the game).
        self.width: Optional[int] = (shutil.get_terminal_size((SCREEN_WIDTH, SCREEN_HEIGHT)).columns
                                     if hasattr(self.stdout, "isatty") and self.stdout.isatty() else None)
        self.stop: Optional[int] = None
        self._reading = False
        self._arrived: collections.deque[Text] = collections.deque()  # messages from other threads, not yet shown

    def request_stop(self, signum: int) -> None:
        """From a signal handler: stop now if waiting for a line, else before the next read.
        From another thread (Windows closing the console), only asked: the game's thread stops
        when its read ends (see winkeys.CloseWatch)."""
        self.stop = signum
        if self._reading and threading.current_thread() is threading.main_thread():
            raise StopRequested(signum)

    @contextlib.contextmanager
    def running(self) -> Iterator["PlainConsole"]:
        """Nothing to set up for lines."""
        yield self

    def _write(self, text: str) -> None:
        try:
            self.stdout.write(text)
            self.stdout.flush()
        except OSError:
            raise InputClosed("the output is gone") from None

    def _fitted(self, lines: Iterable[str]) -> list[str]:
        """Lines broken between words at the terminal's width; into a pipe, each kept whole."""
        if self.width is None:
            return [line.rstrip() for line in lines]
        return wrapped_lines(lines, self.width)

    def show(self, screen: Screenful, brief: Optional[Iterable[Text]] = None) -> None:
        """Print a screen, or its brief form when it has one."""
        with speaking(self.language):
            shown = drawn(screen, self.look) if brief is None else [
                part for line in brief for part in text(line).split("\n")]
        self._write("".join(line + "\n" for line in self._fitted(shown)))

    def message(self, said: Text) -> None:
        """A message for the player."""
        self._write("".join(line + "\n" for line in self._fitted([self.words(said)])))

    def remind(self, said: Text) -> None:
        """A message about the question being asked: printed like any other."""
        self.message(said)

    def message_from_thread(self, said: Text) -> None:
        """A message from work in the background: printed before the next prompt."""
        self._arrived.append(said)

    def show_arrived(self) -> None:
        """Show the messages from other threads that came since the last look."""
        while self._arrived:
            self.message(self._arrived.popleft())

    def forget_messages(self) -> None:
        """Printed messages stay where they are: nothing to forget."""

    def status(self, said: Text) -> None:
        """A passing line (a progress bar): printed like a message."""
        self.message(said)

    def _read_line(self, said: Text) -> Union[str, Key]:
        self.show_arrived()
        prompt = self.words(said)
        *above, last = self._fitted([f"{prompt}>" if prompt else ">"])
        self._write("".join(line + "\n" for line in above) + last + " ")
        if self.stop:
            raise StopRequested(self.stop)
        self._reading = True
        try:
            line = self.stdin.readline()
        except OSError:
            if self.stop:  # the read was ended to stop (a closed console)
                raise StopRequested(self.stop) from None
            raise InputClosed("the input is gone") from None
        except KeyboardInterrupt:
            self._write("\n")
            return Key.QUIT  # Ctrl-C asks to quit, as F10 does
        finally:
            self._reading = False
        if self.stop:
            raise StopRequested(self.stop)
        if not line:
            self._write("\n")
            raise InputClosed("end of input")
        return line.strip()

    def read_key(self, prompt: Text = "") -> str:
        """One input line as a token: a key's word presses it (an empty line is Enter); any
        other line is itself, lower-cased."""
        line = self._read_line(prompt)
        return line if isinstance(line, Key) else PLAIN_WORDS.get(line.lower(), line.lower())

    def read_text(self, prompt: Text, default: str = "", limit: Optional[int] = None,
                  unlimited: str = "") -> tuple[Optional[str], str]:
        """A line of free text; returns (hot key or None, text). A longer line is the screens' to cut."""
        line = self._read_line(prompt)
        hot = line if isinstance(line, Key) else PLAIN_WORDS.get(line.lower())
        return (hot, "") if hot in HOT_KEYS else (None, line)

    def bell(self, count: int = 1) -> None:
        """Ring only when the output is a terminal that can hear it."""
        if self.ring:
            self._write(BELL * count)

    def pause(self, seconds: float) -> Optional[str]:
        """Plain mode never waits (and reads no key for it)."""
        return None

    def animate(self, frames: Iterable[Frame], seconds_per_frame: float) -> bool:
        """Plain mode never animates: the dice are said once they settle."""
        return True

    def typed_ahead(self) -> list[str]:
        """Plain mode reads every line in order: nothing is typed ahead of a question."""
        return []
