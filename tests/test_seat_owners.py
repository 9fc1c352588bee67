"""Whose each seat of a hosted table is: a rejoin code or a key proves it, after a drop, a resume
or a login while the host is asked to resume; the host removes a friend and frees a seat; in
process (tests/tablehands.py) and through asyncssh on loopback."""
import sys
from pathlib import Path
from typing import Optional

import pytest

if sys.platform == "win32":  # its module-level code already needs what Windows lacks
    pytest.skip("posix: a hosted table's seats (hosting needs a POSIX system; under Wine, asyncssh's "
                "cryptography wants bcryptprimitives.dll)", allow_module_level=True)

import re

from tablehands import FACES, PLAYERS, Table, at_bobs_first_roll, served, table

from yahtzee.net.seat import RemoteSeat
from yahtzee.net.server import TableServer

pytestmark = pytest.mark.slow(3)


def test_a_friend_with_the_password_gets_a_rejoin_code_shown_only_at_his_terminal() -> None:
    import json

    from yahtzee.net.owners import code_proof
    from yahtzee.saves.codec import session_to_dict
    with table(PLAYERS, FACES, logins=["BOB"]) as hands:
        hands.wait_for("BOB", "Your rejoin code is K7Q2MX: with it you take BOB's seat back if you leave")
        hands.wait_for("host", "ANN: press any key to roll")
        assert "K7Q2MX" not in hands.text("host")
        assert hands.session.seats.owners() == {"bob": code_proof("K7Q2MX")}
        assert "K7Q2MX" not in json.dumps(session_to_dict(hands.session))  # the autosave keeps only its hash


def test_a_friend_with_a_key_owns_his_seat_by_its_fingerprint_and_is_given_no_code() -> None:
    with table(PLAYERS, FACES, logins=[]) as hands:
        hands.session.seats.take("bob", "")  # a seat the host's saved game marks as a friend's, not yet proved
        hands.log_in("BOB", proof="SHA256:Bobs+Key")
        hands.wait_for("BOB", "ANN is rolling the dice.")
        assert hands.session.seats.owners() == {"bob": "SHA256:Bobs+Key"} and "rejoin code" not in hands.text("BOB")


def test_the_host_removes_a_friend_whose_seat_is_then_played_at_the_hosts_keyboard() -> None:
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
        assert hands.seats["BOB"].gone and hands.session.seats.owners() == {}
        assert hands.session.seats.snapshot().removed == {("bob", "@127.0.0.2")}


def test_a_seat_whose_friend_is_away_is_listed_and_freed_by_the_host() -> None:
    with table(PLAYERS, FACES, logins=["BOB"]) as hands:
        hands.wait_for("host", "ANN: press any key to roll")
        hands.drop("BOB")
        hands.settle(0.3)
        hands.type("host", "F7")
        page = hands.wait_for("host", "Who is at the table")
        assert re.search(r" 1  bob +plays +away +password, rejoin code", page), page
        hands.type("host", "1")
        hands.wait_for("host", "bob was removed from the table for the rest of the game.")
        assert hands.session.seats.owners() == {} and "Nobody has joined over SSH." in hands.text("host")


async def at_the_door(
        server: TableServer, name: str, typed: list[str],
        address: str = "127.0.0.1") -> tuple[str, Optional[RemoteSeat]]:
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


def test_a_seat_taken_with_the_password_is_taken_again_only_with_its_rejoin_code(tmp_path: Path) -> None:
    import asyncio

    from yahtzee.model.seatowners import Seats
    from yahtzee.net.owners import code_proof
    server, told = served(tmp_path, Seats({"bob": code_proof("ABC234")}))
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


def test_a_removed_friend_is_refused_by_name_and_address_or_by_name_and_key(tmp_path: Path) -> None:
    import asyncio

    from yahtzee.model.seatowners import Seats
    from yahtzee.net.owners import removal_mark
    seats = Seats()
    server, told = served(tmp_path, seats)
    try:
        seats.remove(removal_mark("BOB", "", "127.0.0.2"))  # as the host's roster removes them, the game's seats
        seats.remove(removal_mark("CAT", "SHA256:Cats+Key", "127.0.0.9"))
        read, seat = asyncio.run(at_the_door(server, "BOB", [], address="127.0.0.2"))
        assert "The host removed BOB from this table." in read and seat is None
        read, seat = asyncio.run(at_the_door(server, "BOB", [], address="127.0.0.3"))
        assert "The host removed" not in read and seat is not None
        # (no channel: a seat taken here is never written to; unused-ignore: Windows skips the module)
        assert server.join("CAT", None, 80, 24, proof="SHA256:Cats+Key",  # type: ignore[arg-type, unused-ignore]
                           address="127.0.0.4") is not None
        assert server.join("CAT", None, 80, 24, proof="",  # type: ignore[arg-type, unused-ignore]
                           address="127.0.0.4") is None  # password, another address
    finally:
        server.close()


def test_a_resumed_game_keeps_each_seat_its_friends_and_an_older_save_still_reads() -> None:
    from yahtzee.net.owners import code_proof
    from yahtzee.saves.codec import session_from_dict, session_to_dict
    from yahtzee.saves.strict import DamagedSave
    with table(PLAYERS, FACES) as hands:
        hands.session.seats.take("bob", code_proof("K7Q2MX"))
        data = session_to_dict(hands.session)
        assert session_from_dict(data).seats.owners() == {"bob": code_proof("K7Q2MX")}
        older = {key: value for key, value in data.items() if key != "seat_owners"}
        assert session_from_dict({**older, "friend_seats": ["bob"]}).seats.owners() == {"bob": ""}
        for damaged in ({"bob": "code:1234"}, {"bob": 7}, {"": "SHA256:x"}, ["bob"]):
            with pytest.raises(DamagedSave):
                session_from_dict({**older, "seat_owners": damaged})


