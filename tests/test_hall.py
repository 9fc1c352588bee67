"""A server of many tables (--serve): each login comes to the page of tables, a player starts a
table and hosts it from their own terminal, others join it; a stop signal saves every table and
a restart offers each host their game again. Real OpenSSH clients over the loopback address."""
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

if sys.platform == "win32":
    pytest.skip("posix: a server of tables needs a POSIX system", allow_module_level=True)

import json  # noqa: E402
import re  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
from functools import partial  # noqa: E402

from helpers import run_game, there, wait_until  # noqa: E402
from terminal import Terminal  # noqa: E402
from test_saves import RESUME, mid_game_session  # noqa: E402

from yahtzee.net.credentials import KeyFileProblem, kept_password  # noqa: E402
from yahtzee.net.hall import Hall  # noqa: E402

pytestmark = [pytest.mark.slow(1), pytest.mark.filterwarnings("ignore::DeprecationWarning")]


def test_the_servers_password_is_kept_from_one_start_to_the_next(tmp_path: Path) -> None:
    first = kept_password(tmp_path)
    assert kept_password(tmp_path) == first and len(first) == 10
    assert (tmp_path / "password").stat().st_mode & 0o077 == 0  # the owner's only
    (tmp_path / "password").write_text("\n")
    with pytest.raises(KeyFileProblem, match="holds no password"):
        kept_password(tmp_path)


def test_serve_runs_alone(tmp_path: Path) -> None:
    done = run_game(["--serve", "127.0.0.1:0", "--host", "--saves", str(tmp_path)], in_process=True)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--serve runs alone" in done.stderr


def test_a_server_with_a_dice_file_it_cannot_use_is_refused_before_it_listens(tmp_path: Path) -> None:
    done = run_game(["--serve", "127.0.0.1:0", "--saves", str(tmp_path), "--dice-file", str(tmp_path / "none")],
                    in_process=True)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "none" in done.stderr
    assert "Serving tables" not in done.stdout


@pytest.fixture
def hall(tmp_path: Path) -> Path:
    """A listed key for the players, and the dice every table rolls."""
    folder = tmp_path / "serve"
    folder.mkdir()
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(tmp_path / "player")], check=True)
    (folder / "authorized_keys").write_text((tmp_path / "player.pub").read_text())
    (tmp_path / "dice.txt").write_text(" ".join(str(1 + n % 6) for n in range(400)))  # never five alike
    return tmp_path


class Players:
    """The players' real ssh clients logged in to a server of tables on `port`, each read
    whenever another waits (as windows on one screen are)."""

    def __init__(self, folder: Path, port: int) -> None:
        self.folder, self.port = folder, port
        self.terms: list[Terminal] = []

    def login(self, name: str, lang: str = "C.UTF-8", key: str = "player") -> Terminal:
        """A player's ssh client logged in with a key (its file's name), at the page of tables."""
        term = Terminal(program=["ssh", "-F", "/dev/null", "-i", str(self.folder / key), "-o",
                                 "IdentitiesOnly=yes", "-o", "StrictHostKeyChecking=no", "-o",
                                 f"UserKnownHostsFile={self.folder / 'known_hosts'}", "-o", "LogLevel=ERROR",
                                 "-o", "SendEnv=LANG", "-tt", "-p", str(self.port), f"{name}@127.0.0.1"],
                        env={"LANG": lang})
        for other in self.terms:
            other.partners.append(term)
            term.partners.append(other)
        self.terms.append(term)
        return term

    def host(self, name: str) -> Terminal:
        """A player logged in who starts a table, at its title screen."""
        term = self.login(name)
        term.wait_for("N: new table")
        term.press("n")
        return term

    def close(self) -> None:
        """Every terminal closed."""
        for term in self.terms:
            term.close()
        self.terms = []


