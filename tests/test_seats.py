"""The seat contract of a hosted table, in process (tests/tablehands.py): each terminal is asked
only what it may answer, its keys stay at its own seat, and it reads the game in its own
language and colours. The real OpenSSH client plays whole games in test_ssh_table.py."""
import sys
from typing import Any

import pytest

if sys.platform == "win32":  # its module-level code already needs what Windows lacks
    pytest.skip("posix: a hosted table's seats (hosting needs a POSIX system; under Wine, asyncssh's "
                "cryptography wants bcryptprimitives.dll)", allow_module_level=True)

import difflib
import os
import re
import threading
import time
from pathlib import Path

from helpers import FastScreen, there, wait_until
from tablehands import FACES, PLAYERS, Table, at_bobs_first_roll, table

from yahtzee.model.words import Say
from yahtzee.present.look import Look
from yahtzee.speech import languages as language

pytestmark = pytest.mark.slow(3)


def prompt_line(screen: str) -> str:
    """The line under the sheet (its last row is the grand total): the question, or this
    terminal's own line."""
    lines = screen.splitlines()
    return lines[1 + next(n for n, line in enumerate(lines) if line.startswith(("GRAND TOTAL", "ENDSUMME")))]


def last_line(screen: Any) -> Any:
    """The last line written on the screen."""
    return [line for line in screen.splitlines() if line.strip()][-1]


def bob_posts(hands: Table, box: str = "c") -> None:
    """From BOB's first roll: R, the box, Y."""
    hands.type("BOB", "r")
    hands.wait_for("BOB", "Post where?")
    hands.type("BOB", box)
    hands.wait_for("BOB", "(Y/N)")
    hands.type("BOB", "y")
    hands.wait_for("host", "BOB posts")


# Each moment of a turn, for the terminal asked, the host, another friend and a watcher: what
# its line under the sheet says, and a key that answers nothing there with what it is told.
MOMENTS = [
    ("ANN's first roll", lambda hands: hands.wait_for("host", "ANN: press any key to roll"), {
        "host": ("ANN: press any key to roll", None, None),
        "BOB": ("ANN is rolling the dice. Here: F9 sound, D language, F10 leaves the table.", "r", "It is ANN's turn."),
        "CAL": ("ANN is rolling the dice. Here: F9 sound, D language, F10 leaves the table.", "1", "It is ANN's turn."),
        "WAT": ("ANN is rolling the dice. You watch: F9 sound, D language, F10 leaves.", " ", "It is ANN's turn."),
    }),
    ("BOB's first roll", at_bobs_first_roll, {
        "BOB": ("Roll 1 of 3: 1-5 mark dice, R rolls, ? advice", None, None),
        "host": ("BOB is rolling the dice. Here: F7 seats, F8 verify, F9 sound, F10 quit.", "1", "It is BOB's turn."),
        "CAL": ("BOB is rolling the dice. Here: F9 sound, D language, F10 leaves the table.", "r", "It is BOB's turn."),
        "WAT": ("BOB is rolling the dice. You watch: F9 sound, D language, F10 leaves.", "2", "It is BOB's turn."),
    }),
    ("BOB's posting", lambda hands: (hands.type("BOB", "r"), hands.wait_for("BOB", "Post where?")), {
        "BOB": ("Post where? 1 2 3 4 5 6 T F H S L Y C, R dice, ? advice", None, None),
        "host": ("BOB decides where to post. Here: F7 seats, F8 verify, F9 sound, F10 quit.", "c", "It is BOB's turn."),
        "CAL": ("BOB decides where to post. Here: F9 sound, D language, F10 leaves the table.", "c",
                "It is BOB's turn."),
        "WAT": ("BOB decides where to post. You watch: F9 sound, D language, F10 leaves.", "y", "It is BOB's turn."),
    }),
    ("BOB's verify question", lambda hands: (hands.type("BOB", "1"), hands.wait_for("BOB", "(Y/N)")), {
        "BOB": ("Post 1 in ONES? (Y/N)", None, None),
        "host": ("BOB decides where to post. Here: F7 seats, F8 verify, F9 sound, F10 quit.", "y", "It is BOB's turn."),
        "CAL": ("BOB decides where to post. Here: F9 sound, D language, F10 leaves the table.", "y",
                "It is BOB's turn."),
        "WAT": ("BOB decides where to post. You watch: F9 sound, D language, F10 leaves.", "n", "It is BOB's turn."),
    }),
    ("CAL's first roll, BOB's posting still his to take back", lambda hands: (
        hands.type("BOB", "y"), hands.wait_for("CAL", "CAL: press any key to roll")), {
        "CAL": ("CAL: press any key to roll", None, None),
        "BOB": ("CAL is rolling the dice. U takes back your posting.", "r", "It is CAL's turn."),
        "host": ("CAL is rolling the dice. Here: F7 seats, F8 verify, F9 sound, F10 quit.", "u",
                 "Only BOB may take back BOB's posting."),
        "WAT": ("CAL is rolling the dice. You watch: F9 sound, D language, F10 leaves.", "u",
                "Only BOB may take back BOB's posting."),
    }),
]


