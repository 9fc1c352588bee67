"""A game saved at any step of a computer's turn resumes to the same game: every mood, four
rolls, a dice bank, yahtChallenge's extra turn and Acorn's blank. Each step of a computer's
turn ends in a pause; quitting there (as F10 or a closed window would) saves the game, and
the game resumed from that save must finish exactly as the game that never stopped."""
import io
import json
import signal
import sys
from pathlib import Path
from typing import Any, Optional, Union

import pytest
from driver import answer
from helpers import PTY, run_game, typed
from terminal import Terminal

from yahtzee.consoles.plain import PlainConsole
from yahtzee.model.game import Game
from yahtzee.screens.prompts import QuitGame

pytestmark = pytest.mark.slow(2)

ALL_SIXES = " ".join(["6"] * 80)  # every roll a Yahtzee for a while: extra turns and blanks come early
CASES = {
    "thinker": ("thinker", [], {}),
    "norisk": ("norisk", [], {}),
    "gambler": ("gambler", [], {}),
    "yclover": ("yclover", [], {}),
    "nowhere": ("nowhere", [], {}),
    "rival": ("rival", [], {}),
    "four rolls": ("thinker", [], {"rolls": 4}),
    "dice bank": ("nowhere", [], {"bank": 2}),
    "yahtChallenge extra turn": ("thinker", ["--rules", "yahtc", "--dice-file", "SIXES"], {}),
    "Acorn blank": ("thinker", ["--rules", "acorn", "--dice-file", "SIXES"], {}),
}


class Answering(io.StringIO):
    """Standard input that answers each plain prompt as the driver's player ANN would, against
    one computer player of `mood` (`alone`: the computer plays a game of its own)."""

    def __init__(self, output: io.StringIO, mood: str, alone: bool = False) -> None:
        super().__init__()
        self.output, self.mood, self.alone, self.read_up_to = output, mood, alone, 0

    def readline(self, size: Optional[int] = -1, /) -> str:  # type: ignore[override]  # (typeshed: _IOBase's gives bytes)
        shown = self.output.getvalue()[self.read_up_to:]
        self.read_up_to = len(self.output.getvalue())
        prompt = shown.rsplit("\n", 1)[-1]
        if not prompt.endswith("> "):
            return ""
        if prompt == ("Player 1 name: > " if self.alone else "Player 2 name: > "):
            return f"*{self.mood}\n"
        if prompt == ("Player 2 name: > " if self.alone else "Player 3 name: > "):
            return "\n"
        return answer(prompt[:-2], shown) + "\n"


def play(
        saves: Path, monkeypatch: pytest.MonkeyPatch, mood: str, options: list[Union[Any, str]],
        quit_at: Optional[int] = None,
        alone: bool = False) -> Any:
    """Play in process in plain mode (quitting at the `quit_at`-th step of a computer's turn);
    the finished records, how many steps the computers took, and what was printed."""
    output = io.StringIO()
    steps = [0]

    def pause(console: Any, seconds: float) -> None:
        steps[0] += 1
        if steps[0] == quit_at:
            raise QuitGame()  # the flow's quit path: the game is saved as it stands mid-step

    monkeypatch.setattr(PlainConsole, "pause", pause)
    done = run_game(["--plain", "--saves", str(saves), "--seed", "7", *options], in_process=True,
                    stdin=Answering(output, mood, alone), stdout=output)
    assert done.returncode == 0, done.stderr
    history = saves / "history.jsonl"
    lines = history.read_text().splitlines() if history.exists() else []
    records = [{k: v for k, v in json.loads(line).items() if k != "finished"} for line in lines]
    return records, steps[0], output.getvalue()


def case_options(case: str, tmp_path: Path) -> Any:
    """The mood and command line of a case, its preferences written in a fresh saves folder."""
    mood, options, prefs = CASES[case]
    dice = tmp_path / "sixes.txt"
    dice.write_text(ALL_SIXES)
    saves = tmp_path / "reference"
    saves.mkdir()
    (saves / "prefs.json").write_text(json.dumps({"version": 1, **prefs}))
    return mood, [str(dice) if option == "SIXES" else option for option in options], saves