def test_a_login_that_does_not_prove_a_resumed_games_seat_is_let_go() -> None:
    from tablehands import Table
    hands = Table(PLAYERS, FACES, before_game=False)
    hands.session.seats.take("bob", "SHA256:Bobs+Key")  # as the autosave of the crashed run had it
    hands.start()
    try:
        hands.log_in("BOB")  # with the password, before the server has heard whose the seat is
        hands.wait_for("BOB", "BOB's seat was taken with a key: join again with the same key.")
        hands.settle(0.2)
        assert hands.seats["BOB"].gone and hands.session.seats.owners() == {"bob": "SHA256:Bobs+Key"}
        hands.log_in("BOB", proof="SHA256:Bobs+Key")
        hands.wait_for("BOB", "ANN is rolling the dice. Here: F9 sound")  # his key takes it back
    finally:
        hands.close()


def test_before_the_game_at_most_four_names_are_claimed_and_only_players_keep_theirs() -> None:
    from tablehands import Table

    from yahtzee.model.game import MAX_PLAYERS
    hands = Table(PLAYERS, FACES, logins=["ANN", "BOB", "CAT", "DAN", "EVE"], begun=False)
    try:
        assert len(hands.session.seats.owners()) == MAX_PLAYERS and "eve" not in hands.session.seats.owners()
        hands.drop("CAT")
        hands.table.refresh()  # a name taken stays its friend's, away or not, until the host frees it
        assert set(hands.session.seats.owners()) == {"ann", "bob", "cat", "dan"}
        hands.session.new_game()
        hands.table.refresh()  # the game began: only its players' seats are anyone's
        assert set(hands.session.seats.owners()) == {"ann", "bob"}
    finally:
        hands.close()


def test_a_rejoin_code_is_six_letters_that_read_apart_and_its_proof_forgives_case_and_spaces() -> None:
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


def saved_table(tmp_path: Path) -> Table:
    """A saves folder whose saved game is ANN's and BOB's first round, BOB's seat taken with the
    rejoin code K7Q2MX; a table whose host is asked whether to resume it."""
    from tablehands import Table

    from yahtzee.net.owners import code_proof
    from yahtzee.saves.store import Saves
    from yahtzee.screens.steps import Moment, Screen
    saved = Table(PLAYERS, FACES, logins=[], begun=True)
    saved.session.seats.take("bob", code_proof("K7Q2MX"))
    with Saves(tmp_path) as saves:
        saves.acquire_lock()
        assert saves.save_session(saved.session, Moment(Screen.PLAY).to_dict())
    saved.close()
    hands = Table([], FACES, before_game=False, begun=False, saves=Saves(tmp_path)).start()
    hands.table.claims.new_code = lambda: "NEW234"
    hands.wait_for("host", "Resume the saved game?")
    return hands


def test_a_friend_who_logs_in_while_the_host_is_asked_to_resume_proves_his_seat_as_after(tmp_path: Path) -> None:
    from yahtzee.net.owners import code_proof
    hands = saved_table(tmp_path)
    try:
        hands.settle(0.3)
        assert hands.server.game_seats().owners == {"bob": code_proof("K7Q2MX")}  # the door asks for his code
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
        assert hands.ctx.session.seats.owners() == {"bob": code_proof("K7Q2MX")}
    finally:
        hands.close()


def test_a_friend_waiting_while_the_saved_game_is_set_aside_is_told_and_joins_the_new_names(tmp_path: Path) -> None:
    from yahtzee.net.owners import code_proof
    hands = saved_table(tmp_path)
    try:
        hands.log_in("BOB", proof=code_proof("K7Q2MX"))
        hands.wait_for("BOB", "The host is getting the game ready.")
        hands.type("host", "n")
        hands.wait_for("BOB", "The host set the saved game aside: a new game begins.")
        hands.wait_for("host", "Press any key")
        hands.settle(0.2)
        assert hands.ctx.session.seats.owners() == {"bob": code_proof("K7Q2MX")}  # his name is a seat to come
        assert "set the saved game aside" not in hands.text("host")
    finally:
        hands.close()


def test_a_friend_removed_while_the_host_is_asked_to_resume_stays_removed_when_it_is_set_aside(tmp_path: Path) -> None:
    from yahtzee.net.owners import code_proof
    hands = saved_table(tmp_path)
    try:
        hands.log_in("BOB", proof=code_proof("K7Q2MX"))
        hands.wait_for("BOB", "The host is getting the game ready.")
        hands.type("host", "F7")
        hands.wait_for("host", "Who is at the table")
        hands.type("host", "1")
        hands.wait_for("BOB", "The host removed you from the table.")
        hands.type("host", "Esc")
        hands.wait_for("host", "Resume the saved game?")
        hands.type("host", "n")
        hands.wait_for("host", "Press any key")
        hands.log_in("BOB", proof=code_proof("K7Q2MX"))  # from the same address, with the same code
        hands.wait_for("BOB", "The host removed BOB from this table.")
        hands.settle(0.2)
        assert hands.seats["BOB"].gone and hands.ctx.session.seats.owners() == {}
    finally:
        hands.close()
