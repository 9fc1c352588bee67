"""Rendering: pure functions from game state to lines, checked without a terminal."""
from typing import Any, Optional, Union

import pytest

from yahtzee.model import scoring
from yahtzee.model.dice import LoadedDice
from yahtzee.model.game import Game, Player
from yahtzee.model.outcome import FinishedGame, PlayerResult
from yahtzee.model.rules import HASBRO
from yahtzee.model.scoring import Category
from yahtzee.present import render
from yahtzee.present.palette import colour, strip_controls, visible_width
from yahtzee.speech.languages import text

C = Category


def game_with(names: list[str], faces: tuple[int, int, int, int, int] = (2, 3, 2, 3, 3)) -> Game:
    game = Game.start([Player(n) for n in names], source=LoadedDice(list(faces) * 40))
    return game


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("unicode", [True, False])
def test_the_play_screen_fits_80_by_24(players: int, unicode: bool) -> None:
    game = game_with(["ANNIE", "BOBBY", "CAROL", "DAVID"][:players])
    game.roll()
    lines = render.play_lines(game, True, False, "Roll 1 of 3: 1-5 mark dice, R rolls", colour,
                              unicode)
    assert len(lines) <= 23  # one line stays for the console's message
    assert max(visible_width(line) for line in lines) < 80


def test_the_play_screen_shows_sheet_status_and_dice_together() -> None:
    game = game_with(["ANN", "BOB"])
    game.roll()
    game.toggle(1)
    text = "\n".join(render.play_lines(game, True, False, "Roll 1 of 3: 1-5 mark dice, R rolls",
                                       unicode=False))
    for word in ("Full house", "GRAND TOTAL", "Verify", "ON", "Sound", "OFF", "F10/Q",
                 "ANN  roll 1 of 3", "[2]", "Roll 1 of 3: 1-5 mark dice, R rolls", ">ANN"):
        assert word in text, word


def test_sheet_rows_totals_and_current_player() -> None:
    game = game_with(["ANN", "BOB"])
    game.roll()
    game.post(C.FULL_HOUSE)
    lines = render.sheet_lines(game)
    assert len(lines) == 20
    assert lines[0].split() == ["ANN", ">BOB"]
    row = {line[:13].strip(): line[13:].split() for line in lines[1:]}
    assert row["Full house"] == ["25"]
    assert row["GRAND TOTAL"] == ["25", "0"]
    assert row["Upper bonus"] == []  # blank while the bonus is still open
    assert "Par" not in row  # the par tracker starts off


@pytest.mark.parametrize("upper, shown", [
    ({}, []),                                            # nothing posted: open
    ({C.ONES: 3}, []),                                   # on par: still open
    ({C.SIXES: 0, C.FIVES: 0, C.FOURS: 0}, ["0"]),       # 63 is out of reach
    ({C.SIXES: 30, C.FIVES: 25, C.FOURS: 20}, ["35"]),   # 75: won
])
def test_the_upper_bonus_shows_35_once_won_0_once_out_of_reach_else_blank(
        upper: dict[Category, int], shown: list[Union[Any, str]]) -> None:
    game = game_with(["ANN"])
    game.players[0].card.boxes.update(upper)
    row = {line[:13].strip(): line[13:].split() for line in render.sheet_lines(game)[1:]}
    assert row["Upper bonus"] == shown


def test_the_par_tracker_has_its_own_row_when_it_is_on() -> None:
    game = game_with(["ANN", "BOB"])
    game.players[0].card.boxes.update({C.SIXES: 24, C.FIVES: 10})
    lines = render.sheet_lines(game, par=True)
    row = {line[:13].strip(): line[13:].split() for line in lines[1:]}
    assert len(lines) == 21 and row["Par"] == ["+1"]
    assert row["Upper bonus"] == []


def test_posting_keys_appear_only_beside_the_given_boxes() -> None:
    game = game_with(["ANN"])
    lines = render.sheet_lines(game, keys={C.ONES: "1", C.CHANCE: "C"})
    assert lines[1].startswith("1 Ones") and lines[16].startswith("C Chance")
    assert lines[2].startswith("  Twos")


@pytest.mark.parametrize("face, pips", [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (0, 0)])
def test_each_die_face_shows_its_pips(face: int, pips: int) -> None:
    drawn = render.die_lines(face, render.UNICODE_DIE)
    assert "".join(drawn).count("●") == pips
    assert all(len(line) == 5 for line in drawn)


def test_marked_dice_numbers_are_red_and_bracketed_locked_are_green() -> None:
    game = game_with(["ANN"])
    game.roll()
    game.toggle(0)
    numbers = render.dice_lines(game.turn, colour, unicode=False)[-1]
    assert colour("marked", " [1] ") in numbers
    assert colour("locked", "  2  ") in numbers
    assert strip_controls(numbers).split() == ["[1]", "2", "3", "4", "5"]


def test_hot_key_states_are_green_on_and_red_off() -> None:
    assert render.on_off(True, colour) == colour("on", "ON")
    assert render.on_off(False, colour) == colour("off", "OFF")
    footer = render.hotkey_footer(False, True)
    assert "F8/V verify OFF" in footer and "F9/M sound ON" in footer and "F10/Q quit" in footer


def test_without_colour_no_escape_code_is_drawn() -> None:
    game = game_with(["ANN", "BOB"])
    game.roll()
    text = "".join(render.play_lines(game, True, True, "status"))
    assert "\x1b" not in text


@pytest.mark.parametrize("encoding, expected", [("utf-8", True), ("ascii", False),
                                                ("latin-1", False), (None, False)])
def test_unicode_dice_only_where_the_encoding_has_them(encoding: Optional[str], expected: bool) -> None:
    assert render.can_draw_unicode(encoding) is expected


