"""Rolling dice: decided first, then tumbling in key mode; any key skips and still acts."""
import contextlib
import json
import random
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Union

import pytest
from helpers import PTY, KeyScript, clock, plain_console, printed, table_context, there, wait_until
from terminal import Terminal
from test_plain import START, play_plain

from yahtzee.consoles import tumble
from yahtzee.model.dice import SeededDice
from yahtzee.model.match import Challenge, Race, SingleGame
from yahtzee.model.outcome import FinishedGame
from yahtzee.model.session import Session
from yahtzee.present.look import Frame
from yahtzee.saves.codec import session_to_dict
from yahtzee.saves.store import Saves
from yahtzee.screens.flow import Keeper, run

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
CLEAR = b"\x1b[H\x1b[J"


@pytest.mark.parametrize("rolled", [[0, 1, 2, 3, 4], [1, 3], [4]])
def test_only_the_rolled_dice_tumble_and_the_last_frame_shows_them_settled(rolled: list[int]) -> None:
    dice = (6, 5, 4, 3, 2)
    frames = list(tumble.tumbling_dice(dice, rolled, 10, random.Random(1)))
    assert len(frames) == 10 and frames[-1] == dice
    for frame in frames:
        assert all(frame[die] == dice[die] for die in range(5) if die not in rolled)
        assert all(1 <= face <= 6 for face in frame)
    assert any(frame[die] != dice[die] for frame in frames for die in rolled)


def test_no_frames_when_the_rolling_is_off() -> None:
    assert list(tumble.tumbling_dice((1, 2, 3, 4, 5), [0], 0, random.Random())) == []


def test_a_key_cuts_the_tumble_short_and_is_left_for_the_next_read() -> None:
    script = KeyScript("", more_to_come=True)
    console = script.console
    write = script.output.write_raw

    def drawn_then_pressed(data: str) -> None:
        write(data)
        if console.screen == ["frame 2"]:
            script.pipe.send_text("1")  # the player presses a key while frame 2 shows

    script.output.write_raw = drawn_then_pressed  # type: ignore[method-assign]  # watched: a key pressed at frame 2
    made = []

    def framing() -> Iterator[list[str]]:
        for number in range(10):
            made.append(number)
            yield [f"frame {number}"]
    frames = framing()
    try:
        # (frames as lines here and below: a Screenful, as the console draws any)
        assert console.animate(frames, 0.01) is False  # type: ignore[arg-type]
        assert made == [0, 1, 2] and console.screen == ["frame 2"]
        assert console.read_key() == "1"
    finally:
        script.close()


def test_a_tumble_with_no_key_shows_every_frame() -> None:
    script = KeyScript("", more_to_come=True)
    try:
        assert script.console.animate([["a"], ["b"], ["c"]], 0.0) is True  # type: ignore[list-item]
        assert script.console.screen == ["c"]
    finally:
        script.close()


def test_plain_consoles_draw_no_frames() -> None:
    console = plain_console([])
    assert console.animate([["a"], ["b"]], 1.0) is True and printed(console) == ""  # type: ignore[list-item]


# A one-player game in key mode: mark two dice and reroll them, then post; thirteen turns.
GAME_KEYS = "xnANN\r\ry" + "".join(f" 25rr{box}y" for box in "123456tfhslyc")


