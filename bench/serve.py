"""A server of many tables under a full house: key-to-redraw at the typing seat and at the others.

`yahtzee.py --serve` runs as its own process on a loopback port. 25 tables of 4 seats log in
with asyncssh clients, each table from an address of its own in 127.0.0.0/8: its creator starts
it from the page of tables, its three others join it by number; at 5 tables the fourth seat is a
computer (*thinker) and a watcher's client joins instead, 5 tables play yahtChallenge (their
table and rests built before timing starts, as a served table's preferences ask). Each seat plays
at a person's pace, a key every 0.5-1.5 s on its turn (a die marked, a reroll, a posting
verified, now and then the advice page and X back); at least SECONDS steady and MIN_KEYS timed
keys. A key's time is from its sending to the first drawing that reaches the typing seat after
it (and, for a roll or a posting, each other seat at the table). One table on the 1987 rules
plays with real OpenSSH clients instead, each in a pseudo-terminal of 80x24, as a check that
the bench's clients are what players use (its keys are counted with the others and apart).
Peak memory is the server's and its build processes' resident sets, sampled; the strategy
tables the server held come from its log as it stops.

Prints one summary line and each figure against its target; asserts nothing. The last line is
one JSON object.

Usage: python bench/serve.py [--quick] (quick: 2 tables on the 1987 rules, one with a computer and a
watcher, 15 s and 20 keys: no yahtChallenge table to build)
"""
import asyncio
import fcntl
import json
import os
import pty
import random
import re
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
import tty
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Protocol, Union

import asyncssh

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from yahtzee.model.rules import YAHTC  # noqa: E402
from yahtzee.strategy.exact.objective import EXPECTED_SCORE  # noqa: E402
from yahtzee.strategy.storage.buildprocess import request  # noqa: E402

QUICK = "--quick" in sys.argv[1:]
OPENSSH = shutil.which("ssh") is not None  # where it is installed
TABLES = 2 if QUICK else 25
YAHTC_TABLES = 0 if QUICK else 5  # the first tables
COMPUTER_TABLES = 1 if QUICK else 5  # the last tables
OPENSSH_TABLE = YAHTC_TABLES  # the first table on the 1987 rules without a computer: real OpenSSH clients
SECONDS = 15 if QUICK else 300
MIN_KEYS = 20 if QUICK else 2000
TYPING_P99_MS, MEMORY_MB = 50.0, 400.0
CLEAR = b"\x1b[H\x1b[J"  # every drawing of a screen starts with it
BOXES = "123456tfhslyc"
ADVICE_CHANCE = 0.05


class Stream(Protocol):
    """What a seat's client is read from and written to (asyncssh's, or a pseudo-terminal's)."""

    def write(self, data: bytes) -> None: ...

    async def read(self, size: int) -> bytes: ...


class OpenSSH:
    """A real OpenSSH client in a pseudo-terminal of 80x24, read and written as asyncssh's are."""

    def __init__(self, child: asyncio.subprocess.Process, master: int, reader: asyncio.StreamReader) -> None:
        self.child, self.master, self.reader = child, master, reader
        self.stdin: Stream = self
        self.stdout: Stream = self

    def write(self, data: bytes) -> None:
        """Keys typed at its terminal."""
        os.write(self.master, data)

    async def read(self, size: int) -> bytes:
        """What its terminal was sent ('' once the client is gone)."""
        try:
            return await self.reader.read(size)
        except OSError:  # the pseudo-terminal closes with its client
            return b""


@dataclass
class Seat:
    """One client: its name, its table, what its terminal was last drawn, and its keys' times."""

    name: str
    table: int
    address: str
    frame: bytes = b""
    boxes: list[str] = field(default_factory=lambda: list(BOXES))
    marked: bool = False
    busy: bool = False  # a key is on its way
    sent_at: Optional[float] = None  # a timed key waits for its drawing here
    answered: str = ""  # the question that key answered
    watched_at: Optional[float] = None  # another seat's roll or posting waits for its drawing here
    process: Union[asyncssh.SSHClientProcess, OpenSSH, None] = None
    table_mates: list["Seat"] = field(default_factory=list)
    openssh: bool = False  # a real OpenSSH client, not asyncssh's


