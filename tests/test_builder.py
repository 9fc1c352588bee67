"""Tables made ready in the background: a ready table never waits behind another's build."""
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Union

import pytest
from helpers import printed, table_context, there, wait_until

from yahtzee.coach.services import StrategyServices
from yahtzee.coach.tablekeeper import TableKeeper, WaitsShown
from yahtzee.model.rules import HASBRO, NO_BONUS, Rules
from yahtzee.model.session import Session
from yahtzee.model.words import Text
from yahtzee.speech.languages import text
from yahtzee.strategy.exact.objective import EXPECTED_SCORE, Objective
from yahtzee.strategy.exact.table import StrategyTable
from yahtzee.strategy.storage.builder import AHEAD, RESTS_AHEAD, TableBuilder
from yahtzee.strategy.storage.buildprocess import request


def test_a_ready_table_is_handed_over_at_once_while_the_worker_is_busy() -> None:
    cache = Path(os.environ["YAHTZEE_CACHE"])
    TableKeeper(cache).load(HASBRO)  # read or built once for the whole run
    builder = TableBuilder(cache)
    busy = threading.Event()
    try:
        builder.submit(AHEAD, busy.wait, 30)  # the worker is held, as by another table's build
        table = builder.table(HASBRO, EXPECTED_SCORE).result(timeout=1)
        assert round(table.start_value, 4) == 254.5877
    finally:
        busy.set()
        builder.close()


@pytest.mark.parametrize("chances", [False, True])
def test_prepare_asks_for_the_advisors_table_then_each_moods_then_the_rests(chances: bool) -> None:
    cache = Path(os.environ["YAHTZEE_CACHE"])
    builder = TableBuilder(cache)
    asked = []

    def noted(rules: Rules, objective: Objective, with_rests: bool = False) -> None:
        asked.append((objective.name, with_rests))
    builder.make_ready = noted  # type: ignore[method-assign, assignment]  # each table asked for noted, none built
    try:
        builder.prepare(HASBRO, ["nowhere"], chances).result(timeout=30)
        builder.submit(RESTS_AHEAD, lambda: None).result(timeout=30)  # the work asked for ran before it
        builder.submit(AHEAD, lambda: asked.append(("a table asked for later", False))).result(timeout=30)
    finally:
        builder.close()
    assert asked[0] == ("expected", False)
    assert set(asked[1:4]) == {("norisk", False), ("gambler", False), ("yclover", False)}
    assert asked[4:] == [("expected", True)] * chances + [("a table asked for later", False)]


def test_a_table_asked_for_ahead_goes_before_rests_asked_for_sooner() -> None:
    builder = TableBuilder(Path(os.environ["YAHTZEE_CACHE"]))
    busy = threading.Event()
    order: list[str] = []
    try:
        builder.submit(AHEAD, busy.wait, 30)  # the worker is held, as by another table's build
        rests = builder.submit(RESTS_AHEAD, order.append, "rests")
        table = builder.submit(AHEAD, order.append, "a computer's table")
        busy.set()
        rests.result(timeout=30), table.result(timeout=30)
    finally:
        builder.close()
    assert order == ["a computer's table", "rests"]


def rests_asked(monkeypatch: pytest.MonkeyPatch, players: list[Union[Any, str]]) -> list[Union[Rules, Any]]:
    """The rules whose rests the tables a session of `players` prepares ready (recorded
    instead of done)."""
    from yahtzee.strategy.storage.engine import ENGINE
    readied = []
    monkeypatch.setattr(ENGINE, "ready_rests", lambda table, folder, progress: readied.append(table.rules))
    strategy = StrategyServices.over(TableKeeper(Path(os.environ["YAHTZEE_CACHE"])))
    ctx = table_context(players=players, session=Session([]), strategy=strategy)
    try:
        ctx.prepare_tables()
        for _ in range(2):  # prepare's own job, then the jobs it queued, have run before this
            strategy.tables.builder().submit(RESTS_AHEAD, lambda: None).result(timeout=60)
    finally:
        strategy.close()
    return readied


