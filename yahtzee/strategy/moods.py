"""The computer players' moods, by name (standard library only, cheap to import)."""

from ..game import MOODS

MOOD_TRAITS = {
    "thinker": "calculating: always the highest expected score",
    "norisk": "safe and easy: keeps the spread of its scores low",
    "gambler": "takes risks: a wider spread, for the chance of a big score",
    "yclover": "all out for Yahtzees",
    "nowhere": "on the fence: each turn in one of the other moods, at random",
}


class UnknownMood(ValueError):
    """A mood the computer players do not have."""


def mood_named(name):
    """The mood `name` ('*thinker' or 'thinker'), checked."""
    mood = name.lstrip("*").lower()
    if mood not in MOODS:
        raise UnknownMood(f"unknown player '{name}' (known: {', '.join('*' + m for m in MOODS)})")
    return mood
