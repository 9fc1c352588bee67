"""Golden screens: a few whole 80x24 screens, kept as text in tests/golden/<name>.<lang>.txt, so
that any change of layout or wording shows up in review as a change of those files; the same
screens in English are kept with their colours too, in tests/golden/<name>.en.ansi.

Each screen is reached in-process with scripted keys through the real key reader, loaded dice,
fixed names and a fixed clock; a .txt file holds the terminal's 24 text lines as a player sees
them (no colours, trailing spaces stripped), an .ansi file the same lines drawn in the classic
theme with one SGR sequence wherever the look of the cells changes, as the pyte screen has
them (`cat` shows it in colour). The kept screens: play (a turn at its second roll, one die
marked), advice (the '?' page at that moment), end (the final sheets, the winner and the
notices, "Another game?") and recap (the session's two games as it ends).

A test that finds a screen different from its file fails with a unified diff (escape codes
spelled out). To regenerate the files on purpose, run with YAHTZEE_GOLDEN_UPDATE=1: each test
then writes its file, and still fails when the file it wrote differed from the one kept,
saying so (run again to see them pass, and review the files' diff before committing).
"""
import difflib
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Optional

import pytest
from helpers import KeyScript, clock, table_context, there

from yahtzee.coach.services import StrategyServices
from yahtzee.coach.tablekeeper import TableKeeper
from yahtzee.consoles.stops import InputClosed
from yahtzee.model.dice import LoadedDice, SeededDice
from yahtzee.model.game import Game
from yahtzee.model.rules import HASBRO
from yahtzee.model.scoring import Category
from yahtzee.model.session import Session
from yahtzee.present.palette import Paint, painter, strip_controls
from yahtzee.saves.store import Saves
from yahtzee.screens.context import Context
from yahtzee.screens.flow import Keeper, run_from
from yahtzee.screens.steps import Moment, Screen
from yahtzee.speech import languages as language

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("YAHTZEE_GOLDEN_UPDATE") == "1"
NAMES = ("ANN", "BOB")
SEED = 7  # the dice once the loaded ones run out
# The rounds before the turn shown: each player's dice and the box they go in.
EARLIER_ROUNDS = [
    (((2, 2, 3, 3, 3), Category.FULL_HOUSE), ((6, 6, 6, 2, 1), Category.SIXES)),
    (((1, 2, 3, 4, 6), Category.SMALL_STRAIGHT), ((4, 4, 4, 4, 2), Category.FOUR_OF_A_KIND)),
    (((5, 5, 5, 1, 2), Category.FIVES), ((1, 3, 4, 5, 6), Category.CHANCE)),
    (((6, 5, 4, 2, 1), Category.ONES), ((3, 3, 3, 3, 3), Category.YAHTZEE)),
]
# ANN's turn on screen: the first roll, the two dice rerolled (2 and 4), then die 5 marked.
TURN_FACES = [4, 2, 4, 6, 4] + [4, 1]
TURN_KEYS = " " "24" "r" "5"


@pytest.fixture(scope="module")
def strategy(shared_table_cache: Path) -> Iterator[StrategyServices]:
    """The advisor, whose tables the advice page and the recap's given-away figures read."""
    made = StrategyServices.over(TableKeeper(shared_table_cache))
    made.tables.load(HASBRO, with_rests=True)  # the advice page kept is the one with its win % column
    yield made
    made.close()


@pytest.fixture
def lang(request: pytest.FixtureRequest) -> Iterator[str]:
    """The screens in the language the test is given; English again after it."""
    code = request.param
    language.use(code)
    try:
        yield code
    finally:
        language.use("en")


def best_box(game: Game) -> Category:
    """The open box the dice score most in (the first of equals): how the earlier games are played."""
    return max(game.legal_boxes(), key=game.points_for)


def play_out(game: Game, turns: int) -> None:
    """Play `turns` turns of one roll each, every one posted in its best box."""
    for _turn in range(turns):
        game.roll()
        game.post(best_box(game))


def table(tmp_path: Path, strategy: StrategyServices, faces: list) -> Context:
    """ANN and BOB at a table whose dice are `faces`, then the seeded ones (only seeded ones, a
    game that counts, without faces); saves under tmp_path."""
    source = LoadedDice(faces, SeededDice(SEED)) if faces else SeededDice(SEED)
    return table_context(players=NAMES, session=Session([], source=source), saves=Saves(tmp_path / "saves", now=clock),
                         strategy=strategy)


def played(ctx: Context, moment: Moment, keys: str, paint: Optional[Paint] = None) -> KeyScript:
    """The flow run from `moment` on these keys, until they run out (the terminal in `paint`'s
    colours, none by default); the script that drew it."""
    script = KeyScript(keys, paint=paint)
    try:
        with pytest.raises(InputClosed):
            run_from(script.console, ctx, Keeper(ctx), moment)
    finally:
        script.close()
        if ctx.services.saves is not None:
            ctx.services.saves.close()
    return script


def turn_script(tmp_path: Path, strategy: StrategyServices, extra_keys: str, paint: Optional[Paint]) -> KeyScript:
    """ANN's fifth turn at its second roll with die 5 marked, then `extra_keys`."""
    faces = [face for round_ in EARLIER_ROUNDS for dice, _box in round_ for face in dice] + TURN_FACES
    ctx = table(tmp_path, strategy, faces)
    game = ctx.session.new_game()
    for round_ in EARLIER_ROUNDS:
        for _dice, box in round_:
            game.roll()
            game.post(box)
    return played(ctx, Moment(Screen.PLAY), TURN_KEYS + extra_keys, paint)


