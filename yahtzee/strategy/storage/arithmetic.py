"""What the builder does with numpy, in one place: read, check and build tables and their
rests. numpy loads with this module, which only builder.arithmetic() imports, in the
builder's own thread."""
from ..exact.rulearrays import planning_rules
from ..exact.table import is_solved_exactly
from ..odds.computers import mood_objectives
from ..odds.rests import has_rests
from .cache import cached_table, load_table, ready_rests, remove_stale_temps, rests_on_hand, shipped_table


class Arithmetic:
    """The functions, each as its own module types it."""

    planning_rules = staticmethod(planning_rules)
    is_solved_exactly = staticmethod(is_solved_exactly)
    mood_objectives = staticmethod(mood_objectives)
    has_rests = staticmethod(has_rests)
    cached_table = staticmethod(cached_table)
    load_table = staticmethod(load_table)
    ready_rests = staticmethod(ready_rests)
    remove_stale_temps = staticmethod(remove_stale_temps)
    rests_on_hand = staticmethod(rests_on_hand)
    shipped_table = staticmethod(shipped_table)


ARITHMETIC = Arithmetic()
