"""Which language and charset a reader asks for: from --lang, the preference, or a locale's
environment (the player's own, or what a friend's ssh client sends). Names only: the
catalogs that speak them are yahtzee.speech.languages."""
import os
from collections.abc import Mapping
from typing import Optional

from ..model.words import Refusal, Say

LANGUAGES = ("en", "de")
ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

class UnknownLanguage(Refusal):
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
        raise UnknownLanguage(Say("unknown language '{code}' (known: {known})").format(
            code=str(code), known=", ".join(LANGUAGES)))
    return text


def choose(cli_code: Optional[str], pref_code: Optional[str], environ: Optional[Mapping[str, str]] = None) -> str:
    """--lang first, then the preference (auto follows the environment), then the environment."""
    if cli_code:
        return checked(cli_code)
    if pref_code and pref_code != "auto":
        return code_of(pref_code)
    return from_environment(os.environ if environ is None else environ)


def charset_is_utf8(environ: Mapping[str, str]) -> bool:
    """Whether the locale's characters are UTF-8 (the first of LC_ALL, LC_CTYPE, LANG that is
    set); a reader who says nothing is taken to have UTF-8, as every terminal of today does."""
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = environ.get(name, "")
        if value:
            charset = value.partition(".")[2].partition("@")[0].replace("-", "").lower()
            return charset == "utf8" or value in ("C.UTF-8", "C.utf8")
    return True
