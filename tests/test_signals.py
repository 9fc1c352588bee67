"""A stop signal at every screen of the flow: the game saves, exits 0, and resumes at the same
question; a stop during a table build ends the build at once."""
from __future__ import annotations  # (X | None in annotations, on Python 3.9)

import sys
from pathlib import Path
from typing import Any

import pytest

if sys.platform == "win32":  # its module-level code already needs what Windows lacks
    pytest.skip("posix: stop signals (SIGHUP, SIGTERM) sent to a game at a real terminal (pty)",
                allow_module_level=True)

import io
import json
import re
import signal

from helpers import run_game, wait_until
from terminal import Terminal

PROMPT = re.compile(r"([^\n>]*)> $")
BOXES = ["1", "2", "3", "4", "5", "6", "t", "f", "h", "s", "l", "y", "c"]
GAME = [line for box in BOXES for line in ("", "r", box, "y")]
# Every line of a two-game session, and the screen each prompt belongs to.
SESSION = ["", "n", "ANN", "", "y", *GAME, "y", "", "y", *GAME, "n", ""]
STOPS = {  # the line number at whose prompt the signal comes, by screen
    "opening": 0, "title": 1, "names": 3, "confirm": 4, "play": 5, "dice": 6,
    "posting": 7, "verify": 8, "end_of_game": 5 + len(GAME), "recap_then_confirm": 6 + len(GAME),
    "recap": len(SESSION) - 1,
}


def at_terminal(saves: Path, dice: Path) -> Terminal:
    """The game in plain mode in a pseudo-terminal."""
    return Terminal("--plain", "--saves", str(saves), "--dice-file", str(dice), echo=False)


def next_prompt(term: Terminal) -> str:
    """Wait for the next prompt; its text."""
    match = term.expect(PROMPT)
    assert match is not None, f"the game ended before its next prompt:\n{term.transcript}"
    return match.group(1).strip()


class StoppingInput(io.StringIO):
    """Lines for a plain-mode game; once they run out, a stop signal (SIGTERM) arrives at the
    next prompt, while the game waits for the line."""

    def __init__(self, lines: list[Any | str]) -> None:
        super().__init__()
        self.lines = list(lines)

    # (typeshed: _IOBase's readline gives bytes; unused under --platform win32, which skips this module)
    def readline(self, size: int | None = -1, /) -> str:  # type: ignore[override, unused-ignore]
        if not self.lines:
            assert callable(signal.getsignal(signal.SIGTERM)), "the game catches the stop signals"
            signal.raise_signal(signal.SIGTERM)  # its handler stops the game's read at once
        return self.lines.pop(0) + "\n"


def plain_run(saves: Path, dice: Path, lines: list[Any | str]) -> str:
    """The game in process in plain mode until a stop comes after `lines`; everything it wrote."""
    done = run_game(["--plain", "--saves", str(saves), "--dice-file", str(dice)], in_process=True,
                    stdin=StoppingInput(lines))
    assert done.returncode == 0, done.stderr
    return done.stdout


def last_prompt(written: str) -> str:
    """The text of the last prompt a plain console wrote."""
    # Lines typed are not echoed: a prompt follows the one before it on the same line.
    return written.rstrip().removesuffix(">").split("> ")[-1].rpartition("\n")[2].strip()


@pytest.mark.parametrize("screen", STOPS)
def test_a_stop_at_any_screen_saves_and_the_game_resumes_at_the_same_question(tmp_path: Path, screen: str) -> None:
    dice = tmp_path / "dice.txt"
    dice.write_text(" ".join(["2 2 2 3 3"] * 26))
    written = plain_run(tmp_path / "saves", dice, SESSION[:STOPS[screen]])
    asked = last_prompt(written)
    over = screen == "recap"  # the session's games are filed: nothing is left to resume
    again = plain_run(tmp_path / "saves", dice, [] if STOPS[screen] < 3 or over else ["y"])
    if STOPS[screen] < 3 or over:  # nobody was seated yet, or the session is over: nothing to resume
        assert last_prompt(again) == "Press any key to begin" and "Resume" not in again
        return
    assert "Resume the saved game? (Y/N)>" in again and last_prompt(again) == asked


