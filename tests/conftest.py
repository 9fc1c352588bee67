"""Test-wide setup: one strategy-table cache for the whole run, so tables build once (also
across parallel test workers, which share it: a table is built by one copy at a time)."""
from __future__ import annotations  # the fixtures' types are the game's, imported where used

import datetime
import functools
import gc
import importlib.metadata
import importlib.util
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import pytest

# An environment that forbids writing bytecode (PYTHONDONTWRITEBYTECODE) would have every worker,
# and every game process the tests start, compile the game's modules afresh: the suite writes
# them once (the game processes read what the workers wrote).
sys.dont_write_bytecode = False

import yahtzee  # noqa: E402, F401 (first of the game's: it sets what numpy reads when it loads, as in the game)
from yahtzee.saves.locks import default_lock  # noqa: E402

if TYPE_CHECKING:
    from yahtzee.saves.store import Saves
    from yahtzee.screens.context import Context
    from yahtzee.strategy.exact.table import Loader, StrategyTable
    from yahtzee.strategy.odds.rests import Rests

sys.path.insert(0, str(Path(__file__).resolve().parent))

# The suite reads English whatever the machine's locale (in-process and in child processes);
# the tests of the German translation ask for it themselves.
os.environ.update(LANGUAGE="en", LC_ALL="C.UTF-8", LANG="C.UTF-8")
os.environ.pop("LC_MESSAGES", None)

# The run's temp folders (every game's saves, the tables) on the machine's RAM disk where it
# has one: a game writes its save whole, flushes it to disk and renames it at every step, and
# on a disk that is much of an in-process game's time. A TMPDIR of one's own is kept.
# Not on Windows: there "/dev/shm" names a folder on the current drive (under Wine, Linux's own
# RAM disk, shared with the Linux runs' temp folders).
RAM_DISK = "/dev/shm"
ON_POSIX = os.name == "posix"
if ON_POSIX and "TMPDIR" not in os.environ and os.path.isdir(RAM_DISK) and os.access(RAM_DISK, os.W_OK | os.X_OK):
    os.environ["TMPDIR"] = RAM_DISK  # for the workers and every game the tests start, too
    tempfile.tempdir = None  # asked again


def under_wine() -> bool:
    """Whether this Windows is Wine (its ntdll has wine_get_version)."""
    if sys.platform != "win32":  # asked on Windows only
        return False
    import ctypes
    return hasattr(ctypes.WinDLL("ntdll"), "wine_get_version")


ON_WINDOWS = sys.platform == "win32"
UNDER_WINE = ON_WINDOWS and under_wine()


# The modules whose tests wait longest (games in real terminals and over SSH, tables solved)
# are marked slow, with a rank, longest first. They run before the rest: the workers take the
# first tests in turn, so these are spread over all of them from the start, and the many short
# tests fill in at the end (collected in file order, they came last and one worker went on
# alone long after the others).
LAST = float("inf")