@dataclass
class Figures:
    """Every timed key, at the typing seat and at the watching ones."""

    typing: list[float] = field(default_factory=list)
    watching: list[float] = field(default_factory=list)
    openssh: list[float] = field(default_factory=list)  # the typing seat's times at the table of OpenSSH clients
    by_key: dict[str, list[float]] = field(default_factory=dict)  # the typing seat's times, by the question answered
    timing: bool = False


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of `values` lie."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def prepare(folder: Path) -> Path:
    """The server's folder: a listed key, and yahtChallenge's preferences at its tables; the
    yahtChallenge table and its rests built into the cache before anything is timed."""
    serve = folder / "serve"
    serve.mkdir()
    key = asyncssh.generate_private_key("ssh-ed25519")
    key.write_private_key(str(folder / "player"))
    (folder / "player").chmod(0o600)  # OpenSSH reads no key that others may read
    (serve / "authorized_keys").write_bytes(key.export_public_key())
    for table in range(YAHTC_TABLES):
        prefs = serve / "tables" / f"a{table:02d}"
        prefs.mkdir(parents=True)
        (prefs / "prefs.json").write_text(json.dumps({"version": 1, "rules": "yahtc"}))
    cache = folder / "cache"
    if not YAHTC_TABLES:
        return cache
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "yahtzee.strategy.storage.buildprocess",
                    request(YAHTC, EXPECTED_SCORE, cache, rests=True)], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    print(f"yahtChallenge's table and rests built in {time.perf_counter() - started:.1f} s (before timing)", flush=True)
    return cache


def start_server(folder: Path, cache: Path) -> tuple[subprocess.Popen, int]:
    """The server of tables, listening; (its process, its port)."""
    server = subprocess.Popen([sys.executable, str(ROOT / "yahtzee.py"), "--serve", "127.0.0.1:0", "--saves",
                               str(folder / "serve"), "--seed", "7"], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "YAHTZEE_CACHE": str(cache), "LANG": "C.UTF-8"})
    assert server.stdout is not None
    line = server.stdout.readline()
    found = re.search(r"ssh -p (\d+)", line)
    if not found:
        raise SystemExit(f"the server did not start: {line!r}")
    return server, int(found.group(1))


def resident_mb(pid: int) -> float:
    """A process's and its descendants' resident memory now, in MB."""
    total, pending = 0.0, [pid]
    while pending:
        current = pending.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except OSError:
            continue
        found = re.search(r"VmRSS:\s+(\d+) kB", status)
        total += int(found.group(1)) / 1024 if found else 0.0
        pending += [int(child) for child in children]
    return total


def asked(seat: Seat) -> Optional[str]:
    """What the seat is asked now, from the bottom of its screen: 'advice', 'roll', 'mark',
    'reroll', 'post', 'another', 'yes', or None for nothing."""
    tail = seat.frame[-600:].decode("utf-8", "replace")
    if b"ADVICE for" in seat.frame:
        return "advice"
    if f"{seat.name}: press any key to roll" in tail:
        return "roll"
    if "Roll " in tail and " of 3" in tail:
        return "mark" if "Roll 1 of 3" in tail and not seat.marked else "reroll"
    if "Post where?" in tail:
        return "post"
    if "(Y/N)" in tail:
        return "another" if "Another game?" in tail else "yes"
    return None


def key_for(seat: Seat, question: str) -> str:
    """The key a person at this seat presses for the question (and what the seat remembers of it)."""
    if question == "advice":
        return "x"  # as the page's own line says (a lone Esc would add the terminal's escape wait)
    if question == "roll":
        seat.marked = False
        return " "
    if question == "mark":
        seat.marked = True
        return "?" if random.random() < ADVICE_CHANCE else random.choice("12345")
    if question == "post":
        return seat.boxes.pop(0) if seat.boxes else "c"
    if question == "another":
        for player in (seat, *seat.table_mates):
            player.boxes = list(BOXES)
    return "r" if question == "reroll" else "y"


async def press(seat: Seat, figures: Figures) -> None:
    """Press this seat's next key after a person's pause, timing it."""
    seat.busy = True
    await asyncio.sleep(random.uniform(0.5, 1.5))
    seat.busy = False
    question = asked(seat)
    if question is None or seat.process is None:
        return
    key = key_for(seat, question)
    now = time.perf_counter()
    if figures.timing:
        seat.sent_at, seat.answered = now, question
        if key in (" ", "y"):
            for mate in seat.table_mates:
                mate.watched_at = now
    seat.process.stdin.write(key.encode())