class Served(Players):
    """The server of tables in a terminal of its own (`yahtzee.py --serve`), and its players."""

    def __init__(self, folder: Path) -> None:
        super().__init__(folder, 0)
        self.server, self.port = self.start()

    def start(self) -> tuple[Terminal, int]:
        """The server (again), listening; its terminal and port."""
        server = Terminal("--serve", "127.0.0.1:0", "--saves", str(self.folder / "serve"),
                          "--dice-file", str(self.folder / "dice.txt"))
        self.terms.append(server)
        shown = server.wait_for("Serving tables")
        self.server, self.port = server, int(there(re.search(r"ssh -p (\d+)", shown)).group(1))
        return self.server, self.port


def ann_hosts_and_bob_joins(served: Served) -> tuple[Terminal, Terminal]:
    """ANN starts a table, at its title screen, and BOB joins it from the page."""
    ann = served.host("ANN")
    ann.wait_for("Press any key to begin")
    bob = served.login("BOB")
    bob.wait_for("waiting")
    bob.press("1", "Enter")
    bob.wait_for("The host is getting the game ready.")
    return ann, bob


def ann_and_bob_at_a_table(served: Served) -> tuple[Terminal, Terminal]:
    """ANN hosts a table and BOB joins it; their game begins."""
    ann, bob = ann_hosts_and_bob_joins(served)
    ann.seat("ANN", "BOB")
    ann.press("y")
    return ann, bob


@pytest.fixture
def served(hall: Path) -> Iterator[Served]:
    """The server of tables, closed with its players' terminals after the test."""
    server = Served(hall)
    try:
        yield server
    finally:
        server.close()


def test_players_start_and_join_tables_and_a_restart_offers_each_host_their_saved_game(served: Served) -> None:
    ann = served.login("ANN")
    ann.wait_for("No table yet: N starts one, and you host it.")
    ann.press("n")
    ann.wait_for("Press any key to begin")
    ann.wait_for("Others join this table from the server's page of tables.")
    bob = served.login("BOB", lang="de_DE.UTF-8")
    page = bob.wait_for("wartet")
    assert "TISCHE AUF DIESEM SERVER" in page
    assert re.search(r"1\s+ANN\s+1987 \(Pflicht-Joker\)\s+ANN, 3 frei\s+-\s+wartet", page)  # its host's seat taken
    bob.press("1", "Enter")
    bob.wait_for("Der Gastgeber bereitet das Spiel vor.")
    ann.wait_for("BOB joined the table over SSH from 127.0.0.1.")
    ann.seat("ANN", "BOB")
    ann.press("y")
    ann.wait_for("ANN: press any key to roll")
    carl = served.login("CARL")
    page = carl.wait_for("playing")
    assert re.search(r"1\s+ANN\s+1987 \(forced joker\)\s+ANN BOB\s+-\s+playing", page)
    carl.press("9", "Enter")
    carl.wait_for("There is no table 9.")
    carl.press("1", "Enter")
    carl.wait_for("CARL is not a seat played here: you watch.")
    carl.press("F10")
    carl.wait_for("Stop watching and leave the table? (Y/N)")
    carl.press("y")
    carl.wait_for("N: new table")  # back at the page, on the same connection
    carl.wait_for("1  ANN       1987 (forced joker)  ANN BOB                  -         playing")  # he watches no more
    carl.press("1", "Enter")
    carl.wait_for("you watch")
    served.login("DAN").wait_for("1  ANN       1987 (forced joker)  ANN BOB                  1         playing")
    ann.turn("ANN", "c")
    bob.wait_for("ANN trägt")
    carl.wait_for("BOB is rolling the dice.")
    served.server.child.kill(signal.SIGTERM)
    served.server.wait_for("The server stopped; every table's game is saved.")
    assert served.server.exit_code() == 0
    saved = json.loads((served.folder / "serve" / "tables" / "ann" / "autosave.json").read_text())
    assert [player["name"] for player in saved["players"]] == ["ANN", "BOB"] and "bob" in saved["seat_owners"]
    served.close()
    served.start()  # the saved table is back, and another of its players may take it up
    bob = served.login("BOB")
    page = bob.wait_for("31 ANN")
    assert re.search(r"31 ANN\s+1987 \(forced joker\)\s+ANN BOB\s+-\s+saved", page)
    carl = served.login("CARL")
    carl.wait_for("saved")
    carl.press("3", "1", "Enter")
    carl.wait_for("Only its players may take up a saved table: ANN, BOB.")
    bob.press("3", "1", "Enter")
    bob.wait_for("A SAVED GAME IS WAITING")
    bob.press("y")
    bob.wait_for("BOB: press any key to roll")  # BOB hosts it now: his seat is played at his terminal
    ann = served.login("ANN")
    page = ann.wait_for("playing")
    assert re.search(r"1\s+BOB\s+1987 \(forced joker\)\s+ANN BOB\s+-\s+playing", page)
    ann.press("1", "Enter")
    shown = ann.wait_for("BOB is rolling the dice.")
    assert "you watch" not in shown  # her seat again, not a watcher's
    bob.turn("BOB", "c")
    ann.wait_for("ANN: press any key to roll")


