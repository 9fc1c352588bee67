"""Every line the game writes breaks between words to fit 80 columns: the rule as a table and
invariants, then whole games in plain mode, in key mode and for a screen reader, in English
and in German."""
import os
import re
from functools import partial
from pathlib import Path
from typing import Any, Optional

import pytest
from helpers import KeyScript, loaded_session
from test_plain import interleave, play_plain, turn

from yahtzee.consoles.stops import InputClosed
from yahtzee.model.game import Player
from yahtzee.present.palette import strip_controls, visible_width, wrapped
from yahtzee.screens.flow import SCREENS, Keeper
from yahtzee.screens.steps import Moment, Screen
from yahtzee.speech import languages as language

WIDTH = 80
BOXES = ["1", "2", "3", "4", "5", "6", "t", "f", "h", "s", "l", "y", "c"]
LONG = ("ANN has 3 3 1 2 5; boxes: 1 Ones 2, 2 Twos 2, 3 Threes 9, 4 Fours 0, 5 Fives 5, 6 Sixes 0, "
        "T Three of a kind 0, F Four of a kind 0, H Full house 0, S Small straight 3")


@pytest.mark.parametrize("text, width, lines", [
    ("short", 80, ["short"]),
    ("one two three", 7, ["one two", "three"]),
    ("  indented words here", 11, ["  indented", "  words", "  here"]),
    ("abcdefghij klm", 4, ["abcd", "efgh", "ij", "klm"]),  # a word wider than a line is cut
    ("\x1b[33mYAHTZEE!\x1b[0m and more", 10, ["\x1b[33mYAHTZEE!\x1b[0m", "and more"]),
    ("名前名前 ab", 6, ["名前名", "前 ab"]),  # wide characters take two cells
    ("a b c, d e f, g", 9, ["a b c,", "d e f, g"]),  # between a list's items where they fit
    ("one two three four, x", 9, ["one two", "three", "four, x"]),
    ("Brainy leads ANN by 209", 19, ["Brainy leads ANN", "by 209"]),  # never a number alone on the last line
    ("leads by 2090", 8, ["leads", "by 2090"]),
    ("ANN by 123456", 6, ["ANN by", "123456"]),  # where the word before it does not fit with it
])
def test_lines_break_between_words(text: str, width: int, lines: list[str]) -> None:
    assert wrapped(text, width) == lines


@pytest.mark.parametrize("width", [20, 33, 50, 79, 80])
def test_a_wrapped_line_keeps_every_word_whole_and_in_order(width: int) -> None:
    lines = wrapped(LONG, width)
    assert all(visible_width(line) <= width for line in lines)
    assert " ".join(lines).split() == LONG.split()


def assert_fits(lines: list[str], where: str) -> None:
    """Every line fits 80 columns."""
    for line in lines:
        assert visible_width(line) <= WIDTH, f"{where}: {line!r}"


@pytest.mark.parametrize("code", ["en", "de"])
def test_a_whole_plain_game_at_a_terminal_writes_no_line_wider_than_its_80_columns(tmp_path: Path,
                                                                                   monkeypatch: pytest.MonkeyPatch,
                                                                                   code: str) -> None:
    from yahtzee.consoles.plain import PlainConsole
    made = PlainConsole.__init__

    def at_a_terminal(console: Any, *args: Any, **options: Any) -> None:
        made(console, *args, **options)
        console.width = WIDTH  # as a terminal of 80 columns says (into a pipe, a record is one line)

    monkeypatch.setattr(PlainConsole, "__init__", at_a_terminal)
    lines, faces = interleave([turn([3, 3, 1, 2, 5], box) for box in BOXES],
                              [turn([2, 2, 2, 6, 6], box) for box in BOXES])
    script = ["", "n", "ANN", "BOB", "", "y"] + lines + ["n"]
    try:
        status, out, records = play_plain(tmp_path, monkeypatch, script, faces, "--lang", code)
    finally:
        language.use("en")
    assert status == 0 and records
    written = re.split(r"\n|> ", out)  # a prompt's answer comes on its own line at a terminal
    assert_fits(written, f"plain, {code}")
    assert max(visible_width(line) for line in written) > 70  # long lines were written, broken


def key_mode_rows(script: KeyScript) -> list[str]:
    """The rows a KeyConsole wrote: each full draw split at its line ends."""
    rows = []
    for draw in script.output.written:
        rows += [strip_controls(row) for row in re.split(r"\r\n|\r", draw)]
    return rows


@pytest.mark.parametrize("code", ["en", "de"])
def test_the_key_mode_screens_and_messages_write_no_row_wider_than_80_columns(context: partial, code: str) -> None:
    language.use(code)
    try:
        ctx = context([3, 3, 1, 2, 5] * 30)
        keys = "*nobody\rANN\rBOB\r\r" + "y" + " zr" + "".join(f"{box}y r" for box in "123") + "?xq"
        script = KeyScript(keys)
        keeper, moment = Keeper(ctx), Moment(Screen.NAMES)
        next_moment: Optional[Moment] = moment
        with pytest.raises(InputClosed):
            while next_moment is not None:
                ctx.moment = moment = next_moment
                keeper.keep(ctx)
                next_moment = SCREENS[moment.screen](script.console, ctx)
        script.close()
    finally:
        language.use("en")
    rows = key_mode_rows(script)
    assert_fits(rows, f"key mode, {code}")
    assert any("*rival" in row for row in rows)  # the long computer-players line was drawn, broken


def test_a_screen_reader_hears_every_box_of_a_long_posting_line_whole(tmp_path: Path) -> None:
    from yahtzee.consoles.screenreader import AccessibleConsole
    from yahtzee.screens.playscreen import posting_brief
    session = loaded_session([3, 3, 1, 2, 5])
    session.players.extend([Player("ANN"), Player("BOB")])
    game = session.new_game()
    game.roll()
    from yahtzee.speech.languages import text
    (said_brief,) = posting_brief(game, game.legal_boxes())
    brief = text(said_brief)
    assert visible_width(brief) > WIDTH
    script = KeyScript("")
    console = AccessibleConsole(input=script.pipe, output=script.output, terminal_size=lambda: script.size)
    console.show([], [said_brief])
    said = "".join(script.output.written).splitlines()
    assert len(said) > 1
    assert_fits(said, "screen reader")
    assert " ".join(said).split() == brief.split()
    items = [item for line in said for item in line.split("; boxes: ")[-1].rstrip(",").split(", ")]
    assert len(items) == 13 and all(re.fullmatch(r"[1-6TFHSLYC] [A-Za-z0-9 ]+ \d+", item) for item in items), said
    script.close()


@pytest.mark.parametrize("text, width, lines", [
    ("ab cd", 0, ["a", "b", "c", "d"]),
    ("\u6f22\u5b57 ok", 1, ["\u6f22", "\u5b57", "o", "k"]),
    ("  \u6f22\u5b57", 2, ["\u6f22", "\u5b57"]),
])
def test_a_line_too_narrow_for_a_character_still_ends(text: str, width: int, lines: list[str]) -> None:
    assert wrapped(text, width) == lines


def test_a_terminal_that_says_it_has_no_columns_is_taken_as_80_by_24(monkeypatch: pytest.MonkeyPatch) -> None:
    from yahtzee.consoles import terminalio
    monkeypatch.setattr(terminalio.os, "get_terminal_size", lambda fd: os.terminal_size((0, 0)))
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)
    assert tuple(terminalio.window_size()) == (80, 24)
