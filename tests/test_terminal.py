"""Whole games in a real pseudo-terminal: keys in, the 80x24 screen and raw bytes out."""
import json
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable

import pytest
from helpers import PTY
from terminal import Terminal

pytestmark = [pytest.mark.slow(6), pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.posix(reason=PTY)]
BELL = b"\x07"


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Callable]:
    started = []

    def start(*args: Any, faces: Any = None, **options: Any) -> Any:
        if faces is not None:
            dice = tmp_path / "dice.txt"
            dice.write_text(" ".join(map(str, faces)))
            args += ("--dice-file", str(dice))
        term = Terminal("--saves", str(tmp_path / "saves"), *args, **options)
        started.append(term)
        return term

    yield start
    for term in started:
        term.close()


@pytest.mark.parametrize("started", ["afresh", "forked"])
def test_a_two_player_game_from_opening_to_recap(terminal: Callable, tmp_path: Path, started: str) -> None:
    # The tests' other games are mostly forked with the game's modules loaded (forkserver):
    # this one is played both ways, and must pass alike.
    boxes = ["1", "2", "3", "4", "5", "6", "t", "f", "h", "s", "l", "y", "c"]
    term = terminal(faces=[2, 2, 2, 3, 3] * 26, fresh=started == "afresh")
    term.wait_for("Press any key to begin")
    term.press("x")
    screen = term.wait_for("Instructions? (Y/N)")
    assert "F8  or V" in screen and "F10 or Q" in screen

    # F8/F9 and their aliases change what the screen shows.
    term.press("F8")
    term.wait_for("Verify is now OFF.")
    assert "now OFF" in term.text.split("F8  or V")[1].splitlines()[0]
    term.press("v")
    term.wait_for("Verify is now ON.")
    term.press("F9")
    term.wait_for("Sound is now OFF.")
    assert "now OFF" in term.text.split("F9  or M")[1].splitlines()[0]
    term.press("m")
    term.wait_for("Sound is now ON.")

    term.press("n")
    term.wait_for("Player 1 name:")
    term.press("ANN", "Enter")
    term.wait_for("Player 2 name:")
    term.press("BOB", "Enter")
    term.wait_for("Player 3 name:")
    term.press("Enter")
    term.wait_for("Ready to play? (Y/N)")
    term.press("y")

    term.wait_for("ANN: press any key to roll")
    term.press(" ")
    term.wait_for("Roll 1 of 3")
    screen = term.text
    for seen in ("GRAND TOTAL", "Full house", ">ANN", "BOB", "Verify", "Sound", "F10/Q",
                 "┌───┐", "Roll 1 of 3: 1-5 mark dice, R rolls"):
        assert seen in screen, seen
    term.press("2")
    term.wait_for("[2]")
    term.press("2")
    term.wait_for("  2  ")
    term.press("r", "1")  # typed ahead: R goes to posting and 1 picks ONES at once
    term.wait_for("Post 0 in ONES? (Y/N)")
    term.press("y")

    # With sound ON a roll rings the bell; with it OFF, no bell byte is written.
    rang_before = term.raw.count(BELL)
    assert rang_before >= 1
    term.wait_for("BOB: press any key to roll")
    term.press("F9")
    term.wait_for("Sound is now OFF.")
    term.press("y")
    quiet_from = len(term.raw)
    for round_number in range(13):
        for name in ("ANN", "BOB"):
            if round_number or name == "BOB":
                term.turn(name, boxes[round_number])
    term.wait_for("Another game? (Y/N)")
    assert BELL not in term.raw[quiet_from:]
    assert "ANN and BOB share the win" in term.text
    term.press("n")
    assert term.exit_code() == 0
    assert b"^[" not in term.raw and "^[" not in term.text
    assert (tmp_path / "saves" / "history.jsonl").read_text().count("\n") == 1


