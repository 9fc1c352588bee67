"""The screen-reader mode: a whole game said in words, through pipes and in a real terminal."""
import re
import unicodedata
from pathlib import Path

import pytest
from helpers import PTY, run_game
from prompt_toolkit.input import create_pipe_input
from terminal import Terminal

from yahtzee.consoles.screenreader import AccessibleConsole, echo
from yahtzee.model.choices import Option, OptionKind
from yahtzee.model.game import Game, Player
from yahtzee.model.scoring import Category
from yahtzee.present import spoken
from yahtzee.present.render import KEY_OF_BOX
from yahtzee.speech.languages import text

pytestmark = pytest.mark.slow(12)

BOXES = list(Category)
POSTED = re.compile(r"(?:^|> )ANN posts \d+ in ([A-Z ]+)\.$", re.MULTILINE)


def assert_words_only(transcript: str) -> None:
    """No box drawing, banner or dice art, no control character but the newline."""
    assert not [ch for ch in transcript if 0x2500 <= ord(ch) <= 0x257F]
    assert "+--" not in transcript and "|" not in transcript and "C O M P" not in transcript
    controls = {ch for ch in transcript if unicodedata.category(ch).startswith("C")} - {"\n"}
    assert not controls, controls


def assert_every_posting_named(transcript: str) -> None:
    """Thirteen postings, one a box, each followed by the new total."""
    assert sorted(POSTED.findall(transcript)) == sorted(text(box.title) for box in BOXES)
    assert len(re.findall(r"(?:^|> )ANN.s total is now \d+\.$", transcript, re.MULTILINE)) == 13


def test_a_whole_game_through_pipes_is_said_in_words(tmp_path: Path) -> None:
    lines = ["", "n", "ANN", "", "y"]
    for number, box in enumerate(BOXES):
        extra = ["b", "?", "x"] if number == 0 else []
        lines += ["", *extra, "r", KEY_OF_BOX[box].lower(), "y"]
    lines += ["n"]
    run = run_game(["--accessible", "--seed", "3", "--saves", str(tmp_path / "saves")],
                   input="\n".join(lines) + "\n", timeout=120)
    out = run.stdout
    assert run.returncode == 0, run.stderr
    assert_words_only(out)
    assert_every_posting_named(out)
    assert "Computer Yahtzee: five dice, thirteen boxes, one to four players." in out
    assert "ANN's turn, round 1 of 13; ANN has 0 points." in out
    assert "B sheet" in out
    assert "ANN: Ones open, Twos open, Threes open" in out  # B, before the first posting
    assert re.search(r"(?:^|> )Best: .*\(press [^)]*\), expects \d+\.\d\.$", out, re.MULTILINE)
    assert re.search(r"(?:^|> )ANN finishes with \d+ points\.$", out, re.MULTILINE)
    assert "Chance" in out.split("ANN finishes with")[1]  # the final sheet read out


@pytest.mark.posix(reason=PTY)
def test_a_whole_game_in_a_terminal_reads_keys_and_writes_lines(tmp_path: Path) -> None:
    term = Terminal("--accessible", "--seed", "3", "--saves", str(tmp_path / "saves"))
    try:
        term.wait_for("Press any key to begin")
        term.press(" ")
        term.wait_for("Instructions? (Y/N)")
        term.press("m")  # sound off: the bell is the one sound the mode would make
        term.wait_for("Sound is now OFF.")
        term.press("n")
        term.wait_for("Player 1 name:")
        term.press("ANN", "Enter")
        term.wait_for("Player 2 name:")
        term.press("Enter")
        term.wait_for("Ready to play? (Y/N)")
        term.press("y")
        for number, box in enumerate(BOXES, start=1):
            term.wait_for(f"round {number} of 13")
            term.wait_for("press any key to roll")
            term.press(" ")
            term.wait_for("ANN  roll 1 of 3")
            if number == 1:
                term.press("1", "3")
                term.wait_for("marked: die 1 (")
                term.press("b")
                term.wait_for("ANN: Ones open")
                term.press("1", "3")
                term.wait_for("marked: none")
            term.press("r")
            term.wait_for("Post where?")
            term.press(KEY_OF_BOX[box].lower())
            term.wait_for("(Y/N)")
            term.press("y")
            term.wait_for(f"in {text(box.title)}.")
        term.wait_for("Another game?")
        term.press("n")
        assert term.exit_code() == 0
    finally:
        term.close()
    transcript = term.raw.decode("utf-8").replace("\r", "")  # the terminal's own line ends
    assert_words_only(transcript)
    assert_every_posting_named(transcript)
    assert "\x1b" not in term.raw.decode("utf-8")
    assert "Player 1 name: ANN\n" in transcript
    assert "ANN  roll 1 of 3" in transcript and re.search(r"marked: die 1 \(\d\), die 3 \(\d\)\n", transcript)


class Written:
    """A terminal's output that keeps what was written."""

    def __init__(self) -> None:
        self.text = ""

    def write_raw(self, text: str) -> None:
        self.text += text

    def flush(self) -> None:
        pass

    def encoding(self) -> str:
        return "utf-8"


