"""The bytes a terminal sends for a key, taken from the maps the game reads keys by: its named
keys (yahtzee.present.keys) and prompt_toolkit's table of escape sequences, which the game's
key reader parses with."""
from typing import Union

from prompt_toolkit.input.ansi_escape_sequences import ANSI_SEQUENCES
from prompt_toolkit.keys import Keys

from yahtzee.present.keys import HOT_KEYS, KEY_MAP, Key


def sent(key: Union[Key, Keys]) -> str:
    """What an xterm sends for a key: one of the game's named keys (by its first terminal key)
    or any of prompt_toolkit's."""
    pressed = Keys(KEY_MAP[key].terminal[0]) if isinstance(key, Key) else key
    return next(sequence for sequence, parsed in ANSI_SEQUENCES.items() if parsed == pressed)


# The keys the tests type by name ("F8", "Enter"), beside text typed as it is.
KEYS = {**{key.value: sent(key) for key in (Key.SEATS, *HOT_KEYS)},
        "Enter": sent(Key.ENTER), "Esc": sent(Key.ESCAPE), "C-c": sent(Keys.ControlC)}
F7, F8, F9, F10 = (KEYS[key.value] for key in (Key.SEATS, *HOT_KEYS))
