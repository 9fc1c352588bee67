"""Attacks on a hosted table from loopback, as an outsider on a LAN would make them, each next
to a quiet baseline in the same run.

The game hosts a table on 127.0.0.1 under a 256-file limit; ANN plays at the host's
pseudo-terminal, BOB at his own terminal (asyncssh, a listed key). Each attack runs in a process
of its own, at that process's full rate, bounded in count and in time (its rate printed):

  reconnect  5,000 logins with a key that open a terminal and drop at once (names cycling)
  silent     connections that send nothing, reopened as soon as one is closed
  passwords  wrong passwords pipelined (500 on each connection, without waiting for answers), from
             127.0.0.3: the penalties the attacks before earned 127.0.0.1 would refuse it at once
  channels   50,000 session channels asked for on logged-in connections (each closed at its 11th)
  windows    300,000 window sizes from one seat, many beyond reason
  flood      100 KB of keys from BOB on his own turn
  codes      (--serve only) wrong codes for PAT's private table, three on each logged-in
             connection, from 127.0.0.4, one connection after another

During each, measured at the host: its key-to-redraw (F9 at ANN's terminal, until the new
sound state is drawn), the growth of its resident memory over the attack, its open files, and
whether a friend with the real OpenSSH client from a second address (ssh -b 127.0.0.2) is
seated within 5 s. After the passwords attack, what the table's log says was checked. A second
host, run with YAHTZEE_TRACE_MEMORY (tracemalloc), gives the live Python memory before and
after each attack. Prints figures against their targets; asserts nothing. The last line is one
JSON object. `--quick` runs every attack with a tenth of its count and time, traces the live
memory over the reconnects alone, and leaves out the stopped client (its wait is the server's
keepalive, about 25 s whatever the size). `--serve` makes the same attacks on a server of
tables: ANN hosts its first table from her real ssh client, BOB joins it from the page, and the
server's process is the one measured.
"""
import asyncio
import contextlib
import functools
import json
import logging
import os
import re
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import asyncssh

sys.path.insert(0, str(Path(__file__).resolve().parent))

from keys import ROOT, spawn  # noqa: E402

FILE_LIMIT = 256
SERVE = "--serve" in sys.argv[1:]  # against a server of tables (--serve), ANN hosting its first table
TARGETS = {"passwords_per_minute": 60, "passwords_per_connection": 3, "codes_per_connection": 3,
           "friend_seconds": 5.0,
           "open_files_growth": 5, "rss_growth_mb": 20.0, "live_growth_mb": 1.0, "p99_ms": 20.0,
           "flood_idle_seconds": 2.0, "flood_host_mb": 1.0}
ATTACKS = ["reconnect", "silent", "passwords", "channels", "windows", *(["codes"] if SERVE else [])]
PROBE_GAP = 0.02  # seconds between two probe keys
FLOOD_BYTES = 100 * 1024
# The sound's state beside the upper bonus, painted or not (an ssh client's terminal gets colours).
SOUND = {state: re.compile(rb"Upper bonus[^\r\n]*(?:\b|\x1b\[[0-9;]*m)" + word + rb"(?:\x1b\[0m)?\r")
         for state, word in ((True, b"ON"), (False, b"OFF"))}
F9 = b"\x1b[20~"
LIMITED = ("import os, resource, sys\n"  # the game under a file limit: its own argv after the limit
           "limit = int(sys.argv[1])\n"
           "resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))\n"
           "os.execv(sys.argv[2], sys.argv[2:])\n")


# -- the host, its screen, and what it uses ------------------------------------------------

