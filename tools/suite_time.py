"""The test suite's time as README.md states it, measured one way for every issue: the README's
test command, its install included, in a clean clone of the project, with one process keeping
a core busy beside it (a shared machine is rarely quiet). Prints one line against the target.

    python tools/suite_time.py [--commit REV]
"""
import argparse
import multiprocessing
import pathlib
import re
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
TARGET_SECONDS = 120


def burn() -> None:
    """Keep one core busy until stopped."""
    while True:
        pass


def test_command() -> str:
    """The README's second command: install with the test tools, run the tests."""
    return re.findall(r"```sh\n(.+?)\n```", (ROOT / "README.md").read_text())[1]


def main() -> int:
    """Clone, burn a core, time the README's test command; its exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commit", default="HEAD", help="the commit to clone (default HEAD)")
    commit = parser.parse_args().commit
    with tempfile.TemporaryDirectory() as folder:
        clone = pathlib.Path(folder) / "clone"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        subprocess.run(["git", "-C", str(clone), "checkout", "-q", commit], check=True)
        burner = multiprocessing.Process(target=burn, daemon=True)
        burner.start()
        started = time.monotonic()
        try:
            done = subprocess.run(["bash", "-c", test_command()], cwd=clone, capture_output=True, text=True)
        finally:
            burner.terminate()
        seconds = time.monotonic() - started
    summary = (done.stdout.strip().splitlines() or ["(no output)"])[-1].strip("= ")
    verdict = "met" if done.returncode == 0 and seconds <= TARGET_SECONDS else "NOT met"
    print(f"suite: {summary}; the README's test command with its install took {seconds:.0f} s in a clean clone "
          f"beside one busy core (target {TARGET_SECONDS} s: {verdict})")
    if done.returncode:
        print(done.stdout[-3000:], done.stderr[-2000:], file=sys.stderr)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
