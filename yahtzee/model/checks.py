"""Checks on plain values that come into the model from outside (whole numbers, short texts,
player names) and the bounds data may claim, shared by the rules and every reader of them."""
from typing import Any, Optional

MAX_NAME_CHARS = 40
MAX_TEXT_CHARS = 40
# The most rounds saved data may claim: races and extra turns run past thirteen.
MAX_ROUNDS = 10_000


def is_int(value: object, low: Optional[int] = None, high: Optional[int] = None) -> bool:
    """A JSON whole number (never a bool), within [low, high] when they are given."""
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    return (low is None or value >= low) and (high is None or value <= high)


def is_text(value: object, limit: int = MAX_TEXT_CHARS) -> bool:
    """A short printable string: 1 to `limit` characters."""
    return isinstance(value, str) and 0 < len(value) <= limit and value.isprintable()


NAME_CELLS = 6  # a typed name's most terminal cells, as the player sees them (a wide letter takes two)


def is_valid_name(name: Any) -> bool:
    """A player name as files may hold it: 1-40 printable characters, not all blank."""
    return is_text(name, MAX_NAME_CHARS) and not name.isspace()