def play_key_game(
        speed: str, monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> Any:
    """A seeded game through the flow at this rolling speed, every frame drawn without a wait;
    the session as JSON and how many frames were drawn."""
    ctx = table_context(session=Session([], source=SeededDice(11)), saves=Saves(tmp_path / speed, now=clock),
                        prefs={"dice_roll": speed})
    script = KeyScript(GAME_KEYS)
    script.console.reader.has_press = lambda timeout: False  # type: ignore[method-assign]  # no key ever cuts a tumble short
    drawn = []
    animate = script.console.animate

    def noted(frames: Iterable[Frame]) -> Iterator[Frame]:
        for frame in frames:
            drawn.append(frame)
            yield frame

    def animated(frames: Iterable[Frame], seconds_per_frame: float) -> bool:
        return animate(noted(frames), seconds_per_frame)
    script.console.animate = animated  # type: ignore[method-assign]  # watched: each frame drawn counted
    try:
        run(script.console, ctx, Keeper(ctx))
    except Exception:  # the keys ran out
        pass
    finally:
        script.close()
    return session_to_dict(ctx.session), drawn


def test_a_seeded_game_gets_the_same_dice_at_every_rolling_speed(monkeypatch: pytest.MonkeyPatch,
                                                                 tmp_path: Path) -> None:
    games = {speed: play_key_game(speed, monkeypatch, tmp_path) for speed in tumble.SPEEDS}
    assert len(games["off"][0]["results"]) == 1  # the whole game was played
    assert games["fast"][0] == games["slow"][0] == games["off"][0]
    rolls = 13 * 2
    assert len(games["fast"][1]) == rolls * tumble.SPEEDS["fast"][0]
    assert len(games["slow"][1]) == rolls * tumble.SPEEDS["slow"][0]
    assert games["off"][1] == []


def test_plain_mode_never_animates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    outputs = []
    for speed in ("slow", "off"):
        folder = tmp_path / speed
        (folder / "saves").mkdir(parents=True)
        (folder / "saves" / "prefs.json").write_text(json.dumps({"version": 1, "dice_roll": speed}))
        lines = START + ["ANN", "", "y", "", "12", "r", "f10", "y"]
        _, out, _ = play_plain(folder, monkeypatch, lines, [1, 2, 3, 4, 5, 6, 6])
        outputs.append(out)
    assert outputs[0] == outputs[1] and "rolls..." not in outputs[0]


# In a real terminal.

def start_game(tmp_path: Path, speed: str, name: str) -> tuple[Terminal, Path]:
    """The game at the first roll of ANN's turn, seeded, rolling at `speed`."""
    saves = tmp_path / name
    saves.mkdir()
    (saves / "prefs.json").write_text(json.dumps({"version": 1, "dice_roll": speed}))
    term = Terminal("--saves", str(saves), "--seed", "4")
    term.wait_for("Press any key to begin")
    term.press("x")
    term.wait_for("Instructions? (Y/N)")
    term.press("n", "ANN", "Enter", "Enter")
    term.wait_for("Ready to play? (Y/N)")
    term.press("y")
    term.wait_for("ANN: press any key to roll")
    return term, saves


def saved_turn(saves: Path, marked: list[bool]) -> dict[str, Union[list[int], list[bool], int]]:
    """The turn in the saved game once its marks are `marked`."""
    def turn() -> Any:
        with contextlib.suppress(OSError, ValueError, KeyError):
            saved = json.loads((saves / "autosave.json").read_text())["game"]["turn"]
            return saved if saved["marked"] == marked else None
    return wait_until(turn, poll=0.05, failure=lambda: f"the saved turn never had marks {marked}")


@pytest.mark.posix(reason=PTY)
def test_a_key_pressed_while_the_dice_tumble_acts_on_the_settled_dice(tmp_path: Path) -> None:
    marked = [True, False, False, False, False]
    term, saves = start_game(tmp_path, "slow", "slow")
    try:
        term.press(" ")
        def tumbling() -> bool:
            term.pump()
            return b"ANN rolls..." in term.raw
        wait_until(tumbling, poll=0)  # the tumble has begun
        term.press("1")
        term.wait_for("Roll 1 of 3: 1-5 mark dice")
        term.wait_for("[1]")
        tumbled = saved_turn(saves, marked)
    finally:
        term.close()
    term, saves = start_game(tmp_path, "off", "off")
    try:
        term.press(" ", "1")
        term.wait_for("[1]")
        still = saved_turn(saves, marked)
        assert b"ANN rolls..." not in term.raw
    finally:
        term.close()
    assert tumbled["dice"] == still["dice"] and tumbled["rolls"] == still["rolls"] == 1


@pytest.mark.posix(reason=PTY)
def test_the_dice_are_seen_tumbling_in_several_frames(tmp_path: Path) -> None:
    term, _ = start_game(tmp_path, "fast", "fast")
    try:
        term.press(" ")
        term.wait_for("Roll 1 of 3: 1-5 mark dice")
        assert term.raw.count(b"ANN rolls...") == tumble.SPEEDS["fast"][0]
        assert term.raw.count(CLEAR) > tumble.SPEEDS["fast"][0]  # frames, then the settled screen
    finally:
        term.close()


def test_a_kept_mark_rolls_the_same_dice_again_with_one_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "saves").mkdir()
    (tmp_path / "saves" / "prefs.json").write_text(json.dumps({"version": 1, "keep_marks": True}))
    lines = START + ["ANN", "", "y", "", "13", "r", "r", "c", "y", "f10", "y"]
    _, out, _ = play_plain(tmp_path, monkeypatch, lines, [1, 2, 3, 4, 5, 6, 6, 5, 5])
    assert "ANN  roll 2 of 3: 6 2 6 4 5   marked: die 1 (6), die 3 (6)" in out
    assert "ANN posts 21 in CHANCE." in out  # the third roll rolled dice 1 and 3 again: 5 2 5 4 5


