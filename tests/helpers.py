"""Shared test helpers: scripted consoles and loaded games."""
import io
import os

import pyte
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from yahtzee.console import KeyConsole, PlainConsole
from yahtzee.dice import LoadedDice, SeededDice
from yahtzee.palette import strip_ansi
from yahtzee.session import Session

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
        self.console.show = lambda lines, brief=None: (self.screens.append(
            [strip_ansi(line) for line in lines]), show(lines, brief))
        self.console.message = lambda text: (self.messages.append(text), message(text))
        self.console.remind = lambda text: (self.messages.append(text), remind(text))

    def _watch(self, name):
        """Keep what the terminal shows when the console's `name` read is waiting for a key."""
        read, next_press = getattr(self.console, name), self.console._next_press

        def first_press():
            self.console._next_press = next_press
            self.seen.append(self.output.text())
            return next_press()

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
