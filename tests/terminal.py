"""A real pseudo-terminal for whole-game tests: the game runs in it (forked with its modules
loaded, see forkserver, or started afresh), pexpect reads and types, pyte draws its screen; in
plain mode, its lines are read as a transcript too."""
from __future__ import annotations  # (pexpect.spawn, in annotations, is POSIX's only)

import codecs
import contextlib
import json
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pexpect
import pyte
from forkserver import ForkedGame, close_window, ended_with, has_ended, spawn, spawn_game
from helpers import WAIT_SECONDS, FastScreen, screen_lines, wait_until
from keycodes import KEYS


def still_dice(args: tuple[str, ...], speed: str) -> None:
    """A new saves folder (--saves DIR) starts with the dice tumbling at `speed`."""
    if "--saves" not in args:
        return
    prefs = Path(args[args.index("--saves") + 1]) / "prefs.json"
    if not prefs.exists():
        prefs.parent.mkdir(parents=True, exist_ok=True)
        prefs.write_text(json.dumps({"version": 1, "dice_roll": speed}))


class Terminal:
    """The game in an 80x24 pseudo-terminal, its output kept raw and as a screen."""

    def __init__(
            self, *args: str, env: Mapping[str, str] | None = None, columns: int = 80, lines: int = 24,
            stderr: Path | None = None, dice_roll: str = "off", program: Sequence[str] | None = None,
            fresh: bool = False, echo: bool = True) -> None:
        """`dice_roll`: the tumbling dice's speed, written to a saves folder that has no
        prefs.json yet (off by default, so whole games run at the speed keys are sent);
        `program`: another command than the game (an ssh client joining it); `fresh`: the
        game started by a new interpreter, not forked with its modules loaded (forkserver);
        `echo`: whether the terminal echoes what is typed (off: a plain-mode transcript holds
        only what the game wrote)."""
        still_dice(args, dice_roll)
        environment = {**os.environ, "PROMPT_TOOLKIT_NO_CPR": "1", "TERM": "xterm",
                       "PYTHONUNBUFFERED": "1"}
        for stale in ("NO_COLOR", "COLUMNS", "LINES"):
            environment.pop(stale, None)
        environment.update(env or {})  # a test's own NO_COLOR stays
        self.child: ForkedGame | pexpect.spawn
        if program:  # the game's stderr to a file, so it outlives the terminal
            self.child = spawn(program, environment, lines, columns, echo, stderr=stderr)
        else:
            self.child = spawn_game(args, environment, lines, columns, echo, stderr=stderr, fresh=fresh)
        self.child.delaybeforesend = None  # pexpect's default 50 ms pause before each send
        self._screen = FastScreen(columns, lines)
        self.stream = pyte.ByteStream(self._screen)
        self.raw = b""
        self._undrawn: list[bytes] = []  # output taken in but not yet drawn: a screen is drawn only when read
        self._text: str | None = None  # the screen as text, until more output is drawn
        # other terminals of the same game, read while this one waits: as their windows would be
        self.partners: list[Terminal] = []
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._decoded = 0  # how much of raw is in the transcript
        self._transcript = ""
        self._matched = 0  # how much of the transcript expect has gone past

    def pump(self, timeout: float | int = 0.05) -> None:
        """Take in what the game has written so far."""
        try:
            data = self.child.read_nonblocking(65536, timeout)
        except pexpect.TIMEOUT:
            return
        self.raw += data
        self._undrawn.append(data)

    @property
    def screen(self) -> FastScreen:
        """The pyte screen, with everything taken in drawn on it."""
        if self._undrawn:
            self.stream.feed(b"".join(self._undrawn))
            self._undrawn.clear()
            self._text = None
        return self._screen

    @property
    def text(self) -> str:
        """The screen as it stands, one string."""
        screen = self.screen
        if self._text is None:
            self._text = "\n".join(screen_lines(screen))
        return self._text

    def wait_for(self, words: str, timeout: int = WAIT_SECONDS) -> str:
        """Pump until the screen shows `words`; fail with the screen if it never does."""
        def shown() -> Any:
            if words in self.text:
                return True
            try:
                self.pump()
            except pexpect.EOF:
                raise AssertionError(f"the game ended before {words!r}:\n{self.text}") from None
            for partner in self.partners:
                if not partner.child.closed:
                    with contextlib.suppress(pexpect.EOF):
                        partner.pump(0)
            return False
        wait_until(shown, timeout, poll=0, failure=lambda: f"never saw {words!r} on:\n{self.text}")
        return self.text

    @property
    def transcript(self) -> str:
        """Everything the game has written so far, as text (a plain-mode game's lines)."""
        if self._decoded < len(self.raw):
            self._transcript += self._decoder.decode(self.raw[self._decoded:])
            self._decoded = len(self.raw)
        return self._transcript

    def expect(self, pattern: re.Pattern[str], timeout: float = WAIT_SECONDS) -> re.Match[str] | None:
        """Pump until the transcript after the last match matches `pattern` (a plain-mode prompt):
        the match, the next one looked for after it; None if the game ended first."""
        def matched() -> Any:
            match = pattern.search(self.transcript, self._matched)
            if match is not None:
                return match
            try:
                self.pump()
            except pexpect.EOF:
                return pattern.search(self.transcript, self._matched) or "ended"
            return None
        found = wait_until(matched, timeout, poll=0,
                           failure=lambda: f"never saw {pattern.pattern!r} after:\n{self.transcript[self._matched:]}")
        if not isinstance(found, re.Match):
            return None
        self._matched = found.end()
        return found

    def before(self, match: re.Match[str]) -> str:
        """What the game wrote between the match before `match` and it."""
        return match.string[match.pos:match.start()]

    def type_line(self, line: str) -> None:
        """Type a line and Enter, as at a plain-mode prompt."""
        self.child.send(line + "\n")

    def resize(self, columns: int, lines: int) -> None:
        """Change the window's size, as a player dragging its corner."""
        self.screen.resize(lines, columns)
        self._text = None
        self.child.setwinsize(lines, columns)

    def press(self, *keys: Any) -> None:
        """Send keys by name (F8, Enter, C-c) or as text."""
        for key in keys:
            self.child.send(KEYS.get(key, key))

    def seat(self, *names: Any) -> None:
        """From the title screen to "Ready to play?" with these players."""
        self.wait_for("Press any key to begin")
        self.press("x")
        self.wait_for("Instructions? (Y/N)")
        self.press("n")
        for number, name in enumerate(names, 1):
            self.wait_for(f"Player {number} name")
            self.press(name, "Enter")
        self.wait_for(f"Player {len(names) + 1} name")
        self.press("Enter")
        self.wait_for("Ready to play? (Y/N)")

    def turn(self, name: str, box: str, answer: str = "y") -> None:
        """One turn in key mode: any key rolls, R goes to posting, the box, then `answer` to
        the question that follows (none when None)."""
        self.wait_for(f"{name}: press any key to roll")
        self.press(" ")
        self.wait_for("R rolls")
        self.press("r")
        self.wait_for("Post where?")
        self.press(box)
        if answer:
            self.wait_for("(Y/N)")
            self.press(answer)

    def quit(self) -> int | None:
        """F10, then Y to the quit question: the game saved; its exit status."""
        self.press("F10")
        self.wait_for("Quit the game?")
        self.press("y")
        return self.exit_code()

    def exit_code(self, timeout: float = WAIT_SECONDS) -> int | None:
        """Wait for the game to end; its exit status."""
        def ended() -> Any:
            try:
                self.pump()
            except pexpect.EOF:
                return True
            return not self.child.isalive()
        with contextlib.suppress(AssertionError):  # still running: closing it ends it
            wait_until(ended, timeout, poll=0)
        self.child.close()
        return self.child.exitstatus

    def hang_up(self, timeout: float = WAIT_SECONDS) -> int | None:
        """Close the terminal under the game, as a player closing the window; its exit status."""
        close_window(self.child)  # the master end: the kernel hangs up the terminal
        with contextlib.suppress(AssertionError):
            wait_until(lambda: has_ended(self.child), timeout, poll=0.05)
        return ended_with(self.child)

    def close(self) -> None:
        """Make sure the game is gone."""
        if self.child.isalive():
            self.child.terminate(force=True)