class Host:
    """The game hosting a table in a pseudo-terminal; everything it draws is read in a thread."""

    def __init__(self, folder: Path, cache: Path, env: dict) -> None:
        self.server: subprocess.Popen[str] | None = None
        if SERVE:  # the server of tables apart, and ANN's real ssh client hosting its first table
            game = [sys.executable, str(ROOT / "yahtzee.py"), "--seed", "1", "--saves", str(folder / "saves"),
                    "--serve", "127.0.0.1:0"]
            self.server = subprocess.Popen([sys.executable, "-c", LIMITED, str(FILE_LIMIT), *game], cwd=ROOT,
                                           stdout=subprocess.PIPE, text=True,
                                           env={**os.environ, "YAHTZEE_CACHE": str(cache), **env})
            assert self.server.stdout is not None
            self.port = int(re.search(r"ssh -p (\d+)", self.server.stdout.readline()).group(1))
            self.child = spawn(friend_command(folder, self.port, "ANN", source="127.0.0.1"), {})
        else:
            game = [sys.executable, str(ROOT / "yahtzee.py"), "--seed", "1", "--saves", str(folder / "saves"),
                    "--host", "127.0.0.1:0"]
            self.child = spawn([sys.executable, "-c", LIMITED, str(FILE_LIMIT), *game],
                               {"YAHTZEE_CACHE": str(cache), **env})
        self.data = bytearray()
        self.lock = threading.Condition()
        self.sound = True
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.child.fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            with self.lock:
                self.data += chunk
                self.lock.notify_all()

    def wait_for(self, pattern: "bytes | re.Pattern[bytes]", since: int = 0, timeout: float = 30.0) -> int:
        """Where `pattern` ends in what was drawn after `since`."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while True:
                if isinstance(pattern, bytes):
                    found = self.data.find(pattern, since)
                    if found >= 0:
                        return found + len(pattern)
                else:
                    match = pattern.search(self.data, since)
                    if match:
                        return match.end()
                left = deadline - time.monotonic()
                if left <= 0:
                    raise SystemExit(f"the host never drew {pattern!r}; last: {bytes(self.data[-400:])!r}")
                self.lock.wait(left)

    def type(self, key: bytes, until: bytes) -> None:
        """A key at the host, and the words it brings."""
        since = len(self.data)
        os.write(self.child.fd, key)
        self.wait_for(until, since)

    def probe(self) -> float:
        """F9 at the host: milliseconds until the new sound state is drawn."""
        since = len(self.data)
        self.sound = not self.sound
        start = time.perf_counter()
        os.write(self.child.fd, F9)
        self.wait_for(SOUND[self.sound], since, timeout=10)
        return (time.perf_counter() - start) * 1000

    def sent(self) -> int:
        """Bytes the host has drawn so far."""
        return len(self.data)

    @property
    def pid(self) -> int:
        """The process measured: the game hosting the table, or the server of tables."""
        return self.child.pid if self.server is None else self.server.pid

    def close(self) -> None:
        """The host's terminal closed, and the server of tables stopped."""
        self.child.terminate(force=True)
        if self.server is not None:
            self.server.terminate()
            self.server.wait(timeout=60)


def resident_kb(pid: int) -> int:
    """The process's resident memory now."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+)", status).group(1))


def open_files(pid: int) -> int:
    """The process's open files now."""
    return len(os.listdir(f"/proc/{pid}/fd"))


def cpu_seconds(pid: int) -> float:
    """The process's CPU time so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Peak:
    """The highest resident memory of a process while the block runs, sampled every 20 ms."""

    def __init__(self, pid: int) -> None:
        self.pid, self.highest, self.stop = pid, resident_kb(pid), threading.Event()

    def __enter__(self) -> "Peak":
        self.before = resident_kb(self.pid)
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()
        return self

    def _sample(self) -> None:
        while not self.stop.wait(0.02):
            with contextlib.suppress(OSError):
                self.highest = max(self.highest, resident_kb(self.pid))

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()

    @property
    def growth_mb(self) -> float:
        return round((self.highest - self.before) / 1024, 1)


def live_bytes(path: Path) -> int:
    """The host's live Python bytes as its memory trace next writes them."""
    written = time.time()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if path.exists() and path.stat().st_mtime > written:
            return int(path.read_text())
        time.sleep(0.1)
    raise SystemExit("the host's memory trace wrote nothing")


# -- BOB, at his own terminal --------------------------------------------------------------

