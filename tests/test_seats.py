"""The seat contract of a hosted table, in process (tests/tablehands.py): each terminal is asked
only what it may answer, its keys stay at its own seat, and it reads the game in its own
language and colours. The real OpenSSH client plays whole games in test_ssh_table.py."""
import sys

import pytest

if sys.platform == "win32":  # its module-level code already needs what Windows lacks
    pytest.skip("posix: a hosted table's seats (hosting needs a POSIX system; under Wine, asyncssh's "
                "cryptography wants bcryptprimitives.dll)", allow_module_level=True)

import contextlib
import datetime
import difflib
import os
import re
import threading
import time
from pathlib import Path

from helpers import wait_until
from tablehands import table

from yahtzee.model.words import Say
from yahtzee.present.look import Look
from yahtzee.speech import languages as language

pytestmark = pytest.mark.slow(3)

FACES = [1, 2, 3, 4, 6] * 60  # never five alike: every posting is asked to be verified
PLAYERS = ["ANN", "BOB"]  # ANN at the host's keyboard, BOB at his own terminal


def prompt_line(screen):
    """The line under the sheet (its last row is the grand total): the question, or this
    terminal's own line."""
    lines = screen.splitlines()
    return lines[1 + next(n for n, line in enumerate(lines) if line.startswith(("GRAND TOTAL", "ENDSUMME")))]


def last_line(screen):
    """The last line written on the screen."""
    return [line for line in screen.splitlines() if line.strip()][-1]


def at_bobs_first_roll(hands):
    """ANN posts in CHANCE at the host; BOB's first roll at his terminal."""
    hands.wait_for("host", "ANN: press any key to roll")
    hands.type("host", " ")
    hands.wait_for("host", "Roll 1 of 3")
    hands.type("host", "r")
    hands.wait_for("host", "Post where?")
    hands.type("host", "c")
    hands.wait_for("host", "(Y/N)")
    hands.type("host", "y")
    hands.wait_for("BOB", "BOB: press any key to roll")
    hands.type("BOB", " ")
    return hands.wait_for("BOB", "Roll 1 of 3")


def bob_posts(hands, box="c"):
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


def test_each_terminal_is_asked_only_what_it_may_answer_and_refused_the_rest():
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
                hands.wait_for(who, told)
                hands.settle(0.1)
                assert hands.text(asked) == before, (moment, who, key)  # the key answered nothing
                assert prompt_line(hands.wait_for(who, line)) == line, (moment, who)  # once drawn whole


def test_the_hosts_keys_during_a_friends_turn_are_refused_and_never_replayed_when_he_drops():
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


def dice_of(screen):
    """The dice faces drawn on a play screen, by their pips."""
    rows = [line[36:] for line in screen.splitlines()[2:8]]
    return [sum(row[6 * die:6 * die + 5].count("●") for row in rows[1:4]) for die in range(5)]


def test_the_hosts_hot_keys_act_during_a_friends_turn_before_his_next_key_is_read():
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


def test_a_friend_takes_back_his_own_posting_at_his_own_terminal():
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


def test_a_watcher_is_told_so_and_leaves_with_f10_asked_first():
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


def test_a_friend_leaves_with_f10_asked_first_even_on_his_own_turn():
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


def test_a_friends_f9_is_his_seats_own_and_shown_on_his_screen():
    with table(PLAYERS, FACES, logins=["BOB"]) as hands:
        hands.wait_for("BOB", "ANN is rolling the dice.")
        hands.type("BOB", "m")
        screen = hands.wait_for("BOB", "Sound at your seat is now OFF.")
        assert sound_column(screen) == "OFF" and sound_column(hands.text("host")) == "ON"
        hands.type("BOB", "F8")
        hands.wait_for("BOB", "Verify is the host's to change.")
        assert hands.seats["BOB"].sound is False and hands.session.sound is True


def sound_column(screen):
    """The state shown under Sound in the middle column of the play screen."""
    lines = screen.splitlines()
    row = next(n for n, line in enumerate(lines) if line[28:].startswith(("Sound", "Ton")))
    return lines[row + 1][28:36].strip()


def test_a_friends_screens_speak_the_language_his_client_sends_and_d_changes_it():
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


def test_a_notice_from_another_thread_reaches_each_terminal_in_its_own_language():
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


def test_a_table_waiting_for_the_hosts_key_sleeps_though_a_friend_typed_last_and_another_came():
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
        waits, wait = [], hands.table._wait
        hands.table._wait = lambda: (waits.append(time.monotonic()), wait())
        time.sleep(1.0)
        hands.table._wait = wait
        assert len(waits) < 20, f"{len(waits)} waits for a key in a second"