def slow_rank(item: pytest.Item) -> float:
    """Where a test runs in the order: its slow mark's rank, or after every slow one."""
    marker = item.get_closest_marker("slow")
    return marker.args[0] if marker is not None else LAST


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked slow first, by rank, each module's in its own order; on Windows, those
    marked posix skipped, and under Wine those marked wine_lacks (setup.cfg's markers)."""
    items.sort(key=slow_rank)
    skipped = {"posix": ON_WINDOWS, "wine_lacks": UNDER_WINE}
    for item in items:
        for name, applies in skipped.items():
            marker = item.get_closest_marker(name)
            if applies and marker is not None:
                item.add_marker(pytest.mark.skip(reason=f"{name}: {marker.kwargs['reason']}"))


def run_folder(config: pytest.Config) -> Path:
    """The temp folder the whole run shares: the first process's (each worker's is inside it)."""
    root = config._tmp_path_factory.getbasetemp()  # type: ignore[attr-defined]  # pytest's own, on the config
    return root.parent if hasattr(config, "workerinput") else root


def keep_bytecode_in(run_folder: Path) -> None:
    """Where bytecode is not written (PYTHONDONTWRITEBYTECODE), each of the many games the
    tests start would compile the game's modules afresh, and each worker rewrite the tests'
    asserts: the run keeps its own bytecode in its temp folder instead (never beside the
    sources), for itself and every process it starts, seeded with the bytecode already compiled
    where Python and the packages are installed."""
    if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is None and not sys.dont_write_bytecode:
        return
    prefix = str(run_folder / "bytecode")
    os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix = prefix
    sys.dont_write_bytecode = False
    if ON_POSIX:  # links: on Windows, making one takes a privilege a user rarely has
        seed_bytecode()


def seed_bytecode() -> None:
    """Link into the run's own folder the bytecode compiled where Python and the installed
    packages are (it is read from there only): otherwise the first worker compiles numpy,
    prompt_toolkit, asyncssh and the rest afresh while the others wait, and every worker and
    game started at once compiles what it imports first. Links, not copies: quicker to make
    before any worker starts (a stale file would be replaced by a new one, never written
    through the link)."""
    for source, compiled in installed_bytecode(f".{sys.implementation.cache_tag}.pyc"):
        target = importlib.util.cache_from_source(source)
        if os.path.isfile(source) and not os.path.lexists(target):  # a module listed twice is linked once
            os.makedirs(os.path.dirname(target), exist_ok=True)
            os.symlink(compiled, target)


STDLIB_NOT_IMPORTED = {"test", "idlelib", "lib2to3", "tkinter", "turtledemo", "ensurepip", "site-packages"}


def installed_bytecode(suffix: str) -> Iterator[tuple[str, str]]:
    """(source, bytecode) of every module compiled where it is installed (file names ending
    in `suffix`): each installed distribution's, and the standard library's."""
    for distribution in importlib.metadata.distributions():
        for file in distribution.files or ():
            if file.name.endswith(suffix) and file.parent.name == "__pycache__":
                compiled = distribution.locate_file(file)
                yield str(compiled.parent.parent / (file.name[:-len(suffix)] + ".py")), str(compiled)
    for folder, subfolders, files in os.walk(os.path.dirname(os.__file__)):
        subfolders[:] = [name for name in subfolders if name not in STDLIB_NOT_IMPORTED]
        if os.path.basename(folder) == "__pycache__":
            for name in files:
                if name.endswith(suffix):
                    yield os.path.join(os.path.dirname(folder), name[:-len(suffix)] + ".py"), os.path.join(folder, name)


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    """The run's bytecode kept from the start (before the workers start and collect); a
    worker collects with the garbage collector off (its passes over the ever larger heap of
    modules and tests were a fifth of a worker's collecting), on again once collected."""
    keep_bytecode_in(run_folder(config))
    if hasattr(config, "workerinput"):
        gc.disable()


@pytest.hookimpl(hookwrapper=True)
def pytest_collection(session: pytest.Session) -> Iterator[None]:
    """The first worker to collect rewrites the test modules' asserts (seconds of CPU each
    time) and keeps them compiled; the others wait for it, then read them."""
    if not hasattr(session.config, "workerinput"):
        yield
        return
    folder = run_folder(session.config)
    lock, done = default_lock(folder / "collecting.lock"), folder / "collected"
    while not lock.acquire():  # another worker is collecting
        time.sleep(0.05)
    if done.exists():
        lock.release()
        yield
        return
    try:
        yield
    finally:
        done.touch()
        lock.release()


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collecting made (every test, the modules' code and trees) lives until the run
    ends: the garbage collector, on again, no longer walks it in its full passes."""
    gc.freeze()
    gc.enable()


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """Nor does its last pass, when the process ends: at the end of a run, every worker's
    walking a heap of a few hundred thousand objects kept the run waiting a second or two."""
    gc.freeze()


@pytest.fixture(scope="session", autouse=True)
def shared_table_cache(pytestconfig: pytest.Config) -> Iterator[Path]:
    """Every game started by the tests (in-process or not) keeps its tables in one folder."""
    # A developer may keep the tables between runs (YAHTZEE_TEST_CACHE); CI builds them afresh.
    kept = os.environ.get("YAHTZEE_TEST_CACHE")
    folder = Path(kept) if kept else run_folder(pytestconfig) / "table-cache"
    folder.mkdir(exist_ok=True)
    os.environ["YAHTZEE_CACHE"] = str(folder)
    yield folder
    os.environ.pop("YAHTZEE_CACHE", None)


@pytest.fixture(scope="session", autouse=True)
def shipped_rests(shared_table_cache: Path) -> None:
    """The 1987 rules' rests in each worker's memory from the start, read from the package's
    file as the game reads them: a test that works out a chance to win never measures them
    (long work) because no test before it in its worker happened to read them."""
    from yahtzee.model.rules import HASBRO
    from yahtzee.strategy.storage.cache import ready_rests, table_loader
    ready_rests(table_loader(shared_table_cache)(HASBRO), shared_table_cache)


@pytest.fixture(scope="module")
def loader(shared_table_cache: Path) -> Loader:
    """A table loader on the run's shared cache."""
    from yahtzee.strategy.storage.cache import table_loader
    return table_loader(shared_table_cache)


@pytest.fixture(scope="module")
def table(loader: Loader) -> StrategyTable:
    """The expected-score table of the 1987 rules."""
    from yahtzee.model.rules import HASBRO
    return loader(HASBRO)


@pytest.fixture(scope="module")
def rests(table: StrategyTable, shared_table_cache: Path) -> Rests:
    """The 1987 rules' rests (what the win chances need), readied once for the run: every
    worker reads the file the first one kept."""
    from yahtzee.strategy.odds.rests import measured_rests
    from yahtzee.strategy.storage.cache import ready_rests
    ready_rests(table, shared_table_cache)
    return measured_rests(table)


@pytest.fixture
def no_shipped_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if the package brought no tables (in-process and in the games the test starts): where
    building, caching or measuring the 1987 rules' table or rests is the point."""
    monkeypatch.setenv("YAHTZEE_SHIPPED", "")


@pytest.fixture
def no_tables_held(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if this process held no table yet (storage/memo.py), whatever earlier tests loaded:
    where a build by the builder is the point."""
    from yahtzee.strategy.storage import memo
    monkeypatch.setattr(memo, "READY", {})


@pytest.fixture
def clock() -> Callable[[], datetime.datetime]:
    """The fixed clock (helpers.NOON), as the game's services are given it."""
    from helpers import clock
    return clock


@pytest.fixture
def saves_folder(tmp_path: Path) -> Path:
    """The test's own saves folder (not made yet)."""
    return tmp_path / "saves"


@pytest.fixture
def saves(saves_folder: Path, clock: Callable[[], datetime.datetime]) -> Iterator[Saves]:
    """The saves in the test's folder, on the fixed clock; closed after the test."""
    from yahtzee.saves.store import Saves
    with Saves(saves_folder, now=clock) as opened:
        yield opened


@pytest.fixture
def context(saves: Saves) -> Callable[..., Context]:
    """Makes a screens' context over the test's saves (helpers.table_context's arguments)."""
    from helpers import table_context
    return functools.partial(table_context, saves=saves)