class Bob:
    """BOB's ssh connection (asyncssh, his key), its loop in a thread; what he is sent, read and counted."""

    def __init__(self, folder: Path, port: int, name: str = "BOB") -> None:
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.data = bytearray()
        self.name = name
        self.process = self.run(self._connect(folder, port))

    def run(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=60)

    async def _connect(self, folder: Path, port: int):
        self.conn = await asyncssh.connect("127.0.0.1", port, username=self.name,
                                           client_keys=[str(folder / "friend")], known_hosts=None)
        process = await self.conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        self.loop.create_task(self._read(process))
        return process

    async def _read(self, process) -> None:
        with contextlib.suppress(asyncssh.Error):
            while chunk := await process.stdout.read(65536):
                self.data += chunk

    def wait_for(self, words: bytes, since: int = 0, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while self.data.find(words, since) < 0:
            if time.monotonic() > deadline:
                raise SystemExit(f"BOB never saw {words!r}; last: {bytes(self.data[-300:])!r}")
            time.sleep(0.01)

    def type(self, keys: bytes) -> None:
        self.loop.call_soon_threadsafe(self.process.stdin.write, keys)

    def flood(self, total: int, chunk: int = 1024) -> float:
        """`total` bytes of "1" as fast as his connection takes them; seconds it took."""
        async def send() -> float:
            start = time.perf_counter()
            for _ in range(total // chunk):
                self.process.stdin.write(b"1" * chunk)
                await self.process.stdin.drain()
            return time.perf_counter() - start
        return self.run(send())

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.loop.call_soon_threadsafe(self.conn.close)


# -- a friend from the second address ------------------------------------------------------

def friend_command(folder: Path, port: int, name: str, source: str = "127.0.0.2") -> list[str]:
    """The real OpenSSH client from `source`, with the listed key."""
    return ["ssh", "-F", "/dev/null", "-b", source, "-i", str(folder / "friend"), "-o", "IdentitiesOnly=yes",
            "-o", "StrictHostKeyChecking=no", "-o", f"UserKnownHostsFile={folder / 'known_hosts'}",
            "-o", "LogLevel=ERROR", "-tt", "-p", str(port), f"{name}@127.0.0.1"]


def friend_seated_seconds(folder: Path, port: int, timeout: float = 15.0) -> float:
    """Seconds until a friend with the real OpenSSH client from 127.0.0.2 reads the table
    (CAT watches: the game is under way)."""
    start = time.monotonic()
    child = spawn(friend_command(folder, port, "CAT"))
    data, joined = b"", not SERVE
    try:
        while b"you watch" not in data:
            if not joined and b"TABLES ON THIS SERVER" in data:
                os.write(child.fd, b"1\r")  # from the page of tables to the first table
                joined = True
            if time.monotonic() - start > timeout:
                return float("inf")
            if select.select([child.fd], [], [], 0.1)[0]:
                try:
                    data += os.read(child.fd, 65536)
                except OSError:
                    return float("inf")
        return round(time.monotonic() - start, 2)
    finally:
        child.terminate(force=True)


# -- the attacks, each in a process of its own ---------------------------------------------

async def attack_reconnect(port: int, folder: Path, count: int, seconds: float) -> dict:
    """Logins with a key that open a terminal and drop at once, three at a time."""
    done, refused, deadline = 0, 0, time.monotonic() + seconds
    names = iter(range(count))

    async def one(number: int) -> None:
        nonlocal done, refused
        try:
            async with asyncssh.connect("127.0.0.1", port, username=f"E{number % 1000:03d}",
                                        client_keys=[str(folder / "friend")], known_hosts=None) as conn:
                await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
            done += 1
        except (OSError, asyncssh.Error):
            refused += 1

    async def worker() -> None:
        for number in names:
            if time.monotonic() > deadline:
                return
            await one(number)
    await asyncio.gather(*(worker() for _ in range(3)))
    return {"reconnects": done, "refused": refused}


async def attack_silent(port: int, folder: Path, count: int, seconds: float) -> dict:
    """Connections that send nothing, up to 50 held, each reopened as soon as it is closed."""
    opened, deadline = 0, time.monotonic() + seconds
    loop = asyncio.get_running_loop()

    async def holder() -> None:
        nonlocal opened
        while time.monotonic() < deadline and opened < count:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                await asyncio.sleep(0.01)
                continue
            opened += 1
            with contextlib.suppress(asyncio.TimeoutError, OSError):
                await asyncio.wait_for(reader.read(), max(0.01, deadline - time.monotonic()))
            writer.close()
    del loop
    await asyncio.gather(*(holder() for _ in range(50)))
    return {"connections": opened}


class Guesser(asyncssh.SSHClient):
    """A client that, asked for a password once, sends 500 wrong ones without waiting for answers."""

    def connection_made(self, conn) -> None:
        self.conn = conn
        self.sent = 0

    def password_auth_supported(self) -> bool:
        return True

    def password_auth_requested(self) -> str:
        from asyncssh.constants import MSG_USERAUTH_REQUEST
        from asyncssh.packet import Boolean, String
        if self.sent == 0:
            for guess in range(500):
                self.conn.send_packet(MSG_USERAUTH_REQUEST, String(self.conn._username), String(b"ssh-connection"),
                                      String(b"password"), Boolean(False), String(f"guess{guess}".encode()))
            self.sent = 500
        self.sent += 1
        return "wrong"


def given(client: Guesser) -> Guesser:
    """The client made for a connection (asyncssh asks a factory)."""
    return client


GUESSING_ADDRESS = "127.0.0.3"  # its own address: the penalties the attacks before earned 127.0.0.1 do not stop it


async def attack_passwords(port: int, folder: Path, count: int, seconds: float) -> dict:
    """Connections one after another, each pipelining 500 wrong passwords, under new names,
    from an address no attack before used."""
    sent, connections, deadline = 0, 0, time.monotonic() + seconds
    while time.monotonic() < deadline and connections < count:
        client = Guesser()
        with contextlib.suppress(OSError, asyncssh.Error, asyncio.TimeoutError):
            await asyncio.wait_for(asyncssh.connect("127.0.0.1", port, username=f"G{connections:04d}",
                                                    known_hosts=None, client_factory=functools.partial(given, client),
                                                    client_keys=None, local_addr=(GUESSING_ADDRESS, 0),
                                                    preferred_auth="password"), 5)
        connections += 1
        sent += client.sent
    return {"connections": connections, "passwords_sent": sent}


async def attack_channels(port: int, folder: Path, count: int, seconds: float) -> dict:
    """Session channels asked for on a logged-in connection, a thousand at a time, again on a
    new connection whenever one is closed (the table closes one at its eleventh ask, and then
    refuses its address a while); "channels_sent" counts every ask sent on an open connection."""
    sent, connections, deadline = 0, 0, time.monotonic() + seconds
    while sent < count and time.monotonic() < deadline:
        connections += 1
        try:
            async with asyncssh.connect("127.0.0.1", port, username="CHAN", client_keys=[str(folder / "friend")],
                                        known_hosts=None) as conn:
                while sent < count and time.monotonic() < deadline:
                    results = await asyncio.gather(*(conn.create_session(asyncssh.SSHClientSession)
                                                     for _ in range(1000)), return_exceptions=True)
                    sent += len(results)
                    if any(isinstance(result, asyncssh.ChannelOpenError) and "closed" in result.reason
                           for result in results):
                        break  # the table closed the connection
        except (OSError, asyncssh.Error):
            await asyncio.sleep(0.05)
    return {"channels_sent": sent, "connections": connections}


async def attack_windows(port: int, folder: Path, count: int, seconds: float) -> dict:
    """Window sizes from a watching seat, every other one beyond reason (again on a new
    connection whenever one is closed)."""
    sent, connections, deadline = 0, 0, time.monotonic() + seconds
    while sent < count and time.monotonic() < deadline:
        connections += 1
        with contextlib.suppress(OSError, asyncssh.Error):
            async with asyncssh.connect("127.0.0.1", port, username="WIN", client_keys=[str(folder / "friend")],
                                        known_hosts=None) as conn:
                process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
                while sent < count and time.monotonic() < deadline and not process.channel.is_closing():
                    for _ in range(1000):
                        size = (100_000 + sent, 50_000 + sent) if sent % 2 else (80 + sent % 40, 24 + sent % 10)
                        process.change_terminal_size(*size)
                        sent += 1
                    await process.stdin.drain()
                    await asyncio.sleep(0)
    return {"window_sizes": sent, "connections": connections}


CODES_ADDRESS = "127.0.0.4"  # its own address
PRIVATE_TABLE = b"2"  # PAT's, opened after ANN's


async def attack_codes(port: int, folder: Path, count: int, seconds: float) -> dict:
    """Logged-in connections one after another (a listed key, names of their own), each typing
    wrong codes for PAT's private table from the page until it is closed."""
    sent, connections, deadline = [0], 0, time.monotonic() + seconds
    while sent[0] < count and time.monotonic() < deadline:
        with contextlib.suppress(OSError, asyncssh.Error, asyncio.TimeoutError):
            async with asyncssh.connect("127.0.0.1", port, username=f"K{connections:04d}", known_hosts=None,
                                        client_keys=[str(folder / "friend")], local_addr=(CODES_ADDRESS, 0)) as conn:
                process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
                await guess_codes(process, sent, count, deadline)
        connections += 1
    return {"codes_sent": sent[0], "connections": connections}


async def guess_codes(process: asyncssh.SSHClientProcess, sent: list[int], most: int, deadline: float) -> None:
    """Wrong codes typed at the page, counted in `sent`, until the connection is closed (or
    `most` in all, or the deadline)."""
    seen = b""

    async def until(words: bytes) -> bool:
        nonlocal seen
        while words not in seen:
            chunk = await asyncio.wait_for(process.stdout.read(65536), max(0.01, deadline - time.monotonic()))
            if not chunk:
                return False
            seen += chunk
        seen = b""
        return True

    if not await until(b"TABLES ON THIS SERVER"):
        return
    while sent[0] < most and time.monotonic() < deadline:
        process.stdin.write(PRIVATE_TABLE + b"\r")
        if not await until(b"private table's code"):
            return
        process.stdin.write(b"ZZZZZZ\r")
        sent[0] += 1


ATTACK_RUNS = {"reconnect": (attack_reconnect, 5000, 150.0), "silent": (attack_silent, 100_000, 12.0),
               "passwords": (attack_passwords, 10_000, 20.0), "channels": (attack_channels, 50_000, 30.0),
               "windows": (attack_windows, 300_000, 20.0), "codes": (attack_codes, 3000, 30.0)}


def attacker(kind: str, port: int, folder: Path, scale: float) -> None:
    """Run one attack in this process; its figures and rate as one JSON line."""
    run, count, seconds = ATTACK_RUNS[kind]
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)  # a connection the table closed is no news here
    start = time.monotonic()
    figures = asyncio.run(run(port, folder, max(1, int(count * scale)), seconds * scale))
    elapsed = time.monotonic() - start
    first = next(iter(figures.values()))
    print(json.dumps({**figures, "seconds": round(elapsed, 1), "rate_per_second": round(first / elapsed, 1)}))


def launch(kind: str, port: int, folder: Path, scale: float) -> subprocess.Popen:
    """An attack in a process of its own, from 127.0.0.1."""
    return subprocess.Popen([sys.executable, __file__, "--attack", kind, str(port), str(folder), str(scale)],
                            stdout=subprocess.PIPE, text=True)


# -- the run -------------------------------------------------------------------------------

def prepared(folder: Path) -> None:
    """A saves folder with the friends' key listed."""
    (folder / "saves").mkdir(parents=True)
    if not (folder / "friend").exists():
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(folder / "friend")], check=True)
    (folder / "saves" / "authorized_keys").write_text((folder / "friend.pub").read_text())