def test_the_rests_are_readied_ahead_unless_one_player_sits_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    # A solo game never wants them; before the names are in, they are most likely wanted.
    assert rests_asked(monkeypatch, ["ANN"]) == []
    assert rests_asked(monkeypatch, ["ANN", "BOB"]) == [HASBRO]
    assert rests_asked(monkeypatch, []) == [HASBRO]


@pytest.mark.usefixtures("no_shipped_tables")
def test_a_damaged_table_is_set_aside_by_the_builder_with_its_notice(tmp_path: Path) -> None:
    from yahtzee.strategy.storage.cache import table_file_name
    name = table_file_name(HASBRO, EXPECTED_SCORE)
    (tmp_path / name).write_bytes(b"PK\x03\x04 not a table")
    told: list[Text] = []
    builder = TableBuilder(tmp_path, told.append)
    try:
        assert builder.on_hand(HASBRO, EXPECTED_SCORE) is None
    finally:
        builder.close()
    assert len(told) == 1 and text(told[0]).startswith("a damaged strategy table is rebuilt (old file kept as")
    assert not (tmp_path / name).exists() and [p.name for p in tmp_path.iterdir()][0].startswith(name + ".bad-")


def test_a_killed_builds_temp_files_go_though_the_table_came_with_the_package(tmp_path: Path) -> None:
    import time

    from yahtzee.strategy.storage.cache import STALE_SECONDS, table_file_name
    name = table_file_name(HASBRO, EXPECTED_SCORE)
    stale, fresh = tmp_path / (name + "old.tmp"), tmp_path / (name + "new.tmp")
    for temp in (stale, fresh):
        temp.write_bytes(b"\0" * 1000)
    old = time.time() - STALE_SECONDS - 60
    os.utime(stale, (old, old))
    builder = TableBuilder(tmp_path)
    try:
        assert builder.on_hand(HASBRO, EXPECTED_SCORE) is not None
    finally:
        builder.close()
    assert not stale.exists() and fresh.exists()  # a build under way elsewhere keeps its file


