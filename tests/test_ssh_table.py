"""A table hosted over SSH (--host): friends join it with a real OpenSSH client over the loopback
address, and only they may."""
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Optional

import pytest
from terminal import Terminal

from yahtzee.consoles.keyreader import KeyReader
from yahtzee.model.seatowners import Seats
from yahtzee.model.words import Text

if sys.platform == "win32":  # its module-level code already needs what Windows lacks
    pytest.skip("posix: hosting a table needs a POSIX system (and under Wine, asyncssh's cryptography wants "
                "bcryptprimitives.dll)", allow_module_level=True)

import asyncio
import contextlib
import json
import random
import re
import signal
import socket
import subprocess
import threading

import asyncssh
from helpers import WAIT_SECONDS, key_turn, play_keys, there, wait_until

from yahtzee.net.hostpages import Away
from yahtzee.net.limits import MAX_LOGIN_ATTEMPTS
from yahtzee.speech.languages import text

pytestmark = [pytest.mark.slow(1), pytest.mark.filterwarnings("ignore::DeprecationWarning")]
BOXES = ["1", "2", "3", "4", "5", "6", "t", "f", "h", "s", "l", "y", "c"]


@pytest.fixture
def table(tmp_path: Path) -> Path:
    """A friend's key listed in the saves folder, and the dice every game here rolls."""
    saves = tmp_path / "saves"
    saves.mkdir()
    key = tmp_path / "friend"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    (saves / "authorized_keys").write_text((tmp_path / "friend.pub").read_text())
    write_dice(tmp_path / "dice.txt")
    return tmp_path


def write_dice(path: Path) -> None:
    """The loaded dice of every game here."""
    path.write_text(" ".join(str(1 + n % 6) for n in range(400)))  # never five alike


def with_password(folder: Path, port: int, name: str, password: str, *options: Any) -> subprocess.CompletedProcess:
    """A real ssh client logging in with `password` (no keys), its run once it ends."""
    askpass = folder / "askpass"
    askpass.write_text(f"#!/bin/sh\necho {password}\n")
    askpass.chmod(0o700)
    try:
        return subprocess.run(
            ["ssh", "-F", "/dev/null", "-o", "PubkeyAuthentication=no", "-o", "StrictHostKeyChecking=no",
             "-o", f"UserKnownHostsFile={folder / 'known_hosts'}", "-p", str(port), *options, f"{name}@127.0.0.1"],
            capture_output=True, text=True, timeout=WAIT_SECONDS, stdin=subprocess.DEVNULL,
            env={"SSH_ASKPASS": str(askpass), "SSH_ASKPASS_REQUIRE": "force", "PATH": "/usr/bin:/bin"})
    except subprocess.TimeoutExpired as stuck:  # what the table made of the login, to tell why
        log = folder / "saves" / "table.log"
        raise AssertionError(f"ssh still waiting after {WAIT_SECONDS} s (its output {stuck.output!r}); "
                             f"the table's log:\n{log.read_text() if log.exists() else '(none)'}") from None


def ssh_command(folder: Path, port: int, name: str, *options: Any, key: str = "friend") -> list[str]:
    """A real ssh client to the table, knowing nothing of this machine's own ssh settings."""
    return ["ssh", "-F", "/dev/null", "-i", str(folder / key), "-o", "IdentitiesOnly=yes",
            "-o", "StrictHostKeyChecking=no", "-o", f"UserKnownHostsFile={folder / 'known_hosts'}",
            "-o", "LogLevel=ERROR", "-p", str(port), *options, f"{name}@127.0.0.1"]


def host(folder: Path, stderr: Optional[Path] = None) -> tuple[Terminal, int]:
    """The game hosting a table on a free loopback port; (its terminal, the port)."""
    term = Terminal("--saves", str(folder / "saves"), "--dice-file", str(folder / "dice.txt"),
                    "--host", "127.0.0.1:0", stderr=stderr)
    screen = term.wait_for("Friends join with")
    return term, int(there(re.search(r"ssh -p (\d+)", screen)).group(1))


def seat_two(term: Terminal) -> None:
    """ANN and BOB seated, at "Ready to play?"."""
    term.seat("ANN", "BOB")


def history_record(saves: Path) -> dict[str, Any]:
    (line,) = (saves / "history.jsonl").read_text().splitlines()
    record = json.loads(line)
    record.pop("finished")
    return record


