"""The advisor, hints, costs and preferences as a player meets them, in plain mode."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import run_game
from test_plain import START, interleave, play_plain, turn

from yahtzee.model.dice import LoadedDice
from yahtzee.model.game import Game, Player
from yahtzee.model.scoring import Category
from yahtzee.model.words import Say
from yahtzee.present import render
from yahtzee.present.palette import strip_controls

pytestmark = pytest.mark.slow(16)


def test_question_mark_lists_every_choice_best_first_with_the_best_marked(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    lines = START + ["ANN", "", "y", "", "?", "x", "f10", "y"]
    _, out, _ = play_plain(tmp_path, monkeypatch, lines, [1, 2, 3, 4, 5])
    advice = out[out.index("ADVICE for ANN"):].splitlines()
    assert advice[0].startswith("ADVICE for ANN: dice 1 2 3 4 5, 2 rolls left")
    best = [line for line in advice if line.startswith("Best: ")]
    assert len(best) == 1 and "LARGE STRAIGHT 40" in best[0]
    values = [float(line.rsplit("expects ", 1)[1].rstrip(".")) for line in advice
              if line.startswith(("Best: ", "Next: "))]
    assert values == sorted(values, reverse=True) and len(values) > 13


def test_a_posting_that_is_not_best_says_what_it_cost_and_the_recap_adds_it_up(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # 1 2 3 4 5 in CHANCE (15) instead of LARGE STRAIGHT: a clear loss.
    turns = [turn([1, 2, 3, 4, 5], "c")] + [turn([6, 6, 6, 6, 6], box) for box in
                                             ["y", "6", "t", "f", "h", "s", "l", "1", "2", "3", "4", "5"]]
    lines, faces = interleave(turns)
    lines = START[:1] + ["p", "1", "x"] + START[1:] + ["ANN", "", "y"] + lines + ["y", "", "f10", "y"]
    code, out, records = play_plain(tmp_path, monkeypatch, lines, faces)
    assert code == 0 and len(records) == 1
    assert "Cost notes: what each choice gave away: ON." in out
    assert "ANN posts 15 in CHANCE.\nThat posting cost" in out  # the posting first, then its cost
    costs = [float(line.split(" cost ")[1].split()[0]) for line in out.splitlines()
             if line.startswith("That posting cost")]
    assert costs and costs[0] > 5
    (given,) = [line for line in out.splitlines() if line.startswith("Given away")]
    assert abs(float(given.split()[2]) - sum(costs)) < 0.2


def test_no_cost_is_told_for_the_best_choice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = START[:1] + ["p", "1", "x"] + START[1:] + ["ANN", "", "y", "", "r", "l", "y", "f10", "y"]
    _, out, _ = play_plain(tmp_path, monkeypatch, lines, [1, 2, 3, 4, 5])
    assert "ANN posts 40 in LARGE STRAIGHT." in out
    assert "cost" not in out


def test_cost_notes_start_off_and_the_preferences_turn_them_on_for_good(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    play = START + ["ANN", "", "y", "", "r", "c", "y", "f10", "y"]
    _, out, _ = play_plain(tmp_path, monkeypatch, play, [1, 2, 3, 4, 5])
    assert "ANN posts 15 in CHANCE." in out and "cost" not in out.split("ANN posts")[1]
    lines = ["n"] + START[:1] + ["p", "1", "x", "n", "ANN", "", "y", "", "r", "c", "y", "f10", "y"]
    _, out, _ = play_plain(tmp_path, monkeypatch, lines, [1, 2, 3, 4, 5])
    assert "Cost notes: what each choice gave away: ON." in out
    assert "That posting cost" in out.split("ANN posts")[1]
    prefs = json.loads((tmp_path / "saves" / "prefs.json").read_text())
    assert prefs["advisor"] is True

def test_hints_show_what_the_dice_would_score_in_each_open_box() -> None:
    game = Game.start([Player("ANN")], source=LoadedDice([2, 2, 2, 3, 3]))
    game.roll()
    hints = {box: (game.points_for(box), box is Category.FULL_HOUSE) for box in game.legal_boxes()}
    lines = [strip_controls(line) for line in render.sheet_lines(game, hints=hints)]
    row = {line[:13].strip(): line[13:].strip() for line in lines[1:]}
    assert row["Full house"] == "(25)*" and row["Twos"] == "(6)" and row["Sixes"] == "(0)"


def test_hints_in_plain_mode_when_turned_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = START[:1] + ["p", "2", "x", "n", "ANN", "", "y", "", "f10", "y"]
    _, out, _ = play_plain(tmp_path, monkeypatch, lines, [2, 2, 2, 3, 3])
    assert "Hints: what the dice score in each open box: ON." in out
    assert "hints: 1 Ones 0, 2 Twos 6*, 3 Threes 6," in out and "H Full house 25*" in out


def test_a_preference_holding_a_value_it_cannot_take_is_set_aside(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "prefs.json").write_text('{"version": 1, "hint_threshold": 7}')
    _, out, _ = play_plain(tmp_path, monkeypatch, [""], [1])
    assert len([line for line in out.splitlines() if "prefs.json" in line]) == 1


def test_a_computer_seat_plays_its_turns_alone_in_a_scripted_game(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # ANN plays thirteen quick turns; *gambler Zed plays its own without a line of input.
    ann = [turn([1, 2, 3, 4, 5], box) for box in
           ["l", "s", "c", "1", "2", "3", "4", "5", "6", "t", "f", "h", "y"]]
    lines, _ = interleave(ann)
    lines = START + ["ANN", "*gambler Zed", "", "y"] + lines + ["n"]
    faces = []
    for _ in range(13):
        faces += [1, 2, 3, 4, 5]  # ANN's roll; Zed's dice come from the seed after the file
    faces = faces[:5]
    code, out, records = play_plain(tmp_path, monkeypatch, lines, faces, "--seed", "5")
    assert code == 0, out
    (record,) = records
    zed = record["players"][1]
    assert zed["name"] == "Zed" and zed["kind"] == "computer"
    assert len(zed["scores"]) == 13 and zed["total"] > 0
    assert "Zed takes a seat: a computer player, gambler." in out
    assert out.count("Zed posts") == 13 and "Zed rolls" in out


@pytest.mark.parametrize("typed, name, mood", [
    ("*", "Brainy", "thinker"), ("*thinker", "Brainy", "thinker"), ("*NoRisk", "Steady", "norisk"),
    ("*yclover Yvonne99", "Yvonne", "yclover"), ("*nowhere \x1b[31mX", "X", "nowhere"),
    ("*rival", "Victor", "rival"),
])
def test_star_names_seat_computer_players(typed: str, name: str, mood: str) -> None:
    from yahtzee.screens.lobby import computer_seat
    seat = computer_seat(typed, [])
    assert isinstance(seat, Player)
    assert (seat.name, seat.kind, seat.mood) == (name, "computer", mood)


def test_an_unknown_mood_is_refused_and_same_names_get_numbers() -> None:
    from yahtzee.screens.lobby import computer_seat
    from yahtzee.speech.languages import text
    refused = computer_seat("*sleepy", [])
    assert isinstance(refused, Say) and text(refused).startswith("Computer players: *thinker")
    first = computer_seat("*", [])
    assert isinstance(first, Player)
    second = computer_seat("*", [first])
    assert isinstance(second, Player)
    assert second.name == "Brain2"


def run_python(code: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    import subprocess

    from test_plain import ROOT
    return subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True,
                          text=True, timeout=120, cwd=str(ROOT))


NUMPY_WATCH = """
import sys, threading
class Watch:
    threads = set()
    def find_spec(self, name, path=None, target=None):
        if name == "numpy":
            Watch.threads.add(threading.current_thread().name)