def test_a_terminal_of_another_charset_is_drawn_in_ascii_and_vt100_in_no_colour():
    latin = {"BOB": {"LANG": "de_DE.ISO-8859-1"}}
    with table(PLAYERS, FACES, logins=["BOB"], environments=latin, term="vt100") as hands:
        screen = hands.wait_for("BOB", "ANN")
        raw = bytes(hands.friends["BOB"].raw)
        assert "┌" not in screen and "+---+" in screen
        assert not re.search(rb"\x1b\[[0-9;]*m", raw)
        assert raw.decode("ascii", "replace").isascii()
        assert re.search(r"\x1b\[[0-9;]*m", "".join(hands.host_output.written))


def test_one_screen_is_drawn_in_english_and_german_from_two_threads_at_once():
    from yahtzee.model.game import PostingResult
    from yahtzee.model.scoring import Category
    from yahtzee.screens.playscreen import posting_note
    note = posting_note(PostingResult("ANN", Category.FULL_HOUSE, 25, 0))
    frame = lambda look: [look.words(note), look.words(Say("Roll {roll} of {rolls}").format(roll=1, rolls=3))]  # noqa: E731
    seen = {"en": set(), "de": set()}

    def draw(code):
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
def test_no_model_or_screen_module_imports_the_language_layer(module):
    import ast
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "yahtzee" / (module.replace(".", "/") + ".py")
    imported = {node.module or "" for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.ImportFrom)}
    assert not {name for name in imported if name.split(".")[-1] == "languages"}, module


def test_the_language_is_the_drawings_and_no_module_keeps_a_current_one():
    import ast
    from pathlib import Path
    source = (Path(__file__).resolve().parent.parent / "yahtzee" / "speech" / "languages.py").read_text()
    assigned = [target.id for node in ast.parse(source).body if isinstance(node, (ast.Assign, ast.AnnAssign))
                for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
                if isinstance(target, ast.Name)]
    assert "global" not in source and not {"_current", "_catalog"} & set(assigned)
    results = {}
    thread = threading.Thread(target=lambda: results.setdefault("other", language.current()))
    with language.speaking("de"):
        thread.start()
        thread.join()
        results["here"] = language.current()
    assert results == {"other": "en", "here": "de"}  # a thread starts in English, whatever another speaks


GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("YAHTZEE_GOLDEN_UPDATE") == "1"


def painted(screen):
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
def test_one_moment_at_two_terminals_in_two_languages_and_two_colour_depths(who, name):
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


def test_the_lobby_is_the_hosts_and_a_friends_keys_there_are_refused():
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


def open_files():
    """How many pipes and sockets this process has open: what a connection and its seat hold
    (a table file another test's thread reads in this worker comes and goes, and is not counted)."""
    kinds = []
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):  # the listing's own descriptor is gone already
            kinds.append(os.readlink(f"/proc/self/fd/{fd}").split(":")[0])
    return sum(kind in ("pipe", "socket") for kind in kinds)


def test_no_pipe_outlives_its_seat_however_quickly_friends_come_and_go(tmp_path):
    from tablehands import Table

    from yahtzee.net.credentials import table_credentials
    from yahtzee.net.server import TableServer

    class Channel:
        """A session's channel, as far as joining asks of it."""

    server = TableServer(table_credentials(tmp_path), "127.0.0.1", 0, lambda line: None)
    hands = Table(PLAYERS, FACES, logins=["BOB"])
    hands.table.server = server
    try:
        before = open_files()
        for round_ in range(300):
            assert server.join(f"EVE{round_ % 7}", Channel(), 80, 24) is None
            seat = server.seat(f"EVE{round_ % 7}")
            if round_ % 3 == 0:
                hands.table.refresh()  # the game looks while this one is there: it is taken in
            server.leave(seat)
            if round_ % 2 == 0:
                hands.table.refresh()  # and lets go of the gone
        hands.table.refresh()
        assert open_files() <= before + 1 and server.seats == {} and hands.table.friends == {}
    finally:
        server._loop.close()
        hands.close()


