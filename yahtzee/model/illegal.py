"""The refusals of the game model: moves the rules do not allow now."""
from .words import Refusal


class IllegalMove(Refusal):
    """An action the rules do not allow now; its words (`said`) are for the player."""


class BoxFilled(IllegalMove):
    """The chosen box already holds a score."""


class JokerRuleError(IllegalMove):
    """The joker rule sends this Yahtzee to another box."""


class NotRolledYet(IllegalMove):
    """Nothing can be posted or marked before the first roll."""


class NoRollsLeft(IllegalMove):
    """The turn's rolls are used up."""


class NothingMarked(IllegalMove):
    """A reroll with no die marked."""


class GameOver(IllegalMove):
    """Every box of every card is filled."""


class NoExtraTurn(IllegalMove):
    """Another turn is earned only by an extra Yahtzee, where the rules give one."""


class CannotUndo(IllegalMove):
    """There is no posting that may be taken back now."""
