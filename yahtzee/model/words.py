"""Words as values: what is to be said (a catalog message and its fields), made into a
sentence only where it is shown, by the console that shows it, in that console's language.

The model and the screens say things with these; yahtzee.speech.languages turns them into text."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Union


@dataclass(frozen=True)
class Say:
    """A message of the catalog (its English source is the code) with its fields, which may be
    words themselves; with a context (pgettext) or a plural and its count (ngettext)."""

    code: str
    fields: tuple[tuple[str, Field], ...] = ()
    context: str = ""
    plural: str = ""
    count: int = 0

    def format(self, *places: Field, **fields: Field) -> Say:
        """The same message with these fields filled in (by place or by name)."""
        filled = (*self.fields, *((str(n), value) for n, value in enumerate(places)), *fields.items())
        return Say(self.code, filled, self.context, self.plural, self.count)

    def __add__(self, other: Text) -> Joined:
        return Joined((self, other))

    def __radd__(self, other: Text) -> Joined:
        return Joined((other, self))

    @staticmethod
    def plurals(singular: str, plural: str, count: int) -> Say:
        """The singular or the plural message by `count` (ngettext)."""
        return Say(singular, plural=plural, count=count)


@dataclass(frozen=True)
class Num:
    """A number, written as the reader's language writes numbers ('1,234.5' or '1.234,5')."""

    value: float
    spec: str = ""


@dataclass(frozen=True)
class Joined:
    """Pieces of words said one after another, with `between` between them."""

    parts: tuple[Text, ...]
    between: str = ""

    def __add__(self, other: Text) -> Joined:
        return Joined((self, other))

    def __radd__(self, other: Text) -> Joined:
        return Joined((other, self))


@dataclass(frozen=True)
class Later:
    """Words made by a pure function of the game when they are shown (a sheet read aloud,
    a heading): called in the reader's language."""

    make: Callable[[], Text]


@dataclass(frozen=True)
class Sentence:
    """Words said as a sentence: a capital first (a file name keeps its own), a full stop last."""

    words: Text


@dataclass(frozen=True)
class Painted:
    """Words a console paints in the colour of a role ('yahtzee'), where it has colours."""

    role: str
    words: Text


@dataclass(frozen=True)
class YesNo:
    """A question answered Y or N, its words as they are asked ('Quit? (Y/N)'): known as one by
    its type, never by its words, which are each reader's language."""

    words: Text


Text = Union[str, Say, Num, Joined, Later, Sentence, Painted, YesNo]  # a str is shown as it is: a name, dice, a key
Field = Union[Text, int, float]


def made(words: Text, say: Callable[[Say], str], count: Callable[[Num], str]) -> str:
    """Words as text: each message made by `say`, each number written by `count`."""
    if isinstance(words, str):
        return words
    if isinstance(words, Num):
        return count(words)
    if isinstance(words, Joined):
        return words.between.join(made(part, say, count) for part in words.parts)
    if isinstance(words, Later):
        return made(words.make(), say, count)
    if isinstance(words, Sentence):
        return as_sentence(made(words.words, say, count))
    if isinstance(words, Painted):
        return made(words.words, say, count)  # painted by the console that shows it (yahtzee.present.look)
    if isinstance(words, YesNo):
        return made(words.words, say, count)
    return say(words)


def source_text(words: Text) -> str:
    """Words in the source language, English, with no catalog: what logs and files keep, and
    what an error says when it is printed as it is."""
    return made(words, source_message, lambda number: format(number.value, number.spec))


def source_message(words: Say) -> str:
    """A message in English, its fields filled in."""
    return filled(words.code if words.count == 1 or not words.plural else words.plural, words, source_text)


def as_sentence(line: str) -> str:
    """A message as a sentence: capital first (a file name keeps its own), full stop last."""
    if line.split(" ", 1)[0].isalpha():
        line = line[:1].upper() + line[1:]
    return line if line.endswith((".", "!", "?")) else line + "."


def filled(message: str, words: Say, render: Callable[[Text], str]) -> str:
    """A message with the fields of `words` filled in, each made text by `render`."""
    if not words.fields:
        return message
    values = {name: value if isinstance(value, (int, float)) else render(value) for name, value in words.fields}
    places = [values.pop(name) for name in sorted((n for n in values if n.isdigit()), key=int)]
    return message.format(*places, **values)


class Refusal(ValueError):
    """A refusal or an error a player may read: its words are a value (`said`), made text where
    it is shown; printed as it is, it reads in English."""

    def __init__(self, said: Text) -> None:
        super().__init__(said)
        self.said = said

    def __str__(self) -> str:
        return source_text(self.said)


def joined(parts: Iterable[Text], between: str = "") -> Joined:
    """The parts said one after another."""
    return Joined(tuple(parts), between)


def N_(message: str) -> str:
    """Marks a string for the catalog where it is defined; it is translated where it is shown."""
    return message


def NC_(context: str, message: str) -> str:
    """Marks a string and its context for the catalog; it is translated where it is shown."""
    return message
