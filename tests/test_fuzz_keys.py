"""Random keys through the real game in a pseudo-terminal: it never breaks, never shows raw codes."""
import random
from pathlib import Path

import pytest
from helpers import PTY
from keycodes import F8, F9, sent
from prompt_toolkit.keys import Keys
from terminal import Terminal

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
SEED = 1987
ACTIONS = 300
# Game keys without the quit keys and the advisor (whose first use builds a strategy table).
TYPED = list("rR12345yYnNxhHtTfFsScClLpPuUvVmMkZ0 .,-*") + ["\r", "\r", "\x7f", "\t"]
F_KEYS = [F8, F9, *(sent(key) for key in (Keys.Up, Keys.Left, Keys.F1, Keys.Delete))]
PASTES = ["\x1b[31mred\x1b[0m", "\x1b[2J\x07\x1b]0;title\x07", "\x1bP1$r\x1b\\", "\x1b[12;40R",
          "\x1b[<0;12;4M", "\x1b4", "\x1b7\x1b8", "\x9b31m", "Zoë", "名前", "\x00\x1b\x1b["]
SIZES = [(80, 24), (100, 30), (60, 20), (80, 24), (79, 24)]


def split_key(term: Terminal, rng: random.Random, key: str) -> None:
    """An escape sequence sent in two pieces, inside or beyond the escape timeout."""
    cut = rng.randrange(1, len(key))
    term.press(key[:cut])
    term.pump(rng.choice([0.05, 0.2, 0.7]))
    term.press(key[cut:])


def act(term: Terminal, rng: random.Random) -> None:
    """One random thing a player, a terminal or a paste could do."""
    roll = rng.random()
    if roll < 0.6:
        term.press(rng.choice(TYPED))
    elif roll < 0.72:
        term.press(rng.choice(F_KEYS))
    elif roll < 0.8:
        split_key(term, rng, rng.choice(F_KEYS))
    elif roll < 0.9:
        term.press(rng.choice(PASTES))
    elif roll < 0.95:
        term.resize(*rng.choice(SIZES))
    else:
        term.press("F10", "n")  # then play on


@pytest.mark.posix(reason=PTY)
def test_random_keys_never_break_the_game(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    term = Terminal("--saves", str(tmp_path / "saves"), "--seed", "7")
    try:
        term.wait_for("Press any key to begin")
        for _ in range(ACTIONS):
            act(term, rng)
            term.pump(0.01)
        term.resize(80, 24)
        if term.child.isalive():  # (random keys may have quit it already)
            term.press("F10", "y")  # F10 asks to quit from any screen; the game must end well
        assert term.exit_code() == 0
        assert b"Traceback" not in term.raw and b"^[" not in term.raw
        assert "^[" not in term.text and F8[1:] not in term.text
    finally:
        term.close()
