"""The keys the screens name, and the one map of how a player presses each at every kind of
console: a terminal's key, a word typed in plain mode, a letter. Any other key reaches the
screens as its lower-cased character (in plain mode, the line typed, lower-cased)."""
from dataclasses import dataclass
from enum import Enum


class Key(str, Enum):
    """A named key, as the screens read it (its value is its token)."""

    SEATS = "F7"  # at the host's terminal of a table: who is at it
    VERIFY = "F8"
    SOUND = "F9"
    QUIT = "F10"
    ENTER = "enter"
    ESCAPE = "escape"

    def __str__(self) -> str:
        """The token, wherever a key is written out (as the tokens it stands for always were)."""
        return self.value


HOT_KEYS = (Key.VERIFY, Key.SOUND, Key.QUIT)  # they act on every screen, even while a name is typed


@dataclass(frozen=True)
class Presses:
    """The ways to press one named key: terminal keys as prompt_toolkit names them, those that
    press it only while a line is typed, plain mode's words (lower-cased), and the letter that
    presses it wherever the question asks for no letter of its own."""

    terminal: tuple[str, ...] = ()
    typing: tuple[str, ...] = ()
    words: tuple[str, ...] = ()
    letter: str = ""


KEY_MAP: dict[Key, Presses] = {
    Key.SEATS: Presses(terminal=("f7",)),
    Key.VERIFY: Presses(terminal=("f8",), words=("f8", "verify"), letter="v"),
    Key.SOUND: Presses(terminal=("f9",), words=("f9", "sound"), letter="m"),
    # Ctrl-C asks to quit, as F10 does; while a line is typed Ctrl-D does too (end of input at a shell).
    Key.QUIT: Presses(terminal=("f10", "c-c"), typing=("c-d",), words=("f10", "quit"), letter="q"),
    Key.ENTER: Presses(terminal=("c-m", "c-j"), words=("",)),
    Key.ESCAPE: Presses(terminal=("escape",)),
}

# By prompt_toolkit's names: its Keys are strings equal to them, so a key press's key looks itself up.
TERMINAL_KEYS = {name: key for key, presses in KEY_MAP.items() for name in presses.terminal}
# What ends a line being typed: Enter, or a hot key (which then acts).
LINE_KEYS = {name: key for key in (Key.ENTER, *HOT_KEYS) for name in (*KEY_MAP[key].terminal, *KEY_MAP[key].typing)}
PLAIN_WORDS = {word: key for key, presses in KEY_MAP.items() for word in presses.words}
LETTERS = {presses.letter: key for key, presses in KEY_MAP.items() if presses.letter}


def letter_as_key(token: str) -> str:
    """A token with a hot key's letter read as that key (V as F8, M as F9, Q as F10)."""
    return LETTERS.get(token, token)
