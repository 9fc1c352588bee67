"""The table build shared with a forked helper, and the states it solves once for others: the
same values to the last bit, progress as before, and no helper left behind."""
import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from helpers import wait_until
from numpy import ndarray

from yahtzee.model.rules import ACORN, FIVEOAK, FREE_JOKER, HASBRO, NO_BONUS, YAHTC, Rules
from yahtzee.strategy.exact import statespace, team
from yahtzee.strategy.exact.levels import BUILD_CHUNK, LEAST_BATCH, LevelSolver, batch_bounds
from yahtzee.strategy.exact.solver import TurnSolver
from yahtzee.strategy.exact.stages import Workspace
from yahtzee.strategy.exact.table import Loader, StrategyTable
from yahtzee.strategy.storage.cache import build_table

needs_fork = pytest.mark.skipif(not team.can_fork() or team.usable_cores() < 2,
                                reason="the helper is forked where two processors are usable")


@pytest.fixture(scope="module")
def two_process_hasbro() -> ndarray:
    """The 1987 rules' table built by two processes."""
    return build_table(HASBRO, processes=2).values


@pytest.fixture(scope="module")
def no_bonus_shared(loader: Loader) -> ndarray:
    """The no-bonus table as a build makes it (the run's own, built once): each card's 'fifty'
    state given its twin's value."""
    return loader(NO_BONUS).values


@pytest.fixture(scope="module")
def no_bonus_every_state() -> ndarray:
    """The no-bonus table with every 'fifty' state solved on its own."""
    engine = TurnSolver(NO_BONUS)
    engine.fifty_matters = True
    return engine.solve()


@needs_fork
def test_two_processes_build_the_shipped_table_to_the_last_bit(
        two_process_hasbro: ndarray, table: StrategyTable) -> None:
    assert np.array_equal(two_process_hasbro, table.values)


@needs_fork
@pytest.mark.parametrize("rules", [NO_BONUS, YAHTC, FIVEOAK], ids=lambda rules: rules.name)
def test_two_processes_solve_the_fullest_levels_as_one_does(rules: Rules) -> None:
    engine = TurnSolver(rules)
    levels = 4  # the four fullest levels: several batches each, so each process takes some
    assert np.array_equal(engine.solve(levels=levels, processes=2), engine.solve(levels=levels))


def test_only_the_no_bonus_rules_let_a_50_change_nothing() -> None:
    assert [TurnSolver(rules).fifty_matters for rules in (HASBRO, FREE_JOKER, NO_BONUS, YAHTC, ACORN, FIVEOAK)] == \
        [True, True, False, True, True, True]


def test_the_fifty_twins_get_the_values_solving_them_gives(
        no_bonus_shared: ndarray, no_bonus_every_state: ndarray) -> None:
    reachable = np.concatenate([statespace.level_states(filled, 1).index for filled in range(13)])
    assert np.array_equal(no_bonus_shared[reachable], no_bonus_every_state[reachable])
    assert np.array_equal(no_bonus_shared, no_bonus_every_state)  # the states no game reaches too


def test_without_the_fifty_twins_a_third_fewer_states_are_solved() -> None:
    engine = TurnSolver(NO_BONUS)
    solved = sum(len(states) for filled in range(13) for states in LevelSolver(engine).level_batches(filled, 1))
    every = sum(len(statespace.level_states(filled, 1)) for filled in range(13))
    assert solved < 0.7 * every


@pytest.mark.parametrize("count", [1, 2, 3, 5, 513, 1024, 1025, 2048, 88064])
@pytest.mark.parametrize("processes", [1, 2])
def test_batches_hold_every_state_once_in_even_shares(count: int, processes: int) -> None:
    batches = batch_bounds(count, processes)
    assert np.array_equal(np.unique(np.concatenate(batches)), np.arange(count))
    assert all(LEAST_BATCH <= len(batch) <= BUILD_CHUNK for batch in batches)
    assert len(batches) % processes == 0 or count < processes * 2 * LEAST_BATCH
    assert max(map(len, batches)) - min(map(len, batches)) <= 1 or count < LEAST_BATCH


@needs_fork
def test_two_processes_report_progress_up_to_the_total_from_the_leader_alone() -> None:
    reports, leader = [], os.getpid()
    TurnSolver(HASBRO).solve(lambda done, total: reports.append((os.getpid(), done, total)), levels=4, processes=2)
    assert {pid for pid, _, _ in reports} == {leader}
    assert reports[-1][1] == reports[-1][2] and len(reports) > 4
    assert [done for _, done, _ in reports] == sorted(done for _, done, _ in reports)


@pytest.mark.parametrize("why", ["no fork", "one processor"])
def test_without_fork_or_a_second_processor_one_process_solves_it_all(
        monkeypatch: pytest.MonkeyPatch, why: str) -> None:
    def no_fork() -> None:
        raise AssertionError("forked")
    monkeypatch.setattr(team, "can_fork", lambda: why != "no fork")
    monkeypatch.setattr(team, "usable_cores", lambda: 1 if why == "one processor" else 2)
    monkeypatch.setattr(os, "fork", no_fork, raising=False)
    engine = TurnSolver(HASBRO)
    assert np.array_equal(engine.solve(levels=3, processes=2), engine.solve(levels=3))


def children(pid: int) -> list[int]:
    """The processes `pid` started that are still running (not zombies), read from /proc."""
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as listing:
            found += [int(child) for child in listing.read().split()]
    return [child for child in found if is_running(child)]


