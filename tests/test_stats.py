"""Statistics from a hand-made history whose numbers were worked out by hand."""
import json
from dataclasses import replace
from pathlib import Path
from typing import Any, Optional, Union

import pytest
from helpers import texts

from yahtzee.model.outcome import FinishedGame
from yahtzee.model.scoring import Category
from yahtzee.present.palette import visible_width as display_width
from yahtzee.present.stats import (
    HallEntry,
    game_notices,
    hall_lines,
    hall_of_fame,
    ordinal,
    places,
    player_stats,
    stats_lines,
)
from yahtzee.saves.records import finished_game, record_of
from yahtzee.saves.store import HISTORY as HISTORY_FILE
from yahtzee.saves.store import Saves


def card(
        name: str, upper: list[int], lower: list[int], yahtzee_bonus: int = 0,
        kind: str = "human") -> dict[str, Union[str, dict[str, int], int]]:
    """A player entry of a record; upper and lower list the boxes in card order."""
    scores = dict(zip((box.value for box in Category), upper + lower))
    upper_bonus = 35 if sum(upper) >= 63 else 0
    return {"name": name, "kind": kind, "scores": scores, "upper_bonus": upper_bonus,
            "yahtzee_bonus": yahtzee_bonus, "total": sum(scores.values()) + upper_bonus + yahtzee_bonus}


def game(
        finished: str, players: list[dict[str, Union[str, dict[str, int], int]]], winners: list[str],
        rules: str = "hasbro", seed: Optional[int] = None) -> FinishedGame:
    """A finished game, read from the history record made of these (which it checks)."""
    return finished_game({"version": 1, "finished": finished, "rules": rules, "seed": seed,
                          "players": players, "winners": winners})


# Totals by hand: ANN 63+35+187+100 = 385; BOB 42+90 = 132.
GAME_1 = game("2024-01-01T10:00:00+00:00", [
    card("ANN", [3, 6, 9, 12, 15, 18], [20, 0, 25, 30, 40, 50, 22], yahtzee_bonus=100),
    card("BOB", [2, 4, 6, 8, 10, 12], [15, 0, 25, 30, 0, 0, 20])], ["ANN"], seed=11)
# ANN 21+55 = 76; BOB 84+35+219+200 = 538; HAL 63+35+155 = 253.
GAME_2 = game("2024-01-02T10:00:00+00:00", [
    card("ANN", [1, 2, 3, 4, 5, 6], [10, 0, 0, 30, 0, 0, 15]),
    card("BOB", [4, 8, 12, 16, 20, 24], [25, 24, 25, 30, 40, 50, 25], yahtzee_bonus=200),
    card("HAL", [3, 6, 9, 12, 15, 18], [20, 20, 25, 30, 40, 0, 20], kind="computer")], ["BOB"])
# A tie: both 132, both win.
GAME_3 = game("2024-01-03T09:00:00+00:00", [
    card("ANN", [2, 4, 6, 8, 10, 12], [15, 0, 25, 30, 0, 0, 20]),
    card("BOB", [2, 4, 6, 8, 10, 12], [15, 0, 25, 30, 0, 0, 20])], ["ANN", "BOB"])
# ANN alone under rules without the extra-Yahtzee bonus: 63+35+187 = 285.
GAME_4 = game("2024-01-04T20:30:00+00:00", [
    card("ANN", [3, 6, 9, 12, 15, 18], [20, 0, 25, 30, 40, 50, 22])], ["ANN"], rules="nobonus", seed=7)
HAND_MADE = [GAME_1, GAME_2, GAME_3, GAME_4]


@pytest.fixture
def history(saves: Saves, saves_folder: Path) -> list[FinishedGame]:
    """The hand-made history, written as a history.jsonl file and read back through Saves."""
    saves_folder.mkdir()
    (saves_folder / HISTORY_FILE).write_text("".join(json.dumps(record_of(game)) + "\n" for game in HAND_MADE))
    records = saves.read_history()
    assert saves.notices == []
    return records


