"""Key-to-redraw latency at a friend's seat over SSH, next to the host's own, in one run.

The game hosts a table on a loopback port; ANN plays at the host's pseudo-terminal and BOB at a
real OpenSSH client's (a key listed in the saves folder). Each sample writes "1" (mark or free
die 1) at the seat whose turn it is and times until the whole redrawn screen has arrived there:
first ANN's keys at the host (BOB watching), then BOB's keys through ssh. Target: the remote
median and p90 within 2 ms of the local ones. Prints figures; asserts nothing. The last line is one JSON
object.

Usage: python bench/net.py [--quick] (quick: 50 keys at each seat instead of 200)
"""
import contextlib
import json
import os
import re
import select
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from keys import QUICK_SAMPLES, ROOT, SAMPLES, read_until, screen_end, spawn, summary, timed_keys  # noqa: E402

TARGET_MS = 2.0
KEYS = QUICK_SAMPLES if "--quick" in sys.argv[1:] else SAMPLES


def ssh_client(folder: Path, port: int):
    """BOB's ssh client, in a pseudo-terminal of its own."""
    return spawn(["ssh", "-F", "/dev/null", "-i", str(folder / "friend"), "-o", "IdentitiesOnly=yes",
                  "-o", "StrictHostKeyChecking=no", "-o", f"UserKnownHostsFile={folder / 'known_hosts'}",
                  "-o", "LogLevel=ERROR", "-tt", "-p", str(port), "BOB@127.0.0.1"])


def answer(child, key: bytes, words: bytes) -> None:
    """Send a key and wait for the words it brings."""
    os.write(child.fd, key)
    read_until(child, words)


def drained(child) -> None:
    """Read what is still coming (the rest of a draw)."""
    time.sleep(0.3)
    while select.select([child.fd], [], [], 0.2)[0]:
        os.read(child.fd, 65536)


@contextlib.contextmanager
def reading(child):
    """Read and drop what a terminal is sent, in a thread, while the block runs."""
    stop = threading.Event()

    def read_away() -> None:
        while not stop.is_set():
            if select.select([child.fd], [], [], 0.05)[0]:
                os.read(child.fd, 65536)

    thread = threading.Thread(target=read_away, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def unmark_die_one(child) -> None:
    """Die 1 free again after the timed presses (an odd count leaves it marked)."""
    os.write(child.fd, b"1")
    if b"[1]" in read_until(child, b"R rolls"):  # it was free: free it again
        answer(child, b"1", b"R rolls")


def main() -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        saves = folder / "saves"
        saves.mkdir()
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(folder / "friend")], check=True)
        (saves / "authorized_keys").write_text((folder / "friend.pub").read_text())
        cache = os.environ.get("YAHTZEE_CACHE", str(folder / "cache"))
        host = spawn([sys.executable, str(ROOT / "yahtzee.py"), "--seed", "1", "--saves", str(saves),
                      "--host", "127.0.0.1:0"], {"YAHTZEE_CACHE": cache})
        friend = None
        try:
            shown = read_until(host, b"NAME@127.0.0.1").decode("utf-8", "replace")
            port = int(re.search(r"ssh -p (\d+)", shown).group(1))
            friend = ssh_client(folder, port)
            read_until(host, b"BOB joined the table")  # before the game: the seat is his
            for key, words in ((b"x", b"Instructions?"), (b"n", b"Player 1 name"), (b"ANN\r", b"Player 2"),
                               (b"BOB\r", b"Player 3"), (b"\r", b"Ready to play")):
                answer(host, key, words)
            read_until(friend, b"The host is getting the game ready")
            # Each seat's terminal shows every redraw; one left unread would block the game, so
            # the seat not measured is read (and dropped) meanwhile, as a terminal would.
            with reading(friend):
                answer(host, b"y", b"ANN: press any key to roll")
                answer(host, b" ", b"Roll 1 of 3")
                drained(host)
                local = summary(timed_keys(host, b"1", screen_end(host), KEYS))
                unmark_die_one(host)
                for key, words in ((b"r", b"Post where?"), (b"c", b"(Y/N)"), (b"y", b"BOB is rolling")):
                    answer(host, key, words)
            with reading(host):
                answer(friend, b" ", b"Roll 1 of 3")
                drained(friend)
                remote = summary(timed_keys(friend, b"1", screen_end(friend), KEYS))
        finally:
            for child in (friend, host):
                if child is not None:
                    child.terminate(force=True)
    gap = remote["median_ms"] - local["median_ms"]
    gap_p90 = remote["p90_ms"] - local["p90_ms"]
    print(f"key to redraw at the host's seat ({KEYS} keys, a friend watching): "
          f"median {local['median_ms']} ms, p90 {local['p90_ms']} ms")
    print(f"key to redraw at a friend's seat over ssh ({KEYS} keys):          "
          f"median {remote['median_ms']} ms, p90 {remote['p90_ms']} ms")
    print(f"remote minus local, median: {gap:.2f} ms (target within {TARGET_MS} ms: "
          f"{'met' if gap <= TARGET_MS else 'NOT met'})")
    print(f"remote minus local, p90:    {gap_p90:.2f} ms (target within {TARGET_MS} ms: "
          f"{'met' if gap_p90 <= TARGET_MS else 'NOT met'})")
    print(json.dumps({"local": local, "remote": remote, "gap_ms": round(gap, 2), "gap_p90_ms": round(gap_p90, 2),
                      "samples": KEYS}))


if __name__ == "__main__":
    main()