def test_each_terminal_is_asked_only_what_it_may_answer_and_refused_the_rest() -> None:
    with table(["ANN", "BOB", "CAL"], FACES, logins=["BOB", "CAL"]) as hands:
        hands.log_in("WAT")
        for moment, reach, terminals in MOMENTS:
            reach(hands)
            for who, (line, _key, _told) in terminals.items():
                assert prompt_line(hands.wait_for(who, line)) == line, (moment, who)
            for who, (line, key, told) in terminals.items():
                if key is None:
                    continue
                asked = next(other for other, (_l, k, _t) in terminals.items() if k is None)
                before = hands.steady(asked)
                hands.type(who, key)
                hands.wait_for(who, there(told))
                hands.settle(0.1)
                assert hands.text(asked) == before, (moment, who, key)  # the key answered nothing
                assert prompt_line(hands.wait_for(who, line)) == line, (moment, who)  # once drawn whole


def test_the_hosts_keys_during_a_friends_turn_are_refused_and_never_replayed_when_he_drops() -> None:
    with table(PLAYERS, FACES, logins=["BOB"]) as hands:
        rolled = at_bobs_first_roll(hands)
        hands.type("host", "1", "2", "r")
        hands.wait_for("host", "It is BOB's turn.")
        hands.settle(0.2)
        assert "[1]" not in hands.text("BOB") and "Roll 1 of 3" in hands.text("BOB")
        hands.drop("BOB")
        screen = hands.wait_for("host", "BOB is away")
        assert "BOB  roll 1 of 3" in screen and "[1]" not in screen and "[2]" not in screen
        assert dice_of(screen) == dice_of(rolled)  # the same dice: no roll BOB never made


def dice_of(screen: str) -> list[int]:
    """The dice faces drawn on a play screen, by their pips."""
    rows = [line[36:] for line in screen.splitlines()[2:8]]
    return [sum(row[6 * die:6 * die + 5].count("●") for row in rows[1:4]) for die in range(5)]


def test_the_hosts_hot_keys_act_during_a_friends_turn_before_his_next_key_is_read() -> None:
    with table(PLAYERS, FACES, logins=["BOB"]) as hands:
        at_bobs_first_roll(hands)
        with hands.held():
            hands.type("BOB", "1")
            hands.type("host", "F8")
        hands.wait_for("host", "Verify is now OFF.")
        assert "Verify is now OFF." not in hands.text("BOB")
        hands.wait_for("BOB", "[1]")
        with hands.held():  # both typed before the game looks: the host's hot key acts first
            hands.type("BOB", "2")  # typed ahead at BOB's seat, still asked
            hands.type("host", "q")
        hands.wait_for("host", "Quit the game? Your game is kept for next time. (Y/N)")
        hands.settle(0.2)
        assert "[2]" not in hands.text("BOB")  # read only after the host's question
        hands.type("BOB", "3")  # while the question is the host's: refused at BOB's seat
        hands.wait_for("BOB", "The host answers a question first; then it is BOB's turn again.")
        hands.type("host", "n")
        hands.wait_for("BOB", "[2]")
        hands.settle(0.2)
        assert "[3]" not in hands.text("BOB") and "It is BOB's turn." not in hands.text("host")


def test_a_friend_takes_back_his_own_posting_at_his_own_terminal() -> None:
    with table(PLAYERS, FACES, logins=["BOB"]) as hands:
        at_bobs_first_roll(hands)
        bob_posts(hands)
        screen = hands.wait_for("host", "ANN: press any key to roll")
        assert "U takes back" not in prompt_line(screen)
        assert prompt_line(hands.wait_for("BOB", "U takes back your posting.")).endswith("U takes back your posting.")
        hands.type("BOB", "u")
        hands.wait_for("BOB", "BOB's last posting is taken back.")
        hands.wait_for("BOB", "Post where?")
        assert "BOB decides where to post." in hands.wait_for("host", "BOB decides where to post.")