def test_the_hand_made_records_are_valid_and_read_back_whole(history: list[FinishedGame]) -> None:
    assert history == HAND_MADE
    assert [p.total for game in history for p in game.players] == [385, 132, 76, 538, 253, 132, 132, 285]


def test_player_statistics_all_time(history: list[FinishedGame]) -> None:
    stats = player_stats(history)
    assert list(stats) == ["ANN", "BOB", "HAL"]
    ann, bob, hal = stats.values()
    assert (ann.games, ann.wins, ann.best, ann.points, ann.yahtzees, ann.upper_bonuses) == (4, 3, 385, 878, 3, 2)
    assert ann.average == 219.5 and ann.upper_bonus_rate == 0.5
    assert (bob.games, bob.wins, bob.best, bob.points, bob.yahtzees, bob.upper_bonuses) == (3, 2, 538, 802, 3, 1)
    assert bob.average == pytest.approx(267.333, abs=1e-3) and bob.upper_bonus_rate == pytest.approx(1 / 3)
    assert (hal.games, hal.wins, hal.best, hal.average, hal.yahtzees, hal.upper_bonus_rate) == (1, 0, 253, 253, 0, 1.0)


def test_player_statistics_of_a_session_count_only_its_games(history: list[FinishedGame]) -> None:
    stats = player_stats(history[2:])
    assert (stats["ANN"].games, stats["ANN"].wins, stats["ANN"].best, stats["ANN"].average) == (2, 2, 285, 208.5)
    assert (stats["BOB"].games, stats["BOB"].wins, stats["BOB"].best) == (1, 1, 132)
    assert "HAL" not in stats and player_stats([]) == {}


def test_the_order_of_the_records_does_not_change_the_statistics(history: list[FinishedGame]) -> None:
    assert player_stats(history[::-1]) == player_stats(history)
    assert hall_of_fame(history[::-1]) == hall_of_fame(history)


def test_hall_of_fame_highest_first_and_equal_scores_by_the_earlier_game(history: list[FinishedGame]) -> None:
    hall = hall_of_fame(history)
    assert [(e.name, e.score, e.date) for e in hall] == [
        ("BOB", 538, "2024-01-02"), ("ANN", 385, "2024-01-01"), ("ANN", 285, "2024-01-04"),
        ("HAL", 253, "2024-01-02"), ("BOB", 132, "2024-01-01"), ("ANN", 132, "2024-01-03"),
        ("BOB", 132, "2024-01-03"), ("ANN", 76, "2024-01-02")]
    assert hall[2] == HallEntry("ANN", 285, "2024-01-04", "nobonus", "human", "2024-01-04T20:30:00+00:00")
    assert hall_of_fame(history, size=3) == hall[:3]
    assert hall_of_fame([]) == []


def test_equal_scores_share_their_place_in_the_hall_of_fame(history: list[FinishedGame]) -> None:
    hall = hall_of_fame(history)
    assert places(hall) == [1, 2, 3, 4, 5, 5, 5, 8]
    assert [line.split()[:3] for line in hall_lines(hall)[5:8]] == [["5", "BOB", "132"], ["5", "ANN", "132"],
                                                                   ["5", "BOB", "132"]]
    straight = [0, 0, 0, 0, 40, 0, 0]  # a large straight, nothing else
    tie = game("2024-02-01T10:00:00+00:00", [card("ANN", [0] * 6, straight), card("BOB", [0] * 6, straight)],
               ["ANN", "BOB"])
    assert texts(game_notices([], tie)) == ["ANN enters the hall of fame at 1st place with 40",
                                     "BOB enters the hall of fame at 1st place with 40"]


def test_hall_of_fame_orders_times_across_time_zones() -> None:
    early = game("2024-01-01T10:00:00+05:00", [card("EARLY", [1] + [0] * 5, [0] * 7)], ["EARLY"])
    late = game("2024-01-01T09:00:00+00:00", [card("LATE", [1] + [0] * 5, [0] * 7)], ["LATE"])
    assert [e.name for e in hall_of_fame([late, early])] == ["EARLY", "LATE"]