@pytest.fixture(scope="module")
def hot_seat_record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The history record of the scripted two-player game played at one keyboard (once, in
    process: the same record as in a terminal, where the terminal is not the point)."""
    folder = tmp_path_factory.mktemp("hot-seat")
    write_dice(folder / "dice.txt")
    faces = [int(face) for face in (folder / "dice.txt").read_text().split()]
    keys = "xnANN\rBOB\r\ry" + "".join(key_turn(box) * 2 for box in BOXES) + "n"
    assert play_keys(folder / "hot", keys, faces).ended is None
    return history_record(folder / "hot")


def join(
        table: Path, port: int, name: str = "BOB", term: str = "xterm",
        host_term: Optional[Terminal] = None) -> Terminal:
    """A friend's terminal logged in to the table; with `host_term`, each is read while the
    other waits, as windows on a screen are (a terminal nobody reads would stop the game)."""
    friend = Terminal(program=ssh_command(table, port, name, "-tt"), columns=90, lines=30, env={"TERM": term})
    if host_term is not None:
        friend.partners, host_term.partners = [host_term], [friend]
    return friend


class Hosted:
    """A hosted table: the host's terminal and BOB's, and the port (BOB may join again)."""

    def __init__(self, table: Path, stderr: Optional[Path] = None, friend_term: str = "xterm") -> None:
        self.table = table
        self.term, self.port = host(table, stderr)
        self.password = there(re.search(r"password (\w+)", self.term.text)).group(1)
        self.friend = join(table, self.port, term=friend_term, host_term=self.term)
        self.term.wait_for("BOB joined the table over SSH from 127.0.0.1")  # before the game: the seat is his

    def rejoin(self) -> Terminal:
        """BOB's connection again, after the last one dropped."""
        self.friend.close()
        self.friend = join(self.table, self.port, host_term=self.term)
        return self.friend


@contextlib.contextmanager
def hosted(
        table: Path, begin: bool = True, stderr: Optional[Path] = None, friend_term: str = "xterm") -> Iterator[Hosted]:
    """A table with ANN at the host and BOB over ssh (his terminal a `friend_term`); with
    `begin`, their game is under way."""
    seats = Hosted(table, stderr, friend_term)
    try:
        if begin:
            seat_two(seats.term)
            seats.term.press("y")
        yield seats
    finally:
        seats.friend.close()
        seats.term.close()


def play_turns(term: Terminal, friend: Terminal, boxes: list[str]) -> None:
    """ANN at the host and BOB at his own terminal post in `boxes` in turn."""
    for box in boxes:
        term.turn("ANN", box)
        friend.turn("BOB", box)


def finish(term: Terminal, friend: Terminal, boxes: list[str]) -> None:
    """The last turns, `boxes`; the game ends and the host leaves."""
    play_turns(term, friend, boxes)
    term.wait_for("Another game? (Y/N)")
    term.press("n")
    assert term.exit_code() == 0, term.text


def dice_rows(screen: str) -> list[str]:
    """The dice part of the play screen."""
    return [line[36:] for line in screen.splitlines()[2:8]]


def faces(rows: list[str]) -> list[int]:
    """The five dice of dice_rows, counted by their pips."""
    return [sum(row[6 * die:6 * die + 5].count("●") for row in rows[1:4]) for die in range(5)]


def test_a_game_with_a_friend_over_ssh_is_the_game_played_hot_seat(
        table: Path, hot_seat_record: dict[str, Any]) -> None:
    with hosted(table, begin=False) as seats:
        seat_two(seats.term)
        seats.friend.wait_for("The host is getting the game ready.")  # the lobby is the host's
        seats.term.press("y")
        finish(seats.term, seats.friend, BOXES)
    assert history_record(table / "saves") == hot_seat_record


def test_a_friend_who_logs_in_under_a_hosts_seat_during_the_game_watches_it(table: Path) -> None:
    term, port = host(table)
    friend = None
    try:
        seat_two(term)
        term.press("y")
        term.turn("ANN", BOXES[0])
        term.wait_for("BOB: press any key to roll")  # BOB's seat is played at the host's keyboard
        friend = join(table, port, host_term=term)
        friend.wait_for("BOB is not a seat played here: you watch. F10 leaves.")
        friend.press(" ")  # a key at a watcher's terminal answers nothing
        friend.wait_for("It is BOB's turn.")
        term.turn("BOB", BOXES[0])  # the host's keyboard still plays the seat
        term.wait_for("ANN: press any key to roll")
        friend.wait_for("ANN is rolling the dice. You watch")
    finally:
        if friend is not None:
            friend.close()
        term.close()


