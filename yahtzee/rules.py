"""Rule sets as values: the default `hasbro` and the variants, each plain data."""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Rules:
    """Everything that differs between the Yahtzee rule sets the game knows."""

    name: str = "hasbro"
    rolls_per_turn: int = 3
    # What an extra Yahtzee may be posted in once the Yahtzee box is filled:
    # "forced" (matching upper box, else any lower box, else zero an upper box),
    # "free" (any open box, lower boxes at joker values) or "none" (scored as it is).
    joker: str = "forced"
    # Points added for each extra Yahtzee while the Yahtzee box holds 50.
    extra_yahtzee_bonus: int = 100
    # yahtChallenge standard: an extra Yahtzee gives another turn instead of a posting.
    extra_yahtzee_turn: bool = False
    # Acorn: an extra Yahtzee makes the player blank (zero) a box of their choice.
    extra_yahtzee_blank: bool = False
    # FiveOAK: five alike also count as a full house.
    five_alike_full_house: bool = False
    # FiveOAK: points for posting after roll 1, 2, ... (empty: no roll bonus).
    roll_bonus: tuple = field(default_factory=tuple)
    # yahtChallenge: unused rolls carried into the next turn, at most this many.
    dice_bank: int = 0


HASBRO = Rules()
FREE_JOKER = Rules(name="freejoker", joker="free")
NO_BONUS = Rules(name="nobonus", joker="none", extra_yahtzee_bonus=0)

RULES = {rules.name: rules for rules in (HASBRO, FREE_JOKER, NO_BONUS)}


class UnknownRules(ValueError):
    """A rule-set name the game does not know."""


def rules_named(name):
    """The rule set called `name`."""
    try:
        return RULES[name]
    except KeyError:
        known = ", ".join(sorted(RULES))
        raise UnknownRules(f"unknown rules '{name}' (known: {known})") from None
