"""The computer players' moods: one table of name, trait and seat name (standard library only)."""
from dataclasses import dataclass

from .words import N_, Refusal, Say


@dataclass(frozen=True)
class Mood:
    """A computer player's character: what it plays for, and the name it sits down as."""

    name: str
    trait: str
    seat_name: str


MOOD_TABLE = (
    Mood("thinker", N_("calculating: always the highest expected score"), "Brainy"),
    Mood("norisk", N_("safe and easy: keeps the spread of its scores low"), "Steady"),
    Mood("gambler", N_("takes risks: a wider spread, for the chance of a big score"), "Lucky"),
    Mood("yclover", N_("all out for Yahtzees"), "Yazzy"),
    Mood("nowhere", N_("on the fence: each turn in one of the other moods, at random"), "Dither"),
    Mood("rival", N_("plays to win: the best chance of finishing first at the table"), "Victor"),
)
MOODS = tuple(mood.name for mood in MOOD_TABLE)
MOOD_NAMED = {mood.name: mood for mood in MOOD_TABLE}


class UnknownMood(Refusal):
    """A mood the computer players do not have."""


def mood_named(name: str) -> str:
    """The mood `name` ('*thinker' or 'thinker'), checked."""
    mood = name.lstrip("*").lower()
    if mood not in MOOD_NAMED:
        raise UnknownMood(Say("unknown player '{name}' (known: {moods})").format(
            name=name, moods=mood_list()))
    return mood


def mood_list() -> str:
    """The moods as they are typed on the names screen: '*thinker, *norisk, ...'."""
    return ", ".join("*" + mood for mood in MOODS)
