"""The computer players' moods, as the strategy engine names them (from the one mood table)."""
from ..moods import MOOD_NAMED, MOODS, UnknownMood, mood_named

MOOD_TRAITS = {name: mood.trait for name, mood in MOOD_NAMED.items()}

__all__ = ["MOODS", "MOOD_TRAITS", "UnknownMood", "mood_named"]
