"""A table build in a process of its own: `python -m yahtzee.strategy.storage.buildprocess JSON`.

The JSON names the rules (as the saved game writes them), the objective, the cache folder and
whether the table's rests are wanted too. The process writes its progress to stdout as lines
of 'done total' and the table (and its rests) into the cache; it says nothing else and leaves
nothing half-written when it is killed. Asked for by a game ("tied"), it ends when its standard
input, a pipe from the game, does: a game killed without a word leaves no build running. On
two or more processors it solves the table with a helper it forks, which ends when it does.
"""
import json
import os
import signal
import sys
import threading
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from ...saves.codec import rules_from_dict, rules_to_dict
from ..exact.objective import EXPECTED_SCORE, Objective

if TYPE_CHECKING:  # only for the reader
    from ...model.rules import Rules

NICENESS = 10  # a build's share of the processor, below the game's own


def request(rules: "Rules", objective: "Objective", cache_dir: Path, rests: bool = False, tied: bool = False) -> str:
    """The command-line argument that asks for this table (and its rests); `tied`, a build that
    ends with the standard input the game gives it."""
    return json.dumps({"rules": rules_to_dict(rules), "objective": asdict(objective),
                       "cache": str(cache_dir), "rests": rests, "tied": tied})


def end_with_input() -> None:
    """End this process at once when its standard input ends (the game is gone), as a kill would."""
    def watch() -> None:
        while os.read(0, 4096):
            pass
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def main(argument: str) -> int:
    """Build the table the argument asks for into its cache; 0 once it is there."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C belongs to the game, not to a build
    if hasattr(os, "nice"):
        os.nice(NICENESS)  # the game's own process, answering keys, comes first
    from .cache import load_table, ready_rests  # numpy, only once Ctrl-C is ignored
    asked = json.loads(argument)
    if asked.get("tied"):
        end_with_input()
    shown = [-1]

    def report(done: int, total: int) -> None:
        step = 100 * done // total if total else 100
        if step != shown[0]:
            shown[0] = step
            print(done, total, flush=True)

    # This process does nothing else meanwhile, so it may fork a helper (where it may run on two processors).
    # A table built for its rests too works out their moments in the same pass.
    objective = Objective(**asked["objective"])
    table = load_table(rules_from_dict(asked["rules"]), objective, asked["cache"], report, processes=2,
                       moments=bool(asked.get("rests")) and objective == EXPECTED_SCORE)
    if asked.get("rests"):
        ready_rests(table, asked["cache"], report, processes=2)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1]))
    except Exception:  # noqa: BLE001 (the game builds the table itself when this one fails)
        sys.exit(1)