def record(*players: Any, winners: Any) -> FinishedGame:
    """A finished game of which the recap reads only the totals and the winners."""
    results = tuple(PlayerResult(name, "human", (0,) * 13, 0, 0, total) for name, total in players)
    return FinishedGame("2026-12-01T10:00:00", HASBRO, results, tuple(winners))


def test_recap_lists_every_game_then_totals_and_wins() -> None:
    results = [record(("ANN", 200), ("BOB", 150), winners=["ANN"]),
               record(("ANN", 180), ("BOB", 180), ("CID", 90), winners=["ANN", "BOB"])]
    lines = render.recap_lines(results)
    assert lines[2].split() == ["Game", "ANN", "BOB", "CID", "Winner"]
    assert lines[3].split() == ["1", "200", "150", "-", "ANN"]
    assert lines[4].split() == ["2", "180", "180", "90", "ANN,", "BOB"]
    assert lines[-2].split() == ["Total", "380", "330", "90"]
    assert lines[-1].split() == ["Won", "2", "1", "0"]


def test_a_small_terminal_gets_a_clear_message() -> None:
    lines = render.too_small_lines(60, 20)
    assert "60x20" in lines[0] and "80x24" in lines[0]


def test_a_long_session_recap_lists_the_last_ten_games_but_counts_them_all() -> None:
    results = [record(("ANN", 100 + n), winners=["ANN"]) for n in range(14)]
    lines = render.recap_lines(results)
    assert len(lines) <= 22
    assert lines[3] == "(4 earlier games count in the totals)"
    assert lines[4].split()[:2] == ["5", "104"]
    assert lines[-2].split() == ["Total", str(sum(100 + n for n in range(14)))]


def test_the_end_screen_keeps_every_box_and_moves_notices_that_do_not_fit_to_a_next_page() -> None:
    game = game_with(["ANN", "BOB", "CID", "DEE"])
    notices = [f"Notice number {n}: somebody's score is a place in the hall of fame." for n in range(12)]
    pages = render.end_lines(game, ["ANN wins with 0 points!", *notices], room=22)
    assert len(pages) == 2
    for page in pages:
        assert len(page) <= 22 and all(visible_width(line) <= 80 for line in page)
        labels = [line[:13].strip() for line in page]
        assert all(scoring.SHEET_LABELS[box] in labels for box in Category)
        assert "GRAND TOTAL" in labels
    shown = " ".join(" ".join(line[41:].split()) for page in pages for line in page)
    assert all(notice in shown for notice in notices)


def test_every_posting_prompt_fits_the_status_line() -> None:
    from yahtzee.model.rules import rules_named
    from yahtzee.screens.playscreen import posting_prompt
    for rules in ("hasbro", "yahtc", "acorn"):
        game = Game.start([Player("ANNIE")], rules_named(rules), LoadedDice([6] * 15))
        game.roll()
        game.post(Category.YAHTZEE)
        game.roll()
        prompt = posting_prompt(game, list(Category))
        assert len(text(prompt)) < 80, prompt


def test_the_recap_shows_points_given_away_only_when_asked_for() -> None:
    results = [record(("ANN", 200), ("BOB", 150), winners=["ANN"])]
    assert not any(line.startswith("Given away") for line in render.recap_lines(results))
    lines = render.recap_lines(results, losses={"ANN": 12.345})
    (given,) = [line for line in lines if line.startswith("Given away")]
    assert given.split()[2:] == ["12.3", "-"]
    assert not any(line.startswith("Lost") for line in lines)


def test_the_advice_page_names_dice_by_face_and_the_keys_that_make_each_choice() -> None:
    from yahtzee.model.choices import Option, OptionKind
    game = game_with(["ANN"])
    game.turn.dice, game.turn.rolls = (4, 6, 4, 3, 4), 1
    game.turn.marked = (False, False, False, False, True)  # die 5 marked already
    keep = Option(OptionKind.KEEP, 200.0, reroll=(False, True, False, True, False), kept=(4, 4, 4), best=True)
    box = Option(OptionKind.BOX, 190.0, box=C.FOURS, points=12)
    keep_row, box_row = render.advice_lines([(keep, None), (box, None)], game.turn)[1:]
    assert "keep 4 4 4" in keep_row and "reroll 6 3" in keep_row
    assert "press 2 4 5 R" in keep_row  # mark 2 and 4, free 5 again, then roll
    assert "press 5 R 4" in box_row      # free 5, R to posting, 4 for FOURS
    assert "press 4" in render.advice_lines([(box, None)], game.turn, at_posting=True)[1]


@pytest.mark.parametrize("key, value, shown", [("bank", 0, "0 rolls"), ("bank", 1, "1 roll"), ("bank", 3, "3 rolls"),
                                               ("rules", "hasbro", "1987 (forced joker)"),
                                               ("rules", "acorn", "Acorn (blank a box)")])
def test_a_preference_is_shown_in_a_players_words(key: str, value: Union[str, int], shown: str) -> None:
    from yahtzee.saves.prefs import BY_KEY
    assert text(BY_KEY[key].shown(value)) == shown


def test_a_starred_hint_keeps_its_brackets_in_line_with_the_others() -> None:
    game = Game.start([Player("ANN"), Player("BOB")])
    game.roll()
    hints = {Category.ONES: (0, False), Category.SIXES: (19, True), Category.CHANCE: (19, False)}
    rows = [strip_controls(row) for row in render.sheet_lines(game, hints=hints)]
    closing = {row.split()[0]: row.rindex(")") for row in rows if ")" in row}
    assert len(closing) == 3 and len(set(closing.values())) == 1, rows
