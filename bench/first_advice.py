"""A new player's first minute on a fresh install, for every rule set: the advice page, the quit
question, a computer's first decision and the win % column, each timed against its target.

The real game in an 80x24 pseudo-terminal, started on an empty cache folder and an empty saves
folder (the package's shipped tables only), at a person's pace: every question answered a
second after it shows, names typed at one character a second (ANN, then `*`, a computer seated
second), `?` pressed one second after the first roll and F10 0.3 s after `?`. Then N answers the
quit question, the advice page is read until its win % column has its figures, Esc leaves it,
ANN posts her first roll in Chance and the computer's turn is started. Timed:

  the advice page (its heading, `ADVICE for ...`) from `?`        target 1 s
  the quit question from F10                                       target 0.1 s (0.5 s as a terminal shows it)
  the computer's first decision (it keeps or posts) from the key
  that starts its turn                                             target 2 s
  the win % column with its figures on a drawn advice page,
  from launch                                                      target 15 s

The screen is kept with pyte, so a page drawn at once and filled in later is timed when its
figures are drawn. Prints one line per figure with "met"/"NOT met"; a missed target is a
figure, not a failure: the script fails only when the game never shows what it waits for.
The last line is one JSON object.

Usage: python bench/first_advice.py [--quick] [RULES ...] (RULES among hasbro, yahtc, fiveoak,
acorn, freejoker, nobonus and 4rolls, the 1987 rules with four rolls a turn; quick: hasbro and
nobonus)
"""
import json
import os
import re
import select
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Optional

import pyte

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from keys import ROOT, spawn  # noqa: E402

from yahtzee.model.moods import MOOD_NAMED  # noqa: E402
from yahtzee.saves.documents import prefs_to_dict  # noqa: E402
from yahtzee.saves.prefs import Prefs  # noqa: E402

# The rule sets as the command line names them, and the preferences each starts with.
GAMES = {"hasbro": ("hasbro", {}), "yahtc": ("yahtc", {}), "fiveoak": ("fiveoak", {}), "acorn": ("acorn", {}),
         "freejoker": ("freejoker", {}), "nobonus": ("nobonus", {}), "4rolls": ("hasbro", {"rolls": 4})}
QUICK_GAMES = ("hasbro", "nobonus")
TARGETS = {"advice_seconds": 1.0, "quit_seconds": 0.1, "decision_seconds": 2.0, "win_column_seconds": 15.0}
LABELS = {"advice_seconds": "advice page after ?", "quit_seconds": "quit question after F10",
          "decision_seconds": "computer's first decision after its turn starts",
          "win_column_seconds": "win % column after launch"}
QUIT_SHOWN_TARGET = 0.5  # the quit question as a terminal shows it
PACE = 1.0  # seconds between a person's keys
F10, ESC = b"\x1b[21~", b"\x1b"
QUIT_QUESTION = "Quit the game?"
COMPUTER = MOOD_NAMED["thinker"].seat_name  # the name `*` seats
PATIENCE = 600.0  # the longest wait for anything the game should show (a table built meanwhile)
FIGURE = re.compile(r"[<>]?\d+\.\d%\s*$")


class Terminal:
    """The game in a pseudo-terminal, its screen kept as a terminal keeps it."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.launched = time.monotonic()
        self.child = spawn(argv, env)

    def rows(self) -> list[str]:
        """The screen's rows as they stand."""
        return self.screen.display

    def read(self, seconds: float) -> bool:
        """Read what comes within `seconds`; whether anything came."""
        if not select.select([self.child.fd], [], [], max(0.0, seconds))[0]:
            return False
        try:
            self.stream.feed(os.read(self.child.fd, 65536))
        except OSError:  # the game has ended
            raise SystemExit(f"the game ended; its screen:\n{self.shown()}") from None
        return True

    def wait(self, shows: Callable[[list[str]], bool], what: str, timeout: float = PATIENCE) -> float:
        """The time at which the screen shows what `shows` looks for; SystemExit after `timeout`."""
        deadline = time.monotonic() + timeout
        while not shows(self.rows()):
            if time.monotonic() > deadline:
                raise SystemExit(f"the game never showed {what} within {timeout:.0f} s; its screen:\n{self.shown()}")
            self.read(deadline - time.monotonic())
        return time.monotonic()

    def idle(self, seconds: float) -> None:
        """Let `seconds` pass, reading meanwhile (a terminal never stops reading)."""
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            self.read(until - time.monotonic())

    def press(self, key: bytes) -> float:
        """Send a key; the time it was sent."""
        os.write(self.child.fd, key)
        return time.monotonic()

    def answer(self, words: str, key: bytes) -> float:
        """Wait for `words`, let a person's second pass, press `key`; the time it was sent."""
        self.wait(showing(words), repr(words), 120.0)
        self.idle(PACE)
        return self.press(key)

    def type_slowly(self, keys: bytes) -> None:
        """Type `keys` one a second, as a person types a name."""
        for key in keys:
            self.idle(PACE)
            self.press(bytes([key]))

    def shown(self) -> str:
        """The screen as text, for a message."""
        return "\n".join(row.rstrip() for row in self.rows())

    def close(self) -> None:
        """End the game."""
        self.child.terminate(force=True)


def showing(words: str) -> Callable[[list[str]], bool]:
    """A test of the screen: `words` on some row."""
    return lambda rows: any(words in row for row in rows)


def is_advice_page(rows: list[str]) -> bool:
    """The advice page is drawn: a row starts with its heading."""
    return any(row.lstrip().startswith("ADVICE for") for row in rows)