def test_a_watcher_is_told_so_and_leaves_with_f10_asked_first() -> None:
    with table(PLAYERS, FACES, logins=["BOB"]) as hands:
        hands.wait_for("host", "ANN: press any key to roll")
        hands.log_in("ANN")  # the host's own seat: never taken over SSH
        hands.wait_for("ANN", "ANN is not a seat played here: you watch. F10 leaves.")
        hands.type("ANN", " ")
        hands.wait_for("ANN", "It is ANN's turn.")
        assert "ANN: press any key to roll" in hands.text("host")
        hands.type("ANN", "q")
        hands.wait_for("ANN", "Stop watching and leave the table? (Y/N)")
        hands.type("ANN", "y")
        hands.wait_for("ANN", "You left the table.")
        hands.settle(0.2)
        assert hands.seats["ANN"].gone and "ANN: press any key to roll" in hands.text("host")


def test_a_friend_leaves_with_f10_asked_first_even_on_his_own_turn() -> None:
    with table(PLAYERS, FACES, logins=["BOB"]) as hands:
        at_bobs_first_roll(hands)
        hands.type("BOB", "F10")
        hands.wait_for("BOB", "Leave the table? Your seat waits for you (rejoin code K7Q2MX). (Y/N)")
        hands.type("BOB", "1")
        hands.wait_for("BOB", "Please answer Y or N.")
        hands.type("BOB", "n")
        hands.wait_for("BOB", "Roll 1 of 3: 1-5 mark dice")
        assert "[1]" not in hands.text("BOB")
        hands.type("BOB", "q", "y")
        hands.wait_for("host", "BOB is away")


def test_a_friends_f9_is_his_seats_own_and_shown_on_his_screen() -> None:
    with table(PLAYERS, FACES, logins=["BOB"]) as hands:
        hands.wait_for("BOB", "ANN is rolling the dice.")
        hands.type("BOB", "m")
        screen = hands.wait_for("BOB", "Sound at your seat is now OFF.")
        assert sound_column(screen) == "OFF" and sound_column(hands.text("host")) == "ON"
        hands.type("BOB", "F8")
        hands.wait_for("BOB", "Verify is the host's to change.")
        assert hands.seats["BOB"].sound is False and hands.session.sound is True


def sound_column(screen: str) -> str:
    """The state shown under Sound in the middle column of the play screen."""
    lines = screen.splitlines()
    row = next(n for n, line in enumerate(lines) if line[28:].startswith(("Sound", "Ton")))
    return lines[row + 1][28:36].strip()


def test_a_friends_screens_speak_the_language_his_client_sends_and_d_changes_it() -> None:
    german = {"BOB": {"LANG": "de_DE.UTF-8"}}
    with table(PLAYERS, FACES, logins=["BOB"], environments=german) as hands:
        assert prompt_line(hands.wait_for("BOB", "ANN würfelt.")) == (
            "ANN würfelt. Hier: F9 Ton, D Sprache, F10 verlässt den Tisch.")
        assert "ANN: press any key to roll" in hands.wait_for("host", "ANN: press any key to roll")
        hands.type("host", " ")
        hands.wait_for("host", "Roll 1 of 3")
        hands.type("host", "r", "c", "y")
        hands.wait_for("BOB", "ANN trägt 16 in CHANCE ein.")
        hands.wait_for("host", "ANN posts 16 in CHANCE.")
        hands.wait_for("BOB", "BOB: eine Taste würfelt")
        hands.type("BOB", "d")
        hands.wait_for("BOB", "This terminal speaks English now (D changes it).")
        hands.wait_for("BOB", "BOB: press any key to roll")


def test_a_notice_from_another_thread_reaches_each_terminal_in_its_own_language() -> None:
    german = {"BOB": {"LANG": "de_DE.UTF-8"}}
    with table(PLAYERS, FACES, logins=["BOB"], environments=german) as hands:
        hands.wait_for("BOB", "ANN würfelt.")
        notice = Say("{name} joined the table over SSH from {address}.").format(
            name="CAL", address="127.0.0.2")
        thread = threading.Thread(target=hands.table.message_from_thread, args=(notice,))
        thread.start()
        thread.join()
        hands.wait_for("host", "CAL joined the table over SSH from 127.0.0.2.")
        hands.wait_for("BOB", "CAL ist von 127.0.0.2 über SSH an den Tisch gekommen.")