def finished_session(tmp_path: Path, strategy: StrategyServices) -> Context:
    """A session of two games just finished, the first already in the history."""
    ctx = table(tmp_path, strategy, [])
    ctx.settings.prefs = replace(ctx.settings.prefs, advisor=True)  # cost notes on: the recap shows what each gave away
    session = ctx.session
    play_out(session.new_game(), 13 * len(NAMES))
    there(ctx.services.saves).append_history(session.finish_game("2026-12-01T11:30:00+00:00"))
    play_out(session.new_game(), 13 * len(NAMES))
    session.finish_game(ctx.now())
    return ctx


def play_script(tmp_path: Path, strategy: StrategyServices, paint: Optional[Paint]) -> KeyScript:
    """The play screen during ANN's turn."""
    return turn_script(tmp_path, strategy, "", paint)


def advice_script(tmp_path: Path, strategy: StrategyServices, paint: Optional[Paint]) -> KeyScript:
    """The first page of the advice for ANN's dice ('?')."""
    return turn_script(tmp_path, strategy, "?", paint)


def end_script(tmp_path: Path, strategy: StrategyServices, paint: Optional[Paint]) -> KeyScript:
    """The end of the second game, then N: the recap as the session ends."""
    return played(finished_session(tmp_path, strategy), Moment(Screen.END_OF_GAME), "n", paint)


# Each kept screen: how it is reached, and which of the terminal's waits for a key shows it.
MAKERS: dict[str, tuple[Callable[[Path, StrategyServices, Optional[Paint]], KeyScript], int]] = {
    "play": (play_script, -1),  # ANN's turn, waiting for the next key
    "advice": (advice_script, -1),
    "end": (end_script, -2),  # "Another game?"
    "recap": (end_script, -1)}  # the recap as the session ends
COLOURED = ["play", "advice", "end", "recap"]  # kept with their colours too, in English


def golden_text(screen: str) -> str:
    """The screen as its golden file keeps it: 24 lines, trailing spaces stripped."""
    lines = [line.rstrip() for line in screen.split("\n")]
    assert len(lines) == 24, f"the screen has {len(lines)} lines, not 24"
    return "\n".join(lines) + "\n"


def golden_colours(screen: str) -> str:
    """The screen as its coloured golden file keeps it: 24 lines, each with the SGR sequences
    of its colours and styles (helpers.coloured_lines)."""
    lines = screen.split("\n")
    assert len(lines) == 24, f"the screen has {len(lines)} lines, not 24"
    return "\n".join(lines) + "\n"


def spelled(line: str) -> str:
    """A line with its control characters spelled out (ESC as \\x1b), for a diff to show."""
    return re.sub(r"[\x00-\x1f]", lambda control: f"\\x{ord(control.group()):02x}", line)


def is_its_golden_file(shown: str, path: Path, what: str) -> None:
    """Fail with a diff (escape codes spelled out) unless `shown` is the file's text; with
    YAHTZEE_GOLDEN_UPDATE=1, write the file instead and fail only when it changed."""
    kept = path.read_text(encoding="utf-8") if path.exists() else None
    if UPDATE:
        if kept != shown:
            path.parent.mkdir(exist_ok=True)
            path.write_text(shown, encoding="utf-8")
            pytest.fail(f"wrote {path.relative_to(GOLDEN.parent.parent)}: it was {'different' if kept else 'missing'}")
        return
    assert kept is not None, f"{path} is missing: run with YAHTZEE_GOLDEN_UPDATE=1 to write it"
    if shown != kept:
        kept_lines, shown_lines = ([spelled(line) for line in text.splitlines()] for text in (kept, shown))
        diff = difflib.unified_diff(kept_lines, shown_lines, f"{path.name} (kept)", f"{path.name} (shown)", lineterm="")
        pytest.fail(f"{what} is not its golden file:\n" + "\n".join(diff))


@pytest.mark.parametrize("lang", ["en", "de"], indirect=True)
@pytest.mark.parametrize("name", list(MAKERS))
def test_the_screen_is_its_golden_file(tmp_path: Path, strategy: StrategyServices, lang: str, name: str) -> None:
    """The screen, drawn in the language, is exactly its kept text."""
    make, shown_at = MAKERS[name]
    shown = golden_text(make(tmp_path, strategy, None).seen[shown_at])
    is_its_golden_file(shown, GOLDEN / f"{name}.{lang}.txt", f"the {name} screen ({lang})")


@pytest.mark.parametrize("name", COLOURED)
def test_the_screen_in_colour_is_its_golden_file(tmp_path: Path, strategy: StrategyServices, name: str) -> None:
    """The screen in the classic theme's colours is exactly its kept text and colours, and
    without its colours is the plain golden screen."""
    make, shown_at = MAKERS[name]
    seen = make(tmp_path, strategy, painter("classic")).seen_in_colour[shown_at]
    assert golden_text(strip_controls(seen)) == (GOLDEN / f"{name}.en.txt").read_text(encoding="utf-8")
    is_its_golden_file(golden_colours(seen), GOLDEN / f"{name}.en.ansi", f"the {name} screen in colour")


def test_f8_on_the_end_screen_turns_verify_off_in_its_hot_key_line(tmp_path: Path, strategy: StrategyServices) -> None:
    ctx = finished_session(tmp_path, strategy)
    script = played(ctx, Moment(Screen.END_OF_GAME), "v")
    before, after = script.seen[0].splitlines(), script.output.text().splitlines()
    assert "F8/V verify ON" in before[22] and "F8/V verify OFF" in after[22] and not ctx.session.verify
