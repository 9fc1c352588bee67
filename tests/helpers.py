"""Shared test helpers: scripted consoles and loaded games."""
import io
import os

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from yahtzee.console import KeyConsole, PlainConsole
from yahtzee.dice import LoadedDice, SeededDice
from yahtzee.game import Session
from yahtzee.palette import strip_ansi

FULL_SIZE = os.terminal_size((80, 24))


class KeyScript:
    """A KeyConsole fed from a prompt_toolkit pipe, remembering every screen it drew."""

    def __init__(self, keys, size=FULL_SIZE, more_to_come=False):
        self._pipe = create_pipe_input()
        self.pipe = self._pipe.__enter__()
        self.pipe.send_text(keys)
        if not more_to_come:
            self.pipe.pipe.close_write()  # a script that runs out ends the input, never hangs
        self.console = KeyConsole(input=self.pipe, output=DummyOutput(), terminal_size=lambda: size,
                                  sleep=lambda seconds: None)
        self.screens = []
        self.messages = []
        show, message = self.console.show, self.console.message
        self.console.show = lambda lines, brief=None: (self.screens.append(
            [strip_ansi(l) for l in lines]), show(lines, brief))
        self.console.message = lambda text: (self.messages.append(text), message(text))

    def close(self):
        self.console.reader.close()
        self._pipe.__exit__(None, None, None)


def plain_console(lines):
    """A PlainConsole reading the given lines; its output is in console.stdout."""
    return PlainConsole(io.StringIO("".join(line + "\n" for line in lines)), io.StringIO())


def loaded_session(faces, seed=0, **options):
    """A session whose dice come from `faces`, then from a seed."""
    return Session([], source=LoadedDice(faces, SeededDice(seed)), **options)