def test_a_table_waiting_for_the_hosts_key_sleeps_though_a_friend_typed_last_and_another_came() -> None:
    """BOB's terminal is not read during ANN's turn: neither the time of his last keys nor the
    wake-up for a friend who came may end each of the game's waits at once (it looks around
    every quarter of a second, not thousands of times)."""
    with table(PLAYERS, FACES, logins=["BOB"]) as hands:
        at_bobs_first_roll(hands)
        hands.type("BOB", "r")
        hands.wait_for("BOB", "Post where?")
        hands.type("BOB", "c")
        hands.wait_for("BOB", "(Y/N)")
        hands.type("BOB", "y")
        hands.wait_for("host", "ANN: press any key to roll")
        hands.log_in("CAL")
        hands.wait_for("CAL", "ANN")
        terminals = hands.table.terminals
        waits, wait = [], terminals.wait

        def counted() -> None:
            waits.append(time.monotonic())
            wait()
        terminals.wait = counted  # type: ignore[method-assign, unused-ignore]  # each wait for a key counted
        time.sleep(1.0)
        terminals.wait = wait  # type: ignore[method-assign, unused-ignore]
        assert len(waits) < 20, f"{len(waits)} waits for a key in a second"


def test_a_terminal_of_another_charset_is_drawn_in_ascii_and_vt100_in_no_colour() -> None:
    latin = {"BOB": {"LANG": "de_DE.ISO-8859-1"}}
    with table(PLAYERS, FACES, logins=["BOB"], environments=latin, term="vt100") as hands:
        screen = hands.wait_for("BOB", "ANN")
        raw = bytes(hands.friends["BOB"].raw)
        assert "┌" not in screen and "+---+" in screen
        assert not re.search(rb"\x1b\[[0-9;]*m", raw)
        assert raw.decode("ascii", "replace").isascii()
        assert re.search(r"\x1b\[[0-9;]*m", "".join(hands.host_output.written))


def test_one_screen_is_drawn_in_english_and_german_from_two_threads_at_once() -> None:
    from yahtzee.model.game import PostingResult
    from yahtzee.model.scoring import Category
    from yahtzee.screens.playscreen import posting_note
    note = posting_note(PostingResult("ANN", Category.FULL_HOUSE, 25, 0))
    frame = lambda look: [look.words(note), look.words(Say("Roll {roll} of {rolls}").format(roll=1, rolls=3))]  # noqa: E731
    seen: dict[str, set[tuple[str, ...]]] = {"en": set(), "de": set()}

    def draw(code: Any) -> None:
        for _ in range(300):
            with language.speaking(code):
                seen[code].add(tuple(frame(Look())))
    threads = [threading.Thread(target=draw, args=(code,)) for code in ("en", "de", "en", "de")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == {"en": {("ANN posts 25 in FULL HOUSE.", "Roll 1 of 3")},
                    "de": {("ANN trägt 25 in FULL HOUSE ein.", "Wurf 1 von 3")}}


@pytest.mark.parametrize("module", ["model.scoring", "model.rules", "model.scorecard", "model.game", "model.moves",
                                    "model.choices", "model.match", "model.dice", "model.session", "model.moods",
                                    "model.illegal", "screens.context", "screens.flow", "screens.lobby", "screens.turn",
                                    "screens.playscreen", "screens.prompts", "screens.ending", "screens.resume",
                                    "screens.advice"])


def test_no_model_or_screen_module_imports_the_language_layer(module: str) -> None:
    import ast
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "yahtzee" / (module.replace(".", "/") + ".py")
    imported = {node.module or "" for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.ImportFrom)}
    assert not {name for name in imported if name.split(".")[-1] == "languages"}, module


def test_the_language_is_the_drawings_and_no_module_keeps_a_current_one() -> None:
    import ast
    from pathlib import Path
    source = (Path(__file__).resolve().parent.parent / "yahtzee" / "speech" / "languages.py").read_text()
    assigned = [target.id for node in ast.parse(source).body if isinstance(node, (ast.Assign, ast.AnnAssign))
                for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
                if isinstance(target, ast.Name)]
    assert "global" not in source and not {"_current", "_catalog"} & set(assigned)
    results: dict[str, str] = {}
    thread = threading.Thread(target=lambda: results.setdefault("other", language.current()))
    with language.speaking("de"):
        thread.start()
        thread.join()
        results["here"] = language.current()
    assert results == {"other": "en", "here": "de"}  # a thread starts in English, whatever another speaks


GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("YAHTZEE_GOLDEN_UPDATE") == "1"


def painted(screen: FastScreen) -> str:
    """A pyte screen as its reader sees it: the text lines, then each run of coloured or
    bold text by row and columns (the colours a terminal of no colour never shows)."""
    lines = [line.rstrip() for line in screen.display]
    runs = []
    for row in range(screen.lines):
        cells = [screen.buffer[row][column] for column in range(screen.columns)]
        column = 0
        while column < len(cells):
            style = (cells[column].fg, cells[column].bold, cells[column].reverse)
            end = column
            while end + 1 < len(cells) and (cells[end + 1].fg, cells[end + 1].bold, cells[end + 1].reverse) == style:
                end += 1
            if style != ("default", False, False) and "".join(c.data for c in cells[column:end + 1]).strip():
                runs.append(f"row {row:2} columns {column:2}-{end:2}: {style[0]}{' bold' if style[1] else ''}"
                            f"{' reverse' if style[2] else ''}")
            column = end + 1
    return "\n".join([*lines, "--- colours ---", *runs]) + "\n"


@pytest.mark.parametrize(("who", "name"), [("host", "seats.host.en"), ("BOB", "seats.friend.de")])
def test_one_moment_at_two_terminals_in_two_languages_and_two_colour_depths(who: str, name: str) -> None:
    german = {"BOB": {"LANG": "de_DE.UTF-8"}}
    with table(PLAYERS, FACES, logins=["BOB"], environments=german, term="vt100") as hands:
        hands.wait_for("host", "ANN: press any key to roll")
        for key, words in ((" ", "Roll 1 of 3"), ("r", "Post where?"), ("c", "(Y/N)")):
            hands.type("host", key)
            hands.wait_for("host", words)
        hands.type("host", "y")
        hands.wait_for("BOB", "BOB: eine Taste würfelt")
        hands.type("BOB", " ")
        hands.wait_for("BOB", "Wurf 1 von 3")
        hands.type("BOB", "1")
        hands.wait_for("BOB", "[1]")
        hands.wait_for("host", "[1]")
        hands.settle(0.2)
        screen = hands.host_output.screen if who == "host" else hands.friends["BOB"].screen
        with hands.friends["BOB"].lock:
            shown = painted(screen)
    path = GOLDEN / f"{name}.txt"
    if UPDATE:
        kept = path.read_text(encoding="utf-8") if path.exists() else None
        path.write_text(shown, encoding="utf-8")
        assert kept == shown, f"{path.name} written anew: review its diff"
    assert shown == path.read_text(encoding="utf-8"), "".join(difflib.unified_diff(
        path.read_text(encoding="utf-8").splitlines(True), shown.splitlines(True), "kept", "drawn"))


def test_the_lobby_is_the_hosts_and_a_friends_keys_there_are_refused() -> None:
    from yahtzee.screens.steps import Moment, Screen
    with table(PLAYERS, FACES, logins=["BOB"], begun=False, moment=Moment(Screen.CONFIRM)) as hands:
        host = hands.wait_for("host", "Ready to play? (Y/N)")
        friend = hands.wait_for("BOB", "The host is getting the game ready. Here: F9 sound, D language,")
        assert "P changes them" in host and "P changes them" not in friend and "(Y/N)" not in friend
        for key in ("y", "p", "s", "n"):
            hands.type("BOB", key)
        hands.wait_for("BOB", "The host is getting the game ready.\n")
        hands.settle(0.2)
        assert "Ready to play? (Y/N)" in hands.text("host") and "PREFERENCES" not in hands.text("host")
        hands.type("host", "y")
        hands.wait_for("host", "ANN: press any key to roll")
        hands.wait_for("BOB", "ANN is rolling the dice.")