def test_guesses_sent_without_waiting_are_each_counted_and_the_right_password_after_them_is_refused(tmp_path):
    import asyncio

    from yahtzee.net.credentials import table_credentials
    from yahtzee.net.door import Door
    from yahtzee.net.limits import MAX_LOGIN_ATTEMPTS
    from yahtzee.net.server import TableServer

    class Connection:
        closed = False

        def close(self):
            self.closed = True

    told = []
    server = TableServer(table_credentials(tmp_path), "127.0.0.1", 0, told.append)

    async def pipelined():
        door, connection = Door(server), Connection()
        door.conn = connection
        for guess in range(500):  # as asyncssh does when the next request comes: the check under way is cancelled
            check = asyncio.ensure_future(door.validate_password("EVE", f"guess{guess}"))
            await asyncio.sleep(0)
            check.cancel()
        right = await door.validate_password("EVE", server.credentials.password)
        return right, connection.closed

    try:
        assert asyncio.run(pipelined()) == (False, True)
        assert [language.text(line) for line in told] == [
            f"A connection was closed after {MAX_LOGIN_ATTEMPTS} failed logins."]
    finally:
        server._loop.close()


def test_the_right_password_within_the_limit_still_lets_a_friend_in(tmp_path):
    import asyncio

    from yahtzee.net.credentials import table_credentials
    from yahtzee.net.door import Door
    from yahtzee.net.server import TableServer
    server = TableServer(table_credentials(tmp_path), "127.0.0.1", 0, lambda line: None)

    async def two_wrong_then_right():
        door = Door(server)
        door.conn = None
        wrong = [await door.validate_password("BOB", "nope"), await door.validate_password("BOB", "nope")]
        return wrong, await door.validate_password("BOB", server.credentials.password)

    try:
        assert asyncio.run(two_wrong_then_right()) == ([False, False], True)
    finally:
        server._loop.close()


def test_logins_under_way_are_limited_per_address_and_a_flood_is_dropped_at_random():
    from yahtzee.net.limits import EARLY_DROP_FROM, MAX_STARTUPS, MAX_STARTUPS_PER_ADDRESS, PENALTY_SECONDS, Limits
    limits = Limits()
    assert [limits.admit("10.0.0.1") for _ in range(MAX_STARTUPS_PER_ADDRESS)] == [None] * MAX_STARTUPS_PER_ADDRESS
    assert language.text(limits.admit("10.0.0.1")) == "Refused 10.0.0.1: at most 3 logins at once from one address."
    assert limits.admit("10.0.0.2") is None  # another address still gets in
    limits.left_unseated("10.0.0.1")
    assert language.text(limits.admit("10.0.0.1")).startswith("Refused 10.0.0.1 for 5 s more")  # its penalty
    assert limits.admit("10.0.0.1", now=time.monotonic() + PENALTY_SECONDS) is None  # then a place again
    while sum(limits.starting.values()) < EARLY_DROP_FROM:
        assert limits.admit(f"10.0.1.{len(limits.starting)}") is None  # below the early drop, none is refused
    limits.early_drop.seed(1)
    tries = [limits.admit(f"10.0.2.{n}") for n in range(200)]
    assert any(t is None for t in tries) and any(t is not None for t in tries)  # dropped at random
    assert sum(limits.starting.values()) == MAX_STARTUPS  # and never past the most
    assert all(limits.admit(f"10.0.3.{n}") is not None for n in range(50))
    assert limits.logged_in("10.0.0.2") is None and limits.seated == 1


def test_at_most_sixty_passwords_a_minute_are_checked_from_one_address():
    from yahtzee.net.limits import MAX_ADDRESSES_KEPT, PASSWORDS_PER_MINUTE, Limits
    limits = Limits()
    checked = [limits.may_check_password("10.0.0.1", now=second / 10) for second in range(200)]
    assert checked.count(True) == PASSWORDS_PER_MINUTE == 60 and not any(checked[60:])
    assert limits.may_check_password("10.0.0.2", now=20.0)  # another address is not held back
    assert limits.may_check_password("10.0.0.1", now=60.0)  # a minute after its first, one more
    for n in range(MAX_ADDRESSES_KEPT + 10):
        limits.may_check_password(f"10.1.{n // 256}.{n % 256}", now=30.0)
    assert len(limits.passwords) == MAX_ADDRESSES_KEPT  # bounded, the oldest forgotten


def test_a_connection_opens_one_terminal_at_most(tmp_path):
    from yahtzee.net.credentials import table_credentials
    from yahtzee.net.door import MAX_SESSION_REQUESTS, Door
    from yahtzee.net.server import TableServer

    class Connection:
        closed = False

        def get_extra_info(self, name):
            return "BOB"

        def close(self):
            self.closed = True

    told = []
    server = TableServer(table_credentials(tmp_path), "127.0.0.1", 0, told.append)
    try:
        door = Door(server)
        door.conn = Connection()
        assert door.session_requested() is not False
        assert [door.session_requested() for _ in range(MAX_SESSION_REQUESTS - 1)] == [False] * 9
        assert not door.conn.closed
        assert door.session_requested() is False and door.conn.closed  # one that keeps asking is closed
        assert [language.text(line) for line in told][-1].endswith("asked for terminal after terminal and was closed.")
    finally:
        server._loop.close()