@pytest.fixture
def table_without_rests(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> StrategyTable:
    """A cache folder holding the hasbro table and no rests, none in memory or in the package
    either, and rests measured on few games with the exact moments the package brings (the progress
    of measuring the shapes is the point here)."""
    import shutil

    from yahtzee.strategy.odds import rests
    from yahtzee.strategy.storage import cache
    monkeypatch.setenv("YAHTZEE_SHIPPED", "")
    name = cache.table_file_name(HASBRO, EXPECTED_SCORE)
    shutil.copy(cache.SHIPPED / name, tmp_path / name)  # the bits a build makes
    table = cache.load_table(HASBRO, cache_dir=tmp_path)
    shipped = cache.read_rests(table, cache.SHIPPED / cache.rests_file_name(table))
    brought = there(shipped).exact
    monkeypatch.setattr(rests, "MEASURED_RESTS", {})  # the real memo comes back afterwards, untouched
    measure = rests.measure_rests
    monkeypatch.setattr(rests, "measure_rests", lambda table, progress=None, exact=None, processes=1: measure(
        table, 200, 0, progress, exact=brought if exact is None else exact))
    return table


def test_measuring_rests_tells_its_progress_turn_by_turn(tmp_path: Path, table_without_rests: StrategyTable) -> None:
    from yahtzee.strategy.storage import cache
    told = []
    cache.ready_rests(table_without_rests, tmp_path, lambda done, total: told.append((done, total)))
    assert told == [(13 + turn, 26) for turn in range(13)]  # the second half: the spreads came ready
    assert (tmp_path / cache.rests_file_name(table_without_rests)).exists()


def test_a_game_ending_stops_the_rests_being_measured_and_keeps_nothing(
        tmp_path: Path, table_without_rests: StrategyTable) -> None:
    from yahtzee.strategy.storage import cache
    from yahtzee.strategy.storage.builder import BuildCancelled
    builder = TableBuilder(tmp_path)
    builder.cancelled.set()  # the game is ending
    try:
        with pytest.raises(BuildCancelled):
            builder.make_ready(HASBRO, EXPECTED_SCORE, with_rests=True)
    finally:
        builder.close()
    assert not (tmp_path / cache.rests_file_name(table_without_rests)).exists()


def test_a_wait_is_shown_only_its_own_works_progress() -> None:
    builder = TableBuilder(Path(os.environ["YAHTZEE_CACHE"]))
    try:
        builder.submit(AHEAD, builder.progress, 12, 13).result(timeout=30)  # work that told 12 of 13
        assert builder.submit(AHEAD, lambda: (builder.done, builder.total)).result(timeout=30) == (0, 0)
    finally:
        builder.close()


def test_the_first_wait_for_a_table_and_its_rests_shows_one_bar_filled_once(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A first ? with two players waits for the table's build and then for its rests: one bar
    over both, never going back, full once."""
    from types import SimpleNamespace

    from yahtzee.strategy.storage import memo
    from yahtzee.strategy.storage.engine import ENGINE

    measured = set()

    def stage(progress: Any, steps: int = 8) -> None:
        for step in range(steps + 1):
            progress(step, steps)
            threading.Event().wait(0.03)

    def built(self: Any, rules: Rules, objective: Objective) -> Any:
        stage(self.progress)
        return SimpleNamespace(engine=None, rules=rules, objective=objective, exact=True)

    def ready_rests(table: StrategyTable, cache_dir: Any, progress: Any) -> None:
        stage(progress)
        measured.add(id(table))

    monkeypatch.setattr(memo, "READY", {})
    monkeypatch.setattr(TableBuilder, "on_hand", lambda self, rules, objective: None)
    monkeypatch.setattr(TableBuilder, "built", built)
    monkeypatch.setattr(ENGINE, "ready_rests", ready_rests)
    monkeypatch.setattr(ENGINE, "rests_on_hand", lambda table, cache_dir: True)  # measured here, by ready_rests
    monkeypatch.setattr(ENGINE, "has_rests", lambda table: id(table) in measured)
    shown = []
    keeper = TableKeeper(tmp_path, WaitsShown(lambda done, total: shown.append(done / total)))
    try:
        keeper.prepare(HASBRO, chances=True)
        keeper.load(HASBRO, with_rests=True)
    finally:
        keeper.close()
    assert len(shown) > 5
    assert shown == sorted(shown), shown  # never back to the start
    assert shown.count(1.0) <= 1 and shown[-1] > 0.8


def test_a_build_apart_asked_for_rests_keeps_them_in_the_cache(
        tmp_path: Path, table_without_rests: StrategyTable, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rests' arithmetic runs where the table's build runs, in a process of its own: here
    its main, in this process, with the rests measured on few games."""
    from yahtzee.strategy.storage import buildprocess, cache
    monkeypatch.setattr(buildprocess.signal, "signal", lambda *handling: None)  # Ctrl-C stays this run's
    assert not cache.rests_on_hand(table_without_rests, tmp_path)
    assert buildprocess.main(buildprocess.request(HASBRO, EXPECTED_SCORE, tmp_path, rests=True)) == 0
    assert cache.read_rests(table_without_rests, tmp_path / cache.rests_file_name(table_without_rests)) is not None
    assert cache.rests_on_hand(table_without_rests, tmp_path)


@pytest.mark.parametrize("objective, rests, moments", [(EXPECTED_SCORE, True, True), (EXPECTED_SCORE, False, False),
                                                       (Objective("careful", risk=0.01), True, False)])
def test_a_build_asked_for_its_rests_works_out_their_moments_with_the_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, objective: Objective, rests: bool, moments: bool) -> None:
    """Only a table of expected scores has rests: its build, asked for them, works out their
    moments in the same pass (a build that finds the table on hand works out nothing)."""
    from yahtzee.strategy.storage import buildprocess, cache
    monkeypatch.setattr(buildprocess.signal, "signal", lambda *handling: None)  # Ctrl-C stays this run's
    monkeypatch.setattr(buildprocess.os, "nice", lambda increment: 0, raising=False)  # this run's priority stays
    asked: dict[str, Any] = {}
    monkeypatch.setattr(cache, "load_table", lambda *args, **given: asked.update(given))
    monkeypatch.setattr(cache, "ready_rests", lambda *args, **given: None)
    assert buildprocess.main(buildprocess.request(HASBRO, objective, tmp_path, rests=rests)) == 0
    assert asked["moments"] is moments


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="POSIX priorities")
@pytest.mark.usefixtures("no_tables_held")
def test_a_build_runs_below_the_games_own_priority(tmp_path: Path) -> None:
    if sys.platform == "win32":  # for the type checker: POSIX only (never run on Windows)
        pytest.skip("POSIX only")
    from yahtzee.strategy.storage.buildprocess import NICENESS
    below = min(19, os.getpriority(os.PRIO_PROCESS, 0) + NICENESS)

    def niceness() -> int:
        """The build process's niceness (that of the game's own until it lowers its priority)."""
        return os.getpriority(os.PRIO_PROCESS, there(builder.process).pid)

    builder = TableBuilder(tmp_path)
    try:
        builder.table(NO_BONUS, EXPECTED_SCORE)
        # It lowers its priority first thing, before its first table's arithmetic (a build held
        # back by a busy machine shows it long before its first level is done).
        wait_until(lambda: builder.process is not None and niceness() >= below,
                   failure=lambda: f"the build runs at niceness {niceness()}, not {below}")
    finally:
        builder.close()


