"""The strategy engine's numpy-backed functions that the rest of the game calls, in one place:
numpy loads with this module, which only builder.engine() imports (in the builder's thread,
or the first time advice, a review or a computer player needs it)."""
from ..exact.rulearrays import UnsupportedRules
from ..exact.table import is_solved_exactly, nearest_exact, table_for
from ..odds.computers import computer_player, mood_objectives
from ..odds.rests import has_rests
from ..odds.winchance import option_chances, prepare_turn
from ..play.advisor import advise, cost_of_post, cost_of_reroll
from .cache import cached_table, load_table, ready_rests, remove_stale_temps, rests_on_hand, shipped_table


class StrategyFunctions:
    """The functions, each as its own module types it."""

    # the rules
    UnsupportedRules = UnsupportedRules
    is_solved_exactly = staticmethod(is_solved_exactly)
    nearest_exact = staticmethod(nearest_exact)
    table_for = staticmethod(table_for)
    # the tables and their rests, kept and built
    cached_table = staticmethod(cached_table)
    load_table = staticmethod(load_table)
    shipped_table = staticmethod(shipped_table)
    remove_stale_temps = staticmethod(remove_stale_temps)
    has_rests = staticmethod(has_rests)
    ready_rests = staticmethod(ready_rests)
    rests_on_hand = staticmethod(rests_on_hand)
    # advice, win chances and the computer players
    advise = staticmethod(advise)
    cost_of_post = staticmethod(cost_of_post)
    cost_of_reroll = staticmethod(cost_of_reroll)
    option_chances = staticmethod(option_chances)
    prepare_turn = staticmethod(prepare_turn)
    computer_player = staticmethod(computer_player)
    mood_objectives = staticmethod(mood_objectives)


ENGINE = StrategyFunctions()
