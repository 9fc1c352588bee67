"""A hosted table's server holds against what an outsider may send (password guesses, floods of
logins, keys and notices) within its limits, logs every login, and leaves no pipe or file behind
a connection; in process (tests/tablehands.py) and through asyncssh on loopback."""
import sys
from pathlib import Path
from typing import Any

import pytest

if sys.platform == "win32":  # its module-level code already needs what Windows lacks
    pytest.skip("posix: a hosted table's seats (hosting needs a POSIX system; under Wine, asyncssh's "
                "cryptography wants bcryptprimitives.dll)", allow_module_level=True)

import contextlib
import datetime
import os
import time

from helpers import there, wait_until
from tablehands import FACES, PLAYERS, at_bobs_first_roll, served, table

from yahtzee.model.words import Say, Text
from yahtzee.net.limits import PENALTY_SECONDS, SERVER_SIZES, TABLE_SIZES, Limits, Sizes
from yahtzee.speech import languages as language

pytestmark = pytest.mark.slow(3)


def open_files() -> int:
    """How many pipes and sockets this process has open: what a connection and its seat hold
    (a table file another test's thread reads in this worker comes and goes, and is not counted)."""
    kinds = []
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):  # the listing's own descriptor is gone already
            kinds.append(os.readlink(f"/proc/self/fd/{fd}").split(":")[0])
    return sum(kind in ("pipe", "socket") for kind in kinds)


def test_no_pipe_outlives_its_seat_however_quickly_friends_come_and_go(tmp_path: Path) -> None:
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
            # (Channel, Connection, Seat: this module's stand-ins for asyncssh's; unused-ignore: Windows skips it)
            assert server.join(f"EVE{round_ % 7}", Channel(), 80, 24) is None  # type: ignore[arg-type, unused-ignore]
            seat = server.seat(f"EVE{round_ % 7}")
            if round_ % 3 == 0:
                hands.table.refresh()  # the game looks while this one is there: it is taken in
            server.leave(there(seat))
            if round_ % 2 == 0:
                hands.table.refresh()  # and lets go of the gone
        hands.table.refresh()
        assert open_files() <= before + 1 and server.seats == {} and hands.table.friends == {}
    finally:
        server.close()
        hands.close()


def test_guesses_sent_without_waiting_are_each_counted_and_the_right_password_after_them_is_refused(
        tmp_path: Path) -> None:
    import asyncio

    from yahtzee.net.credentials import table_credentials
    from yahtzee.net.door import Door
    from yahtzee.net.limits import MAX_LOGIN_ATTEMPTS
    from yahtzee.net.server import TableServer

    class Connection:
        closed = False

        def close(self) -> None:
            self.closed = True

    told: list[Text] = []
    server = TableServer(table_credentials(tmp_path), "127.0.0.1", 0, told.append)

    async def pipelined() -> Any:
        door, connection = Door(server), Connection()
        door.conn = connection  # type: ignore[assignment, unused-ignore]
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
        server.close()


def test_the_right_password_within_the_limit_still_lets_a_friend_in(tmp_path: Path) -> None:
    import asyncio

    from yahtzee.net.credentials import table_credentials
    from yahtzee.net.door import Door
    from yahtzee.net.server import TableServer
    server = TableServer(table_credentials(tmp_path), "127.0.0.1", 0, lambda line: None)

    async def two_wrong_then_right() -> Any:
        door = Door(server)
        door.conn = None
        wrong = [await door.validate_password("BOB", "nope"), await door.validate_password("BOB", "nope")]
        return wrong, await door.validate_password("BOB", server.credentials.password)

    try:
        assert asyncio.run(two_wrong_then_right()) == ([False, False], True)
    finally:
        server.close()


@pytest.mark.parametrize("sizes", [TABLE_SIZES, SERVER_SIZES], ids=["a hosted table", "a server of tables"])
def test_logins_under_way_are_limited_per_address_and_a_flood_is_dropped_at_random(sizes: Sizes) -> None:
    limits = Limits(sizes)
    per_address = sizes.startups_per_address
    assert [limits.admit("10.0.0.1") for _ in range(per_address)] == [None] * per_address
    refused = there(limits.admit("10.0.0.1"))
    assert language.text(refused) == f"Refused 10.0.0.1: at most {per_address} logins at once from one address."
    assert limits.admit("10.0.0.2") is None  # another address still gets in
    limits.left_unseated("10.0.0.1")
    assert language.text(there(limits.admit("10.0.0.1"))).startswith("Refused 10.0.0.1 for 5 s more")  # its penalty
    assert limits.admit("10.0.0.1", now=time.monotonic() + PENALTY_SECONDS) is None  # then a place again
    while sum(limits.starting.values()) < sizes.early_drop_from:
        assert limits.admit(f"10.0.1.{len(limits.starting)}") is None  # below the early drop, none is refused
    limits.early_drop.seed(1)
    tries = [limits.admit(f"10.0.2.{n}") for n in range(500)]
    assert any(t is None for t in tries) and any(t is not None for t in tries)  # dropped at random
    assert sum(limits.starting.values()) == sizes.startups  # and never past the most
    assert all(limits.admit(f"10.0.3.{n}") is not None for n in range(50))
    assert limits.logged_in("10.0.0.2") is None and sum(limits.seated.values()) == 1