# The signals themselves, from outside, at a real terminal: at a few screens.
@pytest.mark.parametrize("screen, signum", [("opening", signal.SIGTERM), ("verify", signal.SIGTERM),
                                            ("names", signal.SIGHUP), ("dice", signal.SIGHUP)])
def test_a_stop_signal_at_a_terminal_saves_and_the_game_resumes_at_the_same_question(tmp_path: Path, screen: str,
                                                                                     signum: signal.Signals) -> None:
    dice = tmp_path / "dice.txt"
    dice.write_text(" ".join(["2 2 2 3 3"] * 26))
    term = at_terminal(tmp_path / "saves", dice)
    try:
        for line in SESSION[:STOPS[screen]]:
            next_prompt(term)
            term.type_line(line)
        asked = next_prompt(term)
        term.child.kill(signum)
        assert term.exit_code() == 0 and "Traceback" not in term.transcript
    finally:
        term.close()
    again = at_terminal(tmp_path / "saves", dice)
    try:
        first = next_prompt(again)
        if STOPS[screen] < 3:  # nobody was seated yet: nothing to resume
            assert first == "Press any key to begin"
            return
        assert first == "Resume the saved game? (Y/N)"
        again.type_line("y")
        assert next_prompt(again) == asked
    finally:
        again.close()


@pytest.mark.usefixtures("no_shipped_tables")
def test_a_stop_during_a_table_build_ends_it_at_once_and_keeps_the_moment_before_it(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "prefs.json").write_text(json.dumps({"version": 1, "advisor": True}))
    dice = tmp_path / "dice.txt"
    dice.write_text("1 2 3 4 6 5 5 5 5 5")
    cache = tmp_path / "cache"
    term = Terminal("--saves", str(saves), "--dice-file", str(dice), env={"YAHTZEE_CACHE": str(cache)})
    try:
        term.seat("ANN")
        term.press("y")
        term.wait_for("ANN: press any key to roll")
        term.press(" ")
        term.wait_for("R rolls")
        term.press("5")
        term.wait_for("[5]")
        term.press("r")  # the reroll's cost needs the table: the build starts
        term.wait_for("Working out the best strategy")
        term.child.kill(signal.SIGTERM)
        code = term.exit_code()
    finally:
        term.close()
    assert code == 0
    saved = json.loads((saves / "autosave.json").read_text())
    turn = saved["game"]["turn"]
    assert turn["dice"] == [1, 2, 3, 4, 6] and turn["marked"] == [False] * 4 + [True]
    assert not list(cache.glob("*.npz")) + list(cache.glob("*.tmp"))  # no half-built table was kept


@pytest.mark.usefixtures("no_shipped_tables")
def test_quitting_while_a_table_is_built_in_the_background_is_immediate_and_keeps_nothing(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    term = Terminal("--saves", str(tmp_path / "saves"), env={"YAHTZEE_CACHE": str(cache)})
    try:
        term.wait_for("Press any key to begin")
        wait_until(lambda: list(cache.glob("*.lock")), poll=0.05, failure=lambda: "no build was started at start-up")
        term.press("q")
        term.wait_for("Quit Computer Yahtzee? (Y/N)")
        term.press("y")
        code = term.exit_code()
    finally:
        term.close()
    assert code == 0
    assert not processes_naming(cache)  # the build process ended with the game
    assert not list(cache.glob("*.npz")) + list(cache.glob("*.tmp"))


def processes_naming(path: Path) -> list:
    """The command lines of running processes that name `path`."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            text = cmdline.read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # the process ended meanwhile
        if str(path) in text:
            found.append(text)
    return found
