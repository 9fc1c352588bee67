"""The page of a server of tables: each table's line (host, rules and match, the seats taken
and free, watchers, state, the private mark) in each terminal's language, what fits a page, and
the saved tables it lists from the server's folder."""
import sys
from pathlib import Path

import pytest

from yahtzee.model.game import Player
from yahtzee.model.rules import HASBRO
from yahtzee.model.session import Session
from yahtzee.model.words import Say
from yahtzee.net.hallpage import Listed, hall_view
from yahtzee.present.look import Look
from yahtzee.speech.languages import speaking

QUESTION = Say("N: new table, P: private, a number: join, S: stats, D: language, F10: leave.")
TWO_TABLES = [Listed(1, "ANN", HASBRO.describe(), ("ANN", "BOB", "*gambler"), 2, True),
              Listed(2, "CARL", HASBRO.describe(), (), 0, False)]


def test_the_page_lists_each_table_with_its_host_rules_players_watchers_and_state() -> None:
    lines = [line.rstrip() for line in hall_view(TWO_TABLES)(QUESTION)(Look())]
    assert lines == [
        "  TABLES ON THIS SERVER",
        "",
        "  #  Host      Rules                Players                  Watchers  State",
        "  1  ANN       1987 (forced joker)  ANN BOB *gambler         2         playing",
        "  2  CARL      1987 (forced joker)  -                        -         waiting",
        "",
        "  N: new table, P: private, a number: join, S: stats, D: language, F10: leave.",
    ]


def test_the_page_is_drawn_in_the_terminals_language() -> None:
    with speaking("de"):
        lines = [line.rstrip() for line in hall_view(TWO_TABLES)(QUESTION)(Look())]
        empty = [line.rstrip() for line in hall_view([])(QUESTION)(Look())]
    assert lines[:5] == [
        "  TISCHE AUF DIESEM SERVER",
        "",
        "  #  Gastgeber Regeln               Spieler                  Zuschauer Stand",
        "  1  ANN       1987 (Pflicht-Joker) ANN BOB *gambler         2         im Spiel",
        "  2  CARL      1987 (Pflicht-Joker) -                        -         wartet",
    ]
    assert empty[2] == "  Noch kein Tisch: N eröffnet einen, und du bist sein Gastgeber."
    assert lines[-1] == "  N: neu, P: privat, Nummer: dazusetzen, S: Statistik, D: Sprache, F10: gehen."
    assert max(len(line) for line in lines) < 80


def test_a_saved_table_is_listed_as_saved_in_each_language() -> None:
    saved = [Listed(31, "ANN", HASBRO.describe(), ("ANN", "BOB"), 0, False, saved=True)]
    english = hall_view(saved)(QUESTION)(Look())[3].rstrip()
    with speaking("de"):
        german = hall_view(saved)(QUESTION)(Look())[3].rstrip()
    assert english == "  31 ANN       1987 (forced joker)  ANN BOB                  -         saved"
    assert german == "  31 ANN       1987 (Pflicht-Joker) ANN BOB                  -         pausiert"


def test_a_private_table_is_marked_and_the_page_says_what_the_mark_means() -> None:
    tables = [Listed(1, "ANN", HASBRO.describe(), (), 0, False, private=True), TWO_TABLES[1]]
    lines = [line.rstrip() for line in hall_view(tables)(QUESTION)(Look())]
    assert lines[3:6] == ["  1* ANN       1987 (forced joker)  -                        -         waiting",
                          "  2  CARL      1987 (forced joker)  -                        -         waiting",
                          "  * private: joined with the code its host gives."]
    assert "private" not in " ".join(hall_view(TWO_TABLES)(QUESTION)(Look())[:-1])


def test_a_table_that_plays_a_match_says_it_under_its_rules_on_a_line_of_its_own() -> None:
    from yahtzee.model.match import Challenge
    tables = [Listed(number, f"P{number}", HASBRO.describe(), (), 0, False, match=Challenge(3).describe())
              for number in range(1, 10)]
    lines = [line.rstrip() for line in hall_view(tables)(QUESTION)(Look())]
    assert lines[3:5] == ["  1  P1        1987 (forced joker)  -                        -         waiting",
                          "               a challenge of 3 games"]
    assert lines[17] == "  and 2 more, numbered up to 9: type a table's number to join it."  # 7 tables in 14 lines
    with speaking("de"):
        assert hall_view(tables)(QUESTION)(Look())[4].strip() == "eine Serie von 3 Spielen"


def test_a_page_of_many_tables_lists_what_fits_and_says_how_to_join_the_others() -> None:
    tables = [Listed(number, f"P{number}", HASBRO.describe(), (), 0, False) for number in range(1, 26)]
    lines = [line.rstrip() for line in hall_view(tables)(QUESTION)(Look())]
    assert len(lines) <= 22 and lines[3].startswith("  1  P1 ") and lines[16].startswith("  14 P14 ")
    assert lines[17] == "  and 11 more, numbered up to 25: type a table's number to join it."