def test_a_friend_whose_connection_drops_mid_turn_comes_back_to_the_same_moment(
        table: Path, hot_seat_record: dict[str, Any]) -> None:
    with hosted(table) as seats:
        term = seats.term
        play_turns(term, seats.friend, BOXES[:3])
        term.turn("ANN", BOXES[3])
        seats.friend.wait_for("BOB: press any key to roll")
        seats.friend.press(" ")
        rolled = dice_rows(seats.friend.wait_for("R rolls"))
        seats.friend.close()  # the connection drops mid-turn
        term.wait_for("BOB is away.")
        term.wait_for("BOB is away: the computer takes the seat in 4:5")  # counting down from 5:00
        friend = seats.rejoin()
        term.wait_for("BOB is back")
        again = friend.wait_for("R rolls")
        assert dice_rows(again) == rolled and "Roll 1 of 3" in again
        friend.press("r")
        friend.wait_for("Post where?")
        friend.press(BOXES[3])
        friend.wait_for("(Y/N)")
        friend.press("y")
        finish(term, friend, BOXES[4:])
    assert history_record(table / "saves") == hot_seat_record


def test_a_host_killed_mid_game_resumes_it_and_the_friend_joins_again(
        table: Path, hot_seat_record: dict[str, Any]) -> None:
    with hosted(table) as seats:
        play_turns(seats.term, seats.friend, BOXES[:5])
        seats.term.wait_for("ANN: press any key to roll")
        seats.term.child.kill(signal.SIGKILL)
        seats.friend.exit_code()  # the friend's connection ends with the host
    with hosted(table, begin=False) as seats:
        seats.term.wait_for("Resume the saved game? (Y/N)")
        seats.term.press("y")
        seats.friend.wait_for("ANN is rolling the dice.")  # his seat is his again, as the save kept it
        finish(seats.term, seats.friend, BOXES[5:])
    assert history_record(table / "saves") == hot_seat_record


def test_only_a_listed_key_or_the_password_gets_in_and_only_to_a_terminal(table: Path) -> None:
    term, port = host(table)
    try:
        password = there(re.search(r"password (\w+)", term.text)).group(1)
        stranger = table / "stranger"
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(stranger)], check=True)
        batch = ("-o", "BatchMode=yes", "-o", "ConnectTimeout=10")
        refused = subprocess.run(ssh_command(table, port, "BOB", *batch, key="stranger"),
                                 capture_output=True, text=True, timeout=30)
        assert refused.returncode == 255 and "Permission denied" in refused.stderr
        for given, admitted in (("wrong", False), (password, True)):
            tried = with_password(table, port, "ANN", given, "-o", "NumberOfPasswordPrompts=1")
            # Let in, a command is still no game: only a terminal's session is served.
            assert tried.returncode != 0 and ("Permission denied" in tried.stderr) is not admitted, tried.stderr
        command = subprocess.run(ssh_command(table, port, "BOB", *batch) + ["echo", "hello"],
                                 capture_output=True, text=True, timeout=30)
        assert command.returncode != 0 and "hello" not in command.stdout
        no_terminal = subprocess.run(ssh_command(table, port, "BOB", *batch, "-T"), capture_output=True,
                                     text=True, timeout=30, stdin=subprocess.DEVNULL)
        assert no_terminal.returncode != 0 and not no_terminal.stdout
        forward = subprocess.run(ssh_command(table, port, "BOB", *batch, "-N", "-o", "ExitOnForwardFailure=yes",
                                             "-R", "0:127.0.0.1:9"), capture_output=True, text=True, timeout=30)
        assert forward.returncode == 255 and "forwarding failed" in forward.stderr
        term.wait_for("A command over SSH was refused")
    finally:
        term.close()


