"""A player that answers every plain-mode prompt from what it sees: a game that can be
killed and resumed at any moment and still be played the same way to its end."""
from __future__ import annotations  # (X | None in annotations, on Python 3.9)

import re
from pathlib import Path

from helpers import WAIT_SECONDS
from terminal import Terminal

PROMPT = re.compile(r"([^\n]*)> $")
NAMES = {"Player 1 name: ": "ANN", "Player 2 name: ": "BOB", "Player 3 name: ": "*"}


def answer(prompt: str, shown: str) -> str:
    """The line this player types at `prompt`, having seen `shown` since the last one."""
    if prompt in NAMES:
        return NAMES[prompt]
    if prompt.startswith("Player "):
        return ""
    if prompt.startswith("Roll "):
        marks = re.findall(r"marked: (none|die)", shown)
        marked = marks[-1].strip() if marks else "none"
        if marked != "none":
            return "r"
        return "12" if prompt.startswith("Roll 1 of") else "r"
    if prompt.startswith("Post where? "):
        return prompt[len("Post where? "):].split()[0].rstrip(",")
    if prompt.startswith(("Another game?", "Add players?")):
        return "n"
    if prompt.endswith("(Y/N)"):
        return "y" if not prompt.startswith("Instructions?") else "n"
    return ""


class PlainPlayer:
    """A player at a terminal (terminal.Terminal) where the game runs in plain mode, answering
    each prompt by `answer`."""

    def __init__(self, saves: Path, *args: str) -> None:
        self.term = Terminal("--plain", "--saves", str(saves), *args, echo=False)

    @property
    def transcript(self) -> str:
        """Everything the game has written so far."""
        return self.term.transcript

    def step(self, timeout: float = WAIT_SECONDS) -> bool:
        """Answer the next prompt; False once the game has ended."""
        match = self.term.expect(PROMPT, timeout)
        if match is None:
            return False
        self.term.type_line(answer(match.group(1), self.term.before(match)))
        return True

    def play(self, steps: int | None = None) -> bool:
        """Answer prompts until the end, or `steps` of them; True if the game ended."""
        count = 0
        while steps is None or count < steps:
            if not self.step():
                return True
            count += 1
        return False

    def exit_code(self) -> int | None:
        """Wait for the end; the exit status."""
        return self.term.exit_code()