def test_a_table_whose_host_quits_sends_everyone_at_it_back_to_the_page(served: Served) -> None:
    ann, bob = ann_hosts_and_bob_joins(served)
    ann.press("F10")
    ann.wait_for("(Y/N)")
    ann.press("y")
    for term in (ann, bob):
        term.wait_for("No table yet: N starts one, and you host it.")  # the table is gone, they are not
    bob.press("n")
    bob.wait_for("Press any key to begin")  # and the page's keys work for them again
    page = ann.wait_for("BOB")
    assert re.search(r"1\s+BOB\s+1987 \(forced joker\)\s+BOB, 3 free\s+-\s+waiting", page)


def test_a_game_finished_at_any_table_counts_in_the_servers_statistics(served: Served) -> None:
    ann = served.host("ANN")
    ann.seat("ANN")
    ann.press("y")
    for box in ["1", "2", "3", "4", "5", "6", "t", "f", "h", "s", "l", "y", "c"]:
        ann.turn("ANN", box)
    ann.wait_for("Another game? (Y/N)")
    ann.press("n")
    ann.wait_for("No table yet")  # the table is over: its host is back at the page
    assert len((served.folder / "serve" / "history.jsonl").read_text().splitlines()) == 1
    assert not (served.folder / "serve" / "tables" / "ann" / "history.jsonl").exists()
    ann.press("s")
    shown = ann.wait_for("Enter next, B back, X done")
    assert "1 practice game (loaded dice) is not counted here." in shown  # the server's dice are loaded here
    assert "HALL OF FAME" in shown and "R reset" not in shown  # the server's, not a player's to reset
    ann.press("x")
    ann.wait_for("No table yet")


def test_a_friend_away_at_their_turn_has_that_turn_alone_played_by_the_computer_and_comes_back(
        served: Served) -> None:
    ann, bob = ann_and_bob_at_a_table(served)
    ann.turn("ANN", "c")
    bob.wait_for("BOB: press any key to roll")
    bob.close()
    ann.wait_for("BOB is away. Meanwhile your keys answer; * lets the computer play this turn.")
    ann.wait_for("BOB is away: the computer plays this turn for them in 1:5")  # two minutes, counted down
    ann.press("*")
    ann.wait_for("The computer plays this turn for BOB.")
    ann.wait_for("BOB plays next: press any key to start")  # as for any computer's turn
    ann.press(" ")
    ann.wait_for("BOB posts")
    ann.turn("ANN", "1")
    ann.wait_for("BOB is away. Meanwhile your keys answer")  # his seat again: his next turn waits for him
    bob = served.login("BOB")  # he comes back, by the page, with the key that took his seat
    bob.wait_for("playing")
    bob.press("1", "Enter")
    bob.wait_for("BOB: press any key to roll")
    ann.wait_for("BOB is back: the seat's own keys answer again.")
    bob.turn("BOB", "2")
    ann.wait_for("ANN: press any key to roll")
    bob.press("F10")
    bob.wait_for("Leave the table? Your seat waits for you. (Y/N)")
    bob.press("y")
    bob.wait_for("N: new table")
    ann.press("q")
    ann.wait_for("Quit the game?")  # nobody else at the table to host it: the game is saved
    ann.press("y")
    page = ann.wait_for("31 ANN")  # the table is saved, for one of its players to take up
    assert re.search(r"31 ANN\s+1987 \(forced joker\)\s+ANN BOB\s+-\s+saved", page)
    saved = json.loads((served.folder / "serve" / "tables" / "ann" / "autosave.json").read_text())
    bob_saved = saved["game"]["players"][1]
    assert bob_saved["kind"] == "human" and "stand_in" not in bob_saved and len(bob_saved["boxes"]) == 2
    assert "bob" in saved["seat_owners"]  # still his seat