def test_each_seat_is_asked_only_its_own_and_f10_leaves_only_the_friends_seat(table: Path) -> None:
    with hosted(table) as seats:
        term, friend = seats.term, seats.friend
        term.wait_for("ANN: press any key to roll")
        friend.wait_for("ANN is rolling the dice. Here: F9 sound, D language, F10 leaves the table.")
        friend.press(" ")  # not BOB's turn: it rolls nothing, and BOB is told so
        friend.wait_for("It is ANN's turn.")
        assert "ANN: press any key to roll" in term.text and "It is ANN's turn" not in term.text
        term.turn("ANN", "c")
        screen = friend.wait_for("BOB: press any key to roll")
        assert "U takes back" not in screen  # ANN's posting is not his to take back
        term.wait_for("BOB is rolling the dice. U takes back your posting.")
        friend.press("u")
        friend.wait_for("Only ANN may take back ANN's posting.")
        term.press("u")  # at her own terminal, ANN takes hers back
        term.wait_for("ANN's last posting is taken back.")
        term.wait_for("Post where?")
        term.press("c")
        term.wait_for("(Y/N)")
        term.press("y")
        friend.wait_for("BOB: press any key to roll")
        friend.press("m")
        friend.wait_for("Sound at your seat is now OFF")
        friend.press("v")
        friend.wait_for("Verify is the host's to change")
        assert "Sound at your seat" not in term.wait_for("BOB is rolling the dice.")
        friend.press("q")
        friend.wait_for("Leave the table? Your seat waits for you. (Y/N)")
        friend.press("y")
        assert friend.exit_code() is not None  # the friend's session ended, not the game
        term.wait_for("BOB is away.")
        term.press("q")  # meanwhile the host's keys answer: F10 keeps the game for later
        term.wait_for("Quit the game? Your game is kept for next time. (Y/N)")
        term.press("y")
        assert term.exit_code() == 0
    saved = json.loads((table / "saves" / "autosave.json").read_text())
    assert [p["name"] for p in saved["game"]["players"]] == ["ANN", "BOB"]
    assert list(saved["seat_owners"]) == ["bob"] and saved["seat_owners"]["bob"].startswith("SHA256:")


def german_turn(friend: Terminal, box: str) -> None:
    """One turn at a German friend's terminal: any key rolls, R goes to posting, the box, Y."""
    friend.wait_for("BOB: eine Taste würfelt")
    friend.press(" ")
    friend.wait_for("R würfelt")
    friend.press("r")
    friend.wait_for("Wohin eintragen?")
    friend.press(box)
    friend.wait_for("(Y/N)")
    friend.press("y")


def test_a_friend_whose_client_sends_a_german_lang_plays_the_whole_game_in_german(
        table: Path, hot_seat_record: dict[str, Any]) -> None:
    term, port = host(table)
    friend = Terminal(program=ssh_command(table, port, "BOB", "-tt", "-o", "SetEnv=LANG=de_DE.UTF-8"),
                      columns=90, lines=30, env={"TERM": "xterm"})
    friend.partners, term.partners = [term], [friend]
    try:
        friend.wait_for("Der Gastgeber bereitet das Spiel vor.")
        seat_two(term)
        term.press("y")
        for box in BOXES:
            term.turn("ANN", box)
            # as it stands once drawn: a read may end in the middle of a redraw
            def drawn() -> bool:
                friend.pump(0)
                return "ANN würfelt." in friend.text or "BOB" in friend.text
            wait_until(drawn)
            german_turn(friend, box)
        term.wait_for("Another game? (Y/N)")
        friend.wait_for("Das Spiel ist aus: der Gastgeber entscheidet, wie es weitergeht.")
        assert "Another game?" not in friend.text and "Noch ein Spiel" not in friend.text
        term.press("n")
        assert term.exit_code() == 0, term.text
        friend.wait_for("Der Gastgeber hat den Tisch geschlossen.")
    finally:
        friend.close()
        term.close()
    assert history_record(table / "saves") == hot_seat_record


class Guesser(asyncssh.SSHClient):
    """A client that tries one wrong password after another on the same connection."""

    def __init__(self) -> None:
        self.guesses = 0

    def password_auth_requested(self) -> Any:
        self.guesses += 1
        return f"guess{self.guesses}"