sys.meta_path.insert(0, Watch())
"""


# The tables' worker held back for the whole game, as on a busy machine where it starts late:
# whatever the game's own thread needs numpy for, it would then load it itself.
HELD_BACK_BUILDER = """
from concurrent.futures import Future
from yahtzee.strategy.storage.builder import TableBuilder
TableBuilder.submit = lambda self, priority, work, *args: Future()  # never worked on, until the game ends
"""


def test_start_up_and_a_game_without_advice_load_numpy_only_in_the_background(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "prefs.json").write_text('{"version": 1, "advisor": false, "hints": true}')
    code = (NUMPY_WATCH + HELD_BACK_BUILDER + f"from yahtzee import cli; cli.main(['--plain', '--seed', '1', "
            f"'--saves', {str(saves)!r}]); print('numpy in', sorted(Watch.threads))")
    done = run_python(code, "\nn\nANN\n\ny\n\n1\nr\nr\nc\ny\nf10\ny\n")
    assert "ANN posts" in done.stdout, done.stderr
    assert done.stdout.splitlines()[-1] == "numpy in []"


def test_simulate_json_prints_exactly_one_object_with_the_keys() -> None:
    done = run_game(["--simulate", "40", "--player", "*norisk", "--seed", "3", "--json"], timeout=120)
    (line,) = done.stdout.splitlines()
    stats = json.loads(line)
    assert set(stats) == {"games", "mean", "stdev", "median", "min", "max", "upper_bonus_rate",
                          "yahtzee_rate", "seconds"}
    assert stats["games"] == 40 and stats["min"] <= stats["median"] <= stats["max"]
    again = json.loads(run_game(["--simulate", "40", "--player", "norisk", "--seed", "3", "--json"],
                                timeout=120).stdout)
    assert {k: v for k, v in again.items() if k != "seconds"} == \
        {k: v for k, v in stats.items() if k != "seconds"}


def test_simulate_text_names_every_figure() -> None:
    out = run_game(["--simulate", "20", "--seed", "1"], timeout=120).stdout
    for word in ("20 games", "mean", "stdev", "median", "lowest", "highest", "upper bonus",
                 "a Yahtzee in", "games a second"):
        assert word in out, word


def test_the_advisor_says_when_its_advice_is_approximate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from test_variant_games import write_prefs
    write_prefs(tmp_path, bank=2)
    lines = START + ["ANN", "", "y", "", "?", "x", "f10", "y"]
    _, out, _ = play_plain(tmp_path, monkeypatch, lines, [1, 2, 3, 4, 5])
    advice = out[out.index("ADVICE for ANN"):]
    assert "approximate" in advice.split("Best: ")[0]
    lines = START + ["ANN", "", "y", "", "?", "x", "f10", "y"]
    (tmp_path / "exact").mkdir()
    _, exact, _ = play_plain(tmp_path / "exact", monkeypatch, lines, [1, 2, 3, 4, 5],
                             "--rules", "fiveoak")
    assert "approximate" not in exact


def test_a_player_who_ranks_by_the_chance_to_win_is_told_costs_in_win_percent(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """ANN turns W on at the advice page: her costly posting is told in win %, labelled so,
    and the choice stays hers after she quits and resumes."""
    lines = (START[:1] + ["p", "1", "x"] + START[1:] + ["ANN", "BOB", "", "y", "", "?", "w", "x", "r", "c", "y",
                                                        "f10", "y"])
    code, out, _ = play_plain(tmp_path, monkeypatch, lines, [1, 2, 3, 4, 5])
    assert code == 0 and "Ranked by the chance to win." in out
    said = [line for line in out.splitlines() if line.startswith("That posting cost")]
    assert len(said) == 1 and said[0].endswith("win % against the choice likeliest to win."), said
    saved = json.loads((tmp_path / "saves" / "autosave.json").read_text())
    assert saved["win_rankers"] == ["ANN"]
