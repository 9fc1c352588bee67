"""Rule sets as values: the default `hasbro` and the variants, each plain data."""
from dataclasses import dataclass, field, replace
from typing import Literal, Optional

from .checks import is_int
from .words import N_, Refusal, Say, Text, joined

# The options a player may add to any rule set: rolls a turn, and rolls carried over.
ROLL_CHOICES = (3, 4)
MAX_DICE_BANK = 5


class BadOption(Refusal):
    """An option value the game does not offer."""


# How an extra Yahtzee scores: "forced" (1987), "free" or "none" (see Rules.joker).
Joker = Literal["forced", "free", "none"]


@dataclass(frozen=True)
class Rules:
    """Everything that differs between the Yahtzee rule sets the game knows."""

    name: str = "hasbro"
    rolls_per_turn: int = 3
    # What an extra Yahtzee may be posted in once the Yahtzee box is filled:
    # "forced" (matching upper box, else any lower box, else zero an upper box),
    # "free" (any open box, lower boxes at joker values) or "none" (scored as it is).
    joker: Joker = "forced"
    # Points added for each extra Yahtzee while the Yahtzee box holds 50.
    extra_yahtzee_bonus: int = 100
    # yahtChallenge standard: an extra Yahtzee gives another turn instead of a posting.
    extra_yahtzee_turn: bool = False
    # Acorn: an extra Yahtzee makes the player blank (zero) a box of their choice.
    extra_yahtzee_blank: bool = False
    # FiveOAK: five alike also count as a full house.
    five_alike_full_house: bool = False
    # FiveOAK: points for posting after roll 1, 2, ... (empty: no roll bonus).
    roll_bonus: tuple[int, ...] = field(default_factory=tuple)
    # yahtChallenge: unused rolls carried into the next turn, at most this many.
    dice_bank: int = 0

    def with_options(self, rolls: Optional[int] = None, bank: Optional[int] = None) -> "Rules":
        """These rules with `rolls` a turn and a dice bank of `bank`; the name stays."""
        rolls = self.rolls_per_turn if rolls is None else rolls
        bank = self.dice_bank if bank is None else bank
        if rolls not in ROLL_CHOICES or isinstance(rolls, bool):
            raise BadOption(Say("rolls a turn must be {choices}, not {rolls}").format(
                choices=joined([", ".join(map(str, ROLL_CHOICES[:-1])), Say(" or "), str(ROLL_CHOICES[-1])]),
                rolls=rolls))
        if not is_int(bank, 0, MAX_DICE_BANK):
            raise BadOption(Say("the dice bank holds 0 to {most} rolls, not {bank}").format(
                most=MAX_DICE_BANK, bank=bank))
        return replace(self, rolls_per_turn=rolls, dice_bank=bank)

    @property
    def options(self) -> dict[str, int]:
        """The options that differ from the named rule set's own: {'rolls': 4, 'bank': 2}."""
        base = RULES.get(self.name, HASBRO)
        chosen = {"rolls": self.rolls_per_turn, "bank": self.dice_bank}
        own = {"rolls": base.rolls_per_turn, "bank": base.dice_bank}
        return {key: value for key, value in chosen.items() if value != own[key]}

    def describe(self) -> Text:
        """The rules in a few words for a player: '1987 (forced joker), 4 rolls, bank 2'."""
        words = {"rolls": N_("{} rolls"), "bank": N_("bank {}")}
        return joined([rules_title(self.name)] + [Say(words[key]).format(value)
                                                  for key, value in self.options.items()], ", ")


HASBRO = Rules()
FREE_JOKER = Rules(name="freejoker", joker="free")
NO_BONUS = Rules(name="nobonus", joker="none", extra_yahtzee_bonus=0)
# yahtChallenge "standard": another Yahtzee is worth 50 and another turn; no joker.
YAHTC = Rules(name="yahtc", joker="none", extra_yahtzee_bonus=50, extra_yahtzee_turn=True)
# Acorn !Yahtzee: another Yahtzee is worth 100 and blanks a box of the player's choice.
ACORN = Rules(name="acorn", joker="none", extra_yahtzee_bonus=100, extra_yahtzee_blank=True)
# FiveOAK: five alike fit full house too; 10 or 5 for posting after one or two rolls.
FIVEOAK = Rules(name="fiveoak", joker="none", extra_yahtzee_bonus=100, five_alike_full_house=True,
                roll_bonus=(10, 5))

# In the order the preferences offer them, the default first.
RULES = {rules.name: rules for rules in (HASBRO, YAHTC, ACORN, FIVEOAK, FREE_JOKER, NO_BONUS)}
# What a player reads for each rule set (--rules and the files keep the names above).
TITLES = {"hasbro": N_("1987 (forced joker)"), "freejoker": N_("free joker"),
          "nobonus": N_("no joker, no extra bonus"), "yahtc": N_("yahtChallenge: extra turn"),
          "acorn": N_("Acorn (blank a box)"), "fiveoak": N_("FiveOAK (roll bonus)")}


def rules_title(name: str) -> Text:
    """A rule set's name as a player reads it, in the player's language."""
    return Say(TITLES[name]) if name in TITLES else name


class UnknownRules(Refusal):
    """A rule-set name the game does not know."""


def rules_named(name: str) -> Rules:
    """The rule set called `name`."""
    try:
        return RULES[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(RULES))
        raise UnknownRules(Say("unknown rules '{name}' (known: {known})").format(
            name=name, known=known)) from None