def test_the_table_log_keeps_every_login_one_line_for_repeats_and_never_grows_past_three_files(tmp_path, monkeypatch):
    from yahtzee.net import log as log_module
    from yahtzee.net.log import LOG_FILE, TableLog
    log = TableLog(tmp_path, clock=lambda: datetime.datetime(2026, 12, 3, 8, 0, tzinfo=datetime.timezone.utc))
    log.record("127.0.0.2", "BOB", "logged in with the password")
    for _ in range(500):
        log.record("10.0.0.9", "EVE\x1b[31m\x07", "wrong password")
    log.record("127.0.0.2", "BOB", "left")
    log.close()
    lines = (tmp_path / LOG_FILE).read_text(encoding="utf-8").splitlines()
    assert lines == ["2026-12-03T08:00:00+00:00 127.0.0.2 BOB logged in with the password",
                     "2026-12-03T08:00:00+00:00 10.0.0.9 EVE wrong password",
                     "2026-12-03T08:00:00+00:00 10.0.0.9 EVE wrong password (and 499 times more)",
                     "2026-12-03T08:00:00+00:00 127.0.0.2 BOB left"]
    monkeypatch.setattr(log_module, "LOG_BYTES", 64 * 1024)  # rotated as at 1 MiB, in a sixteenth of the lines
    big = TableLog(tmp_path / "big")
    for n in range(2_500):
        big.record(f"10.0.{n // 256 % 256}.{n % 256}", f"EVE{n}", "wrong password " + "x" * 40)
    big.close()
    files = sorted((tmp_path / "big").iterdir())
    assert len(files) == 3 and all(path.stat().st_size <= 64 * 1024 for path in files)


def test_a_login_and_a_wrong_password_are_logged_with_the_address(tmp_path):
    import asyncio

    from yahtzee.net.credentials import table_credentials
    from yahtzee.net.door import Door
    from yahtzee.net.log import LOG_FILE, TableLog
    from yahtzee.net.server import TableServer

    class Connection:
        def get_extra_info(self, name, default=None):
            return ("127.0.0.2", 50000) if name == "peername" else default

        def close(self):
            pass

        def abort(self):
            pass

    server = TableServer(table_credentials(tmp_path), "127.0.0.1", 0, lambda line: None, TableLog(tmp_path))

    async def attempts():
        door = Door(server)
        door.connection_made(Connection())
        await door.validate_password("BOB", "wrong")
        await door.validate_password("BOB", server.credentials.password)

    try:
        asyncio.run(attempts())
    finally:
        server._loop.close()
        server.log.close()
    said = [line.split(" ", 1)[1] for line in (tmp_path / LOG_FILE).read_text(encoding="utf-8").splitlines()]
    assert said == ["127.0.0.2 BOB wrong password", "127.0.0.2 BOB logged in with the password"]


def test_a_friends_key_flood_is_answered_at_once_and_drawn_once(tmp_path):
    with table(PLAYERS, FACES, logins=["BOB"]) as hands:
        at_bobs_first_roll(hands)
        hands.settle(0.2)
        sent = sum(map(len, hands.host_output.written))
        with hands.held():
            hands.type("BOB", "1" * 2001)  # as one packet: an odd count leaves die 1 marked
        started = time.monotonic()
        hands.wait_for("BOB", "[1]")
        hands.wait_for("host", "[1]")
        hands.settle(0.3)
        drawn = sum(map(len, hands.host_output.written)) - sent
        assert time.monotonic() - started < 2.0 and drawn < 50_000, drawn  # a few screens, not 2,001


# -- whose a seat is, and whom the host removes ----------------------------------------------

def test_a_friend_with_the_password_gets_a_rejoin_code_shown_only_at_his_terminal():
    import json

    from yahtzee.net.owners import code_proof
    from yahtzee.saves.codec import session_to_dict
    with table(PLAYERS, FACES, logins=["BOB"]) as hands:
        hands.wait_for("BOB", "Your rejoin code is K7Q2MX: with it you take BOB's seat back if you leave")
        hands.wait_for("host", "ANN: press any key to roll")
        assert "K7Q2MX" not in hands.text("host")
        assert hands.session.seat_owners == {"bob": code_proof("K7Q2MX")} == hands.server.owners
        assert "K7Q2MX" not in json.dumps(session_to_dict(hands.session))  # the autosave keeps only its hash


