"""The game's colours, in one place; rules and screens speak of roles, never of colours."""
import re

from colorama import Fore, Style

ROLES = {
    "on": Fore.GREEN + Style.BRIGHT,
    "off": Fore.RED + Style.BRIGHT,
    "marked": Fore.RED + Style.BRIGHT,
    "locked": Fore.GREEN + Style.BRIGHT,
    "current": Fore.YELLOW + Style.BRIGHT,
    "title": Fore.CYAN + Style.BRIGHT,
    "key": Fore.YELLOW + Style.BRIGHT,
    "total": Style.BRIGHT,
    "error": Fore.RED + Style.BRIGHT,
    "good": Fore.GREEN + Style.BRIGHT,
    "hint": Fore.CYAN,
    "high": Fore.MAGENTA + Style.BRIGHT,
}

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def colour(role, text):
    """Text in its role's colour."""
    return f"{ROLES[role]}{text}{Style.RESET_ALL}"


def no_colour(role, text):
    """Text as it is: the painter for plain mode and NO_COLOR."""
    return text


def painter(enabled):
    """The function that paints text by role, or leaves it plain."""
    return colour if enabled else no_colour


def strip_ansi(text):
    """Text without colour codes."""
    return _ANSI.sub("", text)


def visible_width(text):
    """How many columns text takes on screen, colour codes aside."""
    return len(strip_ansi(text))


def pad(text, width):
    """Text padded with spaces to `width` visible columns."""
    return text + " " * max(0, width - visible_width(text))


def wants_colour(environ, is_tty, disabled=False):
    """Whether to colour: --no-color and NO_COLOR say no, FORCE_COLOR yes, TERM=dumb no, else a tty."""
    if disabled or environ.get("NO_COLOR"):
        return False
    if environ.get("FORCE_COLOR"):
        return True
    if environ.get("TERM") == "dumb":
        return False
    return is_tty