async def read_screen(seat: Seat, figures: Figures) -> None:
    """Take in what the seat is sent: each drawing times the key that waits for it, and may
    bring this seat's turn."""
    assert seat.process is not None
    while True:
        data = await seat.process.stdout.read(65536)
        if not data:
            return
        arrived = time.perf_counter()
        if CLEAR in data:
            seat.frame = data[data.rindex(CLEAR):]
            if seat.sent_at is not None:
                figures.typing.append(1000 * (arrived - seat.sent_at))
                figures.by_key.setdefault(seat.answered, []).append(figures.typing[-1])
                if seat.openssh:
                    figures.openssh.append(figures.typing[-1])
                seat.sent_at = None
            if seat.watched_at is not None:
                figures.watching.append(1000 * (arrived - seat.watched_at))
                seat.watched_at = None
        else:
            seat.frame += data
        if not seat.busy and asked(seat) is not None:
            asyncio.get_running_loop().create_task(press(seat, figures))


async def log_in(seat: Seat, port: int, folder: Path) -> None:
    """The seat's ssh client logged in, its terminal open."""
    if seat.openssh:
        seat.process = await openssh(seat, port, folder)
        return
    conn = await asyncssh.connect("127.0.0.1", port, username=seat.name, client_keys=[str(folder / "player")],
                                  known_hosts=None, local_addr=(seat.address, 0))
    seat.process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None,
                                             env={"LANG": "C.UTF-8"})


async def openssh(seat: Seat, port: int, folder: Path) -> OpenSSH:
    """The seat's OpenSSH client, started in a pseudo-terminal of 80x24 from the seat's address."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    tty.setraw(slave)
    child = await asyncio.create_subprocess_exec(
        "ssh", "-F", "/dev/null", "-tt", "-e", "none", "-i", str(folder / "player"), "-o", "IdentitiesOnly=yes",
        "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
        "-o", "SendEnv=LANG", "-b", seat.address, "-p", str(port), f"{seat.name}@127.0.0.1",
        stdin=slave, stdout=slave, stderr=slave, env={**os.environ, "LANG": "C.UTF-8"})
    os.close(slave)
    reader = asyncio.StreamReader()
    loop = asyncio.get_running_loop()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(master, "rb", buffering=0))
    return OpenSSH(child, master, reader)


async def wait_for(seat: Seat, words: bytes, seconds: float = 60.0) -> None:
    """Until the seat's screen shows `words`."""
    deadline = time.monotonic() + seconds
    while words not in seat.frame:
        if time.monotonic() > deadline:
            raise SystemExit(f"{seat.name} never saw {words!r}; its screen ends {seat.frame[-300:]!r}")
        await asyncio.sleep(0.05)


async def send(seat: Seat, keys: str) -> None:
    """Type keys at the seat, as a person setting up a table does."""
    assert seat.process is not None
    seat.process.stdin.write(keys.encode())
    await asyncio.sleep(0.2)


async def open_table(table: int, seats: list[Seat], port: int, folder: Path, figures: Figures) -> None:
    """A table's creator starts it and names its players; the others join it by number."""
    host, *others = seats
    await log_in(host, port, folder)
    reader = asyncio.get_running_loop().create_task(read_setup(host))
    await wait_for(host, b"TABLES ON THIS SERVER")
    await send(host, "n")
    await wait_for(host, b"Press any key to begin")
    await send(host, "x")
    await wait_for(host, b"Instructions? (Y/N)")
    await send(host, "n")
    computer = table >= TABLES - COMPUTER_TABLES
    names = [seat.name for seat in seats[:3 if computer else 4]] + (["*thinker"] if computer else [])
    for number, name in enumerate(names, 1):
        await wait_for(host, f"Player {number} name".encode())
        await send(host, name + "\r")
    await wait_for(host, b"Ready to play? (Y/N)")  # four names: no more are asked
    for seat in others:
        await log_in(seat, port, folder)
        joining = asyncio.get_running_loop().create_task(read_setup(seat))
        await wait_for(seat, b"TABLES ON THIS SERVER")
        await send(seat, f"{table + 1}\r")
        await wait_for(seat, b"getting the game ready")
        joining.cancel()
    for seat in others:
        await wait_for(host, f"{seat.name} joined the table".encode())
    reader.cancel()
    for seat in seats:
        seat.frame = b""
        asyncio.get_running_loop().create_task(read_screen(seat, figures))
    await send(host, "y")


async def read_setup(seat: Seat) -> None:
    """What the seat is sent while its table is set up, kept as its screen."""
    assert seat.process is not None
    while True:
        data = await seat.process.stdout.read(65536)
        if not data:
            return
        seat.frame = (seat.frame + data)[-8000:]


