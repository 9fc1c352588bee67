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
    "yahtzee": Fore.YELLOW + Style.BRIGHT,
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


def cell_width(text):
    """Terminal cells the text takes (colour codes aside): wide East Asian characters count two."""
    import unicodedata
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
               for c in strip_ansi(text))


def cut_to_cells(text, width):
    """The longest start of `text` that fits in `width` terminal cells."""
    out = ""
    for char in text:
        if cell_width(out + char) > width:
            break
        out += char
    return out


_CONTROLS = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)?|[@-Z\\-_])")


def strip_controls(text):
    """Text without control sequences and without control or format characters."""
    import unicodedata
    text = _CONTROLS.sub("", text)
    return "".join(ch for ch in text if not unicodedata.category(ch).startswith("C"))
