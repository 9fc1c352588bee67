"""The player's preferences: each with its choices, the first of them the default."""
from dataclasses import dataclass
from typing import Any, Union

from ..model.match import Match, parse_match
from ..model.rules import Rules, rules_named, rules_title
from ..model.words import N_, Num, Say, Text
from ..present.palette import THEMES

# A preference's value, as prefs.json holds it.
Choice = Union[bool, int, float, str]


@dataclass(frozen=True)
class Preference:
    """One setting: its key in prefs.json, what it means, and the values it may take."""

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


SHOWN = {"hint_threshold": N_("{}% of a box's best"), "computer_delay": N_("{} s")}
# The choices shown in words of the player's language (the others are names or numbers).
WORDS = {"roll": N_("roll"), "hold": N_("hold"), "fast": N_("fast"), "slow": N_("slow"),
         "off": N_("off"), "auto": N_("auto"), "single": N_("single")}

PREFERENCES = (
    Preference("verify", N_("Verify every posting by name (F8)"), (True, False)),
    Preference("sound", N_("Sound: a bell on every roll (F9)"), (True, False)),
    Preference("advisor", N_("Cost notes: what each choice gave away"), (False, True)),
    Preference("hints", N_("Hints: what the dice score in each open box"), (False, True)),
    Preference("hint_threshold", N_("Hints highlighted from"), (60, 70, 80, 90, 30, 40, 50)),
    Preference("computer_delay", N_("Computer players pause between steps"), (0.8, 1.5, 0.0, 0.4)),
    Preference("rules", N_("Rules (next game)"), ("hasbro", "yahtc", "acorn", "fiveoak",
                                                  "freejoker", "nobonus")),
    Preference("rolls", N_("Rolls per turn (next game)"), (3, 4)),
    Preference("bank", N_("Dice bank: unused rolls carried, at most"), (0, 1, 2, 3)),
    Preference("match", N_("Match (next game)"), ("single", "challenge 3", "challenge 5",
                                                  "race 300", "race 500", "race 1000",
                                                  "first_to 500", "first_to 1000")),
    Preference("marking", N_("Number keys pick the dice to"), ("roll", "hold")),
    Preference("par", N_("Par tracker: the upper boxes against par"), (False, True)),
    Preference("duplicate", N_("Duplicate dice: all roll the same (next game)"), (False, True)),
    Preference("dice_roll", N_("Rolling dice (any key skips them)"), ("fast", "slow", "off")),
    Preference("theme", N_("Colour theme (from the next start)"), tuple(THEMES)),
    Preference("keep_marks", N_("Keep the last roll's marks after a reroll"), (False, True)),
    Preference("language", N_("Language (auto: as the system's)"), ("auto", "en", "de")),
)
GAME_SETTINGS = ("rules", "rolls", "bank", "match", "duplicate")
BY_KEY = {preference.key: preference for preference in PREFERENCES}
DEFAULTS = {preference.key: preference.choices[0] for preference in PREFERENCES}


def is_allowed(key: str, value: object) -> bool:
    """A known preference holds one of its choices (of the same type: True is not 1)."""
    choices = BY_KEY[key].choices
    return any(type(value) is type(choice) and value == choice for choice in choices)


def game_settings(prefs: dict[str, Any]) -> tuple[Rules, Match]:
    """The rules (with their options) and the match the preferences choose."""
    rules = rules_named(prefs.get("rules", "hasbro")).with_options(
        rolls=prefs.get("rolls", 3), bank=prefs.get("bank", 0))
    return rules, parse_match(prefs.get("match", "single"))
