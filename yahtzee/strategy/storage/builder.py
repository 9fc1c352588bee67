"""Strategy tables made ready ahead of need: read from the cache, or built in a process of
their own (buildprocess), in the background, while the game goes on.

One worker thread does the work, a table at a time: a table the game waits for first, then
those asked for ahead, in order; numpy is imported there, never on the game's start-up path.
A build runs in a separate process, so that the game's own process stays free for the keys
and quitting ends the build at once: a killed build has written nothing (a table file is
written whole, at its end, under a temporary name). The game waits for a table only when it
needs it, showing the progress of the work ahead of it.
"""
import contextlib
import itertools
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterable, Iterator
from concurrent.futures import Future
from concurrent.futures import TimeoutError as StillWaiting
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional, TypeVar, cast

from ...model.rules import Rules
from ..exact.objective import EXPECTED_SCORE
from . import memo
from .buildprocess import request

if TYPE_CHECKING:  # imported in the worker only: they load numpy
    from ..exact.objective import Objective
    from ..exact.table import StrategyTable
    from .cache import Notify
    from .engine import StrategyFunctions

POLL_SECONDS = 0.05
PROGRESS_STEPS = 1000  # a wait's bar in thousandths of all the work before it
CLOSE_SECONDS = 3.0
# A table the game waits for goes before those made ready ahead, and every table before the
# rests of one (the longest work, needed by no computer's turn).
NEEDED, AHEAD, RESTS_AHEAD = 0, 1, 2
T = TypeVar("T")
# (priority, order, future, work, its arguments); close() queues one without future or work
Job = tuple[int, int, Optional[Future[Any]], Optional[Callable[..., Any]], tuple[object, ...]]


class BuildCancelled(Exception):
    """The game is ending: the build stops, keeping nothing."""