GAME_KILLED_MID_BUILD = """
import sys, time
from pathlib import Path
from yahtzee.model.rules import NO_BONUS
from yahtzee.strategy.exact.objective import EXPECTED_SCORE
from yahtzee.strategy.storage.builder import TableBuilder
builder = TableBuilder(Path(sys.argv[1]))
builder.table(NO_BONUS, EXPECTED_SCORE)
while builder.process is None or builder.done == 0:
    time.sleep(0.02)
print(builder.process.pid, flush=True)
time.sleep(60)
"""


def processes_naming(folder: Path) -> list[str]:
    """The live processes whose command line names this folder (a zombie has none)."""
    named = []
    for entry in os.scandir("/proc"):
        try:
            with open(os.path.join(entry.path, "cmdline"), "rb") as cmdline:
                if str(folder).encode() in cmdline.read():
                    named.append(entry.name)
        except (OSError, ValueError):
            continue
    return named


@pytest.mark.posix(reason="a kill without a word (SIGKILL)")
@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
def test_a_game_killed_without_a_word_leaves_no_build_running(tmp_path: Path) -> None:
    if sys.platform == "win32":  # for the type checker: POSIX only (never run on Windows)
        pytest.skip("POSIX only")
    game = subprocess.Popen([sys.executable, "-c", GAME_KILLED_MID_BUILD, str(tmp_path)],
                            stdout=subprocess.PIPE, text=True)
    try:
        build = int(there(game.stdout).readline())
        assert str(build) in processes_naming(tmp_path)  # the build and its forked helper name the cache
    finally:
        game.send_signal(signal.SIGKILL)
        game.wait()
    wait_until(lambda: not processes_naming(tmp_path), timeout=10,
               failure=lambda: f"still running: {processes_naming(tmp_path)}")


@pytest.mark.posix(reason="/proc")
@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
def test_a_tied_build_ends_when_its_input_does_though_nothing_tells_it_by_its_output(tmp_path: Path) -> None:
    progress = tmp_path / "progress"
    with progress.open("w") as output:  # a file, never a closed pipe: only its input can tell it
        build = subprocess.Popen([sys.executable, "-m", "yahtzee.strategy.storage.buildprocess",
                                  request(NO_BONUS, EXPECTED_SCORE, tmp_path / "cache", rests=True, tied=True)],
                                 stdin=subprocess.PIPE, stdout=output)
    try:
        wait_until(lambda: progress.read_text(), timeout=30, failure=lambda: "the build never began")
        there(build.stdin).close()
        assert build.wait(timeout=3) != 0  # the whole build and its rests take many seconds
    finally:
        build.kill()
        build.wait()
    wait_until(lambda: not processes_naming(tmp_path), timeout=10,
               failure=lambda: f"still running: {processes_naming(tmp_path)}")
    kept = [name for name in os.listdir(tmp_path / "cache") if not name.startswith(".") and not name.endswith(".lock")]
    assert not kept  # a killed build's temp files are hidden, and removed by the next game


