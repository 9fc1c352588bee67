"""A computer's turn at a real terminal: every step is said, keys pressed during it only hurry
it, and the human's posting before it may be taken back until the human starts it."""
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import PTY
from terminal import Terminal

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"), pytest.mark.posix(reason=PTY)]
START_PROMPT = "Brainy plays next: press any key to start, U takes back the last posting"


@pytest.fixture
def game(tmp_path: Path) -> Iterator[Terminal]:
    """ANN against *thinker (Brainy) in key mode, at ANN's first posting question."""
    term = Terminal("--saves", str(tmp_path / "saves"), "--seed", "11")
    try:
        term.wait_for("Press any key to begin")
        term.press("xnANN\r*thinker\r\ry")
        term.wait_for("ANN: press any key to roll")
        term.press(" ")
        term.wait_for("R rolls")
        term.press("r")
        term.wait_for("Post where?")
        yield term
    finally:
        term.close()


def settles(term: Terminal, seconds: float = 1.0) -> str:
    """The screen after `seconds` more of the game's output."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        term.pump()
    return term.text


def test_keys_sent_during_a_computers_turn_never_roll_the_humans_dice(game: Terminal) -> None:
    game.press("3")
    game.wait_for("(Y/N)")
    game.press("yx")  # y posts; x starts Brainy's turn
    game.wait_for("Brainy rolls")
    game.press("xxx")  # while Brainy plays: hurries it
    screen = game.wait_for("ANN: press any key to roll")
    assert re.search(r"Brainy posts \d+ in [A-Z ]+\.", screen), screen
    later = settles(game)
    assert "ANN: press any key to roll" in later and "Roll 1 of 3" not in later, later
    said = game.raw.decode(errors="replace")
    assert said.count("Brainy rolls") >= 1 and re.search(r"Brainy posts \d+ in", said)
    assert said.index("Brainy rolls") < said.index("Brainy posts")


def test_the_humans_posting_can_be_taken_back_before_the_computer_starts(game: Terminal) -> None:
    game.press("3")
    game.wait_for("(Y/N)")
    game.press("y")
    screen = game.wait_for(START_PROMPT)
    assert "ANN posts" in screen and "Brainy rolls" not in screen
    game.press("u")
    game.wait_for("ANN's last posting is taken back.")
    game.wait_for("Post where?")
    game.press("c")
    game.wait_for("(Y/N)")
    game.press("y")
    game.wait_for(START_PROMPT)
    game.press(" ")
    game.wait_for("ANN: press any key to roll")
    sheet = game.text
    assert re.search(r"Chance\s+\d+", sheet) and not re.search(r"Threes\s+\d+", sheet), sheet
