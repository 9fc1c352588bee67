"""Each rule variant, option and match played through the real program with loaded dice."""
import json
from pathlib import Path
from typing import Any, Union

import pytest
from helpers import key_turn, play_keys
from test_plain import START, interleave, play_plain, turn

from yahtzee.model.scoring import SHEET_LABELS as LABELS
from yahtzee.model.scoring import Category
from yahtzee.saves.prefs import RunSettings
from yahtzee.speech import languages

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

YAHTC = [
    turn([6] * 5, "y"),
    turn([6] * 5, "y"),                                     # the extra turn: +50, no box filled
    turn([2, 2, 2, 5, 5], "h"),
    turn([1, 2, 3, 4, 5], "l"),
    turn([1, 2, 3, 3, 6], "s", rerolls=[("4", [4])]),
    turn([4, 4, 4, 4, 1], "f"),
    turn([5, 5, 5, 3, 2], "t"),
    turn([1, 1, 1, 2, 3], "1"),
    turn([2, 2, 2, 2, 6], "2"),
    turn([3, 3, 3, 6, 6], "3"),
    turn([4, 4, 4, 1, 2], "4"),
    turn([5, 5, 5, 5, 2], "5"),
    turn([6, 6, 6, 1, 1], "6"),
    turn([6, 5, 4, 3, 1], "c"),
]
ACORN = [
    turn([3] * 5, "y"),
    turn([3] * 5, "1"),                                     # an extra Yahtzee blanks ONES for 100
    turn([2, 2, 2, 3, 3], "h"),
    turn([1, 2, 3, 4, 5], "l"),
    turn([2, 3, 4, 5, 5], "s"),
    turn([6, 6, 6, 6, 2], "f"),
    turn([5, 5, 5, 1, 2], "t"),
    turn([2, 2, 1, 4, 6], "2", rerolls=[("3", [2])]),
    turn([3, 3, 3, 1, 1], "3"),
    turn([4, 4, 4, 4, 1], "4"),
    turn([5, 5, 5, 6, 1], "5"),
    turn([6, 6, 6, 6, 1], "6"),
    turn([6, 6, 5, 1, 2], "c"),
]
FIVEOAK = [
    turn([4] * 5, "h"),                                     # five alike fit full house: 25 + 10
    turn([2] * 5, "y"),
    turn([2] * 5, "2"),                                     # 10, +100, +10
    turn([1, 2, 3, 4, 6], "s"),
    turn([1, 2, 3, 4, 6], "l", rerolls=[("5", [5])]),       # 40 + 5 after two rolls
    turn([6, 6, 6, 1, 2], "f", rerolls=[("45", [3, 4]), ("45", [6, 5])]),
    turn([5, 5, 5, 2, 1], "t"),
    turn([1, 1, 2, 3, 4], "1"),
    turn([3, 3, 3, 3, 2], "3"),
    turn([4, 4, 4, 2, 1], "4"),
    turn([5, 5, 5, 5, 1], "5"),
    turn([6, 6, 6, 2, 2], "6"),
    turn([6, 5, 4, 2, 1], "c"),
]


@pytest.mark.parametrize("rules, turns, total, parts", [
    ("yahtc", YAHTC, 356, {"upper_bonus": 35, "yahtzee_bonus": 50}),
    ("acorn", ACORN, 414, {"upper_bonus": 35, "yahtzee_bonus": 100, "blanks": ["ones"]}),
    ("fiveoak", FIVEOAK, 514, {"upper_bonus": 35, "yahtzee_bonus": 100, "roll_bonus": 95}),
])
def test_each_variant_plays_a_whole_game_to_the_expected_total(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rules: str, turns: list[tuple[list[str], list[int]]],
        total: int, parts: dict[str, Union[int, list[str]]]) -> None:
    lines, faces = interleave(turns)
    lines = START + ["ANN", "", "y"] + lines + ["n"]
    code, out, records = play_plain(tmp_path, monkeypatch, lines, faces, "--rules", rules)
    assert code == 0
    (record,) = records
    assert record["rules"] == rules
    player = record["players"][0]
    assert player["total"] == total, out[-2000:]
    assert {key: player[key] for key in parts} == parts


def test_the_variants_speak_of_what_an_extra_yahtzee_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines, faces = interleave(YAHTC[:3])
    _, out, _ = play_plain(tmp_path, monkeypatch, START + ["ANN", "", "y"] + lines + ["f10", "y"],
                           faces, "--rules", "yahtc")
    assert "(Y: +50, roll again)" in out and "Take 50 and another turn? (Y/N)" in out
    assert "ANN takes 50 for the extra YAHTZEE and another turn!" in out
    lines, faces = interleave(ACORN[:2])
    (tmp_path / "acorn").mkdir()
    _, out, _ = play_plain(tmp_path / "acorn", monkeypatch, START + ["ANN", "", "y"] + lines + ["f10", "y"],
                           faces, "--rules", "acorn")
    assert "YAHTZEE +100: blank which box?" in out
    assert "ANN blanks ONES. YAHTZEE bonus +100!" in out