def test_an_unchanged_line_is_not_said_again() -> None:
    written = Written()
    with create_pipe_input() as pipe:
        console = AccessibleConsole(input=pipe, output=written)
        console.show(["screen"], ["ANN  roll 1 of 3: 1 2 3 4 5", "hints: C Chance 15"])
        console.show(["screen"], ["ANN  roll 1 of 3: 1 2 3 4 5   marked: 1", "hints: C Chance 15"])
        console.show(["screen"], [])
        console.message("Verify is now OFF.")
        pipe.send_text("r")
        assert console.read_key("Roll 1 of 3") == "r"
        pipe.send_text("1")
        assert console.read_key("Roll 1 of 3") == "1"
        console.reader.close()
    assert written.text == ("ANN  roll 1 of 3: 1 2 3 4 5\nhints: C Chance 15\n"
                            "ANN  roll 1 of 3: 1 2 3 4 5   marked: 1\nVerify is now OFF.\n"
                            "Roll 1 of 3\n")
    console.show(["screen"], ["ANN  roll 1 of 3: 1 2 3 4 5", "hints: C Chance 15"])
    console.show(["screen"], ["ANN  roll 1 of 3: 1 2 3 4 5   marked: 1", "hints: C Chance 15"])
    console.show(["screen"], [])
    console.message("Verify is now OFF.")


def test_typing_a_name_echoes_characters_and_erases() -> None:
    assert echo("AN", "ANN", "Name: ") == "N"
    assert echo("ANN", "AN", "Name: ") == "\b \b"
    assert echo("ANN", "BNN", "Name: ") == "\nName: BNN"


def test_the_sheet_reads_as_one_sentence_a_player() -> None:
    game = Game.start([Player("ANN"), Player("BOB")])
    game.players[0].card.boxes.update({Category.ONES: 3, Category.FULL_HOUSE: 25})
    ann, bob = spoken.sheet_sentences(game)
    assert ann.startswith("ANN: Ones 3, Twos open, ") and ann.endswith(", total 28.")
    assert "Full house 25, Small straight open" in ann
    assert bob.startswith("BOB: Ones open") and bob.endswith("Chance open, total 0.")


def test_the_advice_reads_as_sentences() -> None:
    game = Game.start([Player("ANN")])
    game.roll()
    turn = game.turn
    keep = Option(OptionKind.KEEP, 254.91, reroll=(False, True, False, True, False), kept=(4, 4, 4),
                  best=True)
    box = Option(OptionKind.BOX, 250.0, box=Category.CHANCE, points=21)
    first, second = spoken.advice_sentences([(keep, None), (box, None)], turn)
    faces = " ".join(str(face) for face, again in zip(turn.dice, keep.reroll) if again)
    assert first == f"Best: keep 4 4 4, reroll {faces} (press 2 4 R), expects 254.9."
    assert second == "Next: CHANCE 21 (press R C), expects 250.0."


def test_a_computer_players_turns_are_said_step_by_step(tmp_path: Path) -> None:
    run = run_game(["--accessible", "--seed", "1", "--saves", str(tmp_path / "saves")],
                   input="\nn\n*\n\ny\nn\n", timeout=120)
    out = run.stdout
    assert run.returncode == 0, run.stderr
    assert_words_only(out)
    assert "Brainy's turn, round 1 of 13; Brainy has 0 points.\nBrainy rolls " in out
    assert len(re.findall(r"^Brainy posts \d+ in [A-Z ]+\.$", out, re.MULTILINE)) == 13


@pytest.mark.posix(reason=PTY)
def test_in_a_terminal_a_posting_may_be_taken_back_before_the_computer_starts(tmp_path: Path) -> None:
    """The screen reader waits where the full screen does: after ANN posts, the computer starts
    on a key, and U there takes ANN's posting back."""
    term = Terminal("--accessible", "--seed", "3", "--saves", str(tmp_path / "saves"))
    try:
        term.seat("ANN", "*norisk")
        term.press("y")
        term.wait_for("press any key to roll")
        term.press(" ")
        term.wait_for("ANN  roll 1 of 3")
        term.press("r")
        term.wait_for("Post where?")
        term.press("c")
        term.wait_for("(Y/N)")
        term.press("y")
        term.wait_for("plays next: press any key to start, U takes back the last posting")
        assert "rolls" not in term.raw.decode().rsplit("ANN posts", 1)[1]  # the computer waits
        term.press("u")
        term.wait_for("ANN's last posting is taken back.")
        term.wait_for("Post where?")
        term.press("1")
        term.wait_for("(Y/N)")
        term.press("y")
        term.wait_for("ANN posts")
        term.press(" ")
        term.wait_for("ANN's turn, round 2")
        assert term.quit() == 0
    finally:
        term.close()
    said = term.raw.decode("utf-8").replace("\r", "").replace("\a", "")  # the bell: sound is on
    assert_words_only(said)  # the computer's wait says its prompt, not the screen


def test_the_screen_reader_is_a_console_of_its_own_over_the_key_terminal_key_mode_reads() -> None:
    from yahtzee.consoles.keymode import KeyConsole
    from yahtzee.consoles.keyterminal import KeyTerminal
    assert issubclass(AccessibleConsole, KeyTerminal) and issubclass(KeyConsole, KeyTerminal)
    assert not issubclass(AccessibleConsole, KeyConsole)  # nothing of the screens' drawing to switch off
