"""The languages the game speaks: chosen from --lang, the preference or the environment (or,
at a seat over SSH, what the friend's client sends), and the gettext catalogs that turn words
(yahtzee.model.words) into text.

The language is the rendering's, never the process's: each console draws in its own
(`speaking`), a context variable carries it, and a thread starts in English."""
import contextlib
import contextvars
import functools
import gettext
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from ..model.words import N_, NC_, Say, Text, filled, made

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
GERMAN_DIGITS = str.maketrans(",.", ".,")


@dataclass(frozen=True)
class Translator:
    """One language's catalog and its way of writing numbers."""

    code: str
    catalog: gettext.NullTranslations

    def number(self, value: float, spec: str = "") -> str:
        """`value` formatted by `spec` ('.1f', ',', '.1%') as this language writes numbers."""
        text = format(value, spec)
        return text.translate(GERMAN_DIGITS) if self.code == "de" else text


@functools.cache
def translator(code: str) -> Translator:
    """The translator of `code` (English: the source strings), read once per run."""
    if code == "en":
        return Translator("en", gettext.NullTranslations())
    return Translator(code, gettext.translation("yahtzee", localedir=str(LOCALE_DIR), languages=[code],
                                                fallback=True))


ENGLISH = translator("en")
_speaking: contextvars.ContextVar[Optional[Translator]] = contextvars.ContextVar("speaking", default=None)


def spoken() -> Translator:
    """The translator of the language being spoken here (English where none was chosen)."""
    return _speaking.get() or ENGLISH


def use(code: str) -> None:
    """Speak `code` in this thread's context from now on (the start, before any console)."""
    _speaking.set(translator(code))


@contextlib.contextmanager
def speaking(code: str) -> Iterator[Translator]:
    """For a while, words are made in `code` (a console drawing for its reader)."""
    token = _speaking.set(translator(code))
    try:
        yield spoken()
    finally:
        _speaking.reset(token)


def number(value: float, spec: str = "") -> str:
    """`value` formatted by `spec` as the language being spoken writes numbers."""
    return spoken().number(value, spec)


def current() -> str:
    """The language being spoken here ('en' or 'de')."""
    return spoken().code


def _(message: str) -> str:
    """`message` in the language being spoken."""
    return spoken().catalog.gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or plural of `count`'s noun, in the language being spoken."""
    return spoken().catalog.ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """`message` in the language being spoken, as meant in `context` (where one English word
    stands for two German ones: 'YAHTZEE' the box name is 'KNIFFEL', the sheet row 'Kniffel')."""
    return spoken().catalog.pgettext(context, message)


def text(words: Text) -> str:
    """Words as text in the language being spoken: a message translated and its fields filled in."""
    return made(words, said, lambda figure: number(figure.value, figure.spec))



def said(words: Say) -> str:
    """A message in the language being spoken, its fields made text first."""
    catalog = spoken().catalog
    if words.plural:
        message = catalog.ngettext(words.code, words.plural, words.count)
    elif words.context:
        message = catalog.pgettext(words.context, words.code)
    else:
        message = catalog.gettext(words.code)
    return filled(message, words, text)


__all__ = ["NC_", "N_", "Translator", "current", "ngettext", "number", "pgettext", "said", "speaking",
           "text", "translator", "use"]