def test_a_friend_with_a_key_owns_his_seat_by_its_fingerprint_and_is_given_no_code():
    with table(PLAYERS, FACES, logins=[]) as hands:
        hands.session.seat_owners["bob"] = ""  # a seat the host's saved game marks as a friend's, not yet proved
        hands.log_in("BOB", proof="SHA256:Bobs+Key")
        hands.wait_for("BOB", "ANN is rolling the dice.")
        assert hands.session.seat_owners == {"bob": "SHA256:Bobs+Key"} and "rejoin code" not in hands.text("BOB")


def test_the_host_removes_a_friend_whose_seat_is_then_played_at_the_hosts_keyboard():
    with table(PLAYERS, FACES, logins=["BOB"]) as hands:
        at_bobs_first_roll(hands)
        hands.log_in("ZED", address="127.0.0.3")
        hands.wait_for("ZED", "ZED is not a seat played here: you watch.")
        hands.type("host", "F7")
        page = hands.wait_for("host", "Who is at the table")
        rows = [line.split() for line in page.splitlines() if re.match(r" [12]  ", line)]
        assert rows == [["1", "BOB", "plays", "here", "from", "127.0.0.2", "password,", "rejoin", "code"],
                        ["2", "ZED", "watches", "here", "from", "127.0.0.3", "password"]]
        assert "K7Q2MX" not in page and "Friends join with: ssh -p 8022 NAME@here (password secret)" in page
        hands.type("host", "9")
        hands.wait_for("host", "Press a number from the list, or Esc.")
        hands.type("host", "1")
        hands.wait_for("BOB", "The host removed you from the table.")
        hands.wait_for("host", "BOB was removed from the table for the rest of the game.")
        hands.type("host", "Esc")
        hands.wait_for("host", "Roll 1 of 3")  # BOB's turn goes on, at the host's keyboard
        hands.type("host", "1")
        hands.wait_for("host", "[1]")
        assert hands.seats["BOB"].gone and hands.session.seat_owners == {}
        assert hands.server.removed == {("bob", "@127.0.0.2")}


def test_a_seat_whose_friend_is_away_is_listed_and_freed_by_the_host():
    with table(PLAYERS, FACES, logins=["BOB"]) as hands:
        hands.wait_for("host", "ANN: press any key to roll")
        hands.drop("BOB")
        hands.settle(0.3)
        hands.type("host", "F7")
        page = hands.wait_for("host", "Who is at the table")
        assert re.search(r" 1  bob +plays +away +password, rejoin code", page), page
        hands.type("host", "1")
        hands.wait_for("host", "bob was removed from the table for the rest of the game.")
        assert hands.session.seat_owners == {} and "Nobody has joined over SSH." in hands.text("host")


def served(tmp_path, owners=None):
    """A real table server listening on loopback, no game behind it; its seats' owners given."""
    from yahtzee.net.credentials import table_credentials
    from yahtzee.net.log import TableLog
    from yahtzee.net.server import TableServer
    told = []
    server = TableServer(table_credentials(tmp_path), "127.0.0.1", 0, told.append, TableLog(tmp_path))
    server.owners = owners or {}
    server.start()
    return server, told


async def at_the_door(server, name, typed, address="127.0.0.1"):
    """A friend logs in with the password from `address`, gets a terminal, types `typed` line by
    line as each question comes; what their terminal read, and their seat at the server then."""
    import asyncio

    import asyncssh
    async with asyncssh.connect("127.0.0.1", server.port, username=name, password=server.credentials.password,
                                known_hosts=None, local_addr=(address, 0)) as conn:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        read = b""
        for line in typed:
            while not read.rstrip().endswith(b":"):
                read += await asyncio.wait_for(process.stdout.read(1024), 5)
            process.stdin.write(line.encode() + b"\r")
            read += b"|"
        try:
            while True:
                chunk = await asyncio.wait_for(process.stdout.read(1024), 2)
                if not chunk:
                    break
                read += chunk
        except asyncio.TimeoutError:
            pass
        return read.decode(errors="replace"), server.seat(name)


def test_a_seat_taken_with_the_password_is_taken_again_only_with_its_rejoin_code(tmp_path):
    import asyncio

    from yahtzee.net.owners import code_proof
    server, told = served(tmp_path, {"bob": code_proof("ABC234")})
    try:
        read, seat = asyncio.run(at_the_door(server, "BOB", ["WRONG1", "abc 234"]))
        assert "BOB's seat is kept for the friend who took it. Their rejoin code:" in read
        assert "That is not the code. Their rejoin code:" in read
        assert seat is not None and seat.code == "ABC234" and seat.proof == code_proof("ABC234")
        read, seat = asyncio.run(at_the_door(server, "BOB", ["NOPE1", "NOPE2", "NOPE3"]))
        assert read.rstrip().endswith("That is not the code.") and seat is None
        log = (tmp_path / "table.log").read_text()
        assert "BOB wrong rejoin code: closed" in log and "ABC234" not in log
    finally:
        server.close()