def game_under_way(host: Host, folder: Path) -> tuple[int, Bob]:
    """The host's port, BOB seated before the game, and ANN at her first roll once the game's
    strategy table and its rests are ready, as her advice page shows them (so no work in the
    background is measured)."""
    if SERVE:  # ANN starts the first table from the page; BOB joins it
        port = host.port
        host.wait_for(b"TABLES ON THIS SERVER")
        host.type(b"n", b"Press any key to begin")
        bob = Bob(folder, port)
        bob.wait_for(b"TABLES ON THIS SERVER")
        bob.type(b"1\r")
        pat = Bob(folder, port, "PAT")  # PAT's private table, the second, waits at its title screen
        pat.wait_for(b"TABLES ON THIS SERVER")
        pat.type(b"p")
        pat.wait_for(b"with its code")
    else:
        port = int(re.search(rb"ssh -p (\d+)", host.data[:host.wait_for(b"NAME@127.0.0.1")]).group(1))
        bob = Bob(folder, port)
    host.wait_for(b"BOB joined the table")
    for key, words in ((b"x", b"Instructions?"), (b"n", b"Player 1 name"), (b"ANN\r", b"Player 2"),
                       (b"BOB\r", b"Player 3"), (b"\r", b"Ready to play"), (b"y", b"ANN: press any key to roll"),
                       (b" ", b"Roll 1 of 3"), (b"?", b"win %"), (b"x", b"Roll 1 of 3")):
        host.type(key, words)
    return port, bob