@pytest.mark.parametrize("sizes", [TABLE_SIZES, SERVER_SIZES], ids=["a hosted table", "a server of tables"])
def test_logged_in_connections_are_limited_in_all_and_per_address(sizes: Sizes) -> None:
    limits = Limits(sizes)
    for _n in range(sizes.seated_per_address):
        limits.admit("10.0.0.1")
        assert limits.logged_in("10.0.0.1") is None
    limits.admit("10.0.0.1")
    assert language.text(there(limits.logged_in("10.0.0.1"))).endswith(
        f"{sizes.seated_per_address} logged in from one address is the most." if sizes.seated_per_address < sizes.seated
        else f"{sizes.seated} logged in at once is the most.")
    while sum(limits.seated.values()) < sizes.seated:
        address = f"10.0.1.{sum(limits.seated.values()) // sizes.seated_per_address}"
        limits.admit(address)
        assert limits.logged_in(address) is None
    limits.admit("10.0.2.1")
    assert language.text(there(limits.logged_in("10.0.2.1"))).endswith(f"{sizes.seated} logged in at once is the most.")
    limits.left_seated("10.0.0.1")
    limits.admit("10.0.2.1")
    assert limits.logged_in("10.0.2.1") is None  # a place given back is taken again


def test_at_most_sixty_passwords_a_minute_are_checked_from_one_address() -> None:
    from yahtzee.net.limits import MAX_ADDRESSES_KEPT, PASSWORDS_PER_MINUTE, Limits
    limits = Limits()
    checked = [limits.may_check_password("10.0.0.1", now=second / 10) for second in range(200)]
    assert checked.count(True) == PASSWORDS_PER_MINUTE == 60 and not any(checked[60:])
    assert limits.may_check_password("10.0.0.2", now=20.0)  # another address is not held back
    assert limits.may_check_password("10.0.0.1", now=60.0)  # a minute after its first, one more
    for n in range(MAX_ADDRESSES_KEPT + 10):
        limits.may_check_password(f"10.1.{n // 256}.{n % 256}", now=30.0)
    assert len(limits.passwords) == MAX_ADDRESSES_KEPT  # bounded, the oldest forgotten


def test_a_connection_opens_one_terminal_at_most(tmp_path: Path) -> None:
    from yahtzee.net.credentials import table_credentials
    from yahtzee.net.door import MAX_SESSION_REQUESTS, Door
    from yahtzee.net.server import TableServer

    class Connection:
        closed = False

        def get_extra_info(self, name: str) -> Any:
            return "BOB"

        def close(self) -> None:
            self.closed = True

    told: list[Text] = []
    server = TableServer(table_credentials(tmp_path), "127.0.0.1", 0, told.append)
    try:
        door = Door(server)
        door.conn = connection = Connection()  # type: ignore[assignment, unused-ignore]
        assert door.session_requested() is not False
        assert [door.session_requested() for _ in range(MAX_SESSION_REQUESTS - 1)] == [False] * 9
        assert not connection.closed
        assert door.session_requested() is False and connection.closed  # one that keeps asking is closed
        assert [language.text(line) for line in told][-1].endswith("asked for terminal after terminal and was closed.")
    finally:
        server.close()


def test_the_table_log_keeps_every_login_one_line_for_repeats_and_never_grows_past_three_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
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