def is_running(pid: int) -> bool:
    """True while `pid` runs (a zombie has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.fixture
def forked(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The helpers forked in this test, by process id."""
    if sys.platform == "win32":  # for the type checker: POSIX only (never run on Windows)
        pytest.skip("POSIX only")
    pids, fork = [], os.fork

    def fork_and_note() -> Any:
        pid = fork()
        if pid:
            pids.append(pid)
        return pid
    monkeypatch.setattr(os, "fork", fork_and_note)
    return pids


def is_reaped(pid: int) -> bool:
    """True when `pid` has ended and been waited for by this process."""
    if sys.platform == "win32":  # for the type checker: POSIX only (never run on Windows)
        pytest.skip("POSIX only")
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


@needs_fork
def test_a_helper_that_fails_fails_the_build_and_is_reaped(monkeypatch: pytest.MonkeyPatch, forked: list[Any]) -> None:
    leader, solve_states = os.getpid(), LevelSolver.solve_states

    def fail_in_the_helper(self: Any, values: Any, states: Any, work: Any) -> None:
        if os.getpid() != leader:
            raise MemoryError("the helper's part")
        solve_states(self, values, states, work)
    monkeypatch.setattr(LevelSolver, "solve_states", fail_in_the_helper)
    with pytest.raises(team.HelperLost):
        TurnSolver(HASBRO).solve(levels=3, processes=2)
    assert len(forked) == 1 and is_reaped(forked[0])


@needs_fork
def test_a_leader_that_stops_takes_its_helper_with_it(forked: list[Any]) -> None:
    def stop(done: int, total: int) -> None:
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        TurnSolver(HASBRO).solve(stop, levels=4, processes=2)
    assert len(forked) == 1 and is_reaped(forked[0])


@needs_fork
@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_a_killed_build_leaves_no_helper_running() -> None:
    code = ("import sys; from yahtzee.model.rules import HASBRO; from yahtzee.strategy.storage.cache import "
            "build_table; build_table(HASBRO, progress=lambda done, total: print(done, flush=True), processes=2)")
    build = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
                             text=True)
    assert build.stdout is not None
    build.stdout.readline()  # the helper is at work by the first line
    helpers = children(build.pid)
    build.kill()
    build.wait()
    assert len(helpers) == 1
    wait_until(lambda: not any(map(is_running, helpers)), 30, poll=0.05, failure=lambda: f"{helpers} still running")
    build.stdout.close()


def solved_state_by_state(engine: TurnSolver, levels: int) -> ndarray:
    """The fullest `levels` levels solved as the build solved them before sums with the same
    future were solved once: every state of level_states, the hopeless sums shared per level."""
    values = statespace.empty_values()
    for filled in range(12, 12 - levels, -1):
        states = statespace.level_states(filled, 1)
        for start in range(0, len(states), BUILD_CHUNK):
            batch = states.part(slice(start, start + BUILD_CHUNK))
            LevelSolver(engine).solve_states(values, batch, Workspace(len(batch)))
        statespace.share_hopeless(values, filled)
    statespace.fill_unreachable(values)
    return values


@pytest.mark.parametrize("rules", [HASBRO, ACORN], ids=lambda rules: rules.name)
def test_sums_with_the_same_future_get_the_values_solving_each_gives(rules: Rules) -> None:
    engine = TurnSolver(rules)
    assert np.array_equal(engine.solve(levels=4), solved_state_by_state(engine, 4))


def test_with_an_extra_turn_sums_with_the_same_future_get_the_values_solving_each_gives() -> None:
    # A turn that may come back settles as a fixed point, a batch at a time: equal but for the last bits.
    engine = TurnSolver(YAHTC)
    solved, each = engine.solve(levels=4), solved_state_by_state(engine, 4)
    assert np.abs(solved - each).max() < 1e-9 and solved.max() > 100


def test_sums_with_the_same_future_are_those_no_amount_still_to_come_tells_apart() -> None:
    # Only FOURS open (upper boxes ONES, TWOS, THREES, FIVES, SIXES filled): 0, 4, ..., 20 more,
    # so 43 and 46 both reach the bonus with 20, neither with 16; 42 does not with 20.
    same = statespace.SAME_FUTURE[0b110111]
    assert same[43] == same[46] != same[42] and same[63] == 63 and same[0] == same[42] == 0
    solved = sum(len(statespace.distinct_states(filled)) for filled in range(13))
    assert solved < 0.9 * sum(len(statespace.level_states(filled, 1)) for filled in range(13))


@pytest.mark.parametrize("rules", [HASBRO, FREE_JOKER, NO_BONUS, YAHTC], ids=lambda rules: rules.name)
@pytest.mark.parametrize("filled", [2, 6, 11])
def test_the_builds_best_postings_are_those_worked_out_a_box_at_a_time(
        rules: Rules, filled: int, table: StrategyTable) -> None:
    engine = TurnSolver(rules)
    states = statespace.level_states(filled, 1)
    states = states.part(slice(None, None, max(1, len(states) // 500)))
    quick, each_box = Workspace(len(states)), Workspace(len(states))
    assert engine.plain_post_values(table.values, states, quick) is None
    assert engine.plain_post_values(table.values, states, each_box, want_boxes=True) is not None
    assert np.array_equal(quick.base, each_box.base)
