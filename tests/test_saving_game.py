"""Saves that survive anything: kills, signals, lost terminals, two copies, damaged files."""
import json
import os
import signal
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Callable, Union

import pytest
from driver import PlainPlayer
from helpers import PTY, run_game, texts, there, typed, wait_until
from terminal import Terminal

from yahtzee.model.session import Session
from yahtzee.saves.store import Saves
from yahtzee.speech.languages import text

pytestmark = [pytest.mark.slow(8), pytest.mark.filterwarnings("ignore::DeprecationWarning")]
SEED = ("--seed", "11")


def history(
        saves: Path) -> list[dict[str, Any]]:
    """The finished games in a saves folder, the time of finishing left out."""
    lines = (saves / "history.jsonl").read_text().splitlines()
    return [{k: v for k, v in json.loads(line).items() if k != "finished"} for line in lines]


def saved_session(saves: Path) -> tuple[Union[tuple[Session, Mapping[str, Any]], tuple[None, None]], list[str]]:
    """The autosave read back as the game reads it: ((session, resume point), notices)."""
    folder = Saves(saves)
    return folder.load_session() or (None, None), texts(folder.take_notices())


@pytest.fixture(scope="module")
def uninterrupted(
        tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The record of the two-player game the driver plays with SEED, never stopped."""
    saves = tmp_path_factory.mktemp("reference")
    player = PlainPlayer(saves, *SEED)
    assert player.play() and player.exit_code() == 0
    (record,) = history(saves)
    assert not (saves / "autosave.json").exists()
    return record


@pytest.mark.posix(reason="SIGKILL")
@pytest.mark.parametrize("steps, pause", [(7, 0), (131, 0.003)])
def test_sigkill_mid_game_leaves_a_save_that_finishes_the_same(
        tmp_path: Path, uninterrupted: dict[str, Any], steps: int, pause: Union[float, int]) -> None:
    # That every saved moment resumes right is test_every_moment's to check; these real kills
    # check that the atomic replace never leaves a torn autosave behind.
    if sys.platform == "win32":  # for the type checker: POSIX only (never run on Windows)
        pytest.skip("POSIX only")
    saves = tmp_path / "kill"
    player = PlainPlayer(saves, *SEED)
    player.play(steps=steps)
    time.sleep(pause)
    player.term.child.kill(signal.SIGKILL)
    player.exit_code()
    (session, _), notices = saved_session(saves)
    assert session is not None and notices == []
    # The later start is given other dice options: the saved game keeps its own.
    resumed = PlainPlayer(saves, "--seed", "99")
    assert resumed.play() and resumed.exit_code() == 0
    assert "Resume the saved game? (Y/N)" in resumed.transcript
    assert history(saves) == [uninterrupted]
    assert not (saves / "autosave.json").exists()


def key_game_to_second_roll(term: Terminal) -> None:
    """Opening to ANN's first roll with die 2 marked."""
    term.wait_for("Press any key to begin")
    term.press("x")
    term.wait_for("Instructions? (Y/N)")
    term.press("n", "ANN", "Enter")
    term.wait_for("Player 2 name:")
    term.press("Enter")
    term.wait_for("Ready to play?")
    term.press("y")
    term.wait_for("ANN: press any key to roll")
    term.press(" ")
    term.wait_for("Roll 1 of 3")
    term.press("2")
    term.wait_for("[2]")


def dice_rows(screen: str) -> list[str]:
    """The dice part of the play screen."""
    return [line[50:] for line in screen.splitlines()[2:8]]


@pytest.mark.posix(reason=PTY)
def test_f10_mid_turn_then_a_new_start_resumes_the_very_same_turn(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    term = Terminal("--saves", str(saves), *SEED)
    try:
        key_game_to_second_roll(term)
        before = dice_rows(term.text)
        assert term.quit() == 0
    finally:
        term.close()
    again = Terminal("--saves", str(saves))
    try:
        again.wait_for("Resume the saved game? (Y/N)")
        again.press("y")
        screen = again.wait_for("Roll 1 of 3: 1-5 mark dice, R rolls")
        assert dice_rows(screen) == before and "[2]" in screen and ">ANN" in screen
    finally:
        again.close()


@pytest.mark.posix(reason=PTY)
@pytest.mark.parametrize("stop", ["SIGTERM", "SIGHUP", "lost terminal"])
def test_signals_and_a_lost_terminal_leave_a_valid_save(tmp_path: Path, stop: str) -> None:
    saves = tmp_path / "saves"
    term = Terminal("--saves", str(saves), *SEED)
    try:
        key_game_to_second_roll(term)
        if stop == "lost terminal":
            os.close(term.child.child_fd)
            term.child.child_fd = -1
            wait_until(lambda: not term.child.isalive(), poll=0.05)
        else:
            term.child.kill(getattr(signal, stop))
            assert term.exit_code() == 0
            assert "Traceback" not in term.text
    finally:
        term.close()
    (session, resume), notices = saved_session(saves)
    assert notices == [] and there(there(session).game).turn.marked == (False, True, False, False, False)
    assert resume == {"screen": "play"}


@pytest.mark.posix(reason=PTY)
def test_a_second_copy_is_told_and_never_overwrites_the_first_copys_save(tmp_path: Path) -> None:
    if sys.platform == "win32":  # for the type checker: POSIX only (never run on Windows)
        pytest.skip("POSIX only")
    saves = tmp_path / "saves"
    first = Terminal("--saves", str(saves), *SEED)
    try:
        key_game_to_second_roll(first)
        kept = (saves / "autosave.json").read_bytes()
        second = run_game(["--plain", "--saves", str(saves)], input="\nn\nCID\n\ny\n\n", timeout=30)
        assert second.returncode == 0 and second.stderr == ""
        assert "Another copy of the game has the saved game" in second.stdout
        assert "Resume the saved game?" not in second.stdout
        assert (saves / "autosave.json").read_bytes() == kept
        first.child.kill(signal.SIGKILL)  # a crashed copy must not keep the lock
        first.child.close()
    finally:
        first.close()
    third = run_game(["--plain", "--saves", str(saves)], input="y\n", timeout=30)
    assert "Resume the saved game? (Y/N)" in third.stdout


def run_plain(saves: Path, lines: list[Union[str, Any]], *args: Any) -> str:
    """One plain-mode run of the program, in process; its output."""
    done = run_game(["--plain", "--saves", str(saves), *args], typed(lines), in_process=True)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout


def autosave_with(saves: Path, change: Callable) -> None:
    """Write a real autosave, then damage it with `change(text) -> text or bytes`."""
    run_plain(saves, ["", "n", "ANN", "", "y", ""], *SEED)
    path = saves / "autosave.json"
    damaged = change(path.read_text())
    path.write_bytes(damaged if isinstance(damaged, bytes) else damaged.encode())


DAMAGE = {
    "bad JSON": lambda text: text[:-40] + "}}}{",
    "truncated": lambda text: text[: len(text) // 2],
    "wrong version": lambda text: text.replace('"version": 1', '"version": 7', 1),
    "wrong type": lambda text: text.replace('"verify": true', '"verify": "yes"'),
    "score out of range": lambda text: text.replace('"boxes": {}', '"boxes": {"chance": 999}', 1),
    "hostile name": lambda text: text.replace('"ANN"', '"\\u001b[2J\\u0007ANN"'),
    "50 MB": lambda text: text + " " * 50_000_000,
    "binary": lambda text: b"\x00\xff" * 100,
}


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_autosave_is_set_aside_with_one_line_and_play_goes_on(tmp_path: Path, damage: str) -> None:
    saves = tmp_path / "saves"
    autosave_with(saves, DAMAGE[damage])
    out = run_plain(saves, ["", "n", "BOB", "", "y", "", "f10", "y"])
    notices = [line for line in out.splitlines() if "autosave.json" in line]
    assert len(notices) == 1, out
    assert "Resume the saved game?" not in out and "BOB: press any key to roll" in out
    assert len(list(saves.glob("autosave.json.bad-*"))) == 1


@pytest.mark.parametrize("name, content", [
    ("prefs.json", '{"version": 1, "verify": "off"}'),
    ("prefs.json", "not json"),
    ("history.jsonl", '{"version": 1, "players": "nobody"}\n'),
])
def test_damaged_prefs_and_history_give_one_line_and_are_kept_aside(tmp_path: Path, name: str, content: str) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / name).write_text(content)
    out = run_plain(saves, ["", "s", "x", "n", "ANN", "", "y", "", "f10", "y"])
    assert len([line for line in out.splitlines() if name in line]) == 1, out
    assert list(saves.glob(f"{name}.bad-*"))


def test_a_torn_last_history_line_loses_only_that_line(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    finish_one_game(saves)
    with open(saves / "history.jsonl", "a") as file:
        file.write('{"version": 1, "finished": "2026-')
    out = run_plain(saves, [], "--stats")
    assert "ANN" in out and len(history(saves)) == 1


BOXES = ["1", "2", "3", "4", "5", "6", "t", "f", "h", "s", "l", "y", "c"]


def finish_one_game(saves: Path, name: str = "ANN", seed: str = "3") -> None:
    """Play a whole one-player game in process: each box in turn after one roll."""
    lines = ["", "n", name, "", "y"] + [line for box in BOXES for line in ("", "r", box, "y")] + ["n", ""]
    out = run_plain(saves, lines, "--seed", seed)
    assert "Another game? (Y/N)" in out, out


def test_stats_show_the_hall_of_fame_and_players_after_a_few_games(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    for name, seed in [("ANN", "1"), ("BOB", "2"), ("ANN", "3")]:
        finish_one_game(saves, name, seed)
    out = run_plain(saves, [], "--stats")
    assert "HALL OF FAME" in out and "PLAYERS, ALL-TIME" in out
    records = history(saves)
    best = max(p["total"] for r in records for p in r["players"])
    assert str(best) in out.split("PLAYERS")[0]
    ann = [line for line in out.split("PLAYERS, ALL-TIME")[1].splitlines() if "ANN" in line]
    assert ann and ann[0].split()[1] == "2"  # two games played


def test_verify_and_sound_are_remembered_between_runs(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    run_plain(saves, ["", "f8", "f9"])
    out = run_plain(saves, [""])
    assert "F8/V verify OFF   F9/M sound OFF" in out


def test_an_unwritable_saves_folder_warns_once_and_play_goes_on(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder should be")
    out = run_plain(blocker / "saves", ["", "n", "ANN", "", "y", "", "1", "r", "r", "c", "y", "f10", "y"])
    assert out.lower().count("saving is off") == 1
    assert "ANN posts" in out


def test_a_game_saved_during_a_computers_turn_resumes_and_plays_on(tmp_path: Path) -> None:
    from yahtzee.model.dice import SeededDice
    from yahtzee.model.game import Player
    from yahtzee.model.scoring import Category
    from yahtzee.model.session import Session
    saves = tmp_path / "saves"
    session = Session([Player("ANN"), Player("Brainy", "computer", mood="thinker")],
                      source=SeededDice(4))
    session.new_game()
    there(session.game).roll()
    there(session.game).post(Category.CHANCE)
    there(session.game).roll()  # the computer has rolled when the save is made
    with Saves(saves) as folder:
        assert folder.save_session(session, {"screen": "play"})
    out = run_plain(saves, ["y", "f10", "y"])
    assert "Brainy posts" in out and "ANN: press any key to roll" in out


def test_a_game_saved_at_the_verify_question_resumes_at_that_question(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    out = run_plain(saves, ["", "n", "ANN", "", "y", "", "r", "h"], "--seed", "2")
    asked, said = out.rstrip().rsplit("\n", 1)
    assert asked.endswith("(Y/N)> ") and said == "The game is saved: start again to resume it."  # as F10 says
    question = asked.rstrip()[:-1].rsplit("> ", 1)[-1]
    assert question.startswith("Post ") and question.endswith("? (Y/N)")
    again = run_plain(saves, ["y", "y", "f10", "y"])
    assert question in again and "ANN posts" in again


def test_the_end_of_input_mid_game_says_the_game_is_saved_as_f10_does_and_before_a_game_nothing(tmp_path: Path) -> None:
    """Plain mode's input ending mid-game saves the game and says so, in F10's words; before
    a game begins there is nothing to keep and nothing is said."""
    saves = tmp_path / "saves"
    ended = run_plain(saves, ["", "n", "ANN", "", "y", ""], "--seed", "2")
    quit_ = run_plain(tmp_path / "other", ["", "n", "ANN", "", "y", "", "f10", "y"], "--seed", "2")
    saying = "The game is saved: start again to resume it."
    assert ended.rstrip().endswith("\n" + saying) and quit_.rstrip().endswith(saying)
    assert (saves / "autosave.json").exists()
    before = run_plain(tmp_path / "none", ["", "n"])
    assert saying not in before and "Goodbye" not in before


def test_a_set_aside_notice_says_the_whole_reason_and_the_kept_files_whole_name(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    autosave_with(saves, lambda text: '{"version": 2, garbage')
    out = run_plain(saves, ["", "n", "BOB", "", "y", "", "f10", "y"])
    (kept,) = saves.glob("autosave.json.bad-*")
    (notice,) = [line for line in out.splitlines() if "autosave.json" in line]
    assert notice == f"Damaged autosave.json kept as {kept.name}: not valid JSON at line 1, column 16."
    assert "..." not in notice


def test_a_long_message_is_wrapped_whole_under_a_key_screen_never_cut() -> None:
    from helpers import KeyScript

    from yahtzee.saves.notices import SET_ASIDE, fit_notice
    reason = "the saves folder's disk said something long " * 4
    notice = text(fit_notice(SET_ASIDE, name="history.jsonl", kept="history.jsonl.bad-20261202-165910", detail=reason))
    assert notice.rstrip().endswith(reason.strip()) and "history.jsonl.bad-20261202-165910" in notice
    keys = KeyScript("")
    try:
        keys.console.show(["a screen"], None)
        keys.console.message(notice)
        shown = " ".join(keys.output.text().split())
    finally:
        keys.close()
    assert " ".join(notice.split()) in shown