class TableBuilder:
    """Makes tables ready in the background, one after another."""

    def __init__(self, cache_dir: Optional[Path], notify: "Optional[Notify]" = None) -> None:
        self.cache_dir = cache_dir
        self.notify = notify
        self.done, self.total = 0, 0  # the progress of the stage under way (a build, or measuring rests)
        self.stages_done = 0  # the stages finished so far
        self.running: Optional[Future[Any]] = None  # the work under way, its arguments and its stages still to do
        self.running_args: tuple[object, ...] = ()
        self.running_left = 0
        self.cancelled = threading.Event()
        self.process: Optional[subprocess.Popen[str]] = None
        # Held while a build process starts, and while close() ends it: a build starting as the
        # game ends is either never started or killed, never left running on unseen.
        self.starting = threading.Lock()
        self.work: queue.PriorityQueue[Job] = queue.PriorityQueue()
        self.order = itertools.count()
        self.worker = threading.Thread(target=self._work, name="tables", daemon=True)
        self.worker.start()

    def prepare(self, rules: Rules, moods: Iterable[str], chances: bool = False) -> Future[None]:
        """Start making ready the tables that these rules and computer moods need, and with
        `chances` the rests that win chances need."""
        return self.submit(AHEAD, self._prepare, rules, tuple(moods), chances)

    def table(self, rules: Rules, objective: "Objective", with_rests: bool = False) -> "Future[StrategyTable]":
        """The table for exactly solved rules and an objective, when it is ready (at once
        when it is, never behind a build of another table); `with_rests`: once the rests
        of an expected-score table are ready too (what win chances need)."""
        ready = ready_table(rules, objective, with_rests)
        if ready is not None:
            done: Future[StrategyTable] = Future()
            done.set_result(ready)
            return done
        return self.submit(NEEDED, self.make_ready, rules, objective, with_rests)

    def submit(self, priority: int, work: Callable[..., T], *args: object) -> Future[T]:
        """Queue `work(*args)` for the worker at `priority` (NEEDED first); its result to come."""
        future: Future[T] = Future()
        self.work.put((priority, next(self.order), future, work, args))
        return future

    def _work(self) -> None:
        """The worker thread: one piece of work at a time, the most needed first."""
        while not self.cancelled.is_set():
            _, _, future, work, args = self.work.get()
            if future is None or work is None or not future.set_running_or_notify_cancel():
                continue
            self.done, self.total = 0, 0  # a wait shows this work's progress, never the last's
            self.running, self.running_args, self.running_left = future, args, stages_of(work, args)
            try:
                future.set_result(work(*args))
            except BaseException as error:  # handed to whoever waits for the table
                future.set_exception(error)
            finally:
                self.running, self.running_args, self.running_left = None, (), 0

    def _prepare(self, rules: Rules, moods: tuple[str, ...], chances: bool) -> None:
        """In the worker: ask, ahead, for every table the game will need, in the order it
        needs them: the advisor's, then each computer's by seat, and after every table the
        rests that win chances need."""
        exact = engine().nearest_exact(rules)
        wanted = [EXPECTED_SCORE] + [objective for mood in moods for objective in engine().mood_objectives(mood)]
        for objective in dict.fromkeys(wanted):
            self.submit(AHEAD, self.make_ready, exact, objective)
        if chances:
            self.submit(RESTS_AHEAD, self.make_ready, exact, EXPECTED_SCORE, True)

    def make_ready(self, rules: Rules, objective: "Objective", with_rests: bool = False) -> "StrategyTable":
        """In the worker: the table from memory, the cache, or a build; its arithmetic
        warmed; `with_rests`, its rests readied (off the advice path)."""
        table = memo.remembered(rules, objective, lambda: self._read_or_built(rules, objective))
        table.engine  # noqa: B018 (its arithmetic made here, off the key path, whoever made the table)
        if with_rests:
            with self._stage():
                if self.cache_dir is not None and not engine().rests_on_hand(table, self.cache_dir):
                    self._build_apart(rules, objective, rests=True)  # their arithmetic off the game's process
                    self._check_cancelled()
                engine().ready_rests(table, self.cache_dir, self.progress)  # shown to a look that waits
        return table

    def _read_or_built(self, rules: Rules, objective: "Objective") -> "StrategyTable":
        """In the worker: the table from the cache, or a build."""
        table = self.on_hand(rules, objective)
        if table is None:
            with self._stage():
                table = self.built(rules, objective)
        return table

    @contextlib.contextmanager
    def _stage(self) -> Iterator[None]:
        """One stage of the work under way (a build, or measuring rests), counted when done."""
        self.done, self.total = 0, 0
        yield
        self.stages_done += 1
        self.running_left = max(0, self.running_left - 1)

    def stages_until(self, job: Future[Any]) -> int:
        """How many stages are still to do before `job` is done: what is left of the work
        under way and of the work queued before it (read, not taken, from the queue)."""
        if job.done():
            return 0
        left = self.running_left
        if job is self.running:
            return left
        with self.work.mutex:
            queued = sorted(self.work.queue, key=lambda item: item[:2])
        done_before = {self.running_args}  # work asked for twice is done by the first
        for _priority, _order, future, work, args in queued:
            left += 0 if args in done_before else stages_of(work, args)
            done_before.add(args)
            if future is job:
                break
        return left

    def on_hand(self, rules: Rules, objective: "Objective") -> "Optional[StrategyTable]":
        """The table that came with the package, or the one from the cache, or None: a damaged
        one is set aside here, where its notice reaches the player (a build in its own process
        says nothing), and the temp files of killed builds go whether or not a table must be built."""
        if self.cache_dir is not None:
            engine().remove_stale_temps(self.cache_dir)
        table = engine().shipped_table(rules, objective)
        if table is None and self.cache_dir is not None:
            table = engine().cached_table(rules, objective, self.cache_dir, self.notify)
        return table

    def built(self, rules: Rules, objective: "Objective") -> "StrategyTable":
        """Built in a process of its own into the cache and read from there; built here when
        the cache cannot keep it."""
        if self.cache_dir is not None:
            self._build_apart(rules, objective)
            self._check_cancelled()
            table = self.on_hand(rules, objective)
            if table is not None:
                return table
        return engine().load_table(rules, objective, self.cache_dir, self.progress, self.notify)

    def _build_apart(self, rules: Rules, objective: "Objective", rests: bool = False) -> None:
        """Run the build (of the table, and its rests if asked) in a process of its own,
        keeping its progress."""
        assert self.cache_dir is not None  # built builds apart only into a cache
        package_home = str(Path(__file__).resolve().parents[3])
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            filter(None, [package_home, os.environ.get("PYTHONPATH")]))}
        with self.starting:
            self._check_cancelled()
            self.process = subprocess.Popen(
                [sys.executable, "-m", request.__module__, request(rules, objective, self.cache_dir, rests, tied=True)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                text=True)
        assert self.process.stdout is not None  # stdout=PIPE
        with self.process.stdout:
            for line in self.process.stdout:
                self.done, self.total = map(int, line.split())
        self.process.wait()

    def progress(self, done: int, total: int) -> None:
        """The progress of an in-process build or of measuring rests; they stop here when the
        game is ending."""
        self._check_cancelled()
        self.done, self.total = done, total

    def _check_cancelled(self) -> None:
        if self.cancelled.is_set():
            raise BuildCancelled()

    def close(self) -> None:
        """The game is ending: stop the work under way at once and forget the rest."""
        with self.starting:
            self.cancelled.set()
            process = self.process
            if process is not None and process.poll() is None:
                process.kill()
        self.work.put((NEEDED, -1, None, None, ()))  # wakes the worker to see it is over
        # Let a step under way (a table read, its arithmetic) finish before the game exits:
        # numpy stopped halfway by the interpreter's exit could end the process abruptly.
        self.worker.join(timeout=CLOSE_SECONDS)


def ready_table(rules: Rules, objective: "Objective", with_rests: bool = False) -> "Optional[StrategyTable]":
    """The table made ready in this process, or None; `with_rests`, only once its rests are
    ready too (measured only where win chances are wanted: they take as long as a build)."""
    table = memo.READY.get((rules, objective))
    if table is None or not table.exact:
        return None  # a table planned approximately is never made ready by the builder
    if not with_rests:
        return table
    return table if engine().has_rests(table) else None


def stages_of(work: Optional[Callable[..., Any]], args: tuple[object, ...]) -> int:
    """How many stages a piece of work will take, as it looks now: a table not ready yet is
    one (read from the cache it takes a moment), rests not ready yet another."""
    if getattr(work, "__func__", None) is not TableBuilder.make_ready:
        return 0
    rules, objective = cast("tuple[Rules, Objective]", args[:2])
    with_rests = len(args) > 2 and bool(args[2])
    return (ready_table(rules, objective) is None) + (with_rests and ready_table(rules, objective, True) is None)


class Waiting:
    """A job the game waits for, and how far along it is: one share over all the work before
    it (every stage of it, never starting again from nothing)."""

    def __init__(self, job: "Future[Any]", builder: TableBuilder) -> None:
        self.job = job
        self.builder = builder
        self.start, self.stages = builder.stages_done, builder.stages_until(job)

    def done(self) -> bool:
        """Whether the job is over (its result, or its error, is there)."""
        return self.job.done()

    def settle(self, seconds: float) -> bool:
        """Wait up to `seconds` for the job to end; whether it has."""
        try:
            self.job.exception(timeout=seconds)
        except StillWaiting:
            return False
        return True

    def working_out(self) -> bool:
        """Whether a table or its rests are being worked out now (a build or a measure tells its
        progress; a table or rests read from a file tell none)."""
        return self.builder.total > 0

    def share(self) -> float:
        """How much of the work before the job is done, from 0 to 1."""
        builder = self.builder
        under_way = builder.done / builder.total if builder.total else 0.0
        finished = builder.stages_done - self.start
        return min((finished + under_way) / max(self.stages, finished + 1), 1.0)


def wait_for(job: Future[T], builder: TableBuilder, progress: Optional[Callable[[int, int], None]],
             stopping: Callable[[], None]) -> T:
    """The job's result, showing meanwhile one bar over all the work before it; `stopping()`
    may raise."""
    waiting, shown = Waiting(job, builder), -1
    while not waiting.settle(POLL_SECONDS):
        stopping()
        share = int(PROGRESS_STEPS * waiting.share())
        if progress and waiting.stages and share > shown:
            shown = share
            progress(share, PROGRESS_STEPS)
    return job.result()


def engine() -> "StrategyFunctions":
    """The strategy engine's numpy-backed functions: the one door through which the game loads
    numpy (in the builder's thread, or the first time advice, a review or a computer player
    needs it)."""
    from .engine import ENGINE
    return ENGINE
