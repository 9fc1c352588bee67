"""The game's colours, in one place; rules and screens speak of roles, never of colours."""
import re
from collections.abc import Iterable, Mapping
from typing import Callable, Union

from colorama import Fore, Style  # type: ignore[import-untyped]

from ..saves.prefs import THEME_NAMES
from ..speech.languages import _

REVERSE = "\x1b[7m"  # colorama names no reverse video

Paint = Callable[[str, str], str]  # (role, text) -> text painted in the role's colour

# The 1987 look: the PC-SIG colours on black.
CLASSIC: dict[str, str] = {
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
# Dark colours for a light background: no yellow or cyan, which fade on white.
LIGHT: dict[str, str] = {**CLASSIC,
                         "current": Fore.BLUE + Style.BRIGHT,
                         "title": Fore.BLUE + Style.BRIGHT,
                         "key": Fore.MAGENTA + Style.BRIGHT,
                         "hint": Fore.BLUE,
                         "yahtzee": Fore.RED + Style.BRIGHT + REVERSE}
# Bold and reverse video only, for a terminal without colours or a player who wants none.
MONO: dict[str, str] = {
    "on": Style.BRIGHT,
    "off": "",
    "marked": REVERSE,
    "locked": Style.BRIGHT,
    "current": REVERSE,
    "title": Style.BRIGHT,
    "key": Style.BRIGHT,
    "total": Style.BRIGHT,
    "error": Style.BRIGHT,
    "good": Style.BRIGHT,
    "hint": "",
    "high": REVERSE,
    "yahtzee": Style.BRIGHT + REVERSE,
}
BELL = "\a"
# Each theme the preferences name, in their order, with its colours.
THEMES: dict[str, dict[str, str]] = dict(zip(THEME_NAMES, (CLASSIC, LIGHT, MONO)))
DEFAULT_THEME = THEME_NAMES[0]

# Every terminal control sequence, in the order a terminal would read them: strings (OSC, DCS,
# SOS, PM, APC) up to their terminator, CSI up to its final byte, any other ESC sequence, and
# the lone C0 and C1 controls (tab, newline and carriage return are text).
_STRING_END = r"(?:\x07|\x1b\\|\x9c)"
_CONTROLS = re.compile(
    r"(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*" + _STRING_END + "?"
    r"|(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|\x1b[ -/]*[0-~]?"
    r"|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


class UnknownTheme(ValueError):
    """A colour theme the game does not have."""


def themed(roles: Mapping[str, str]) -> Paint:
    """The painter for one theme: text in its role's colour (as it is, for a role without one)."""
    def paint(role: str, text: str) -> str:
        code = roles[role]
        return f"{code}{text}{Style.RESET_ALL}" if code else text
    return paint


colour = themed(CLASSIC)


def no_colour(role: str, text: str) -> str:
    """Text as it is: the painter for plain mode and NO_COLOR."""
    return text


def painter(theme: Union[str, bool, None]) -> Paint:
    """The function that paints text by role in `theme` (a name; True is the classic theme),
    or leaves it plain (None or False)."""
    if not theme:
        return no_colour
    return themed(THEMES[checked_theme(DEFAULT_THEME if theme is True else theme)])


def checked_theme(name: str) -> str:
    """The name of a theme the game has; UnknownTheme says which there are."""
    if name not in THEMES:
        raise UnknownTheme(_("unknown theme '{name}' (known: {known})").format(name=name, known=", ".join(THEMES)))
    return name


def strip_controls(text: str) -> str:
    """Text without any terminal control sequence or control character: what a screen shows."""
    return _CONTROLS.sub("", text)



def visible_width(text: str) -> int:
    """How many terminal cells text takes on screen, colour codes aside."""
    shown = strip_controls(text)
    if shown.isascii() and shown.isprintable():
        return len(shown)  # a printable ASCII character takes one cell
    from prompt_toolkit.utils import get_cwidth
    return get_cwidth(shown)


def pad(text: str, width: int) -> str:
    """Text padded with spaces to `width` visible columns."""
    return text + " " * max(0, width - visible_width(text))


def wants_colour(environ: Mapping[str, str], is_tty: bool, disabled: bool = False) -> bool:
    """Whether to colour: --no-color and NO_COLOR say no, FORCE_COLOR yes, TERM=dumb no, else a tty."""
    if disabled or environ.get("NO_COLOR"):
        return False
    if environ.get("FORCE_COLOR"):
        return True
    if environ.get("TERM") == "dumb":
        return False
    return is_tty


def cut_to_cells(text: str, width: int) -> str:
    """The longest start of `text` that fits in `width` terminal cells."""
    out = ""
    for char in text:
        if visible_width(out + char) > width:
            break
        out += char
    return out


def wrapped(text: str, width: int) -> list[str]:
    """A line as lines of at most `width` terminal cells, broken between words and, where a
    list's item fits a line, between items ('1 Ones 2, 2 Twos 0' never ends a line on 'Ones'); a
    word longer than a line is cut. The leading spaces indent every line, colour codes stay
    with their words."""
    if (text.isascii() and len(text) <= width) or visible_width(text) <= width:
        return [text]
    body = text.lstrip(" ")
    indent = text[:len(text) - len(body)]
    if len(indent) > width // 2:
        indent = ""
    room = max(width - len(indent), 1)
    lines, line = [], ""
    for unit in _units(body, room):
        if line and visible_width(f"{line} {unit}") > room:
            lines.append(line)
            line = ""
        while visible_width(unit) > room:  # no space to break at: cut it
            cut = cut_to_cells(strip_controls(unit), room) or strip_controls(unit)[:1]  # a wider character alone
            lines.append(cut)
            unit = strip_controls(unit)[len(cut):]
        line = f"{line} {unit}" if line else unit
    lines.append(line)
    return [indent + part for part in without_a_lone_number(lines, room)]


def without_a_lone_number(lines: list[str], room: int) -> list[str]:
    """Wrapped lines whose last is not a number alone ('... leads ANN by' / '209'): the word
    before it goes down with it where both fit."""
    if len(lines) < 2 or not strip_controls(lines[-1]).isdigit() or " " not in lines[-2]:
        return lines
    kept, moved = lines[-2].rsplit(" ", 1)
    together = f"{moved} {lines[-1]}"
    return lines if visible_width(together) > room else [*lines[:-2], kept, together]


def _units(body: str, room: int) -> list[str]:
    """What a line breaks between: each comma-separated item that fits a line whole, the
    words of those that do not."""
    items = body.split(", ")
    units: list[str] = []
    for number, item in enumerate(items):
        item += "," if number < len(items) - 1 else ""
        units += [item] if visible_width(item) <= room else item.split(" ")
    return units


def wrapped_lines(lines: Iterable[str], width: int) -> list[str]:
    """Lines broken between words to fit `width` cells, trailing spaces gone."""
    return [row.rstrip() for line in lines for row in wrapped(line.rstrip(), width)]