def test_a_host_who_leaves_hands_the_table_to_the_next_player_at_it_and_the_game_goes_on(served: Served) -> None:
    ann = served.host("ANN")
    ann.wait_for("Press any key to begin")
    bob, carl = served.login("BOB"), served.login("CARL", lang="de_DE.UTF-8")
    for term in (bob, carl):
        term.wait_for("1  ANN")
        term.press("1", "Enter")
    ann.wait_for("CARL joined the table")
    ann.seat("ANN", "BOB", "CARL")
    ann.press("y")
    ann.turn("ANN", "c")
    bob.wait_for("BOB: press any key to roll")
    ann.press("F10")  # the host's key while BOB is asked
    ann.wait_for("Leave the table? BOB hosts it from now on, and your seat waits for you. (Y/N)")
    ann.press("y")
    ann.wait_for("You left the table: BOB hosts it now.")  # said at the page she is back at
    page = ann.wait_for("ANN BOB CARL")
    assert re.search(r"1\s+BOB\s+1987 \(forced joker\)\s+ANN BOB CARL\s+-\s+playing", page)
    bob.wait_for("ANN left: you host the table now (F7 shows who is at it).")
    carl.wait_for("ANN hat den Tisch verlassen: BOB ist jetzt Gastgeber.")
    bob.turn("BOB", "1")
    carl.wait_for("CARL: eine Taste würfelt")  # his turn, in German
    carl.press(" ")
    carl.wait_for("? Tipps")
    carl.press("r")
    carl.wait_for("Wohin eintragen?")
    carl.press("2")
    carl.wait_for("(Y/N)")
    carl.press("y")
    bob.wait_for("ANN is away. Meanwhile your keys answer; * lets the computer play this turn.")  # BOB hosts
    ann.press("1", "Enter")  # back to her seat, by the page
    ann.wait_for("ANN: press any key to roll")
    bob.wait_for("ANN is back")
    ann.turn("ANN", "3")
    bob.wait_for("BOB: press any key to roll")
    bob.close()  # the host's connection drops: the next player at the table hosts it
    carl.wait_for("Andere kommen über die Seite der Tische des Servers an diesen Tisch.")  # told the host alone
    page = served.login("DAN").wait_for("playing")
    assert re.search(r"1\s+CARL\s+1987 \(forced joker\)\s+ANN BOB CARL\s+-\s+playing", page)