def has_win_figures(rows: list[str]) -> bool:
    """A drawn advice page whose win % column has its figures (not a line saying they are
    being worked out)."""
    headers = [number for number, row in enumerate(rows) if row.rstrip().endswith("win %")]
    return bool(headers) and is_advice_page(rows) and any(FIGURE.search(row) for row in rows[headers[0] + 1:])


def is_quit_question(rows: list[str]) -> bool:
    """The quit question is on the screen."""
    return any(QUIT_QUESTION in row for row in rows)


def computer_decided(rows: list[str]) -> bool:
    """The computer's first decision is on the screen: it keeps dice or posts."""
    return any(f"{COMPUTER} keeps" in row or f"{COMPUTER} posts" in row for row in rows)


def fresh_game(folder: Path, rules: str, prefs: dict[str, object]) -> Terminal:
    """The game on empty cache and saves folders (the preferences given written first)."""
    saves = folder / "saves"
    saves.mkdir()
    if prefs:
        (saves / "prefs.json").write_text(json.dumps(prefs_to_dict(replace(Prefs(), **prefs))))
    return Terminal([sys.executable, str(ROOT / "yahtzee.py"), "--rules", rules, "--saves", str(saves)],
                    {"YAHTZEE_CACHE": str(folder / "cache"), "LANGUAGE": "en"})  # the words looked for


def to_first_roll(game: Terminal) -> float:
    """From the title to ANN's first roll, at a person's pace; when the roll was shown."""
    game.answer("Press any key to begin", b"x")
    game.answer("Instructions?", b"n")
    game.wait(showing("Player 1 name"), "the names")
    game.type_slowly(b"ANN\r*\r\r")
    game.answer("Ready to play", b"y")
    game.answer("press any key to roll", b" ")
    return game.wait(showing("Roll 1 of"), "the first roll")


def advice_and_quit(game: Terminal, rolled: float) -> dict[str, float]:
    """`?` a second after the roll, F10 0.3 s after it: when the advice page and the quit
    question came (whichever first); N, then the win % figures; Esc leaves the page."""
    game.idle(max(0.0, rolled + PACE - time.monotonic()))
    asked = game.press(b"?")
    seen: dict[str, float] = {}
    f10: Optional[float] = None
    deadline = asked + PATIENCE
    while True:
        now = time.monotonic()
        if f10 is None and now >= asked + 0.3:
            f10 = game.press(F10)
        if is_advice_page(game.rows()):
            seen.setdefault("advice", now)
        if f10 is not None and is_quit_question(game.rows()):
            seen["quit"] = now
            break
        if now > deadline:
            raise SystemExit(f"the game never showed the quit question; its screen:\n{game.shown()}")
        game.read(0.005 if f10 is None else deadline - now)
    game.idle(0.2)
    game.press(b"n")
    seen["advice"] = seen.get("advice") or game.wait(is_advice_page, "the advice page")
    seen["win_column"] = game.wait(has_win_figures, "the win % column's figures")
    game.press(ESC)
    game.wait(lambda rows: not is_advice_page(rows) and showing("R rolls")(rows), "the roll screen again", 30.0)
    assert f10 is not None  # pressed before the question could come
    return {"advice_seconds": seen["advice"] - asked, "quit_seconds": seen["quit"] - f10,
            "win_column_seconds": seen["win_column"] - game.launched}


def computer_turn(game: Terminal) -> float:
    """ANN posts in Chance; seconds from the key that starts the computer's turn to its first decision."""
    game.idle(0.3)
    game.press(b"r")
    game.answer("Post where?", b"c")
    confirmed = game.answer("(Y/N)", b"y")
    started = game.wait(lambda rows: showing("plays next")(rows) or showing(f"{COMPUTER} rolls")(rows),
                        "the computer's turn", 60.0)
    # Without a key to start it, the computer's turn began with the posting.
    started = game.press(b" ") if showing("plays next")(game.rows()) else confirmed
    return game.wait(computer_decided, "the computer's first decision") - started


def measured(name: str) -> dict[str, float]:
    """One rule set's figures on a fresh install."""
    rules, prefs = GAMES[name]
    with tempfile.TemporaryDirectory() as folder:
        game = fresh_game(Path(folder), rules, prefs)
        try:
            rolled = to_first_roll(game)
            figures = advice_and_quit(game, rolled)
            figures["decision_seconds"] = computer_turn(game)
        finally:
            game.close()
    return {key: round(value, 3) for key, value in figures.items()}


def verdict(met: bool) -> str:
    """'met' or 'NOT met'."""
    return "met" if met else "NOT met"


def report(name: str, figures: dict[str, float]) -> None:
    """One line a figure, each against its target."""
    for key, label in LABELS.items():
        seconds, target = figures[key], TARGETS[key]
        also = (f"; <= {QUIT_SHOWN_TARGET} s as a terminal shows it: {verdict(seconds <= QUIT_SHOWN_TARGET)}"
                if key == "quit_seconds" else "")
        print(f"{name:9} {label:48} {seconds:7.3f} s (target <= {target} s: {verdict(seconds <= target)}{also})",
              flush=True)


def chosen_games(argv: list[str]) -> list[str]:
    """The rule sets named on the command line, else every one (quick: two)."""
    named = [word for word in argv if not word.startswith("--")]
    unknown = [word for word in named if word not in GAMES]
    if unknown:
        raise SystemExit(f"unknown rules {', '.join(unknown)} (known: {', '.join(GAMES)})")
    return named or list(QUICK_GAMES if "--quick" in argv else GAMES)


def main(argv: list[str]) -> None:
    """Measure each rule set on a fresh install and print its figures; the last line JSON."""
    results = {}
    for name in chosen_games(argv):
        results[name] = measured(name)
        report(name, results[name])
    print(json.dumps({"targets": TARGETS, "results": results}))


if __name__ == "__main__":
    main(sys.argv[1:])