class Flood:
    """200 hostile connections to the table, in waves, from a thread of their own: wrong
    passwords, garbage before the banner, sockets that never speak, windows beyond reason,
    window-change storms and floods of keys (invalid UTF-8, split escapes, 100 kB pastes)."""

    KINDS = ("password", "garbage", "silent", "window", "keys")

    def __init__(self, port: int, password: str, count: int = 200, wave: int = 20) -> None:
        self.port, self.secret, self.count, self.wave = port, password, count, wave
        self.errors: list[str] = []
        self.reached = {"password": 0, "window": 0}  # attacks that got past the limit of connections
        self.thread = threading.Thread(target=lambda: asyncio.run(self.run()))

    async def run(self) -> None:
        for start in range(0, self.count, self.wave):
            kinds = [self.KINDS[n % len(self.KINDS)] for n in range(start, start + self.wave)]
            await asyncio.gather(*(self.attack(kind, n) for n, kind in enumerate(kinds)))
        # The raw sockets of a wave may take every one of its places; alone, a guesser and a
        # window beyond reason reach the door (tried again while the last wave is let go).
        for kind in ("password", "window"):
            for attempt in range(100):
                if self.reached[kind]:
                    break
                await self.attack(kind, attempt)
                await asyncio.sleep(0.5)  # refused while its address is held back: fewer tries, fewer handshakes

    async def attack(self, kind: str, n: int) -> None:
        try:
            await asyncio.wait_for(getattr(self, kind)(n), 20)
        except (OSError, asyncssh.Error, asyncio.TimeoutError, asyncio.IncompleteReadError):
            pass  # refused or dropped: what the table should do
        except Exception as error:  # noqa: BLE001 - a flood's own mistake must fail the test
            self.errors.append(repr(error))

    async def password(self, n: int) -> None:
        guesser = Guesser()
        try:
            async with asyncssh.connect("127.0.0.1", self.port, username="EVE", client_factory=lambda: guesser,
                                        known_hosts=None, client_keys=None, agent_path=None):
                raise AssertionError("a wrong password was let in")
        finally:
            self.reached["password"] += guesser.guesses >= MAX_LOGIN_ATTEMPTS

    async def garbage(self, n: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        writer.write(bytes(random.Random(n).randrange(256) for _ in range(5000)))
        await writer.drain()
        await reader.read(1000)
        writer.close()

    async def silent(self, n: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        await asyncio.sleep(0.5)  # half-open: connected, never a word
        writer.close()

    async def _seated(self, n: int, size: tuple[int, int]) -> Any:
        conn = await asyncssh.connect("127.0.0.1", self.port, username=f"EVE{n % 100}", password=self.secret,
                                      known_hosts=None, client_keys=None, agent_path=None)
        chan, _ = await conn.create_session(asyncssh.SSHClientSession, term_type="xterm", term_size=size,
                                            encoding=None)
        return conn, chan

    async def window(self, n: int) -> None:
        conn, chan = await self._seated(n, (10**6, 10**6))
        self.reached["window"] += 1
        for step in range(200):
            chan.change_terminal_size(10**6 - step, 1 + step % 3)
        await asyncio.sleep(0.5)
        conn.close()

    async def keys(self, n: int) -> None:
        conn, chan = await self._seated(n, (80, 24))
        rng = random.Random(n)
        chan.write(b"\xff\xfe\x80" + b"\x1b[" * 1000 + bytes(rng.randrange(256) for _ in range(100_000)))
        await asyncio.sleep(0.5)
        conn.close()


def test_a_game_goes_on_untouched_while_200_hostile_connections_come_and_go(
        table: Path, hot_seat_record: dict[str, Any]) -> None:
    errors = table / "host-stderr.txt"
    with hosted(table, stderr=errors) as seats:
        seats.friend.wait_for("ANN is rolling the dice.")
        flood = Flood(seats.port, seats.password)
        flood.thread.start()
        play_turns(seats.term, seats.friend, BOXES[:-1])
        flood.thread.join(timeout=120)
        assert not flood.thread.is_alive() and flood.errors == [] and all(flood.reached.values())
        finish(seats.term, seats.friend, BOXES[-1:])
    assert history_record(table / "saves") == hot_seat_record
    said = seats.term.raw.decode("utf-8", "replace")
    assert "at most 3 logins at once from one address" in said and "failed logins" in said
    assert "is drawn as 500x200" in said
    assert "Traceback" not in errors.read_text() and "Task was destroyed" not in errors.read_text()


def test_one_address_never_keeps_a_friend_at_another_out(table: Path) -> None:
    term, port = host(table)
    silent, friend = [], None
    try:
        for _ in range(12):  # sockets that never speak, from 127.0.0.1: past three they are refused at once
            silent.append(socket.create_connection(("127.0.0.1", port)))
        term.wait_for("Refused 127.0.0.1: at most 3 logins at once from one address.")
        friend = Terminal(program=ssh_command(table, port, "BOB", "-tt", "-b", "127.0.0.2"), columns=90, lines=30,
                          env={"TERM": "xterm"})
        friend.partners, term.partners = [term], [friend]
        term.wait_for("BOB joined the table over SSH from 127.0.0.2", timeout=10)
    finally:
        for sock in silent:
            sock.close()
        if friend is not None:
            friend.close()
        term.close()


def test_a_friend_whose_client_reads_nothing_is_let_go_before_screens_pile_up(tmp_path: Path) -> None:
    from yahtzee.net import server
    from yahtzee.net.credentials import table_credentials

    class Stalled:
        closed = False
        written: list[bytes] = []

        def is_closing(self) -> Any:
            return self.closed

        def get_write_buffer_size(self) -> Any:
            return server.MAX_UNSENT + 1 if self.written else 0

        def write(self, data: Any) -> None:
            self.written.append(data)

        def close(self) -> None:
            self.closed = True

    told: list[Text] = []
    table = server.TableServer(table_credentials(tmp_path), "127.0.0.1", 0, told.append)
    table.start()
    try:
        chan = Stalled()
        send = table.sender(chan)  # type: ignore[arg-type, unused-ignore]  # a channel stalled, in the place of asyncssh's
        send(b"a screen")  # as the game's thread sends a friend's screens
        send(b"another")
        wait_until(lambda: chan.closed)
    finally:
        table.close()
    assert chan.written == [b"a screen"] and chan.closed
    assert [text(line) for line in told] == ["A friend's terminal read nothing of its screens and was let go."]


def bobs_first_roll(seats: Hosted) -> str:
    """ANN posts in CHANCE; BOB rolls at his terminal: the screen he sees."""
    seats.term.turn("ANN", "c")
    seats.friend.wait_for("BOB: press any key to roll")
    seats.friend.press(" ")
    return seats.friend.wait_for("R rolls")


def test_a_stop_signal_during_a_friends_turn_saves_the_game_at_once(table: Path) -> None:
    with hosted(table) as seats:
        bobs_first_roll(seats)
        seats.term.child.kill(signal.SIGTERM)  # the game waits for BOB's key, at BOB's terminal
        assert seats.term.exit_code() == 0
    saved = json.loads((table / "saves" / "autosave.json").read_text())
    assert saved["game"]["turn"]["rolls"] == 1 and saved["game"]["seat"] == 1


def test_the_host_hands_an_away_friends_seat_to_the_computer_which_plays_on_from_the_same_dice(table: Path) -> None:
    with hosted(table) as seats:
        term = seats.term
        rolled = dice_rows(bobs_first_roll(seats))
        seats.friend.close()
        term.wait_for("* hands the seat to the computer")
        term.press("*")
        term.wait_for("BOB's seat is played by the computer from now on.")
        screen = term.wait_for("BOB posts")
        term.wait_for("ANN: press any key to roll")
        term.press("q")
        term.wait_for("Quit the game?")
        term.press("y")
        assert term.exit_code() == 0, screen
    saved = json.loads((table / "saves" / "autosave.json").read_text())
    bob = saved["game"]["players"][1]
    assert bob["kind"] == "computer" and bob["mood"] == "thinker" and len(bob["boxes"]) == 1
    # The computer went on from BOB's own first roll: one turn of at most three rolls.
    turn = [move for move in saved["game"]["moves"] if move[:2] == [1, 1]]
    assert turn[0][2] == "roll" and turn[-1][2] == "post" and [m[2] for m in turn].count("roll") <= 3
    assert turn[0][3] == "".join(str(pips) for pips in faces(rolled))


def test_a_friend_whose_terminal_has_no_colours_is_sent_none(table: Path) -> None:
    with hosted(table, begin=False, friend_term="vt100") as seats:
        seats.term.wait_for("BOB joined the table")
        seats.term.press("x")
        seats.friend.wait_for("The host is getting the game ready.")
        colour = re.compile(rb"\x1b\[[0-9;]*m")
        assert colour.search(seats.term.raw) and not colour.search(seats.friend.raw)


def test_a_seat_first_taken_with_a_key_is_taken_again_only_with_that_key(table: Path) -> None:
    with hosted(table, begin=False) as seats:
        # His own screen drawn: the game took him in and his seat is his key's (the host's line
        # that he joined is the server's, said before the game looked: a busy machine once
        # closed his connection in between, and nothing was kept of a seat never taken)
        seats.friend.wait_for("The host is getting the game ready.")
        seats.friend.close()
        seats.term.wait_for("BOB left the table")
        other = with_password(table, seats.port, "BOB", seats.password, "-tt")
        assert "BOB's seat was taken with a key: join again with the same key." in other.stdout
        seats.rejoin().wait_for("The host is getting the game ready.")  # the same key takes it back, at once
        assert b"BOB's seat was taken" not in seats.term.raw  # told to the one refused, not the host


class EmptyTable:
    """A table server nobody joins."""
    owners: dict[str, str] = {}

    def present(self) -> list[Any]:
        return []

    def how_to_join(self) -> str:
        return "Friends join with: ssh -p 8022 NAME@here"


class BobsTurn:
    """The game's seating at BOB's turn; the seats handed to the computer go into `given`."""

    def __init__(self, given: list[Any]) -> None:
        self.given = given

    def answering_player(self) -> str:
        return "BOB"

    def undo_owner(self) -> Any:
        return None

    def hand_to_computer(self, name: str) -> None:
        self.given.append(name)

    def stand_in(self, name: str) -> None:
        self.given.append(f"this turn of {name}'s")

    def happening(self) -> Any:
        from yahtzee.model.words import Say
        return Say("{name} is rolling the dice.").format(name="BOB")

    def game_under_way(self) -> bool:
        return True

    def seats(self) -> Seats:
        return Seats({"bob": ""})

    def human_seats(self) -> list[str]:
        return ["ann", "bob"]

    def saved_game_set_aside(self) -> bool:
        return False


# At a hosted table the seat goes to the computer; at a server's table, that turn alone.
AWAY_RULES = [(Away(250), ["BOB"], ["BOB is away: the computer takes the seat in 2:30, or now with *.",
                                     "BOB is away: the computer takes the seat in 0:50, or now with *.",
                                     "BOB stayed away: the computer plays the seat from now on."]),
              (Away(250, turn_only=True), ["this turn of BOB's"],
               ["BOB is away: the computer plays this turn for them in 2:30.",
                "BOB is away: the computer plays this turn for them in 0:50.",
                "BOB stayed away: the computer plays this turn for them."])]


@pytest.mark.parametrize(("away", "done", "lines"), AWAY_RULES, ids=["hosted", "served"])
def test_a_friend_away_past_the_countdown_leaves_the_seat_or_the_turn_to_the_computer(
        away: Away, done: list[str], lines: list[str]) -> None:
    from helpers import KeyScript

    from yahtzee.consoles.stops import SeatChanged
    from yahtzee.net.hostconsole import TableConsole
    keys = KeyScript("", more_to_come=True)
    now: list[float] = [0.0]
    given: list[Any] = []

    def clock() -> Any:
        now[0] += 100.0  # each look at the clock: 100 seconds on
        return now[0]
    assert isinstance(keys.console.reader, KeyReader)
    # (EmptyTable: only what the pages ask of a SeatServer)
    table = TableConsole(keys.console, keys.console.reader, lambda notify, changed, seats: EmptyTable(), None,  # type: ignore[arg-type, return-value, unused-ignore]
                         BobsTurn(given), away=away, clock=clock)
    with pytest.raises(SeatChanged):
        table.pages.wait_for("bob", "BOB: press any key to roll")
    said = "".join(keys.output.written) + keys.output.text()
    assert given == done and all(line in said for line in lines), said
    keys.close()


def test_a_friend_whose_ssh_stops_answering_is_let_go_after_the_keepalives(table: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    from yahtzee.net import server as served
    from yahtzee.net.credentials import table_credentials
    monkeypatch.setattr(served, "KEEPALIVE_SECONDS", 0.2)  # as 5 s x 4, a hundred times sooner
    monkeypatch.setattr(served, "KEEPALIVE_MISSES", 2)
    server = served.TableServer(table_credentials(table / "saves"), "127.0.0.1", 0, lambda line: None)
    server.start()
    friend = Terminal(program=ssh_command(table, server.port, "BOB", "-tt"))
    try:
        wait_until(lambda: server.seat("BOB"), poll=0.05, failure=lambda: friend.text)
        friend.child.kill(signal.SIGSTOP)  # its client neither reads nor answers, its connection still open
        stopped = time.monotonic()
        wait_until(lambda: server.seat("BOB") is None, poll=0.05, failure=lambda: "a stopped client was never let go")
        assert time.monotonic() - stopped < 2.0
    finally:
        friend.child.kill(signal.SIGCONT)
        friend.close()
        server.close()