def test_every_terminals_line_is_redrawn_when_a_friend_comes_back_to_his_turn() -> None:
    from yahtzee.net.owners import code_proof
    with table(["ANN", "BOB", "CAL"], FACES, logins=["BOB", "CAL"]) as hands:
        hands.wait_for("host", "ANN: press any key to roll")
        hands.type("host", " ")
        hands.wait_for("host", "Roll 1 of 3")
        hands.type("host", "r", "c", "y")
        hands.wait_for("BOB", "BOB: press any key to roll")
        hands.drop("BOB")
        hands.wait_for("host", "BOB is away")
        assert prompt_line(hands.text("host")).startswith("BOB: press any key to roll")  # the host answers for him
        hands.log_in("BOB", proof=code_proof("K7Q2MX"))
        hands.wait_for("host", "BOB is back")
        waiting = "BOB is rolling the dice. U takes back your posting."  # ANN's, at the host's keyboard
        assert prompt_line(hands.wait_for("host", waiting)) == waiting
        assert prompt_line(hands.wait_for("BOB", "BOB: press any key to roll")) == "BOB: press any key to roll"
        assert "BOB is rolling the dice." in prompt_line(hands.wait_for("CAL", "BOB is rolling the dice."))
        hands.type("host", " ")
        hands.wait_for("host", "It is BOB's turn.")
        hands.type("BOB", " ")
        hands.wait_for("BOB", "Roll 1 of 3")


def test_a_friend_on_the_names_screen_reads_his_own_line_and_his_keys_are_answered_at_once() -> None:
    from yahtzee.screens.steps import Moment, Screen
    line = "The host is getting the game ready. Here: F9 sound, D language, F10 leaves the table."
    with table([], FACES, logins=["BOB"], begun=False, moment=Moment(Screen.NAMES)) as hands:
        hands.wait_for("host", "Player 1 name:")
        wait_until(lambda: line in " ".join(hands.text("BOB").split()), failure=lambda: hands.text("BOB"))
        assert "Player 1 name:" not in hands.text("BOB")
        hands.type("host", "A", "N")  # the host is typing a name: BOB's keys are still his own
        hands.type("BOB", "m")
        hands.wait_for("BOB", "Sound at your seat is now OFF.")
        hands.type("BOB", "x")
        hands.wait_for("BOB", "The host is getting the game ready.\n")
        hands.type("host", "N", "Enter")
        hands.wait_for("host", "Player 2 name:")
        screen = hands.wait_for("BOB", "1. ANN")
        assert line in " ".join(screen.split()) and "Player 2 name:" not in screen


def test_a_friend_is_said_to_have_joined_only_once_the_game_seats_him() -> None:
    from tablehands import Table
    hands = Table(PLAYERS, FACES, before_game=False)
    hands.session.seats.take("bob", "SHA256:Bobs+Key")
    hands.start()
    try:
        hands.wait_for("host", "ANN: press any key to roll")
        hands.log_in("BOB", address="127.0.0.5")  # not his key: let go, never seated
        hands.wait_for("BOB", "BOB's seat was taken with a key")
        hands.log_in("CAL", address="127.0.0.6")
        hands.wait_for("CAL", "CAL is not a seat played here: you watch.")
        hands.log_in("BOB", proof="SHA256:Bobs+Key", address="127.0.0.7")
        hands.wait_for("host", "BOB joined the table over SSH from 127.0.0.7.")
        hands.wait_for("CAL", "BOB joined the table over SSH from 127.0.0.7.")
        assert "CAL joined the table over SSH from 127.0.0.6." in hands.text("host")
        assert "127.0.0.5" not in hands.text("host") and "joined" not in hands.text("BOB")
    finally:
        hands.close()


def test_a_refusal_goes_with_its_question_and_never_stands_under_the_next() -> None:
    with table(["ANN", "BOB", "CAL"], FACES, logins=["BOB", "CAL"]) as hands:
        at_bobs_first_roll(hands)
        hands.type("CAL", "1")
        hands.wait_for("CAL", "It is BOB's turn.")
        hands.friends["CAL"].drawings = []
        hands.type("BOB", "r")
        hands.wait_for("CAL", "BOB decides where to post.")
        hands.settle(0.2)
        drawings = hands.friends["CAL"].drawings
        assert drawings and not any("It is BOB's turn." in drawing for drawing in drawings)
        hands.type("BOB", "x")  # a wrong key at the question asked: the reminder stays while it is asked
        hands.wait_for("BOB", "Keys here:")
        hands.type("CAL", "F9")
        hands.wait_for("CAL", "Sound at your seat is now OFF.")
        hands.settle(0.2)
        assert "Keys here:" in hands.text("BOB")