@pytest.mark.usefixtures("no_tables_held")
def test_a_build_starting_as_the_game_ends_is_never_left_running(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The game ends (close) just as the worker starts a build: the build is killed, or never
    started, whichever comes first; it never runs on for a game that is gone."""
    builder = TableBuilder(tmp_path)
    started = []
    real_popen = subprocess.Popen

    def popen_as_the_game_ends(*args: Any, **kwargs: Any) -> Any:
        closing = threading.Thread(target=builder.close)
        closing.start()
        closing.join(timeout=0.5)  # close() has run, or waits for this build to have started
        started.append(real_popen(*args, **kwargs))
        return started[-1]

    monkeypatch.setattr(subprocess, "Popen", popen_as_the_game_ends)
    builder.table(NO_BONUS, EXPECTED_SCORE)
    wait_until(lambda: started, failure=lambda: "no build began")
    monkeypatch.undo()
    try:
        assert started[0].wait(timeout=2) != 0  # killed: a whole build takes longer, and ends with 0
    finally:
        started[0].kill()
        started[0].wait()


def test_a_wait_for_a_table_is_shown_and_stopped_at_the_console_the_game_runs_at_only_while_it_runs() -> None:
    import signal

    from helpers import plain_console

    from yahtzee.app import waits_shown_at
    from yahtzee.consoles.stops import StopRequested
    from yahtzee.model.words import Say
    console = plain_console([])
    keeper = TableKeeper(None)
    try:
        with keeper.shown_at(waits_shown_at(console)):
            shown, notify = keeper.shown.progress, keeper.builder().notify
            assert shown is not None and notify is not None
            shown(1, 2)
            notify(Say("A damaged table was set aside."))  # as the builder's thread tells it
            console.show_arrived()
            keeper.shown.stopping()  # no stop yet: the wait goes on
            console.request_stop(signal.SIGTERM)
            with pytest.raises(StopRequested):
                keeper.shown.stopping()
        notify(Say("Told after the game: nowhere."))
        keeper.shown.stopping()  # the console's stop no longer stops a wait
    finally:
        keeper.close()
    written = printed(console)
    assert "50%" in written and "A damaged table was set aside." in written and "nowhere" not in written
    assert keeper.shown == WaitsShown()


def test_a_wait_tells_work_worked_out_from_a_read_by_the_progress_it_tells() -> None:
    from helpers import wait_until

    from yahtzee.strategy.storage.builder import Waiting
    builder = TableBuilder(Path(os.environ["YAHTZEE_CACHE"]))
    busy = threading.Event()

    def telling() -> None:  # as a build tells its progress
        builder.progress(1, 4)
        busy.wait(30)
    try:
        building = builder.submit(AHEAD, telling)
        wait_until(Waiting(building, builder).working_out)
        busy.set()
        building.result(timeout=30)
        busy.clear()
        reading = builder.submit(AHEAD, busy.wait, 30)  # as a table read from its file: no progress told
        wait_until(lambda: builder.running is reading)
        assert not Waiting(reading, builder).working_out()
    finally:
        busy.set()
        builder.close()


@pytest.mark.usefixtures("no_tables_held")
def test_a_table_is_made_once_in_a_process_whichever_asks_for_it(shared_table_cache: Path, tmp_path: Path) -> None:
    from yahtzee.strategy.storage.cache import table_loader
    loaded = table_loader(shared_table_cache)(HASBRO)
    builder = TableBuilder(tmp_path)  # an empty folder: a table not held would be built into it
    try:
        assert builder.table(HASBRO, EXPECTED_SCORE).result(timeout=30) is loaded
    finally:
        builder.close()
    assert not list(tmp_path.iterdir())
    banked = HASBRO.with_options(bank=2)  # planned from the exact table, with a memo of its plans
    first, second = TableKeeper(tmp_path), TableKeeper(tmp_path)
    try:
        planned = first.load(banked)
        assert not planned.exact and second.load(banked) is planned and first.load(HASBRO) is loaded
    finally:
        first.close()
        second.close()
