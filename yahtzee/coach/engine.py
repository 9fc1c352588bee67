"""The strategy engine as the advice services call it: every numpy-backed function they use,
in one place. numpy loads with this module, which only tablekeeper.engine() imports, the
first time advice, a review or a computer player needs it."""
from ..strategy.exact.rulearrays import UnsupportedRules, planning_rules
from ..strategy.exact.table import is_solved_exactly, planned_with
from ..strategy.odds.computers import computer_player
from ..strategy.odds.winchance import option_chances, prepare_turn
from ..strategy.play.advisor import advise, cost_of_post, cost_of_reroll


class Engine:
    """The functions, each as its own module types it."""

    advise = staticmethod(advise)
    cost_of_post = staticmethod(cost_of_post)
    cost_of_reroll = staticmethod(cost_of_reroll)
    option_chances = staticmethod(option_chances)
    prepare_turn = staticmethod(prepare_turn)
    computer_player = staticmethod(computer_player)
    is_solved_exactly = staticmethod(is_solved_exactly)
    planned_with = staticmethod(planned_with)
    planning_rules = staticmethod(planning_rules)
    UnsupportedRules = UnsupportedRules


ENGINE = Engine()
