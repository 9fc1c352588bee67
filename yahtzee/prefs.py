"""The player's preferences: each with its choices, the first of them the default."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Preference:
    """One setting: its key in prefs.json, what it means, and the values it may take."""

    key: str
    label: str
    choices: tuple

    def shown(self, value):
        """The value as the settings screen shows it."""
        if isinstance(value, bool):
            return "ON" if value else "OFF"
        return SHOWN.get(self.key, "{}").format(value)

    def after(self, value):
        """The next choice, as a key press cycles through them."""
        index = self.choices.index(value) if value in self.choices else -1
        return self.choices[(index + 1) % len(self.choices)]


SHOWN = {"hint_threshold": "{}% of a box's best", "computer_delay": "{} s",
         "bank": "{} rolls", "marking": "{}", "language": "{}"}

PREFERENCES = (
    Preference("verify", "Verify every posting by name (F8)", (True, False)),
    Preference("sound", "Sound: a bell on every roll (F9)", (True, False)),
    Preference("advisor", "Cost notes: what each choice gave away", (False, True)),
    Preference("hints", "Hints: what the dice score in each open box", (False, True)),
    Preference("hint_threshold", "Hints highlighted from", (60, 70, 80, 90, 30, 40, 50)),
    Preference("computer_delay", "Computer players pause between steps", (0.8, 1.5, 0.0, 0.4)),
    Preference("rules", "Rules (next game)", ("hasbro", "yahtc", "acorn", "fiveoak",
                                              "freejoker", "nobonus")),
    Preference("rolls", "Rolls per turn (next game)", (3, 4)),
    Preference("bank", "Dice bank: unused rolls carried, at most", (0, 1, 2, 3)),
    Preference("match", "Match (next game)", ("single", "challenge 3", "challenge 5",
                                              "race 300", "race 500", "race 1000",
                                              "first_to 500", "first_to 1000")),
    Preference("marking", "Number keys pick the dice to", ("roll", "hold")),
    Preference("par", "Par tracker: the upper boxes against par", (False, True)),
    Preference("duplicate", "Duplicate dice: all roll the same (next game)", (False, True)),
    Preference("dice_roll", "Rolling dice (any key skips them)", ("fast", "slow", "off")),
    Preference("theme", "Colour theme (from the next start)", ("classic", "light", "mono")),
    Preference("keep_marks", "Keep the last roll's marks after a reroll", (False, True)),
    Preference("language", "Language (auto: as the system's)", ("auto", "en", "de")),
)
GAME_SETTINGS = ("rules", "rolls", "bank", "match", "duplicate")
BY_KEY = {preference.key: preference for preference in PREFERENCES}
DEFAULTS = {preference.key: preference.choices[0] for preference in PREFERENCES}


def is_allowed(key, value):
    """A known preference holds one of its choices (of the same type: True is not 1)."""
    choices = BY_KEY[key].choices
    return any(type(value) is type(choice) and value == choice for choice in choices)
