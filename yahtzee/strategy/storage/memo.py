"""The strategy tables this process holds, by rules and objective: each read, built or planned
once however many sessions, loaders or tests ask for it (the table for given rules is the same
bits from whichever folder it came). The one memo of tables: the builder, the tables a session
keeps and the loaders of headless games all read and fill it."""
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from ...model.rules import Rules

if TYPE_CHECKING:  # only for the reader: they load numpy
    from ..exact.objective import Objective
    from ..exact.table import StrategyTable

READY: "dict[tuple[Rules, Objective], StrategyTable]" = {}
# The tables' own memos (the plans, the positions worked out) are worked on by one thread at a
# time, whichever session's: the screens' or a turn's preparation in the background.
THINKING = threading.RLock()


def remembered(rules: Rules, objective: "Objective", make: "Callable[[], StrategyTable]") -> "StrategyTable":
    """The table held for these rules and objective, made (and held) first if there is none."""
    key = (rules, objective)
    if key not in READY:
        READY.setdefault(key, make())  # made twice at once by two threads, the first one is kept
    return READY[key]
