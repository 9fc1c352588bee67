"""Tables made ready in the background: a ready table never waits behind another's build."""
import os
import threading

from yahtzee.coach import Coach
from yahtzee.rules import HASBRO
from yahtzee.strategy.builder import AHEAD, TableBuilder
from yahtzee.strategy.solver import EXPECTED_SCORE


def test_a_ready_table_is_handed_over_at_once_while_the_worker_is_busy():
    cache = os.environ["YAHTZEE_CACHE"]
    Coach(cache).load(HASBRO)  # read or built once for the whole run
    builder = TableBuilder(cache)
    busy = threading.Event()
    try:
        builder._submit(AHEAD, busy.wait, 30)  # the worker is held, as by another table's build
        table = builder.table(HASBRO, EXPECTED_SCORE).result(timeout=1)
        assert round(table.start_value, 4) == 254.5877
    finally:
        busy.set()
        builder.close()


def test_prepare_asks_for_the_advisors_table_and_each_moods_ahead():
    cache = os.environ["YAHTZEE_CACHE"]
    builder = TableBuilder(cache)
    asked = []
    builder._table = lambda rules, objective: asked.append(objective.name)
    try:
        builder.prepare(HASBRO, ["nowhere"]).result(timeout=30)
        builder._submit(AHEAD, lambda: None).result(timeout=30)  # the tables asked for ran before it
    finally:
        builder.close()
    assert asked[0] == "expected" and set(asked) == {"expected", "norisk", "gambler", "yclover"}