def test_a_removed_friend_is_refused_by_name_and_address_or_by_name_and_key(tmp_path):
    import asyncio

    from yahtzee.net.owners import removal_mark
    server, told = served(tmp_path)
    try:
        server.remove(removal_mark("BOB", "", "127.0.0.2"), None)
        server.remove(removal_mark("CAT", "SHA256:Cats+Key", "127.0.0.9"), None)
        read, seat = asyncio.run(at_the_door(server, "BOB", [], address="127.0.0.2"))
        assert "The host removed BOB from this table." in read and seat is None
        read, seat = asyncio.run(at_the_door(server, "BOB", [], address="127.0.0.3"))
        assert "The host removed" not in read and seat is not None
        assert server.join("CAT", None, 80, 24, proof="SHA256:Cats+Key", address="127.0.0.4") is not None
        assert server.join("CAT", None, 80, 24, proof="", address="127.0.0.4") is None  # password, another address
    finally:
        server.close()


def test_a_resumed_game_keeps_each_seat_its_friends_and_an_older_save_still_reads():
    from yahtzee.net.owners import code_proof
    from yahtzee.saves.codec import session_from_dict, session_to_dict
    from yahtzee.saves.strict import DamagedSave
    with table(PLAYERS, FACES) as hands:
        hands.session.seat_owners.update({"bob": code_proof("K7Q2MX")})
        data = session_to_dict(hands.session)
        assert session_from_dict(data).seat_owners == {"bob": code_proof("K7Q2MX")}
        older = {key: value for key, value in data.items() if key != "seat_owners"}
        assert session_from_dict({**older, "friend_seats": ["bob"]}).seat_owners == {"bob": ""}
        for damaged in ({"bob": "code:1234"}, {"bob": 7}, {"": "SHA256:x"}, ["bob"]):
            with pytest.raises(DamagedSave):
                session_from_dict({**older, "seat_owners": damaged})


def test_a_login_that_does_not_prove_a_resumed_games_seat_is_let_go():
    from tablehands import Table
    hands = Table(PLAYERS, FACES, before_game=False)
    hands.session.seat_owners.update({"bob": "SHA256:Bobs+Key"})  # as the autosave of the crashed run had it
    hands.start()
    try:
        hands.log_in("BOB")  # with the password, before the server has heard whose the seat is
        hands.wait_for("BOB", "BOB's seat was taken with a key: join again with the same key.")
        hands.settle(0.2)
        assert hands.seats["BOB"].gone and hands.session.seat_owners == {"bob": "SHA256:Bobs+Key"}
        assert hands.server.owners == {"bob": "SHA256:Bobs+Key"}
        hands.log_in("BOB", proof="SHA256:Bobs+Key")
        hands.wait_for("BOB", "ANN is rolling the dice. Here: F9 sound")  # his key takes it back
    finally:
        hands.close()


def test_before_the_game_at_most_four_names_are_claimed_and_only_players_keep_theirs():
    from tablehands import Table

    from yahtzee.model.game import MAX_PLAYERS
    hands = Table(PLAYERS, FACES, logins=["ANN", "BOB", "CAT", "DAN", "EVE"], begun=False)
    try:
        assert len(hands.session.seat_owners) == MAX_PLAYERS and "eve" not in hands.session.seat_owners
        hands.drop("CAT")
        hands.table.refresh()  # a name taken stays its friend's, away or not, until the host frees it
        assert set(hands.session.seat_owners) == {"ann", "bob", "cat", "dan"} == set(hands.server.owners)
        hands.session.new_game()
        hands.table.refresh()  # the game began: only its players' seats are anyone's
        assert set(hands.session.seat_owners) == {"ann", "bob"}
    finally:
        hands.close()


