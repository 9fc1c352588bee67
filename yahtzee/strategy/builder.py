"""Strategy tables made ready ahead of need: read from the cache, or built in a process of
their own, in the background, while the game goes on.

One worker thread does the work, a table at a time, in the order it was asked for; numpy is
imported there, never on the game's start-up path. A build runs in a separate process, so
that the game's own process stays free for the keys and quitting ends the build at once: a
killed build has written nothing (a table file is written whole, at its end, under a
temporary name). The game waits for a table only when it needs it, showing the progress of
the work ahead of it.
"""
import multiprocessing
import signal
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as StillWaiting
from pathlib import Path
from typing import Callable, Dict, Iterable, Optional

POLL_SECONDS = 0.05
# Tables made ready in this process, by (rules, objective): a table is read or built once per
# process, however many sessions (or tests) ask for it.
READY: Dict[tuple, object] = {}


class BuildCancelled(Exception):
    """The game is ending: the build stops, keeping nothing."""


def build_into_cache(rules, objective, cache_dir: str, progress_pipe) -> None:
    """In the build process: build the table into the cache, telling the parent how far it is.
    It never writes to the player's terminal: a failure only ends the pipe."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C belongs to the game, not to a build
    from .cache import load_table
    last = [-1]

    def report(done, total):
        step = 100 * done // total if total else 100
        if step != last[0]:
            last[0] = step
            progress_pipe.send((done, total))

    try:
        load_table(rules, objective, cache_dir, report)
        progress_pipe.send("built")
    except Exception:  # noqa: BLE001 (the parent builds the table itself when this one fails)
        pass


class TableBuilder:
    """Makes tables ready in the background, one after another."""

    def __init__(self, cache_dir: Optional[Path], notify: Optional[Callable] = None):
        self.cache_dir = cache_dir
        self.notify = notify
        self.done, self.total = 0, 0  # the progress of the build under way
        self.cancelled = threading.Event()
        self.process: Optional[multiprocessing.Process] = None
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="tables")

    def prepare(self, rules, moods: Iterable[str]) -> Future:
        """Start making ready the tables that these rules and computer moods need."""
        return self.pool.submit(self._prepare, rules, tuple(moods))

    def table(self, rules, objective) -> Future:
        """The table for exactly solved rules and an objective, when it is ready."""
        return self.pool.submit(self._table, rules, objective)

    def _prepare(self, rules, moods) -> None:
        """In the worker: every table the moods play with, the advisor's first."""
        from .players import OBJECTIVES
        from .solver import EXPECTED_SCORE
        from .tables import planning_rules
        from .cache import is_solved_exactly
        exact = rules if is_solved_exactly(rules) else planning_rules(rules)
        wanted = [EXPECTED_SCORE] + [OBJECTIVES[mood] for mood in moods_played(moods, OBJECTIVES)]
        for objective in dict.fromkeys(wanted):
            self._table(exact, objective)

    def _table(self, rules, objective):
        """In the worker: the table from memory, the cache, or a build; its arithmetic warmed."""
        key = (rules, objective)
        if key not in READY:
            table = self._cached(rules, objective) or self._built(rules, objective)
            table.engine  # noqa: B018 (made here, off the key path)
            READY[key] = table
        return READY[key]

    def _cached(self, rules, objective):
        """The table from the cache, or None."""
        from .cache import read_table
        return None if self.cache_dir is None else read_table(rules, objective, self.cache_dir)

    def _built(self, rules, objective):
        """Built in a process of its own into the cache and read from there; built here when
        the cache cannot keep it."""
        from .cache import load_table
        if self.cache_dir is not None:
            self._build_apart(rules, objective)
            self._check_cancelled()
            table = self._cached(rules, objective)
            if table is not None:
                return table
        return load_table(rules, objective, self.cache_dir, self._progress, self.notify)

    def _build_apart(self, rules, objective) -> None:
        """Run build_into_cache in a child process, keeping its progress."""
        self._check_cancelled()
        context = multiprocessing.get_context("spawn")
        receiving, sending = context.Pipe(duplex=False)
        self.done, self.total = 0, 0
        self.process = context.Process(target=build_into_cache, daemon=True,
                                       args=(rules, objective, str(self.cache_dir), sending))
        self.process.start()
        sending.close()
        try:
            while (message := receiving.recv()) != "built":
                self.done, self.total = message
        except EOFError:
            pass  # the process ended early: cancelled, or failed (then it is built here)
        finally:
            receiving.close()
            self.process.join()

    def _progress(self, done: int, total: int) -> None:
        """An in-process build's progress; it stops here when the game is ending."""
        self._check_cancelled()
        self.done, self.total = done, total

    def _check_cancelled(self) -> None:
        if self.cancelled.is_set():
            raise BuildCancelled()

    def close(self) -> None:
        """The game is ending: stop the work under way at once and forget the rest."""
        self.cancelled.set()
        process = self.process
        if process is not None and process.is_alive():
            process.kill()
        self.pool.shutdown(wait=False, cancel_futures=True)


def moods_played(moods: Iterable[str], objectives: dict) -> list:
    """The moods whose tables a set of computer players use (nowhere plays the other four)."""
    played = []
    for mood in moods:
        played += list(objectives) if mood not in objectives else [mood]
    return played


def wait_for(job: Future, builder: TableBuilder, progress: Optional[Callable],
             stopping: Callable[[], None]):
    """The job's result, showing the builder's progress meanwhile; `stopping()` may raise."""
    shown = (-1, -1)
    while True:
        try:
            return job.result(timeout=POLL_SECONDS)
        except StillWaiting:
            pass
        stopping()
        now = (builder.done, builder.total)
        if progress and now[1] and now != shown:
            shown = now
            progress(*now)