@pytest.mark.parametrize("quit_key", ["F10", "q", "C-c"])
def test_f10_its_alias_and_ctrl_c_ask_then_quit_with_code_0(terminal: Callable, quit_key: str) -> None:
    term = terminal()
    term.wait_for("Press any key to begin")
    term.press(quit_key)
    term.wait_for("Quit Computer Yahtzee? (Y/N)")
    term.press("n")
    screen = term.wait_for("Press any key to begin")
    assert "Quit Computer" not in screen  # N plays on: the question is gone
    term.press(quit_key)
    term.wait_for("Quit Computer Yahtzee? (Y/N)")
    term.press("y")
    assert term.exit_code() == 0


def test_function_keys_pressed_between_screens_never_show_as_text(terminal: Callable) -> None:
    term = terminal()
    term.wait_for("Press any key to begin")
    term.press("x", "F8", "F9", "F8", "F9")
    term.wait_for("Instructions? (Y/N)")
    term.press("n", "ANN", "Enter", "Enter", "y", " ")
    term.wait_for("Roll 1 of 3")
    assert "^[" not in term.text and "[19~" not in term.text and "[20~" not in term.text


def test_a_small_terminal_gets_a_message_not_a_broken_screen(terminal: Callable) -> None:
    term = terminal(columns=60, lines=20)
    screen = term.wait_for("needs 80x24")
    assert "60x20" in screen
    term.press("F10")
    term.wait_for("Quit Computer Yahtzee? (Y/N)")
    term.press("y")
    assert term.exit_code() == 0


def test_a_pasted_colour_code_is_ignored_not_a_crash(terminal: Callable) -> None:
    term = terminal()
    term.wait_for("Press any key to begin")
    term.press("x")
    term.wait_for("Instructions? (Y/N)")
    term.press("n", "Al", "\x1b[31m", "ex", "Enter")
    term.wait_for("Player 2 name:")
    term.press("Enter")
    term.wait_for("Ready to play? (Y/N)")
    term.press("y", " ", "\x1b[5m")
    screen = term.wait_for("Roll 1 of 3")
    assert "exception" not in screen.lower() and "Traceback" not in screen
    assert ">Alex" in screen


def test_the_screen_is_drawn_again_when_the_window_is_resized(terminal: Callable) -> None:
    term = terminal(columns=60, lines=20)
    term.wait_for("needs 80x24")
    term.resize(80, 24)
    term.wait_for("Press any key to begin")
    term.resize(70, 24)
    term.wait_for("needs 80x24")
    term.press("x", "F10")  # x is ignored while the screen is too small; F10 still asks
    term.wait_for("Quit Computer Yahtzee? (Y/N)")
    term.press("n")
    term.resize(80, 24)
    screen = term.wait_for("Press any key to begin")
    assert "Instructions?" not in screen


def test_quitting_while_typing_a_name_shows_the_question(terminal: Callable) -> None:
    term = terminal()
    term.wait_for("Press any key to begin")
    term.press("x")
    term.wait_for("Instructions? (Y/N)")
    term.press("n", "Qvm", "F10")
    term.wait_for("Quit Computer Yahtzee? (Y/N)")
    term.press("n")
    term.wait_for("Player 1 name: Qvm")


def test_a_pasted_title_sequence_leaves_nothing_in_a_name(terminal: Callable) -> None:
    term = terminal()
    term.wait_for("Press any key to begin")
    term.press("x")
    term.wait_for("Instructions? (Y/N)")
    term.press("n", "A", "\x1b]0;pwn\x07", "B", "Enter")
    term.wait_for("Player 2 name:")
    assert "1. AB" in term.text


def to_the_name_prompt(term: Terminal) -> None:
    term.wait_for("Press any key to begin")
    term.press("x")
    term.wait_for("Instructions? (Y/N)")
    term.press("n")
    term.wait_for("Player 1 name:")


def to_the_roll_screen(term: Terminal) -> None:
    to_the_name_prompt(term)
    term.press("ANN", "Enter", "Enter")
    term.wait_for("Ready to play? (Y/N)")
    term.press("y", " ")
    term.wait_for("Roll 1 of 3")


def to_a_name_typed(term: Terminal) -> None:
    to_the_name_prompt(term)
    term.press("Zed")


