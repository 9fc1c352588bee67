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

# Every terminal control sequence, in the order a terminal would read them: strings (OSC, DCS,
# SOS, PM, APC) up to their terminator, CSI up to its final byte, any other ESC sequence, and
# the lone C0 and C1 controls (tab, newline and carriage return are text).
_STRING_END = r"(?:\x07|\x1b\\|\x9c)"
_CONTROLS = re.compile(
    r"(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*" + _STRING_END + "?"
    r"|(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|\x1b[ -/]*[0-~]?"
    r"|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def colour(role, text):
    """Text in its role's colour."""
    return f"{ROLES[role]}{text}{Style.RESET_ALL}"


def no_colour(role, text):
    """Text as it is: the painter for plain mode and NO_COLOR."""
    return text


def painter(enabled):
    """The function that paints text by role, or leaves it plain."""
    return colour if enabled else no_colour


def strip_controls(text):
    """Text without any terminal control sequence or control character: what a screen shows."""
    return _CONTROLS.sub("", text)


strip_ansi = strip_controls  # the older name, one implementation


def visible_width(text):
    """How many terminal cells text takes on screen, colour codes aside."""
    from prompt_toolkit.utils import get_cwidth
    return get_cwidth(strip_controls(text))


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


def cut_to_cells(text, width):
    """The longest start of `text` that fits in `width` terminal cells."""
    out = ""
    for char in text:
        if visible_width(out + char) > width:
            break
        out += char
    return out
