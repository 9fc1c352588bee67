"""Whole games in plain mode: scripted lines and loaded dice, asserting the final scores."""
import json
from pathlib import Path
from typing import Any, Optional, Union

import pytest
from helpers import run_game, typed

ROOT = Path(__file__).resolve().parent.parent
START = ["", "n"]  # leave the opening screen; no instructions


def turn(
        first: list[int], box: Union[list[str], str], rerolls: Union[list[tuple[str, list[int]]], tuple[()]] = (),
        answer: Optional[str] = "y", extra: Union[tuple[()], list[str]] = ()) -> tuple[list[str], list[int]]:
    """One turn's input lines and dice faces; `rerolls` are (marks, new faces) pairs."""
    lines, faces = [""], list(first)
    for marks, new in rerolls:
        lines += [marks, "r"]
        faces += new
    lines += list(extra)
    if len(rerolls) < 2:
        lines.append("r")
    lines += box if isinstance(box, list) else [box]
    if answer:
        lines.append(answer)
    return lines, faces


def interleave(*players: Any) -> tuple[list[str], list[int]]:
    """The lines and faces of whole rounds, players taking turns."""
    lines, faces = [], []
    for turns in zip(*players):
        for turn_lines, turn_faces in turns:
            lines += turn_lines
            faces += turn_faces
    return lines, faces


def play_plain(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lines: list[str], faces: list[int],
        *options: Any) -> Any:
    """Run the game in-process on these input lines; returns (exit code, output, history)."""
    dice = tmp_path / "dice.txt"
    dice.write_text(" ".join(map(str, faces)))
    saves = tmp_path / "saves"
    done = run_game(["--dice-file", str(dice), "--saves", str(saves), *options], typed(lines), in_process=True)
    history = saves / "history.jsonl"
    records = [json.loads(line) for line in history.read_text().splitlines()] if history.exists() else []
    return done.returncode, done.stdout, records


ANN = [
    turn([3] * 5, "y"),
    turn([3] * 5, ["c", "3"]),                               # refused: the joker goes in THREES
    turn([3] * 5, "l"),                                      # threes filled: any lower box, 40
    turn([1, 2, 3, 6, 6], "s", rerolls=[("45", [4, 5])]),
    turn([2, 2, 5, 5, 5], "h"),
    turn([6, 6, 6, 6, 2], "f", extra=["zz"]),                # an unknown line on the way
    turn([4, 4, 4, 1, 2], "t"),
    turn([1, 1, 1, 5, 6], "1"),
    turn([2, 2, 2, 3, 4], "2"),
    turn([4, 4, 4, 4, 6], "4"),
    turn([5, 5, 5, 1, 2], "5"),
    turn([6, 6, 6, 1, 1], "6"),
    turn([6, 5, 4, 2, 1], "c"),
]
BOB = [
    turn([1, 2, 3, 5, 6], "y"),                              # YAHTZEE scratched
    turn([2] * 5, "2"),                                      # joker, no bonus
    turn([2] * 5, "h"),                                      # joker full house 25, no bonus
    turn([1, 3, 4, 5, 6], "s"),
    turn([2, 3, 1, 1, 6], "l", rerolls=[("3 4", [4, 5])]),
    turn([6, 6, 6, 5, 5], "t"),
    turn([5, 5, 5, 5, 1], "f"),
    turn([1, 1, 2, 3, 6], "c"),
    turn([4] * 5, "4"),
    turn([4] * 5, ["t", "1"]),                               # no lower box open: zero ONES
    turn([3, 3, 3, 5, 6], "3"),
    turn([5, 5, 1, 2, 3], "5"),
    turn([6, 6, 6, 6, 1], "6"),
]


