"""The player's preferences as a value (Prefs): each field with its choices, the first of them
the default; the game settings a command line gives for one run (RunSettings); and the rules
and match they choose. prefs.json's dict is read and written in yahtzee.saves.documents only."""
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal, Optional, Union, get_args

from ..model.match import Match, parse_match
from ..model.rules import ROLL_CHOICES, RULES, Rules, rules_named, rules_title
from ..model.words import N_, Num, Say, Text
from ..speech.locales import LANGUAGES
from .shapes import JSONValue

# A preference's value, as prefs.json holds it.
Choice = Union[bool, int, float, str]
Marking = Literal["roll", "hold"]
DiceRoll = Literal["fast", "slow", "off"]
# The colour themes, the first the default; yahtzee.present.palette gives each its colours.
Theme = Literal["classic", "light", "mono"]
THEME_NAMES: tuple[Theme, ...] = get_args(Theme)


@dataclass(frozen=True)
class Preference:
    """One setting: its field of Prefs (and key in prefs.json), what it means, and the values
    it may take."""

    key: str
    label: str
    choices: tuple[Choice, ...]

    def shown(self, value: Choice) -> Text:
        """The value as the settings screen shows it."""
        if isinstance(value, bool):
            return Say("ON") if value else Say("OFF")
        if self.key == "rules" and isinstance(value, str):
            return rules_title(value)
        if self.key == "bank" and isinstance(value, int):
            return Say.plurals("{} roll", "{} rolls", value).format(value)
        word: Text = Say(WORDS[value]) if value in WORDS else Num(value) if isinstance(value, float) else str(value)
        return Say(SHOWN[self.key]).format(word) if self.key in SHOWN else word

    def after(self, value: Choice) -> Choice:
        """The next choice, as a key press cycles through them."""
        index = self.choices.index(value) if value in self.choices else -1
        return self.choices[(index + 1) % len(self.choices)]

    def of(self, prefs: "Prefs") -> Choice:
        """This preference's value in `prefs`."""
        value: Choice = getattr(prefs, self.key)
        return value

    def cycled(self, prefs: "Prefs") -> "Prefs":
        """`prefs` with this preference at its next choice."""
        value: Any = self.after(self.of(prefs))  # one of the field's choices, so of its type
        return replace(prefs, **{self.key: value})

    def allows(self, value: object) -> bool:
        """The value is one of the choices, of the same type (True is not 1)."""
        return any(type(value) is type(choice) and value == choice for choice in self.choices)


SHOWN = {"hint_threshold": N_("{}% of a box's best"), "computer_delay": N_("{} s")}
# The choices shown in words of the player's language (the others are names or numbers).
WORDS = {"roll": N_("roll"), "hold": N_("hold"), "fast": N_("fast"), "slow": N_("slow"),
         "off": N_("off"), "auto": N_("auto"), "single": N_("single")}


def offered(label: str, *choices: Choice) -> Any:
    """A preference's field of Prefs: what it means and its choices, the first the default."""
    return field(default=choices[0], metadata={"label": label, "choices": choices})


@dataclass(frozen=True)
class Prefs:
    """The player's preferences, kept in prefs.json between runs; Prefs() holds the defaults.
    The settings screen shows them in this order (verify and sound are F8 and F9)."""

    verify: bool = offered(N_("Verify every posting by name (F8)"), True, False)
    sound: bool = offered(N_("Sound: a bell on every roll (F9)"), True, False)
    advisor: bool = offered(N_("Cost notes: what each choice gave away"), False, True)
    hints: bool = offered(N_("Hints: what the dice score in each open box"), False, True)
    hint_threshold: int = offered(N_("Hints highlighted from"), 60, 70, 80, 90, 30, 40, 50)
    computer_delay: float = offered(N_("Computer players pause between steps"), 0.8, 1.5, 0.0, 0.4)
    rules: str = offered(N_("Rules (next game)"), *RULES)
    rolls: int = offered(N_("Rolls per turn (next game)"), *ROLL_CHOICES)
    bank: int = offered(N_("Dice bank: unused rolls carried, at most"), 0, 1, 2, 3)
    match: str = offered(N_("Match (next game)"), "single", "challenge 3", "challenge 5", "race 300", "race 500",
                         "race 1000", "first_to 500", "first_to 1000")
    marking: Marking = offered(N_("Number keys pick the dice to"), *get_args(Marking))
    par: bool = offered(N_("Par tracker: the upper boxes against par"), False, True)
    duplicate: bool = offered(N_("Duplicate dice: all roll the same (next game)"), False, True)
    dice_roll: DiceRoll = offered(N_("Rolling dice (any key skips them)"), *get_args(DiceRoll))
    theme: Theme = offered(N_("Colour theme (from the next start)"), *THEME_NAMES)
    keep_marks: bool = offered(N_("Keep the last roll's marks after a reroll"), False, True)
    language: str = offered(N_("Language (auto: as the system's)"), "auto", *LANGUAGES)
    # What prefs.json holds that this version does not know (a later version's preferences):
    # no preference here, written back as it was read.
    unknown: tuple[tuple[str, JSONValue], ...] = field(default=(), compare=False, repr=False)


PREFERENCES = tuple(Preference(f.name, f.metadata["label"], f.metadata["choices"])
                    for f in fields(Prefs) if "choices" in f.metadata)
BY_KEY = {preference.key: preference for preference in PREFERENCES}
DEFAULTS = Prefs()
# The preferences that choose the next game's rules, match and dice.
GAME_SETTINGS = ("rules", "rolls", "bank", "match", "duplicate")


@dataclass(frozen=True)
class RunSettings:
    """The game settings the command line gives for this run only (--rules, --match,
    --duplicate); None leaves the preference's."""

    rules: Optional[str] = None
    match: Optional[str] = None
    duplicate: Optional[bool] = None

    def over(self, prefs: Prefs) -> Prefs:
        """The preferences with this run's settings in their place."""
        return replace(prefs, rules=prefs.rules if self.rules is None else self.rules,
                       match=prefs.match if self.match is None else self.match,
                       duplicate=prefs.duplicate if self.duplicate is None else self.duplicate)

    def without(self, key: str) -> "RunSettings":
        """These settings without the one called `key`: a choice the player makes in the game
        outranks the command line's."""
        return replace(self, **{key: None}) if key in {f.name for f in fields(self)} else self


def game_settings(prefs: Prefs) -> tuple[Rules, Match]:
    """The rules (with their options) and the match the preferences choose."""
    rules = rules_named(prefs.rules).with_options(rolls=prefs.rolls, bank=prefs.bank)
    return rules, parse_match(prefs.match)