def probes_while(host: Host, attack: subprocess.Popen, most: int = 400) -> list[float]:
    """Probe keys at the host while the attack runs (at most `most`)."""
    times = []
    while attack.poll() is None and len(times) < most:
        times.append(host.probe())
        time.sleep(PROBE_GAP)
    return times


def p99(times: list[float]) -> float:
    ordered = sorted(times)
    return round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 2) if ordered else float("nan")


def checked_codes(saves: Path) -> list[int]:
    """Wrong private-table codes the log says were typed, per connection (each under a name of its own)."""
    counts: dict[str, int] = {}
    for line in (saves / "table.log").read_text(encoding="utf-8").splitlines():
        match = re.match(r"\S+ \S+ (K\d{4}) a wrong code for table \d+(?: \(and (\d+) times more\))?$", line)
        if match:
            counts[match.group(1)] = counts.get(match.group(1), 0) + int(match.group(2) or 1)
    return list(counts.values())


def checked_passwords(saves: Path) -> list[int]:
    """Passwords the log says were checked, per connection (each attacking connection logs in
    under a name of its own)."""
    counts: dict[str, int] = {}
    for line in (saves / "table.log").read_text(encoding="utf-8").splitlines():
        match = re.match(r"\S+ \S+ (G\d{4}) wrong password(?: \(and (\d+) times more\))?$", line)
        if match:  # a line of repeats counts the repeats alone: the first was a line of its own
            counts[match.group(1)] = counts.get(match.group(1), 0) + int(match.group(2) or 1)
    return list(counts.values())