def test_two_players_with_extra_yahtzees_end_with_the_expected_scores(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    lines, faces = interleave(ANN, BOB)
    lines = START + ["ANN", "BOB", "", "y"] + lines + ["n"]
    code, out, records = play_plain(tmp_path, monkeypatch, lines, faces)
    assert code == 0
    (record,) = records
    ann, bob = record["players"]
    # ANN: upper 3+6+15+16+15+18 = 73 (+35), lower 50+40+30+25+26+15+18 = 204, bonus 200.
    assert (ann["upper_bonus"], ann["yahtzee_bonus"], ann["total"]) == (35, 200, 512)
    assert ann["scores"]["threes"] == 15 and ann["scores"]["large_straight"] == 40
    # BOB: upper 0+10+9+20+10+24 = 73 (+35), lower 0+25+30+40+28+21+13 = 157, no bonus.
    assert (bob["upper_bonus"], bob["yahtzee_bonus"], bob["total"]) == (35, 0, 265)
    assert bob["scores"]["ones"] == 0 and bob["scores"]["full_house"] == 25
    assert record["winners"] == ["ANN"]
    assert "A Joker must go in THREES while it is open." in out
    assert "THREE OF A KIND is already filled." in out
    assert " ".join(out.split()).count("Keys here: 1-5 mark or lock a die, R rolls the marked dice, ? advice.") == 1
    assert "ANN wins with 512 points!" in out
    assert "YAHTZEE bonus +100!" in out


def test_one_player_with_verify_off_and_a_lower_zero_confirmed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    turns = [turn([1, 2, 3, 4, 6], "6", answer=None)] + [
        turn([1, 1, 2, 2, 4], box, answer="y" if box in "tfhsly" else None)
        for box in ["1", "2", "3", "4", "5", "t", "f", "h", "s", "l", "y", "c"]]
    lines, faces = interleave(turns)
    lines = START + ["SOLO", "", "f8", "y"] + lines + ["n"]
    code, out, records = play_plain(tmp_path, monkeypatch, lines, faces)
    assert code == 0
    scores = records[0]["players"][0]["scores"]
    assert scores == {"ones": 2, "twos": 4, "threes": 0, "fours": 4, "fives": 0, "sixes": 6,
                      "three_of_a_kind": 0, "four_of_a_kind": 0, "full_house": 0,
                      "small_straight": 0, "large_straight": 0, "yahtzee": 0, "chance": 10}
    assert "Verify is now OFF." in out
    assert "Post 0 in FULL HOUSE? (Y/N)" in out and "Post 0 in THREES?" not in out


def test_end_of_input_quits_cleanly_mid_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, records = play_plain(tmp_path, monkeypatch, START + ["ANN", "", "y", "", "12"],
                                    [1, 2, 3, 4, 5])
    assert code == 0 and records == []


def test_names_in_plain_mode_are_cleaned_and_refused_like_in_key_mode(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    lines = START + ["\x1b[31mAnnabelle\x07", "annabe", "", "n", "Bob", "", "y"]
    code, out, _ = play_plain(tmp_path, monkeypatch, lines, [1, 2, 3, 4, 5])
    assert "Names are at most six characters: this one is Annabe." in out
    assert "annabe is already playing: choose another name." in out
    assert "\x1b" not in out and "\x07" not in out
    assert "1. Bob" in out  # N at the first confirm re-entered every name


SPEC_BOXES = ["h", "1", "2", "3", "4", "5", "6", "t", "f", "s", "l", "y", "c"]


def test_the_spec_transcript_plays_a_whole_game_and_writes_one_history_line(tmp_path: Path) -> None:
    lines = ["", "n", "ANN", "", "y"]
    for box in SPEC_BOXES:
        lines += ["", "135", "r", "r", box, "y"]
    lines.append("n")
    saves = tmp_path / "saves"
    done = run_game(["--plain", "--seed", "7", "--saves", str(saves)], input=typed(lines))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    (line,) = (saves / "history.jsonl").read_text().splitlines()
    record = json.loads(line)
    assert record["seed"] == 7 and record["rules"] == "hasbro"
    assert len(record["players"][0]["scores"]) == 13
    assert "ANN finishes with" in done.stdout


@pytest.mark.parametrize("argv, message", [
    (["--seed", "abc"], "argument --seed: invalid int value: 'abc'"),
    (["--dice-file", "/no/such/file"], "No such file or directory"),
    (["--bogus"], "unrecognized arguments: --bogus"),
])
def test_a_bad_option_gets_a_one_line_error(argv: list[str], message: str) -> None:
    done = run_game(argv, timeout=30)
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_help_points_to_the_manual() -> None:
    done = run_game(["--help"], timeout=30)
    assert done.returncode == 0 and "YAHTZEE.DOC" in done.stdout


def test_a_name_piped_under_the_c_locale_is_read_as_utf8(tmp_path: Path) -> None:
    import os
    env = {key: value for key, value in os.environ.items() if not key.startswith("LC_") and key != "LANG"}
    env.update(LC_ALL="C", PYTHONUTF8="0", PYTHONCOERCECLOCALE="0", PYTHONIOENCODING="")
    done = run_game(["--plain", "--saves", str(tmp_path)], input="\nn\nZoë\n\n".encode(), env=env, text=False)
    assert done.returncode == 0, done.stderr
    saved = json.loads((tmp_path / "autosave.json").read_text(encoding="ascii"))
    assert [player["name"] for player in saved["players"]] == ["Zoë"]


def test_into_a_pipe_every_record_is_one_line_however_long(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every message, prompt and brief line the game means to say stands whole on a line of
    its own in the piped output (a reader or script wraps it, never the game)."""
    from yahtzee.consoles.plain import PlainConsole
    meant: list[str] = []
    for method in ("message", "show", "read_key", "read_text"):
        original = getattr(PlainConsole, method)

        def spy(self: Any, first: Any = "", *rest: Any, original: Any = original, method: Any = method,
                **options: Any) -> Any:
            if method == "show":
                brief = rest[0] if rest else None
                texts = self.drawn(first) if brief is None else [self.words(line) for line in brief]
                texts = [part for line in texts for part in line.split("\n")]
            else:
                texts = [self.words(first)]
            meant.extend(f"{text}>" if method.startswith("read_") else text for text in texts)
            return original(self, first, *rest, **options)

        monkeypatch.setattr(PlainConsole, method, spy)
    lines = ["", "n", "ANN", "*", "", "y"]
    for box in SPEC_BOXES:
        lines += ["", "b", "135", "r", "r", "b", box, "y"]
    done = run_game(["--plain", "--seed", "7", "--saves", str(tmp_path)], typed([*lines, "n"]), in_process=True)
    assert done.returncode == 0 and "Brainy wins with" in done.stdout
    printed = done.stdout.splitlines()
    long = [text for text in meant if len(text) > 80]
    assert len(long) > 20, "the game says long sentences (the sheet read with B)"
    for text in meant:
        if text.strip():
            assert any(text.rstrip() in line for line in printed), text
    assert all(any(line.startswith(text) or text in line for line in printed) for text in long)


def test_quitting_at_a_finished_matchs_recap_files_it_and_keeps_nothing_to_resume(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "prefs.json").write_text(json.dumps({"version": 1, "dice_roll": "off", "advisor": False}))
    boxes = ["1", "2", "3", "4", "5", "6", "t", "f", "h", "s", "l", "y", "c"]
    game = [line for box in boxes for line in ("", "r", box, "y")]
    lines = START + ["ANN", "", "y", *game, "y", "", "y", *game, "n", "f10", "y"]
    code, out, records = play_plain(tmp_path, monkeypatch, lines, [1, 2, 3, 4, 5] * 26, "--match", "challenge 2")
    assert code == 0 and len(records) == 2 and "Press any key to finish" in out
    assert "Quit Computer Yahtzee? (Y/N)" in out and "Your game is kept" not in out.split("Press any key to finish")[-1]
    assert out.rstrip().endswith("Goodbye.") and not (saves / "autosave.json").exists()
    code, out, _ = play_plain(tmp_path, monkeypatch, START + ["f10", "y"], [1] * 5)
    assert "Resume the saved game?" not in out


@pytest.mark.parametrize("mode", ["--plain", "--accessible"])
def test_yahtzee_is_said_after_the_roll_that_makes_it_for_a_human_and_a_computer(tmp_path: Path,
                                                                                 monkeypatch: pytest.MonkeyPatch,
                                                                                 mode: str) -> None:
    lines = START + ["ANN", "*", "", "y", "", "5", "r", "r", "y", "y"]  # ANN rolls 5 5 5 5 1, rerolls the 1
    faces = [5, 5, 5, 5, 1, 5] + [5, 5, 5, 5, 1, 5] + [1, 2, 3, 4, 6] * 4  # Brainy the same, then the rest
    code, out, _ = play_plain(tmp_path, monkeypatch, lines, faces, mode)
    said = [line.split("> ")[-1] for line in out.splitlines()]
    human = said.index("ANN  roll 2 of 3: 5 5 5 5 5   marked: none")
    assert said[human + 1] == "YAHTZEE!" and said[:human].count("YAHTZEE!") == 0
    computer = said.index("Brainy rolls 5 5 5 5 5")
    assert said[computer - 1] == "Brainy keeps 5 5 5 5 and rolls again" and said[computer + 1] == "YAHTZEE!"
    assert said.count("YAHTZEE!") == 2


@pytest.mark.parametrize("typed, said", [
    ("*rival Maximilian", ["Names are at most six characters: this one is Maximi.",
                           "Maximi takes a seat: a computer player, rival."]),
    ("*rival Victor", ["Victor takes a seat: a computer player, rival."]),
    ("*gambler", ["Lucky takes a seat: a computer player, gambler."]),
    ("Maximilian", ["Names are at most six characters: this one is Maximi."]),
])
def test_a_long_name_is_told_when_it_is_cut_for_a_computer_as_for_a_human(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch, typed: str,
                                                                          said: list[str]) -> None:
    code, out, _ = play_plain(tmp_path, monkeypatch, START + [typed, "", "f10", "y"], [1] * 5)
    lines = [line.split("> ")[-1] for line in out.splitlines()]
    told = [line for line in lines if "six characters" in line or "takes a seat" in line]
    assert told == said
