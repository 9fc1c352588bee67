"""A player that answers every plain-mode prompt from what it sees: a game that can be
killed and resumed at any moment and still be played the same way to its end."""
from __future__ import annotations  # (pexpect.spawn, in annotations, is POSIX's only)

import os
import re
from pathlib import Path

import pexpect
from forkserver import spawn_game
from helpers import WAIT_SECONDS

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
    """The game in plain mode inside a pseudo-terminal, answered by `answer`."""

    def __init__(self, saves: Path, *args: str) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "PROMPT_TOOLKIT_NO_CPR": "1"}
        self.child = spawn_game(["--plain", "--saves", str(saves), *args], env, echo=False,
                                encoding="utf-8", codec_errors="replace")
        self.child.delaybeforesend = None  # pexpect's default 50 ms pause before each send
        self.transcript = ""

    def step(self, timeout: float = WAIT_SECONDS) -> bool:
        """Answer the next prompt; False once the game has ended."""
        index = self.child.expect([PROMPT, pexpect.EOF], timeout=timeout)
        shown = self.child.before or ""
        if index == 1:
            self.transcript += shown
            return False
        match, after = self.child.match, self.child.after
        assert isinstance(match, re.Match) and isinstance(after, str)  # the prompt, matched
        self.transcript += shown + after
        self.child.sendline(answer(match.group(1), shown))
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
        self.child.expect(pexpect.EOF, timeout=WAIT_SECONDS)
        self.child.close()
        return self.child.exitstatus