def measured_run(folder: Path, cache: Path, scale: float) -> dict:
    """Every attack against one host, with a quiet baseline first."""
    prepared(folder)
    host = Host(folder, cache, {})
    bob = None
    results: dict[str, dict] = {}
    try:
        port, bob = game_under_way(host, folder)
        files_start = open_files(host.pid)
        for kind in ("quiet", *ATTACKS):
            files_before = open_files(host.pid)
            with Peak(host.pid) as peak:
                attack = launch(kind, port, folder, scale) if kind != "quiet" else subprocess.Popen(
                    [sys.executable, "-c", f"import time; time.sleep({max(2.0, 10 * scale)}); print('{{}}')"],
                    stdout=subprocess.PIPE, text=True)
                time.sleep(1.0)
                seated = friend_seated_seconds(folder, port)
                times = probes_while(host, attack)
                figures = json.loads(attack.communicate(timeout=300)[0].strip().splitlines()[-1])
            time.sleep(2.0)  # what the attack left is let go
            results[kind] = {**figures, "friend_seconds": seated, "probes": len(times), "p99_ms": p99(times),
                             "median_ms": round(statistics.median(times), 2) if times else float("nan"),
                             "rss_growth_mb": peak.growth_mb, "open_files_before": files_before,
                             "open_files_after": open_files(host.pid)}
            if kind in ("passwords", "codes"):
                per_connection = (checked_passwords if kind == "passwords" else checked_codes)(folder / "saves")
                results[kind]["checked"] = sum(per_connection)
                results[kind]["checked_per_connection_max"] = max(per_connection, default=0)
        results["flood"] = flood(host, bob)
        results["dead_friend_seconds"] = dead_friend_seconds(host, folder, port) if scale == 1.0 else None
        results["open_files"] = {"start": files_start, "end": open_files(host.pid)}
    finally:
        if bob is not None:
            bob.close()
        host.close()
    return results


def flood(host: Host, bob: Bob) -> dict:
    """ANN posts; on BOB's own turn he sends 100 KB of keys: how long until the host is idle and
    what it drew meanwhile; then another 100 KB, with the host's key-to-redraw measured during it."""
    for key, words in ((b"r", b"Post where?"), (b"c", b"(Y/N)"), (b"y", b"BOB is rolling")):
        host.type(key, words)
    since = len(bob.data)
    bob.type(b" ")
    bob.wait_for(b"Roll 1 of 3", since)
    time.sleep(0.5)
    drawn_before = host.sent()
    with Peak(host.pid) as peak:
        sent_in = bob.flood(FLOOD_BYTES)
        idle_after = idle_seconds(host.pid, time.monotonic())
    drawn = host.sent() - drawn_before
    time.sleep(1.5)  # a new second of input for BOB
    sending = threading.Thread(target=bob.flood, args=(FLOOD_BYTES,))
    sending.start()
    probes = [probe_after(host) for _ in range(int(2 / PROBE_GAP))]  # two seconds from the flood on
    sending.join()
    return {"bytes": FLOOD_BYTES, "send_seconds": round(sent_in, 2), "idle_after_seconds": idle_after,
            "host_drawn_mb": round(drawn / 1e6, 3), "probes": len(probes), "p99_ms": p99(probes),
            "rss_growth_mb": peak.growth_mb}


def probe_after(host: Host) -> float:
    """One probe key, then the gap before the next."""
    figure = host.probe()
    time.sleep(PROBE_GAP)
    return figure