def test_a_storm_of_notices_tells_the_host_a_few_lines_of_each_kind_and_keeps_no_more(tmp_path, monkeypatch):
    from yahtzee.net import server as server_module
    from yahtzee.net.credentials import table_credentials
    from yahtzee.net.server import NOTICE_GAP, NOTICES_OF_A_KIND, TableServer
    told = []
    server = TableServer(table_credentials(tmp_path), "127.0.0.1", 0, told.append)
    monkeypatch.setattr(server_module.time, "monotonic", lambda: 1000.0)  # one moment, however slow the machine
    try:
        for size in range(20_000):  # as many window sizes, each its own line
            server.notify(Say("A window of {columns}x{lines} is drawn as {most} ({name}).").format(
                columns=1000 + size, lines=500, most="500x200", name="EVE"))
        assert len(told) == NOTICES_OF_A_KIND and len(server._told) == NOTICES_OF_A_KIND
        server.notify(Say("{name} left the table.").format(name="EVE"))  # another kind gets through
        server.notify(Say("{name} left the table.").format(name="EVE"))  # the same line is told once
        assert [language.text(line) for line in told[-2:]] == ["A window of 1002x500 is drawn as 500x200 (EVE).",
                                                                "EVE left the table."]
        server._told = type(server._told)((line, at - NOTICE_GAP) for line, at in server._told.items())
        server.notify(Say("A window of {columns}x{lines} is drawn as {most} ({name}).").format(
            columns=1, lines=500, most="500x200", name="EVE"))  # a gap later, the host hears again
        assert len(told) == NOTICES_OF_A_KIND + 2 and len(server._told) == 1
    finally:
        server._loop.close()


def test_keys_past_a_seats_rate_are_dropped_and_the_rest_kept(tmp_path):
    import asyncio

    from yahtzee.net.credentials import table_credentials
    from yahtzee.net.seatsession import MAX_INPUT_RATE, SeatSession
    from yahtzee.net.server import TableServer

    class Seat:
        typed_keys = b""

        def typed(self, data):
            self.typed_keys += data
            return True

    told = []
    server = TableServer(table_credentials(tmp_path), "127.0.0.1", 0, told.append)

    async def flood():
        session = SeatSession(server, "BOB", "")
        session.seat = Seat()
        session.data_received(b"1" * (2 * MAX_INPUT_RATE), None)  # one packet of twice a second's keys
        session.data_received(b"2", None)
        session.idle.cancel()
        return session.seat.typed_keys

    try:
        assert asyncio.run(flood()) == b"1" * MAX_INPUT_RATE
        assert [language.text(line) for line in told] == ["Keys from BOB came too fast: some were dropped."]
    finally:
        server._loop.close()


def test_no_file_outlives_a_real_connection_that_logs_in_opens_a_terminal_and_drops(tmp_path):
    import asyncio

    import asyncssh
    server, told = served(tmp_path)

    async def reconnects(count):
        for number in range(count):
            async with asyncssh.connect("127.0.0.1", server.port, username=f"E{number % 7}",
                                        password=server.credentials.password, known_hosts=None,
                                        client_keys=None) as conn:
                await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)

    try:
        asyncio.run(reconnects(5))  # asyncssh's own first-use files are open before counting
        time.sleep(0.3)
        before = open_files()
        asyncio.run(reconnects(50))  # with the first five, within the address's 60 passwords a minute
        wait_until(lambda: open_files() <= before, poll=0.05, failure=lambda: f"{open_files()} open, not {before}")
        assert server.present() == []
    finally:
        server.close()


def test_an_address_that_breaks_a_limit_is_refused_longer_at_each_offence_up_to_a_minute():
    from yahtzee.net.limits import MAX_ADDRESSES_KEPT, MAX_PENALTY_SECONDS, PENALTY_SECONDS, Limits
    limits = Limits()
    limits.penalize("10.0.0.1", now=100.0)
    assert language.text(limits.admit("10.0.0.1", now=100.0)) == "Refused 10.0.0.1 for 5 s more: it broke a limit."
    assert limits.admit("10.0.0.2", now=100.0) is None  # another address is not held back
    assert limits.admit("10.0.0.1", now=100.0 + PENALTY_SECONDS) is None
    for _ in range(100):
        limits.penalize("10.0.0.3", now=200.0)
    assert limits.penalties["10.0.0.3"] == 200.0 + MAX_PENALTY_SECONDS
    assert limits.admit("10.0.0.3", now=200.0 + MAX_PENALTY_SECONDS) is None
    for n in range(MAX_ADDRESSES_KEPT + 10):
        limits.penalize(f"10.1.{n // 256}.{n % 256}", now=300.0)
    assert len(limits.penalties) == MAX_ADDRESSES_KEPT  # bounded, the oldest forgotten
    assert [limits.may_check_password("10.0.0.4", now=400.0) for _ in range(61)].count(False) == 1
    assert limits.admit("10.0.0.4", now=400.0) is not None  # past its passwords a minute: penalized too


