"""Keys typed ahead are never lost: a whole two-player game sent in one burst ends exactly as
the same game typed key by key."""
import json
import os
import shutil
import time
from pathlib import Path
from typing import Any, Callable

import pytest
from helpers import LOCK_ERRNO, PTY
from terminal import Terminal

from yahtzee.model.rules import HASBRO
from yahtzee.saves.locks import default_lock
from yahtzee.strategy.exact.table import StrategyTable
from yahtzee.strategy.storage import cache

pytestmark = [pytest.mark.slow(14), pytest.mark.filterwarnings("ignore::DeprecationWarning")]
BOXES = ["1", "2", "3", "4", "5", "6", "t", "f", "h", "s", "l", "y", "c"]
# Roll, mark dice 1 and 2, reroll them, R to posting, the box, yes to verify.
TURN = " 12rr{box}y"
KEYS = "xnANN\rBOB\r\ry" + "".join(TURN.format(box=box) * 2 for box in BOXES) + "n"


def play(tmp_path: Path, name: str, send: Callable) -> dict[str, Any]:
    """Play the scripted game in a real terminal; its history record, less its finishing time."""
    dice = tmp_path / "dice.txt"
    dice.write_text(" ".join(str(1 + n % 6) for n in range(400)))  # never five alike
    saves = tmp_path / name
    term = Terminal("--saves", str(saves), "--dice-file", str(dice))
    try:
        term.wait_for("Press any key to begin")
        send(term)
        assert term.exit_code() == 0, term.text
    finally:
        term.close()
    (line,) = (saves / "history.jsonl").read_text().splitlines()
    record = json.loads(line)
    record.pop("finished")
    return record


@pytest.mark.posix(reason=PTY)
def test_a_game_typed_in_one_burst_ends_as_the_same_game_typed_slowly(tmp_path: Path) -> None:
    def slowly(term: Any) -> None:
        for key in KEYS:
            term.press(key)
            time.sleep(0.01)
            term.pump(0.01)

    def at_once(term: Any) -> None:
        term.press(KEYS)

    slow = play(tmp_path, "slow", slowly)
    fast = play(tmp_path, "fast", at_once)
    assert fast == slow
    assert [p["name"] for p in slow["players"]] == ["ANN", "BOB"]
    assert all(len(p["scores"]) == 13 for p in slow["players"])


@pytest.mark.wine_lacks(reason=LOCK_ERRNO)
@pytest.mark.usefixtures("no_shipped_tables")
def test_keys_typed_while_the_game_waits_for_a_table_are_spent_on_the_wait(tmp_path: Path, table: StrategyTable,
                                                                           shared_table_cache: Path) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "prefs.json").write_text('{"version": 1, "advisor": true}')  # a reroll's cost needs the table
    dice = tmp_path / "dice.txt"
    dice.write_text("1 2 3 4 6 5 6 6 6 6")
    # The game's table is being built by another copy of the game (its lock is held here) until
    # the test hands the finished table over, after every key has been typed.
    folder = tmp_path / "cache"
    folder.mkdir()
    name = cache.table_file_name(HASBRO, table.objective)
    rests = cache.rests_file_name(table)
    shutil.copy(cache.SHIPPED / rests, folder / rests)  # measured under the table's lock, held next
    builder = default_lock(folder / (name + ".lock"))
    assert builder.acquire()
    term = Terminal("--saves", str(saves), "--dice-file", str(dice), env={"YAHTZEE_CACHE": str(folder)})
    try:
        term.wait_for("Press any key to begin")
        term.press("xnANN\r\ry 1r")  # mark die 1, reroll it: the cost note waits for the table
        term.wait_for("Working out the best strategy (only once). Esc goes back.")
        term.press("2")  # answers nothing: it is told what works here
        term.wait_for("While the strategy is worked out, Esc goes back and F8, F9 and F10 work.")
        shutil.copy(cache.SHIPPED / name, folder / (name + ".part"))  # the bits a build makes,
        os.replace(folder / (name + ".part"), folder / name)  # whole at once, as a build writes them
        builder.release()
        screen = term.wait_for("Roll 2 of 3")
        term.press("q")
        term.wait_for("Quit the game?")
        term.press("y")
        assert term.exit_code() == 0, screen
    finally:
        builder.release()
        term.close()
    turn = json.loads((saves / "autosave.json").read_text())["game"]["turn"]
    assert turn["rolls"] == 2 and turn["dice"] == [5, 2, 3, 4, 6]
    assert turn["marked"] == [False] * 5  # the 2 typed during the wait marked nothing after it


# Runs of the hot-key test (the closing check ran it 20 times in a row: YAHTZEE_HOT_KEY_RUNS=20).
HOT_KEY_RUNS = int(__import__("os").environ.get("YAHTZEE_HOT_KEY_RUNS", "2"))


@pytest.mark.posix(reason=PTY)
@pytest.mark.parametrize("run", range(HOT_KEY_RUNS))
def test_hot_keys_typed_while_computers_play_without_a_pause_act_before_the_next_question(
        tmp_path: Path, run: int) -> None:
    """Two computers at a pause of 0 s: V and F10 typed as they start act (verify flips, the
    quit question comes) before ANN is asked anything again; nothing typed then is lost."""
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "prefs.json").write_text(json.dumps({"version": 1, "dice_roll": "off", "computer_delay": 0.0}))
    term = Terminal("--saves", str(saves), "--seed", str(run))
    try:
        term.seat("ANN", "*", "*yclover")
        term.press("y")
        term.turn("ANN", "c")
        term.wait_for("Brainy plays next")
        term.press(" ", "v", "F10")  # the key that starts the computers, then the hot keys at once
        term.wait_for("Quit the game?")
        assert "ANN: press any key to roll" not in term.text
        term.press("n")
        term.wait_for("ANN: press any key to roll")
        assert term.quit() == 0
    finally:
        term.close()
    assert json.loads((saves / "prefs.json").read_text())["verify"] is False