MOMENTS = {"opening": lambda term: term.wait_for("Press any key to begin"),
           "typing a name": to_a_name_typed,
           "rolling": to_the_roll_screen}


@pytest.mark.parametrize("moment", MOMENTS)
def test_closing_the_terminal_window_is_a_quiet_way_to_leave(terminal: Callable, tmp_path: Path, moment: str) -> None:
    stderr = tmp_path / "stderr.txt"
    term = terminal(stderr=stderr)
    MOMENTS[moment](term)
    assert term.hang_up() == 0
    assert stderr.read_text() == ""
    if moment == "rolling":
        assert (tmp_path / "saves" / "autosave.json").exists()


def test_sigint_from_outside_a_key_mode_game_stops_it_saved(terminal: Callable, tmp_path: Path) -> None:
    term = terminal()
    to_the_roll_screen(term)
    term.child.kill(signal.SIGINT)
    assert term.exit_code() == 0
    assert b"Traceback" not in term.raw
    assert (tmp_path / "saves" / "autosave.json").exists()


@pytest.mark.parametrize("locale", [{"LANG": "C", "LC_ALL": "C"},
                                    {"LANG": "C", "LC_ALL": "C", "PYTHONUTF8": "0"}])
def test_names_typed_in_utf8_keep_their_letters_whatever_the_locale(
        terminal: Callable, tmp_path: Path, locale: dict[str, str]) -> None:
    term = terminal(env=locale)
    to_the_name_prompt(term)
    term.press("Zoë", "Enter")
    term.wait_for("Player 2 name:")
    term.press("名前", "Enter", "Enter")
    screen = term.wait_for("Ready to play? (Y/N)")
    term.press("y")
    term.wait_for("press any key to roll")
    saved = json.loads((tmp_path / "saves" / "autosave.json").read_text(encoding="utf-8"))
    assert [player["name"] for player in saved["players"]] == ["Zoë", "名前"]
    # What the terminal's encoding lacks is shown as '?', never dropped.
    assert ("1. Zoë" in screen and "2. 名前" in screen) or ("1. Zo?" in screen and "2. ??" in screen)


def test_keys_typed_ahead_in_one_burst_are_never_dropped_between_screens(terminal: Callable) -> None:
    term = terminal()
    term.wait_for("Press any key to begin")
    term.press("xnANN\rBOB\r\ry 1")
    screen = term.wait_for("[1]")
    assert ">ANN" in screen and "BOB" in screen


PIECES = ["plain words ", "x" * 85, "\x1b[31m", "\x1b[1;32;44m", "\x1b[0m", "\x1b[7m", "\r", "\n", "\x1b[5;70H",
          "\x1b[24;75H", "\x1b[2J", "\x1b[J", "\x1b[K", "\x1b[?7l", "\x1b[?7h", "\x1b[4h", "\x1b[4l", "\x1b)0", "\x0e",
          "\x0f", "qqxx", "ÄÖü ", "漢字", "e\u0301", "\x07", "\t", "\x08"]


@pytest.mark.parametrize("seed", range(40))
def test_the_tests_fast_screen_draws_what_pytes_screen_draws(seed: int) -> None:
    """FastScreen (the tests' terminals) leaves every cell, the cursor and the lines to redraw
    as pyte's own Screen does, on random mixes of text, colours, wrapping, insert mode,
    character sets and wide and combining characters."""
    import random

    import pyte
    from helpers import FastScreen
    pieces = random.Random(seed).choices(PIECES, k=60)
    screens = [pyte.Screen(80, 24), FastScreen(80, 24)]
    for screen in screens:
        stream = pyte.Stream(screen)
        for piece in pieces:
            stream.feed(piece)
    ours, theirs = screens[1], screens[0]
    assert [dict(ours.buffer[y]) for y in range(24)] == [dict(theirs.buffer[y]) for y in range(24)]
    assert (ours.cursor.x, ours.cursor.y, ours.cursor.attrs, ours.dirty) == \
        (theirs.cursor.x, theirs.cursor.y, theirs.cursor.attrs, theirs.dirty)