def quit_points(steps: int) -> list[int]:
    """The steps to quit at: every step of the computer's first turn (a roll, a keep, a roll, a
    keep, a roll, its posting), and two later ones (the cases' extra turns and blanks come in
    the first turns)."""
    return sorted({*range(1, min(steps, 7) + 1), steps // 2, steps - 1} - {0})


@pytest.mark.posix(reason=PTY)
@pytest.mark.parametrize("case", list(CASES))
def test_a_game_saved_at_any_step_of_a_computers_turn_resumes_to_the_same_game(case: str, tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("os.fsync", lambda fd: None)  # durability is the SIGKILL run's to check
    mood, options, reference = case_options(case, tmp_path)
    (record,), steps, _ = play(reference, monkeypatch, mood, options, alone=True)
    if "extra turn" in case:
        assert any(move[2] == "extra" for move in record["moves"]), "the computer took no extra turn"
    if "blank" in case:
        assert any(move[2] == "blank" for move in record["moves"]), "the computer blanked no box"
    for point in quit_points(steps):
        saves = tmp_path / f"quit{point}"
        saves.mkdir()
        (saves / "prefs.json").write_bytes((reference / "prefs.json").read_bytes())
        records, _, out = play(saves, monkeypatch, mood, options, quit_at=point, alone=True)
        assert records == [] and (saves / "autosave.json").exists(), out[-300:]
        records, _, out = play(saves, monkeypatch, mood, options, alone=True)
        assert "Resume the saved game? (Y/N)" in out
        assert records == [record], (point, out[-500:])
        assert not list(saves.glob("autosave.json*")), point


@pytest.mark.posix(reason=PTY)
def test_the_save_made_as_a_computer_marks_its_keep_resumes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reproduction: quit while 'Brainy keeps ... and rolls again' stands, dice marked."""
    mood, options, saves = case_options("thinker", tmp_path)
    output = io.StringIO()
    monkeypatch.setattr(sys, "stdout", output)
    records, _, out = play(saves, monkeypatch, mood, options, quit_at=2)  # roll, then its keep
    assert "keeps" in out.rsplit("\n", 3)[-3] or "keeps" in out
    saved = json.loads((saves / "autosave.json").read_text())
    assert any(saved["game"]["turn"]["marked"]), "the save holds the computer's marked keep"
    records, _, out = play(saves, monkeypatch, mood, options)
    assert "Traceback" not in out and "NothingMarked" not in out
    assert len(records) == 1


@pytest.mark.posix(reason=PTY)
def test_a_fault_in_the_game_while_resuming_keeps_the_file_and_starts_anew(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    mood, options, saves = case_options("thinker", tmp_path)
    play(saves, monkeypatch, mood, options, quit_at=2)
    saved = (saves / "autosave.json").read_bytes()

    def fault(self: Any, game: Game) -> None:
        raise RuntimeError("a fault of ours")

    monkeypatch.setattr("yahtzee.coach.opponents.Opponents.action", fault)
    # resume; then the opening, no manual, no names
    done = run_game(["--plain", "--saves", str(saves)], typed(["y", "", "n", ""]), in_process=True)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Traceback" not in out
    said = [line for line in out.splitlines() if "could not be resumed" in line]
    assert len(said) == 1 and "(RuntimeError: a fault of ours), not in its file" in said[0]
    (kept,) = saves.glob("autosave.json.kept-*")
    assert said[0].endswith(f"kept as {kept.name}."), said
    before, after = json.loads(saved)["game"], json.loads(kept.read_bytes())["game"]  # the turn went on to the fault
    assert (after["round"], after["seat"], after["players"]) == (before["round"], before["seat"], before["players"])
    assert not list(saves.glob("autosave.json.bad-*"))
    assert "Instructions? (Y/N)" in out  # a new game starts at the opening


@pytest.mark.posix(reason=PTY)
def test_a_game_quit_then_killed_while_a_computer_marks_its_keep_resumes_in_a_terminal(tmp_path: Path) -> None:
    """In a real terminal: F10 while the computer's keep stands, then resumed; a SIGKILL at the
    same step of a later turn, then resumed again; the game plays on each time."""
    if sys.platform == "win32":  # for the type checker: POSIX only (never run on Windows)
        pytest.skip("POSIX only")
    saves = tmp_path / "saves"
    term = Terminal("--saves", str(saves), "--seed", "7")
    try:
        term.seat("ANN", "*")
        term.press("y")
        term.turn("ANN", "c")
        term.wait_for("Brainy plays next")
        term.press(" ")
        term.wait_for("keeps")
        assert term.quit() == 0
    finally:
        term.close()
    saved = json.loads((saves / "autosave.json").read_text())
    assert any(saved["game"]["turn"]["marked"]), "saved with the computer's keep marked"
    for stop in ("kill", "quit"):
        term = Terminal("--saves", str(saves))
        try:
            term.wait_for("Resume the saved game?")
            term.press("y")
            term.turn("ANN", "1" if stop == "kill" else "2")
            term.wait_for("Brainy plays next")
            term.press(" ")
            term.wait_for("keeps")
            if stop == "kill":
                term.child.kill(signal.SIGKILL)
            else:
                assert term.quit() == 0
            assert "Traceback" not in term.raw.decode(errors="replace")
        finally:
            term.close()