def test_notices_after_a_game_for_each_human(history: list[FinishedGame]) -> None:
    assert texts(game_notices(history[:1], GAME_2)) == [
        "ANN enters the hall of fame at 5th place with 76",
        "ANN's all-time average goes down from 385.0 to 230.5",
        "BOB enters the hall of fame at 1st place with 538",
        "BOB sets a new personal best: 538 (the old one was 132)",
        "BOB's all-time average goes up from 132.0 to 335.0",
    ]


def test_notices_of_a_game_below_the_hall_of_fame(history: list[FinishedGame]) -> None:
    assert texts(game_notices(history[:3], GAME_4, size=2)) == ["ANN's all-time average goes up from 197.7 to 219.5"]
    assert texts(game_notices(history[:3], GAME_4)) == [
        "ANN enters the hall of fame at 3rd place with 285",
        "ANN's all-time average goes up from 197.7 to 219.5",
    ]


def test_a_first_game_has_no_best_or_average_to_compare_with() -> None:
    assert texts(game_notices([], GAME_1)) == ["ANN enters the hall of fame at 1st place with 385",
                                        "BOB enters the hall of fame at 2nd place with 132"]


def test_an_unchanged_average_and_an_equalled_best_give_no_notice() -> None:
    again = replace(GAME_3, finished="2024-01-05T09:00:00+00:00")
    assert texts(game_notices([GAME_3], again, size=2)) == []


@pytest.mark.parametrize("number, text", [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (10, "10th"),
                                          (11, "11th"), (12, "12th"), (13, "13th"), (21, "21st"),
                                          (22, "22nd"), (101, "101st"), (111, "111th")])
def test_ordinals(number: int, text: str) -> None:
    assert ordinal(number) == text


def test_stats_lines_show_the_hall_of_fame_and_both_player_tables(history: list[FinishedGame]) -> None:
    lines = stats_lines(history, session_games=history[2:])
    assert lines[0] == "HALL OF FAME"
    assert " 1  BOB     538  2024-01-02  1987 (forced joker)" in lines
    assert " 4  HAL*    253  2024-01-02  1987 (forced joker)" in lines
    all_time = lines.index("PLAYERS, ALL-TIME")
    session = lines.index("PLAYERS, THIS SESSION")
    assert lines[all_time + 2] == "NAME  GAMES  WINS  BEST  AVERAGE  YAHTZEES  BONUS"
    assert lines[all_time + 3] == "ANN       4     3   385    219.5         3    50%"
    assert lines[all_time + 4] == "BOB       3     2   538    267.3         3    33%"
    assert lines[session + 3] == "ANN       2     2   285    208.5         1    50%"
    assert all(len(line) <= 80 for line in lines)


def test_stats_lines_without_a_session_or_any_games() -> None:
    assert "PLAYERS, THIS SESSION" not in stats_lines(HAND_MADE)
    assert stats_lines([]) == ["HALL OF FAME", "", "No finished games yet."]


def test_stats_lines_can_show_only_the_players_at_the_table(history: list[FinishedGame]) -> None:
    lines = stats_lines(history, names={"HAL"})
    assert any(line.startswith("HAL ") for line in lines)
    assert not any(line.startswith(("ANN ", "BOB ")) for line in lines)


@pytest.mark.parametrize("width", [80, 60, 40])
def test_stats_lines_fit_the_width_even_with_long_and_wide_names(width: int) -> None:
    names = ["A" * 40, "二人三脚四五六七八九十", "Zoë"]
    record = game("2024-02-01T10:00:00+00:00",
                  [card(n, [3, 6, 9, 12, 15, 18], [20, 0, 25, 30, 40, 50, 22]) for n in names], [names[0]])
    lines = stats_lines([record], [record], width=width)
    assert all(display_width(line) <= width for line in lines)
    assert any("二人三脚" in line for line in lines)


def test_a_cut_computer_name_keeps_its_mark() -> None:
    record = game("2024-02-01T10:00:00+00:00",
                  [card("B" * 30, [1] + [0] * 5, [0] * 7, kind="computer")], ["B" * 30])
    assert " 1  BBBBBBBBBBB*      1  2024-02-01  1987 (forced joker)" in stats_lines([record])