async def play(port: int, folder: Path, figures: Figures) -> list[Seat]:
    """Every table opened one after another (so table t is number t + 1), then played."""
    tables = []
    for table in range(TABLES):
        address = f"127.0.0.{10 + table}"
        names = [f"{letter}{table:02d}" for letter in "abc"] + \
            ([f"w{table:02d}"] if table >= TABLES - COMPUTER_TABLES else [f"d{table:02d}"])
        seats = [Seat(name, table, address, openssh=table == OPENSSH_TABLE and OPENSSH) for name in names]
        for seat in seats:
            seat.table_mates = [other for other in seats if other is not seat]
        await open_table(table, seats, port, folder, figures)
        tables.append(seats)
        print(f"table {table + 1} playing", end="\r", flush=True)
    return [seat for seats in tables for seat in seats]


async def measure(server: subprocess.Popen, port: int, folder: Path) -> tuple[Figures, float, float]:
    """The figures of SECONDS of steady play (or until MIN_KEYS keys), the peak memory, the time taken."""
    figures = Figures()
    seats = await play(port, folder, figures)
    await asyncio.sleep(5)  # every game under way
    figures.timing = True
    started, peak = time.perf_counter(), 0.0
    while time.perf_counter() - started < SECONDS or len(figures.typing) < MIN_KEYS:
        peak = max(peak, resident_mb(server.pid))
        await asyncio.sleep(0.5)
        if time.perf_counter() - started > 3 * SECONDS:
            break
    figures.timing = False
    spent = time.perf_counter() - started
    for seat in seats:
        if isinstance(seat.process, OpenSSH):
            seat.process.child.terminate()
            await seat.process.child.wait()
    return figures, peak, spent


def tables_held(folder: Path) -> Optional[int]:
    """The strategy tables the server held as it stopped, from its log."""
    found = re.findall(r"strategy tables held: (\d+)", (folder / "serve" / "table.log").read_text())
    return int(found[-1]) if found else None


def main() -> None:
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        cache = prepare(folder)
        server, port = start_server(folder, cache)
        try:
            figures, peak, spent = asyncio.run(measure(server, port, folder))
            peak = max(peak, resident_mb(server.pid))
        finally:
            server.send_signal(signal.SIGTERM)
            stopped = time.perf_counter()
            server.wait(timeout=60)
            stop_seconds = time.perf_counter() - stopped
        held = tables_held(folder)
    typing_p50, typing_p99 = statistics.median(figures.typing), percentile(figures.typing, 0.99)
    watching_p99 = percentile(figures.watching, 0.99)
    print(f"serve: {TABLES} tables, {4 * TABLES} seats: key to redraw p50 {typing_p50:.1f} ms, p99 "
          f"{typing_p99:.1f} ms at the typing seat (watcher p99 {watching_p99:.1f} ms); peak memory "
          f"{peak:.0f} MB (server and its build processes); strategy tables loaded {held}")
    print(f"{len(figures.typing)} timed keys ({len(figures.watching)} drawings at other seats) in {spent:.0f} s; "
          f"typing p99 target <= {TYPING_P99_MS:.0f} ms: {'met' if typing_p99 <= TYPING_P99_MS else 'NOT met'}; "
          f"memory target <= {MEMORY_MB:.0f} MB: {'met' if peak <= MEMORY_MB else 'NOT met'}; "
          f"the server stopped in {stop_seconds:.1f} s after SIGTERM")
    clients = (f"the table of OpenSSH clients (table {OPENSSH_TABLE + 1}): {len(figures.openssh)} timed keys, p50 "
               f"{statistics.median(figures.openssh):.1f} ms, p99 {percentile(figures.openssh, 0.99):.1f} ms"
               if figures.openssh else "no OpenSSH client here (ssh is not installed): every seat is asyncssh's")
    print(clients)
    print("by the question answered: " + "; ".join(
        f"{question} {len(times)} keys, p50 {statistics.median(times):.1f} ms, p99 {percentile(times, 0.99):.1f} ms"
        for question, times in sorted(figures.by_key.items())))
    print(json.dumps({"quick": QUICK, "tables": TABLES, "keys": len(figures.typing), "seconds": round(spent),
                      "typing_p50_ms": round(typing_p50, 2), "typing_p99_ms": round(typing_p99, 2),
                      "watching_p99_ms": round(watching_p99, 2), "peak_mb": round(peak), "tables_held": held,
                      "stop_seconds": round(stop_seconds, 2), "openssh_keys": len(figures.openssh),
                      "openssh_p99_ms": round(percentile(figures.openssh, 0.99), 2) if figures.openssh else None}))


if __name__ == "__main__":
    main()