def test_a_login_and_a_wrong_password_are_logged_with_the_address(tmp_path: Path) -> None:
    import asyncio

    from yahtzee.net.credentials import table_credentials
    from yahtzee.net.door import Door
    from yahtzee.net.log import LOG_FILE, TableLog
    from yahtzee.net.server import TableServer

    class Connection:
        def get_extra_info(self, name: str, default: Any = None) -> Any:
            return ("127.0.0.2", 50000) if name == "peername" else default

        def close(self) -> None:
            pass

        def abort(self) -> None:
            pass

    server = TableServer(table_credentials(tmp_path), "127.0.0.1", 0, lambda line: None, TableLog(tmp_path))

    async def attempts() -> None:
        door = Door(server)
        door.connection_made(Connection())  # type: ignore[arg-type, unused-ignore]
        await door.validate_password("BOB", "wrong")
        await door.validate_password("BOB", server.credentials.password)

    try:
        asyncio.run(attempts())
    finally:
        server.close()
        server.log.close()
    said = [line.split(" ", 1)[1] for line in (tmp_path / LOG_FILE).read_text(encoding="utf-8").splitlines()]
    assert said == ["127.0.0.2 BOB wrong password", "127.0.0.2 BOB logged in with the password"]


def test_a_friends_key_flood_is_answered_at_once_and_drawn_once(tmp_path: Path) -> None:
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


def test_a_storm_of_notices_tells_the_host_a_few_lines_of_each_kind_and_keeps_no_more(tmp_path: Path) -> None:
    from yahtzee.net.credentials import table_credentials
    from yahtzee.net.server import TableServer
    from yahtzee.net.throttle import NOTICE_GAP, NOTICES_OF_A_KIND
    told: list[Text] = []
    now = [1000.0]  # one moment, however slow the machine
    server = TableServer(table_credentials(tmp_path), "127.0.0.1", 0, told.append, clock=lambda: now[0])
    try:
        for size in range(20_000):  # as many window sizes, each its own line
            server.notify(Say("A window of {columns}x{lines} is drawn as {most} ({name}).").format(
                columns=1000 + size, lines=500, most="500x200", name="EVE"))
        assert len(told) == NOTICES_OF_A_KIND and len(server.told) == NOTICES_OF_A_KIND
        server.notify(Say("{name} left the table.").format(name="EVE"))  # another kind gets through
        server.notify(Say("{name} left the table.").format(name="EVE"))  # the same line is told once
        assert [language.text(line) for line in told[-2:]] == ["A window of 1002x500 is drawn as 500x200 (EVE).",
                                                                "EVE left the table."]
        now[0] += NOTICE_GAP
        server.notify(Say("A window of {columns}x{lines} is drawn as {most} ({name}).").format(
            columns=1, lines=500, most="500x200", name="EVE"))  # a gap later, the host hears again
        assert len(told) == NOTICES_OF_A_KIND + 2 and len(server.told) == 1
    finally:
        server.close()


def test_keys_past_a_seats_rate_are_dropped_and_the_rest_kept(tmp_path: Path) -> None:
    import asyncio

    from yahtzee.net.credentials import table_credentials
    from yahtzee.net.seat import RemoteSeat
    from yahtzee.net.seatsession import MAX_INPUT_RATE, SeatSession
    from yahtzee.net.server import TableServer

    told: list[Text] = []
    server = TableServer(table_credentials(tmp_path), "127.0.0.1", 0, told.append)
    seat = RemoteSeat("BOB", lambda data: None, lambda: None, 80, 24)
    seat.listening = True  # asked now: the keys are its answers

    async def flood() -> bytes:
        session = SeatSession(server, "BOB", "")
        session.seat = seat
        session.data_received(b"1" * (2 * MAX_INPUT_RATE), None)  # one packet of twice a second's keys
        session.data_received(b"2", None)
        there(session.idle).cancel()
        return os.read(seat.fileno(), 65536)

    try:
        assert asyncio.run(flood()) == b"1" * MAX_INPUT_RATE
        assert [language.text(line) for line in told] == ["Keys from BOB came too fast: some were dropped."]
    finally:
        seat.close()
        server.close()


def test_no_file_outlives_a_real_connection_that_logs_in_opens_a_terminal_and_drops(tmp_path: Path) -> None:
    import asyncio

    import asyncssh
    server, told = served(tmp_path)

    async def reconnects(count: int) -> None:
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


def test_an_address_that_breaks_a_limit_is_refused_longer_at_each_offence_up_to_a_minute() -> None:
    from yahtzee.net.limits import MAX_ADDRESSES_KEPT, MAX_PENALTY_SECONDS, PENALTY_SECONDS, Limits
    limits = Limits()
    limits.penalize("10.0.0.1", now=100.0)
    refused = there(limits.admit("10.0.0.1", now=100.0))
    assert language.text(refused) == "Refused 10.0.0.1 for 5 s more: it broke a limit."
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