def write_prefs(tmp_path: Path, **prefs: Any) -> None:
    saves = tmp_path / "saves"
    saves.mkdir(exist_ok=True)
    (saves / "prefs.json").write_text(json.dumps({"version": 1, "dice_roll": "off", **prefs}))


def test_four_rolls_and_a_dice_bank_carry_unused_rolls_into_the_next_turn(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    write_prefs(tmp_path, rolls=4, bank=2, advisor=False)
    first = turn([1, 2, 3, 4, 5], "l")                      # posted after one roll: 3 unused, 2 kept
    second = ["", *(["1", "r"] * 5), "c", "y"]              # 4 + 2 rolls: the sixth ends the turn
    lines = START + ["ANN", "", "y"] + first[0] + second + ["f10", "y"]
    faces = first[1] + [6, 6, 6, 6, 6] + [1, 2, 3, 4, 5]
    code, out, _ = play_plain(tmp_path, monkeypatch, lines, faces)
    assert code == 0
    assert "Roll 1 of 4:" in out and "Roll 5 of 6:" in out and "roll 5 of 6: 4 6 6 6 6" in out
    assert "ANN posts 29 in CHANCE." in out  # die 1 rerolled five times: 1 2 3 4 5, then 6s


def test_hold_marking_rolls_the_dice_not_held(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_prefs(tmp_path, marking="hold", advisor=False)
    lines = START + ["ANN", "", "y", "", "12", "r", "12345", "r", "h", "y", "f10", "y"]
    code, out, _ = play_plain(tmp_path, monkeypatch, lines, [3, 3, 1, 2, 6, 5, 5, 5])
    assert "Roll 1 of 3: 1-5 hold dice, R rolls the others" in out
    assert "ANN  roll 2 of 3: 3 3 5 5 5" in out and "ANN posts 25 in FULL HOUSE." in out


def test_undo_takes_a_posting_back_until_the_next_roll_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_prefs(tmp_path, advisor=False)
    lines = START + ["ANN", "BOB", "", "y",
                     "", "r", "c", "y",          # ANN posts 15 in CHANCE
                     "u",                         # BOB has not rolled: ANN takes it back
                     "l", "y",                    # ... and posts LARGE STRAIGHT instead
                     "",                          # BOB rolls
                     "u",                         # too late now: not a key at the dice
                     "f10", "y"]
    code, out, _ = play_plain(tmp_path, monkeypatch, lines, [1, 2, 3, 4, 5] * 2)
    assert "BOB: press any key to roll, U takes back the last posting" in out
    assert "ANN's last posting is taken back." in out
    assert "ANN posts 40 in LARGE STRAIGHT." in out
    assert out.count("Keys here: 1-5 mark or lock a die") == 1


def test_a_computers_posting_cannot_be_taken_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_prefs(tmp_path, advisor=False)
    lines = START + ["*", "ANN", "", "y", "u", "f10", "y"]
    code, out, _ = play_plain(tmp_path, monkeypatch, lines, [1, 2, 3, 4, 5] * 3, "--seed", "1")
    assert "Brainy posts" in out
    assert "U takes back" not in out and "taken back" not in out


def start_key_game(term: Any, names: Any) -> None:
    term.wait_for("Press any key to begin")
    term.press("x")
    term.wait_for("Instructions? (Y/N)")
    term.press("n")
    for name in names:
        term.wait_for("name:")
        term.press(name, "Enter")
    term.press("Enter")
    term.wait_for("Ready to play? (Y/N)")
    term.press("y")


RACE = {"ANN": [([6, 6, 6, 6, 1], "6"), ([5, 5, 5, 5, 1], "5"), ([4, 4, 4, 4, 1], "4"),
                ([3, 3, 3, 3, 1], "3"), ([2, 2, 2, 2, 1], "2"), ([1, 1, 1, 1, 2], "1"),
                ([2, 2, 3, 3, 3], "h")],
        "BOB": [([1, 2, 3, 4, 5], "l"), ([1, 2, 3, 4, 6], "s"), ([2, 2, 3, 3, 3], "h"),
                ([1, 1, 1, 2, 3], "t"), ([1, 1, 1, 1, 2], "f"), ([1, 1, 2, 2, 3], "c"),
                ([6, 6, 6, 6, 6], "y")]}


def test_a_race_runs_to_its_end_in_key_mode(tmp_path: Path) -> None:
    write_prefs(tmp_path, advisor=False, sound=False)
    faces = [face for pair in zip(RACE["ANN"], RACE["BOB"]) for dice, _ in pair for face in dice]
    keys = "xnANN\rBOB\r\ry" + "".join(key_turn(ann_box) + key_turn(bob_box)
                                         for (_, ann_box), (_, bob_box) in zip(RACE["ANN"], RACE["BOB"])) + "n"
    script = play_keys(tmp_path / "saves", keys, faces, RunSettings(match="race 140"))
    (screen,) = [seen for seen in script.seen if "Another game? (Y/N)" in seen]
    assert "BOB wins with 168 points!" in screen and "Race to 140" in screen
    # ANN's FULL HOUSE 25 is the one box posted and not cleared: every other stays open, BOB's all.
    cells = {row[:13].strip(): row[13:27].split() for row in screen.splitlines()}
    assert all(cells[LABELS[box]] == (["25"] if box is Category.FULL_HOUSE else []) for box in Category), screen
    assert script.ended is None
    record = json.loads((tmp_path / "saves" / "history.jsonl").read_text())
    assert [p["total"] for p in record["players"]] == [144, 168]


def test_a_challenge_runs_to_its_end_in_key_mode(tmp_path: Path) -> None:
    write_prefs(tmp_path, advisor=False, sound=False, verify=False)
    boxes = ["1", "2", "3", "4", "5", "6", "t", "f", "h", "s", "l", "y", "c"]
    games = ["".join(key_turn(box, "y" if (box in "tfhy" if game == 0 else box in "hsl") else None) for box in boxes)
             for game in range(2)]
    keys = "xnANN\r\ry" + games[0] + "y y" + games[1] + "n "
    script = play_keys(tmp_path / "saves", keys, [1, 2, 3, 4, 5] * 13 + [6] * 5 * 13, RunSettings(match="challenge 2"))
    first, second = [seen for seen in script.seen if "Another game? (Y/N)" in seen]
    assert "game 1 of 2" in first.lower() and "Challenge of 2 games: ANN" in second
    (recap,) = [seen for seen in script.seen if "Press any key to finish" in seen]
    assert "Rules: 1987 (forced joker)" in recap and "Challenge of 2 games" in recap
    assert script.ended is None


def test_undo_after_a_yahtc_extra_turn_names_the_player_who_took_it(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    write_prefs(tmp_path, advisor=False)
    lines = START + ["ANN", "BOB", "", "y",
                     "", "r", "y", "y",           # ANN: YAHTZEE 50
                     "", "r", "l", "y",           # BOB: large straight
                     "", "r", "y", "y",           # ANN: another Yahtzee, the extra turn
                     "u", "f10", "y"]             # ANN takes it back before rolling again
    _, out, _ = play_plain(tmp_path, monkeypatch, lines, [6] * 5 + [1, 2, 3, 4, 5] + [6] * 5,
                           "--rules", "yahtc")
    assert "ANN takes 50 for the extra YAHTZEE and another turn!" in out
    assert "ANN's last posting is taken back." in out


def test_rules_from_the_command_line_survive_a_change_of_another_setting(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    lines = START[:1] + ["p", "8", "x", "n", "ANN", "", "y", "f10", "y"]
    _, out, _ = play_plain(tmp_path, monkeypatch, lines, [1], "--rules", "acorn")
    assert "Match (next game): challenge 3." in out
    assert "Rules: Acorn (blank a box)   Match: a challenge of 3 games" in out


# The sixes race to 60: YAHTZEE 50, then SIXES 30 and the +100 bonus: 180 by hand; the eleven
# boxes never posted stay open on the end sheet, in every language and mode, and null in the record.
SIXES_RACE = START + ["ANN", "", "y", *turn([6] * 5, "y")[0], *turn([6] * 5, "6")[0], "n"]
ENGLISH_SHEET = ("ANN: Ones open, Twos open, Threes open, Fours open, Fives open, Sixes 30, upper sum 30, "
                 "3 of a kind open, 4 of a kind open, Full house open, Small straight open, Large straight open, "
                 "YAHTZEE 50, Chance open, bonuses 100, total 180.")
GERMAN_SHEET = ("ANN: Einser offen, Zweier offen, Dreier offen, Vierer offen, Fünfer offen, Sechser 30, "
                "Summe oben 30, Dreierpasch offen, Viererpasch offen, Full House offen, Kleine Straße offen, "
                "Große Straße offen, Kniffel 50, Chance offen, Boni 100, gesamt 180.")


@pytest.mark.parametrize("options, sheet", [
    ((), ENGLISH_SHEET),
    (("--accessible",), ENGLISH_SHEET),
    (("--lang", "de"), GERMAN_SHEET),
])
def test_a_race_ends_with_its_unposted_boxes_open_on_the_sheet_and_null_in_the_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, options: tuple[str, ...],
        sheet: str) -> None:
    try:
        code, out, (record,) = play_plain(tmp_path, monkeypatch, SIXES_RACE, [6] * 10, "--match", "race 60", *options)
    finally:
        languages.use("en")
    assert code == 0 and sheet in out.splitlines()
    assert record["version"] == 2 and record["players"][0]["total"] == 180
    scores = record["players"][0]["scores"]
    assert (scores["sixes"], scores["yahtzee"]) == (30, 50)
    assert [box for box, points in scores.items() if points is None] == [
        "ones", "twos", "threes", "fours", "fives", "three_of_a_kind", "four_of_a_kind", "full_house",
        "small_straight", "large_straight", "chance"]