def test_a_host_hands_the_table_on_from_the_page_of_who_is_at_it_and_plays_on_at_their_own_seat(
        served: Served) -> None:
    ann, bob = ann_and_bob_at_a_table(served)
    ann.wait_for("ANN: press any key to roll")
    ann.press("F7")
    ann.wait_for("A number removes that one for the game; H hands the table on; Esc returns.")
    ann.press("h")
    ann.wait_for("Who hosts the table from now on? A player's number; Esc returns.")
    ann.press("1")
    bob.wait_for("ANN handed you the table: you host it now (F7 shows who is at it).")
    bob.wait_for("Here: F7 seats, F8 verify, F9 sound, F10 quit.")  # the host's own keys, at BOB's terminal
    ann.wait_for("ANN: press any key to roll")  # her own seat, at her own terminal
    assert "ANN handed the table to BOB." in ann.text
    page = served.login("CARL").wait_for("playing")
    assert re.search(r"1\s+BOB\s+1987 \(forced joker\)\s+ANN BOB\s+-\s+playing", page)
    ann.turn("ANN", "c")
    bob.turn("BOB", "1")
    ann.wait_for("ANN: press any key to roll")
    ann.press("F10")  # a friend's F10 now: she leaves, and her seat waits
    ann.wait_for("Leave the table? Your seat waits for you. (Y/N)")
    ann.press("y")
    ann.wait_for("You left the table: join it again from the page to take your seat back.")
    bob.wait_for("ANN is away. Meanwhile your keys answer")


def test_a_private_table_is_joined_with_its_code_and_three_wrong_codes_close_the_connection(
        served: Served) -> None:
    ann = served.login("ANN")
    ann.wait_for("N: new table")
    ann.press("p")
    shown = ann.wait_for("with its code")
    code = there(re.search(r"with its code\s+([A-Z0-9]{6})\.", shown)).group(1)
    bob = served.login("BOB")
    page = bob.wait_for("* private: joined with the code its host gives.")
    assert re.search(r"1\*\s+ANN\s+1987", page)
    bob.press("1", "Enter")
    bob.wait_for("This private table's code:")
    bob.press("K7Q2MX" if code != "K7Q2MX" else "K7Q2MY", "Enter")
    bob.wait_for("That is not table 1's code.")
    bob.press("1", "Enter")
    bob.wait_for("This private table's code:")
    bob.press(code.lower(), "Enter")  # as a rejoin code: case aside
    bob.wait_for("The host is getting the game ready.")
    ann.wait_for("BOB joined the table")
    carl = served.login("CARL")
    carl.wait_for("N: new table")
    for _ in range(3):
        carl.press("1", "Enter")
        carl.wait_for("This private table's code:")
        carl.press("WRONG", "Enter")
    wait_until(lambda: carl.exit_code() is not None)
    log = (served.folder / "serve" / "table.log").read_text()
    assert "CARL a wrong code for table 1" in log and "CARL left" in log  # repeated lines are counted, not written


def test_private_tables_codes_count_with_the_addresss_passwords(tmp_path: Path) -> None:
    from yahtzee.net.credentials import table_credentials
    from yahtzee.net.limits import PASSWORDS_PER_MINUTE
    from yahtzee.net.server import TableServer
    server = TableServer(table_credentials(tmp_path), "127.0.0.1", 0, lambda line: None)
    assert not server.may_check_code("127.0.0.1")  # not listening: nothing is checked
    server.start()
    try:
        assert server.limits.may_check_password("127.0.0.3")  # a password from one address counts too
        assert all(server.may_check_code("127.0.0.3") for _ in range(PASSWORDS_PER_MINUTE - 1))
        assert not server.may_check_code("127.0.0.3") and server.may_check_code("127.0.0.2")
    finally:
        server.close()


def test_a_saved_table_numbered_past_99_is_typed_in_full(hall: Path) -> None:
    from yahtzee.saves.store import Saves
    for number in range(70):  # saved tables are numbered on from 31: the last is 100
        saves = Saves(hall / "serve" / "tables" / f"p{number:02d}")
        assert saves.acquire_lock() and saves.save_session(mid_game_session(), RESUME)
        saves.close()
    served = Served(hall)
    try:
        bob = served.login("BOB")
        bob.wait_for("and 56 more, numbered up to 100")
        bob.press("1", "0", "0", "Enter")
        bob.wait_for("Only its players may take up a saved table: ANN.")  # table 100, not 10
    finally:
        served.close()