def test_a_rejoin_code_is_six_letters_that_read_apart_and_its_proof_forgives_case_and_spaces():
    import random

    from yahtzee.net.owners import CODE_LENGTH, CODE_LETTERS, by_code, code_proof, new_code, removal_mark
    from yahtzee.saves.proofs import is_seat_proof
    codes = {new_code(random.Random(seed).choice) for seed in range(200)}
    assert len(codes) == 200 and all(len(code) == CODE_LENGTH and set(code) <= set(CODE_LETTERS) for code in codes)
    assert not set("IO01") & set(CODE_LETTERS)
    assert code_proof("k7q 2mx") == code_proof("K7Q2MX") != code_proof("K7Q2MY")
    proof = code_proof("K7Q2MX")
    assert by_code(proof) and is_seat_proof(proof) and "K7Q2MX" not in proof
    assert removal_mark("BOB", "SHA256:Key", "10.0.0.1") == ("bob", "SHA256:Key")  # by key, wherever from
    assert removal_mark("BOB", "", "10.0.0.1") == removal_mark("bob", code_proof("K7Q2MX"), "10.0.0.1") == (
        "bob", "@10.0.0.1")  # by address, with the password


def test_every_terminals_line_is_redrawn_when_a_friend_comes_back_to_his_turn():
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


def test_a_friend_on_the_names_screen_reads_his_own_line_and_his_keys_are_answered_at_once():
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


def saved_table(tmp_path):
    """A saves folder whose saved game is ANN's and BOB's first round, BOB's seat taken with the
    rejoin code K7Q2MX; a table whose host is asked whether to resume it."""
    from tablehands import Table

    from yahtzee.net.owners import code_proof
    from yahtzee.saves.store import Saves
    from yahtzee.screens.steps import Moment, Screen
    saved = Table(PLAYERS, FACES, logins=[], begun=True)
    saved.session.seat_owners.update({"bob": code_proof("K7Q2MX")})
    with Saves(tmp_path) as saves:
        saves.acquire_lock()
        assert saves.save_session(saved.session, Moment(Screen.PLAY).to_dict())
    saved.close()
    hands = Table([], FACES, before_game=False, begun=False, saves=Saves(tmp_path)).start()
    hands.table.claims.new_code = lambda: "NEW234"
    hands.wait_for("host", "Resume the saved game?")
    return hands


def test_a_friend_who_logs_in_while_the_host_is_asked_to_resume_proves_his_seat_as_after(tmp_path):
    from yahtzee.net.owners import code_proof
    hands = saved_table(tmp_path)
    try:
        hands.settle(0.3)
        assert hands.server.owners == {"bob": code_proof("K7Q2MX")}  # the door asks for his code
        hands.log_in("BOB")  # with the password and no code: as after, he may not take the seat
        hands.wait_for("BOB", "BOB's seat")
        hands.settle(0.2)
        assert hands.seats["BOB"].gone and "NEW234" not in hands.text("BOB")
        hands.log_in("BOB", proof=code_proof("K7Q2MX"))  # the door took his code
        hands.wait_for("BOB", "The host is getting the game ready.")
        hands.type("host", "y")
        hands.wait_for("host", "ANN: press any key to roll")
        hands.wait_for("BOB", "ANN is rolling the dice.")
        assert not hands.seats["BOB"].gone and hands.session is not hands.ctx.session
        assert hands.ctx.session.seat_owners == {"bob": code_proof("K7Q2MX")}
    finally:
        hands.close()


def test_a_friend_waiting_while_the_saved_game_is_set_aside_is_told_and_joins_the_new_names(tmp_path):
    from yahtzee.net.owners import code_proof
    hands = saved_table(tmp_path)
    try:
        hands.log_in("BOB", proof=code_proof("K7Q2MX"))
        hands.wait_for("BOB", "The host is getting the game ready.")
        hands.type("host", "n")
        hands.wait_for("BOB", "The host set the saved game aside: a new game begins.")
        hands.wait_for("host", "Press any key")
        hands.settle(0.2)
        assert hands.ctx.session.seat_owners == {"bob": code_proof("K7Q2MX")}  # his name is a seat to come
        assert "set the saved game aside" not in hands.text("host")
    finally:
        hands.close()


def test_a_friend_is_said_to_have_joined_only_once_the_game_seats_him():
    from tablehands import Table
    hands = Table(PLAYERS, FACES, before_game=False)
    hands.session.seat_owners.update({"bob": "SHA256:Bobs+Key"})
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


def test_a_refusal_goes_with_its_question_and_never_stands_under_the_next():
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