def dead_friend_seconds(host: Host, folder: Path, port: int) -> float:
    """A watching friend's ssh stopped (SIGSTOP: its connection open, nothing answered): seconds
    until the table's log says they left."""
    log = folder / "saves" / "table.log"
    child = spawn(friend_command(folder, port, "DAN"))
    try:
        logged(log, " DAN joined the table")
        time.sleep(1.0)
        os.kill(child.pid, signal.SIGSTOP)
        stopped = time.monotonic()
        logged(log, " DAN left", timeout=120)
        return round(time.monotonic() - stopped, 1)
    finally:
        os.kill(child.pid, signal.SIGCONT)
        child.terminate(force=True)


def logged(log: Path, words: str, timeout: float = 30.0) -> None:
    """Wait until the table's log has a line with `words`."""
    deadline = time.monotonic() + timeout
    while not any(line.endswith(words) or words + " " in line for line in log.read_text().splitlines()):
        if time.monotonic() > deadline:
            raise SystemExit(f"the log never said{words!r}")
        time.sleep(0.05)


def idle_seconds(pid: int, since: float, window: float = 0.2, busy: float = 0.1) -> float:
    """Seconds from `since` until the process uses under `busy` of a core over `window`."""
    while time.monotonic() - since < 30:
        before = cpu_seconds(pid)
        time.sleep(window)
        if (cpu_seconds(pid) - before) / window < busy:
            return round(time.monotonic() - since - window, 2)
    return float("inf")


def traced_run(folder: Path, cache: Path, scale: float, kinds: list[str]) -> dict:
    """The attacks of `kinds` against a second host tracing its memory: live Python bytes before
    (once they have settled) and after."""
    prepared(folder)
    trace = folder / "live.txt"
    host = Host(folder, cache, {"YAHTZEE_TRACE_MEMORY": str(trace)})
    bob = None
    results = {}
    try:
        port, bob = game_under_way(host, folder)
        for kind in kinds:
            before = settled_live_bytes(trace)
            launch(kind, port, folder, scale).communicate(timeout=600)
            time.sleep(2.0)
            after = live_bytes(trace)
            results[kind] = {"live_before_mb": round(before / 2**20, 2), "live_after_mb": round(after / 2**20, 2),
                             "live_growth_mb": round((after - before) / 2**20, 2)}
    finally:
        if bob is not None:
            bob.close()
        host.close()
    return results


def settled_live_bytes(trace: Path, within: int = 100_000, timeout: float = 120.0) -> int:
    """The host's live bytes once three looks a second apart differ by less than `within`."""
    looks, deadline = [live_bytes(trace)], time.monotonic() + timeout
    while time.monotonic() < deadline and (len(looks) < 3 or max(looks[-3:]) - min(looks[-3:]) >= within):
        time.sleep(1.0)
        looks.append(live_bytes(trace))
    return looks[-1]


def mark(ok: bool) -> str:
    return "met" if ok else "NOT met"


def per_minute(figures: dict) -> float:
    """What an attack had checked in a minute: all of it in a shorter run, else its rate a minute."""
    minutes = max(figures["seconds"], 1) / 60
    return figures["checked"] / minutes if figures["seconds"] >= 60 else figures["checked"]