@pytest.fixture
def admin_key(hall: Path) -> Path:
    """A key listed in the server's admin_keys (the player's key is no admin's)."""
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(hall / "admin")], check=True)
    (hall / "serve" / "admin_keys").write_text((hall / "admin.pub").read_text())
    return hall / "admin"


def admin_types_at_r(admin: Terminal, typed: str, said: str) -> None:
    """An admin at the page removes a name or an address with R (or lets one back in), and is told `said`."""
    admin.press("r")
    admin.wait_for("Remove a name or an address (one removed: let it in again):")
    admin.press(typed, "Enter")
    admin.wait_for(said)


def test_an_admin_closes_a_table_and_removes_a_name_and_nobody_else_may(admin_key: Path, served: Served) -> None:
    bob = served.host("BOB")
    bob.wait_for("Press any key to begin")
    carl = served.login("CARL")
    carl.wait_for("waiting")
    carl.press("c")  # no admin's key: C is no key of his
    carl.wait_for("N: new table")
    assert "Close table number" not in carl.text
    ann = served.login("ANN", key="admin")
    ann.wait_for("As an admin: C closes a table; R removes a name or address (or lets it back).")
    ann.press("c")
    ann.wait_for("Close table number:")
    ann.press("1", "Enter")
    ann.wait_for("Table 1 is closed: its game is saved.")
    bob.wait_for("No table yet")  # its host back at the page
    admin_types_at_r(ann, "carl", "carl is removed (kept in the server's folder).")
    assert carl.exit_code() is not None  # his connection closed
    served.close()
    served.start()  # kept across a restart
    again = served.login("CARL")
    assert again.exit_code() is not None and "TABLES ON THIS SERVER" not in again.text
    ann = served.login("ANN", key="admin")
    ann.wait_for("As an admin")
    admin_types_at_r(ann, "CARL", "CARL may log in again.")
    served.login("CARL").wait_for("N: new table")
    log = (served.folder / "serve" / "table.log").read_text()
    assert "ANN closed table 1" in log and "ANN removed carl" in log and "CARL refused: removed by an admin" in log
    assert "ANN let in again CARL" in log
    assert json.loads((served.folder / "serve" / "removed.json").read_text()) == {"names": [], "addresses": []}


def test_a_servers_removals_file_that_is_not_its_lists_is_refused_in_one_line(tmp_path: Path) -> None:
    from yahtzee.net.access import Removals
    (tmp_path / "removed.json").write_text('{"names": ["bob", 3]}')
    with pytest.raises(KeyFileProblem, match="is not the lists of names and addresses removed"):
        Removals(tmp_path)
    (tmp_path / "removed.json").write_text('{"names": ["bob"], "addresses": ["10.0.0.1"]}')
    removals = Removals(tmp_path)
    assert removals.refuses("BOB", "127.0.0.1") and removals.refuses("ann", "10.0.0.1")
    assert not removals.refuses("ann", "127.0.0.1")
    assert removals.toggle(" 10.0.0.1 ") is False and removals.toggle("::1") is True and removals.toggle(" ") is None
    assert json.loads((tmp_path / "removed.json").read_text()) == {"names": ["bob"], "addresses": ["::1"]}


def test_a_fault_at_one_login_closes_that_connection_alone_and_is_logged(hall: Path) -> None:
    from yahtzee.app import seat_console
    from yahtzee.model.outcome import FinishedGame

    def broken_history() -> list[FinishedGame]:
        raise RuntimeError("the history broke")

    def no_table(name: str, folder: Path, hosted: object, opened: object) -> None:
        """Tables are not played here."""

    hall_of_tables = Hall(hall / "serve", ("127.0.0.1", 0), partial(seat_console, "classic"), no_table,
                          broken_history)
    hall_of_tables.server.start()
    players = Players(hall, hall_of_tables.server.port)  # this server runs in process
    try:
        ann = players.login("ANN")
        ann.wait_for("No table yet")
        ann.press("s")
        assert ann.exit_code() is not None  # her connection closed; no traceback reached her terminal
        assert "Traceback" not in ann.text
        log = (hall / "serve" / "table.log").read_text()
        assert "ANN closed after a fault: RuntimeError: the history broke" in log
        players.login("BOB").wait_for("No table yet")  # the server goes on
    finally:
        players.close()
        hall_of_tables.close(signal.SIGTERM, 5)