def test_a_game_with_loaded_dice_is_a_practice_game_kept_out_of_the_hall_of_fame(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Loaded dice make every roll a Yahtzee: the record says the dice were loaded, no place in
    the hall of fame is given, --stats counts the game apart; a seeded game after it counts as
    usual, and a practice game saved and resumed is still one."""
    from helpers import run_game
    from test_computer_resume import play

    dice = tmp_path / "sixes.txt"
    dice.write_text(" ".join(["6"] * 300))
    saves = tmp_path / "saves"
    saves.mkdir()
    (practice,), _, out = play(saves, monkeypatch, "thinker", ["--dice-file", str(dice)])
    assert practice["dice"] == "loaded"
    best = max(player["total"] for player in practice["players"])
    assert best > 700
    assert "hall of fame at" not in out
    assert "A practice game (loaded dice): it stays out of the hall of fame and the statistics." in out
    (_, seeded), _, out = play(saves, monkeypatch, "thinker", [])
    assert "dice" not in seeded and "ANN enters the hall of fame at" in out
    done = run_game(["--stats", "--saves", str(saves)], in_process=True)
    shown = done.stdout
    assert done.returncode == 0 and "1 practice game (loaded dice) is not counted here." in shown
    assert str(best) not in shown and str(seeded["players"][0]["total"]) in shown
    resumed = tmp_path / "resumed"
    resumed.mkdir()
    play(resumed, monkeypatch, "thinker", ["--dice-file", str(dice)], quit_at=3)
    (again,), _, out = play(resumed, monkeypatch, "thinker", [])
    assert "Resume the saved game?" in out and again["dice"] == "loaded"


# A race's total runs over many rounds and a practice game's dice were loaded: both stay out of
# the hall of fame and the tables, and the lines under the hall of fame say how many and why
# (a race with loaded dice is counted once, as a practice game).
RACE = replace(GAME_4, finished="2024-01-05T10:00:00+00:00", race_target=300)
PRACTICE = replace(GAME_4, finished="2024-01-06T10:00:00+00:00", practice=True)
PRACTICE_RACE = replace(RACE, finished="2024-01-07T10:00:00+00:00", practice=True)
ONE_RACE = "1 race (its total runs over many rounds) is not counted here."
ONE_PRACTICE = "1 practice game (loaded dice) is not counted here."


@pytest.mark.parametrize("games, said", [
    ([RACE], [ONE_RACE]),
    ([RACE, replace(RACE, finished="2024-01-08T10:00:00+00:00")],
     ["2 races (their totals run over many rounds) are not counted here."]),
    ([PRACTICE], [ONE_PRACTICE]),
    ([PRACTICE_RACE], [ONE_PRACTICE]),
    ([GAME_1, RACE, PRACTICE], [ONE_PRACTICE, ONE_RACE]),
    ([GAME_1], []),
])
def test_the_games_left_out_of_the_statistics_are_counted_with_the_reason(
        games: list[FinishedGame], said: list[Union[Any, str]]) -> None:
    lines = stats_lines(games)
    assert [line for line in lines if "not counted here" in line] == said
    assert lines[2] == ("No finished games yet." if GAME_1 not in games else " #  NAME  SCORE  DATE        RULES")


@pytest.mark.parametrize("language, said", [
    ("en", ["HALL OF FAME", "", "No finished games yet.", "", ONE_RACE]),
    ("de", ["BESTENLISTE", "", "Noch keine beendeten Spiele.", "",
            "1 Rennen (seine Summe wächst über viele Runden) zählt hier nicht."]),
])
def test_stats_with_only_a_race_finished_say_it_is_left_out_and_why(
        saves_folder: Path, language: str, said: list[str]) -> None:
    from helpers import run_game

    from yahtzee.speech import languages
    saves_folder.mkdir()
    (saves_folder / HISTORY_FILE).write_text(json.dumps(record_of(RACE)) + "\n")
    try:
        done = run_game(["--stats", "--lang", language, "--saves", str(saves_folder)], in_process=True)
    finally:
        languages.use("en")
    assert done.returncode == 0 and done.stdout.splitlines()[:5] == said