if sys.platform == "win32":
    pytest.skip("posix: a server of tables needs a POSIX system", allow_module_level=True)

import os  # noqa: E402

from test_saves import RESUME, mid_game_session  # noqa: E402

from yahtzee.consoles.keymode import KeyConsole  # noqa: E402
from yahtzee.consoles.keyreader import KeyReader  # noqa: E402
from yahtzee.net.seat import RemoteSeat  # noqa: E402
from yahtzee.net.servedtables import OpenTable  # noqa: E402


def seat(name: str) -> RemoteSeat:
    """A login's terminal, sending nowhere."""
    return RemoteSeat(name, lambda data: None, lambda: None, 80, 24)



def test_a_table_lists_as_watchers_those_its_seats_say_watch() -> None:
    ann = seat("ANN")
    session = Session([Player("ANN"), Player("BOB")])
    table = OpenTable(1, ann, KeyConsole(input=ann, output=ann, reader=KeyReader(ann.fileno())), "ann", lambda: session)
    assert table.listed() == Listed(1, "ANN", HASBRO.describe(), ("ANN", "BOB"), 0, False, free=2)
    session.seats.watch(["carl", "dan"])
    assert table.listed().watching == 2
    session.seats.watch([])
    assert table.listed().watching == 0
    table.console.reader.close()
    ann.close()


def test_a_waiting_table_lists_the_seats_taken_its_hosts_and_its_friends_and_how_many_are_free() -> None:
    from yahtzee.net.servedtables import HallTable
    ann, bob, carl = seat("ANN"), seat("BOB"), seat("CARL")
    session = Session([])
    table = OpenTable(1, ann, KeyConsole(input=ann, output=ann, reader=KeyReader(ann.fileno())), "ann", lambda: session)
    table.seats = HallTable(lambda: None, lambda login: None)
    for login in (bob, carl):
        table.seats.add(login)
    session.seats.take("bob", "")  # BOB took a seat; CARL only watches
    listed = table.listed()
    assert (listed.players, listed.free) == (("ANN", "BOB"), 2)
    assert "ANN BOB, 2 free" in hall_view([listed])(QUESTION)(Look())[3]
    table.console.reader.close()
    for login in (ann, bob, carl):
        login.close()


def test_a_name_hosts_three_tables_at_most_and_a_table_saved_thirty_days_ago_is_set_aside(tmp_path: Path) -> None:
    from yahtzee.net.servedtables import new_table_folder, saved_tables
    from yahtzee.saves.store import Saves
    assert new_table_folder("Ann", []) == "ann" and new_table_folder("A/B", []) == "a_2fb"
    assert new_table_folder("ANN", ["ann"]) == "ann-2" and new_table_folder("ANN", ["ann", "ann-2"]) == "ann-3"
    assert new_table_folder("ANN", ["ann", "ann-2", "ann-3"]) is None
    for folder in ("ann", "bob"):
        saves = Saves(tmp_path / folder)
        assert saves.acquire_lock() and saves.save_session(mid_game_session(), RESUME)
        saves.close()
    day = 24 * 3600
    now = (tmp_path / "bob" / "autosave.json").stat().st_mtime
    os.utime(tmp_path / "ann" / "autosave.json", (now - 31 * day, now - 31 * day))
    listed = saved_tables(tmp_path, [], 31, now=now)
    assert [(table.folder, table.listed.number) for table in listed] == [("bob", 31)]
    assert [path.name.startswith("ann.expired-") for path in tmp_path.iterdir() if path.name != "bob"] == [True]
    assert saved_tables(tmp_path, ["bob"], 31, now=now) == []  # an open table's folder is not a saved one


def test_a_private_tables_code_is_kept_in_its_folder_so_saved_it_stays_private(tmp_path: Path) -> None:
    from yahtzee.net.servedtables import keep_code, kept_code, saved_tables
    from yahtzee.saves.store import Saves
    saves = Saves(tmp_path / "ann")
    assert saves.acquire_lock() and saves.save_session(mid_game_session(), RESUME)
    saves.close()
    keep_code(tmp_path / "ann", "K7Q2MX")
    [saved] = saved_tables(tmp_path, [], 31)
    assert saved.code == "K7Q2MX" and saved.listed.private
    (tmp_path / "ann" / "code").write_bytes(b"\xff\xfe")  # damaged: still private, under a new code
    replaced = kept_code(tmp_path / "ann")
    assert len(replaced) == 6 and kept_code(tmp_path / "ann") == replaced
    keep_code(tmp_path / "ann", "")  # the folder's next table is not private
    assert kept_code(tmp_path / "ann") == "" and not saved_tables(tmp_path, [], 31)[0].listed.private