def test_the_access_chosen_is_kept_for_the_next_start_and_a_strange_one_is_refused(tmp_path: Path) -> None:
    from yahtzee.net.access import Access, kept_access
    assert kept_access(tmp_path, None) is Access.PASSWORD  # none chosen yet
    assert kept_access(tmp_path, "open") is Access.OPEN
    assert kept_access(tmp_path, None) is Access.OPEN  # kept
    (tmp_path / "access").write_text("everyone\n")
    with pytest.raises(KeyFileProblem, match="names no access"):
        kept_access(tmp_path, None)
    assert "--access is for a server of tables" in run_game(["--access", "open"], in_process=True).stderr


def test_an_open_servers_name_is_the_first_keys_that_used_it(tmp_path: Path) -> None:
    from yahtzee.net.access import NameKeys
    names = NameKeys(tmp_path)
    assert names.lets_in("BOB", None) and names.lets_in("bob", None)  # no key yet: anyone, any password
    assert names.lets_in("ANN", "SHA256:one")  # her first key takes the name
    assert names.lets_in("ann", "SHA256:one") and not names.lets_in("ANN", "SHA256:two")
    assert not names.lets_in("ANN", None)  # nor a password, once a key took it
    again = NameKeys(tmp_path)  # kept in the folder
    assert again.lets_in("Ann", "SHA256:one") and not again.lets_in("ANN", "SHA256:two")
    (tmp_path / "names.json").write_text("[1, 2]")
    with pytest.raises(KeyFileProblem, match="not a list of names"):
        NameKeys(tmp_path)


# Who gets in, in order: a name and how (a key's file, the server's password, or "any" other password).
ACCESS_CASES = {
    "open": {("ANN", "player"): True, ("ANN", "other"): False, ("ANN", "any"): False, ("BOB", "any"): True},
    "keys": {("ANN", "player"): True, ("ANN", "other"): False, ("BOB", "password"): False},
    "password": {("ANN", "player"): True, ("ANN", "other"): False, ("BOB", "any"): False, ("BOB", "password"): True},
}


@pytest.mark.parametrize("access", ACCESS_CASES)
def test_who_gets_in_is_what_the_servers_access_says(hall: Path, access: str) -> None:
    logins = ACCESS_CASES[access]
    import asyncio

    import asyncssh

    from yahtzee.app import seat_console

    def no_table(name: str, folder: Path, hosted: object, opened: object) -> None:
        """Tables are not played here."""

    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(hall / "other")], check=True)
    served = Hall(hall / "serve", ("127.0.0.1", 0), partial(seat_console, "classic"), no_table, list, access)
    served.server.start()

    async def gets_in(name: str, credential: str) -> bool:
        """Whether `name` logs in with a key (its file's name), the server's password, or "any"
        other; ANN's first login is with the key that takes her name on an open server."""
        password = {"any": "not-the-password", "password": served.credentials.password}.get(credential)
        keys = [] if password is not None else [str(hall / credential)]
        try:
            async with asyncssh.connect("127.0.0.1", served.server.port, username=name, known_hosts=None,
                                        client_keys=keys, password=password) as conn:
                conn.close()
                return True
        except (asyncssh.PermissionDenied, asyncssh.DisconnectError):
            return False

    async def tried() -> dict[tuple[str, str], bool]:
        return {login: await gets_in(*login) for login in logins}

    try:
        assert asyncio.run(tried()) == logins
    finally:
        served.close(signal.SIGTERM, 5)
