"""The language the player reads: chosen from --lang, the preference or the environment, and
the gettext catalog that translates every player-visible string (English is the source)."""
import contextlib
import gettext
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Optional

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LANGUAGES = ("en", "de")
ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

GERMAN_DIGITS = str.maketrans(",.", ".,")

_catalog = gettext.NullTranslations()
_current = "en"


class UnknownLanguage(ValueError):
    """A --lang code that names no language the game speaks."""


def code_of(value: str) -> str:
    """The language a locale name means: 'de_AT.UTF-8' is German; C, POSIX, English and
    anything unknown are English."""
    base = value.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return base if base in LANGUAGES else "en"


def from_environment(environ: Mapping[str, str]) -> str:
    """The language the environment asks for: the first of LANGUAGE (a colon-separated list),
    LC_ALL, LC_MESSAGES, LANG that is set and not empty."""
    for name in ENVIRONMENT:
        value = environ.get(name, "")
        if name == "LANGUAGE":
            value = next((part for part in value.split(":") if part), "")
        if value:
            return code_of(value)
    return "en"


def checked(code: Optional[str]) -> str:
    """A --lang code as given, or UnknownLanguage."""
    text = (code or "").strip().lower()
    if text not in LANGUAGES:
        raise UnknownLanguage(_("unknown language '{code}' (known: {known})").format(
            code=code, known=", ".join(LANGUAGES)))
    return text


def choose(cli_code: Optional[str], pref_code: Optional[str], environ: Optional[Mapping[str, str]] = None) -> str:
    """--lang first, then the preference (auto follows the environment), then the environment."""
    if cli_code:
        return checked(cli_code)
    if pref_code and pref_code != "auto":
        return code_of(pref_code)
    return from_environment(os.environ if environ is None else environ)


def install(code: str) -> gettext.NullTranslations:
    """Translate through `code`'s catalog from now on (English: the source strings)."""
    global _catalog, _current
    _current = code
    _catalog = gettext.translation("yahtzee", localedir=str(LOCALE_DIR), languages=[code],
                                   fallback=True)
    return _catalog


@contextlib.contextmanager
def source_strings() -> Iterator[None]:
    """For a while, the English source strings: text that files and --json keep."""
    global _catalog
    kept, _catalog = _catalog, gettext.NullTranslations()
    try:
        yield
    finally:
        _catalog = kept


def number(value: float, spec: str = "") -> str:
    """`value` formatted by `spec` ('.1f', ',', '.1%') as the player's language writes
    numbers: '1,234.5' in English, '1.234,5' in German."""
    text = format(value, spec)
    return text.translate(GERMAN_DIGITS) if _current == "de" else text


def current() -> str:
    """The language being spoken ('en' or 'de')."""
    return _current


def _(message: str) -> str:
    """`message` in the player's language."""
    return _catalog.gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or plural of `count`'s noun, in the player's language."""
    return _catalog.ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """`message` in the player's language, as meant in `context` (where one English word
    stands for two German ones: 'YAHTZEE' the box name is 'KNIFFEL', the sheet row 'Kniffel')."""
    return _catalog.pgettext(context, message)


def NC_(context: str, message: str) -> str:
    """Marks a string and its context for the catalog; pgettext translates it where shown."""
    return message


def N_(message: str) -> str:
    """Marks a string for the catalog where it is defined; it is translated where it is shown."""
    return message