def test_without_kept_marks_every_die_starts_locked_after_a_roll(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    lines = START + ["ANN", "", "y", "", "13", "r", "r", "c", "y", "f10", "y"]
    _, out, _ = play_plain(tmp_path, monkeypatch, lines, [1, 2, 3, 4, 5, 6, 6])
    assert "ANN  roll 2 of 3: 6 2 6 4 5   marked: none" in out
    assert "ANN posts 23 in CHANCE." in out


def test_kept_marks_in_hold_marking_keep_the_held_dice_held(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "saves").mkdir()
    (tmp_path / "saves" / "prefs.json").write_text(
        json.dumps({"version": 1, "keep_marks": True, "marking": "hold"}))
    lines = START + ["ANN", "", "y", "", "245", "r", "r", "c", "y", "f10", "y"]
    _, out, _ = play_plain(tmp_path, monkeypatch, lines, [1, 2, 3, 4, 5, 6, 6, 1, 1])
    assert "ANN  roll 2 of 3: 6 2 6 4 5   held: die 2 (2), die 4 (4), die 5 (5)" in out
    assert "ANN posts 13 in CHANCE." in out  # dice 1 and 3 rolled again: 1 2 1 4 5


# Match totals under the dice.

def match_screen(
        match: Union[Race, SingleGame, Challenge], results: Union[tuple[()], list[FinishedGame]] = (),
        names: tuple[str, ...] = ("ANN", "BOB")) -> list[str]:
    """The play screen's lines in a match, ANN having rolled 2 2 2 3 3 and posted a full house."""
    from yahtzee.model.dice import LoadedDice
    from yahtzee.model.game import Player
    from yahtzee.model.scoring import Category
    from yahtzee.present.look import Look
    from yahtzee.present.palette import visible_width
    from yahtzee.screens.playscreen import play_view
    session = Session([Player(name) for name in names], results=list(results), match=match,
                      source=LoadedDice([2, 2, 2, 3, 3] * 4, SeededDice(1)))
    session.new_game()
    there(session.game).roll()
    there(session.game).post(Category.FULL_HOUSE)
    ctx = table_context(session=session)
    lines = play_view(ctx)("BOB: press any key to roll")(Look())
    assert len(lines) <= 23 and max(visible_width(line) for line in lines) < 80
    return [line.strip() for line in lines]


def test_a_challenge_shows_each_players_match_total_so_far_under_the_dice() -> None:
    from test_match import record

    from yahtzee.model.match import Challenge
    lines = "\n".join(match_screen(Challenge(3), [record(ANN=250, BOB=230)]))
    assert "A challenge of 3 games" in lines and "Match totals" in lines
    assert re.search(r"ANN +275$", lines, re.M) and re.search(r"BOB +230$", lines, re.M)


def test_a_race_shows_the_race_totals_and_a_single_game_none() -> None:
    from yahtzee.model.match import SINGLE_GAME, Race
    lines = "\n".join(match_screen(Race(300)))
    assert "A race to 300" in lines and re.search(r"ANN +25$", lines, re.M)
    assert "Match totals" not in "\n".join(match_screen(SINGLE_GAME))


def test_four_players_in_the_longest_challenge_still_fit() -> None:
    from yahtzee.model.match import Challenge
    lines = match_screen(Challenge(100), names=("ANNIE1", "BOBBY1", "CAROL1", "DAVID1"))
    assert "A challenge of 100 games" in "\n".join(lines)


def test_a_stop_request_ends_the_tumble_and_the_next_read_stops() -> None:
    from yahtzee.consoles.stops import StopRequested
    script = KeyScript("", more_to_come=True)
    console = script.console
    write = script.output.write_raw

    def drawn_then_stopped(data: str) -> None:  # a signal while frame 0 shows
        write(data)
        console.request_stop(15)
    script.output.write_raw = drawn_then_stopped  # type: ignore[method-assign]
    try:
        assert console.animate([[f"frame {n}"] for n in range(10)], 60.0) is False  # type: ignore[misc]
        assert console.screen == ["frame 0"]
        with pytest.raises(StopRequested):
            console.read_key()
    finally:
        script.close()


def test_the_settings_after_the_tenth_take_letters(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = START[:1] + ["p", "b", "c", "d", "x", "n", "ANN", "", "y", "f10", "y"]
    _, out, _ = play_plain(tmp_path, monkeypatch, lines, [1])
    assert "B  Rolling dice (any key skips them)" in out and "1-9, 0, A-E change a setting" in out
    for said in ("Rolling dice (any key skips them): slow.", "Colour theme (from the next start): light.",
                 "Keep the last roll's marks after a reroll: ON."):
        assert said in out
    prefs = json.loads((tmp_path / "saves" / "prefs.json").read_text())
    assert (prefs["dice_roll"], prefs["theme"], prefs["keep_marks"]) == ("slow", "light", True)