def report(measured: dict, traced: dict) -> None:
    """The figures, each against its target."""
    quiet = measured["quiet"]
    print("against a server of tables (--serve), ANN hosting its first table over ssh" if SERVE
          else "against a hosted table (--host)")
    print(f"quiet baseline: key to redraw p99 {quiet['p99_ms']} ms (median {quiet['median_ms']} ms, "
          f"{quiet['probes']} keys); friend from 127.0.0.2 seated in {quiet['friend_seconds']} s")
    for kind in ATTACKS:
        figures = measured[kind]
        rate = {key: value for key, value in figures.items()
                if key in ("reconnects", "connections", "passwords_sent", "channels_sent", "window_sizes", "refused",
                           "codes_sent", "seconds", "rate_per_second")}
        print(f"\n{kind}: {rate}")
        seated = figures["friend_seconds"]
        print(f"  friend from 127.0.0.2 seated in {seated} s "
              f"(target <= {TARGETS['friend_seconds']}: {mark(seated <= TARGETS['friend_seconds'])})")
        if figures["probes"]:
            print(f"  host key to redraw p99 {figures['p99_ms']} ms over {figures['probes']} keys "
                  f"(target <= {TARGETS['p99_ms']}: {mark(figures['p99_ms'] <= TARGETS['p99_ms'])})")
        else:
            print("  host key to redraw: no key probed (the attack was over first)")
        print(f"  resident growth {figures['rss_growth_mb']} MB (target <= {TARGETS['rss_growth_mb']}: "
              f"{mark(figures['rss_growth_mb'] <= TARGETS['rss_growth_mb'])})")
        growth = figures["open_files_after"] - figures["open_files_before"]
        print(f"  open files {figures['open_files_before']} -> {figures['open_files_after']} "
              f"(limit {FILE_LIMIT}; target growth <= {TARGETS['open_files_growth']}: "
              f"{mark(growth <= TARGETS['open_files_growth'])})")
        live = traced.get(kind)
        if live:
            within = live["live_growth_mb"] <= TARGETS["live_growth_mb"]
            print(f"  live Python memory {live['live_before_mb']} -> {live['live_after_mb']} MB "
                  f"(target within {TARGETS['live_growth_mb']}: {mark(within)})")
        if kind == "passwords":
            print(f"  passwords checked from one address: {figures['checked']} in {figures['seconds']} s of "
                  f"{figures['passwords_sent']} sent (target <= {TARGETS['passwords_per_minute']} a minute: "
                  f"{mark(per_minute(figures) <= TARGETS['passwords_per_minute'])}); most on one connection "
                  f"{figures['checked_per_connection_max']} (target <= {TARGETS['passwords_per_connection']}: "
                  f"{mark(figures['checked_per_connection_max'] <= TARGETS['passwords_per_connection'])})")
        if kind == "codes":
            most, rate = figures["checked_per_connection_max"], per_minute(figures)
            print(f"  wrong codes the log counts from one address: {figures['checked']} in {figures['seconds']} s on "
                  f"{figures['connections']} connections (with its passwords, target <= "
                  f"{TARGETS['passwords_per_minute']} a minute: {mark(rate <= TARGETS['passwords_per_minute'])}); "
                  f"most on one connection {most} (target <= {TARGETS['codes_per_connection']}: "
                  f"{mark(most <= TARGETS['codes_per_connection'])}); a code of 32^6 found in "
                  f"{32 ** 6 / 2 / max(rate, 1) / 525_600:,.0f} years on average from one address at that rate")
    flood_figures = measured["flood"]
    print(f"\nflood: {flood_figures['bytes']} bytes of keys from BOB on his turn in {flood_figures['send_seconds']} s")
    print(f"  host idle {flood_figures['idle_after_seconds']} s after (target <= {TARGETS['flood_idle_seconds']}: "
          f"{mark(flood_figures['idle_after_seconds'] <= TARGETS['flood_idle_seconds'])}); drew "
          f"{flood_figures['host_drawn_mb']} MB at the host (target <= {TARGETS['flood_host_mb']}: "
          f"{mark(flood_figures['host_drawn_mb'] <= TARGETS['flood_host_mb'])})")
    print(f"  host key to redraw p99 {flood_figures['p99_ms']} ms over {flood_figures['probes']} keys; "
          f"resident growth {flood_figures['rss_growth_mb']} MB")
    dead = measured["dead_friend_seconds"]
    if dead is None:
        print("\na friend whose ssh was stopped (SIGSTOP): not measured in the quick size")
    else:
        print(f"\na friend whose ssh was stopped (SIGSTOP) let go after {dead} s (target < 30: {mark(dead < 30)})")
    files = measured["open_files"]
    print(f"\nopen files over the whole run: {files['start']} -> {files['end']} (limit {FILE_LIMIT})")
    print(json.dumps({"measured": measured, "traced": traced, "targets": TARGETS}))


def main() -> None:
    if sys.argv[1:2] == ["--attack"]:
        kind, port, folder, scale = sys.argv[2:6]
        attacker(kind, int(port), Path(folder), float(scale))
        return
    scale = 0.1 if "--quick" in sys.argv else 1.0
    if "--only" in sys.argv:  # one attack, or none (and the quiet baseline, the flood and the stopped client)
        ATTACKS[:] = [kind for kind in ATTACKS if kind == sys.argv[sys.argv.index("--only") + 1]]
    with tempfile.TemporaryDirectory() as name:
        cache = Path(os.environ.get("YAHTZEE_CACHE", Path(name) / "cache"))  # one table for both hosts
        measured = measured_run(Path(name) / "measured", cache, scale)
        traced_kinds = ATTACKS[:1] if "--quick" in sys.argv else ATTACKS  # quick: the reconnects traced alone
        traced = {} if "--no-trace" in sys.argv else traced_run(Path(name) / "traced", cache, scale, traced_kinds)
    report(measured, traced)


if __name__ == "__main__":
    main()
