"""Duplicate dice: every seat gets the same throws of each die in a round, saved and resumed
exactly, recorded in history, named on the confirm screen and in the recap."""
import json
import random
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Optional, Union

import pytest
from helpers import plain_console, printed, run_game, table_context, there, typed
from test_plain import play_plain

from yahtzee import cli
from yahtzee.model.dice import (
    DUPLICATE_LINE,
    DuplicateDice,
    LoadedDice,
    RandomDice,
    SeededDice,
    rewind,
    with_duplicate,
)
from yahtzee.model.game import Game, Player, Turn
from yahtzee.model.outcome import FinishedGame
from yahtzee.model.rules import HASBRO, Rules, rules_named
from yahtzee.model.scoring import Category
from yahtzee.model.session import Session
from yahtzee.saves.codec import (
    game_from_dict,
    game_to_dict,
    session_from_dict,
    session_to_dict,
)
from yahtzee.saves.dicestates import dice_from_dict, dice_to_dict
from yahtzee.saves.records import InvalidRecord, check_record, finished_game, record_of
from yahtzee.saves.store import Saves
from yahtzee.saves.strict import DamagedSave
from yahtzee.screens.ending import show_recap
from yahtzee.screens.lobby import confirm
from yahtzee.speech.languages import text

BOX_ORDER = ["c", "1", "2", "3", "4", "5", "6", "t", "f", "h", "s", "l", "y"]
RULES = [HASBRO, HASBRO.with_options(rolls=4, bank=2), rules_named("yahtc"),
         rules_named("acorn").with_options(rolls=4, bank=0)]


def play_randomly(
        game: Game, rng: random.Random, throws: defaultdict[tuple[int, int], list[list[int]]],
        stop_after: Optional[int] = None) -> Any:
    """Play `game` on with random marks and boxes, noting each die's throws per (round, seat);
    stop after `stop_after` actions (None: to the end)."""
    actions = 0
    while not game.is_over and (stop_after is None or actions < stop_after):
        actions += 1
        if not game.turn.has_rolled or (game.rolls_left and rng.random() < 0.7):
            places = [i for i in range(5) if game.turn.marked[i] or not game.turn.has_rolled]
            if game.turn.has_rolled and not places:
                game.toggle(rng.randrange(5))
                continue
            dice = game.roll()
            for place in places:
                throws[game.round, game.seat][place].append(dice[place])
            for die in range(5):
                if game.rolls_left and rng.random() < 0.4:
                    game.toggle(die)
        elif game.can_take_extra_turn and rng.random() < 0.8:
            game.take_extra_turn()
        else:
            game.post(rng.choice(game.legal_boxes()))
    return throws


def new_throws() -> defaultdict[Any, Any]:
    return defaultdict(lambda: [[] for _ in range(5)])


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: f"{rules.name}{rules.options}")
@pytest.mark.parametrize("seed", range(6))
def test_die_i_kth_throw_in_a_round_is_the_same_for_every_seat(rules: Rules, seed: int) -> None:
    players = [Player(name) for name in ("ANN", "BOB", "CY")]
    game = Game.start(players, rules, DuplicateDice(seed))
    throws = play_randomly(game, random.Random(seed), new_throws())
    rounds = {round_ for round_, _ in throws}
    compared = 0
    for round_ in rounds:
        for die in range(5):
            seats = [throws[round_, seat][die] for seat in range(3) if (round_, seat) in throws]
            for one in seats:
                for other in seats:
                    shared = min(len(one), len(other))
                    assert one[:shared] == other[:shared]
                    compared += shared
    assert compared > 13 * 5 * 3


def test_an_extra_turn_goes_on_with_each_dies_next_throw_of_the_round() -> None:
    rules = rules_named("yahtc")
    source = DuplicateDice(11)
    game = Game.start([Player("ANN"), Player("BOB")], rules, source)
    game.current.card.boxes[Category.YAHTZEE] = 50
    source.thrown = [2, 1, 1, 3, 1]
    game.turn = Turn((6,) * 5, rolls=2)
    game.take_extra_turn()
    assert game.roll() == tuple(source.face(die, thrown + 1)
                                for die, thrown in enumerate([2, 1, 1, 3, 1]))
    assert source.thrown == [3, 2, 2, 4, 2]


def test_a_resumed_duplicate_game_goes_on_with_the_same_dice_as_one_never_stopped() -> None:
    players = [Player("ANN"), Player("BOB")]
    session = Session(players, source=DuplicateDice.drawn(), rules=HASBRO.with_options(rolls=4, bank=1))
    session.new_game()
    played = play_randomly(there(session.game), random.Random(5), new_throws(), stop_after=40)
    assert there(session.game).turn.has_rolled or there(session.game).seat  # stopped inside the game
    saved = json.loads(json.dumps(session_to_dict(session)))
    twin = session_from_dict(json.loads(json.dumps(saved)))
    resumed = session_from_dict(saved)
    rng = random.Random(9)
    state = rng.getstate()
    one = play_randomly(there(twin.game), rng, new_throws())
    rng.setstate(state)
    other = play_randomly(there(resumed.game), rng, new_throws())
    assert dict(one) == dict(other) and len(one) > 10
    assert [p.card.total for p in there(twin.game).players] == [p.card.total for p in there(resumed.game).players]
    assert played  # the first half was played too


def uninterrupted_throws(seed: int, rules: Rules) -> tuple[dict[tuple[int, int], list[list[int]]], Game]:
    game = Game.start([Player("ANN"), Player("BOB")], rules, DuplicateDice(seed))
    return dict(play_randomly(game, random.Random(1), new_throws())), game


def test_saving_and_reading_back_after_every_action_changes_no_throw() -> None:
    seed, rules = 3, rules_named("yahtc").with_options(rolls=3, bank=2)
    expected, finished = uninterrupted_throws(seed, rules)
    game = Game.start([Player("ANN"), Player("BOB")], rules, DuplicateDice(seed))
    rng, throws = random.Random(1), new_throws()
    while not game.is_over:
        play_randomly(game, rng, throws, stop_after=1)
        game = game_from_dict(json.loads(json.dumps(game_to_dict(game))))
    assert dict(throws) == expected
    assert [p.card.total for p in game.players] == [p.card.total for p in finished.players]


def test_an_undone_posting_rewinds_the_duplicate_stream_to_the_turn_it_took_back() -> None:
    game = Game.start([Player("ANN"), Player("BOB")], HASBRO, DuplicateDice(4))
    game.roll()
    game.post(Category.CHANCE)
    game.undo()                      # BOB's turn had begun: ANN's turn and throws come back
    game.toggle(0)
    ann = game.roll()
    game.post(Category.CHANCE)
    game.roll()
    game.toggle(0)
    bob = game.roll()
    assert ann == bob                # die 1's second throw, the same for both


@pytest.mark.parametrize("source, expected", [
    (RandomDice(), (DuplicateDice, None)),
    (SeededDice(7), (DuplicateDice, 7)),
    (DuplicateDice(7), (SeededDice, 7)),
    (DuplicateDice(7, random_seed=True), (RandomDice, None)),
])
def test_turning_duplicate_dice_on_and_off_keeps_the_seed_where_there_is_one(
        source: Union[SeededDice, RandomDice, DuplicateDice], expected: Any) -> None:
    turned = with_duplicate(source, not isinstance(source, DuplicateDice))
    assert type(turned) is expected[0]
    if expected[1] is not None:
        assert turned.seed == expected[1]
    if isinstance(source, RandomDice):
        assert isinstance(turned, DuplicateDice)
        assert turned.random_seed and isinstance(turned.seed, int)
        assert with_duplicate(turned, False) == RandomDice()
    assert with_duplicate(turned, isinstance(turned, DuplicateDice)) is turned


def test_loaded_dice_stay_loaded_whatever_the_duplicate_setting() -> None:
    loaded = LoadedDice([1, 2, 3], SeededDice(1))
    assert with_duplicate(loaded, True) is loaded


@pytest.mark.parametrize("change", [
    {"seed": "7"}, {"seed": True}, {"turn": [1, 1]}, {"turn": [1, -1, 0]}, {"thrown": [0, 0, 0, 0]},
    {"thrown": [0, 0, 0, 0, -1]}, {"thrown": [0, 0, 0, 0, 10 ** 9]}, {"thrown": "00000"},
    {"random_seed": 1}, {"random_seed": None},
])
def test_damaged_duplicate_dice_in_a_save_are_refused(
        change: dict[str, Any]) -> None:
    good = dice_to_dict(DuplicateDice(5, (1, 2, 1), [1, 0, 2, 0, 0]).state)
    assert dice_from_dict(good).source() == DuplicateDice(5, (1, 2, 1), [1, 0, 2, 0, 0])
    session = Session([Player("ANN")], source=DuplicateDice(5))
    session.new_game()
    data = json.loads(json.dumps(session_to_dict(session)))
    data["dice"] = {**good, **change}
    with pytest.raises(DamagedSave):
        session_from_dict(data)
    data = json.loads(json.dumps(session_to_dict(session)))
    data["game"]["dice"] = {**good, **change}
    with pytest.raises(DamagedSave):
        session_from_dict(data)


@pytest.mark.parametrize("source", [
    RandomDice(), SeededDice(7, (1, 3, 1), 4), DuplicateDice(5, (1, 2, 1), [1, 0, 2, 0, 0], random_seed=True),
    LoadedDice([1, 2, 6], SeededDice(3, (2, 1, 0), 2)),
])
def test_every_source_round_trips_through_its_state_and_the_save(
        source: Union[SeededDice, LoadedDice, RandomDice, DuplicateDice]) -> None:
    assert dice_from_dict(json.loads(json.dumps(dice_to_dict(source.state)))) == source.state
    assert source.state.source() == source


def test_rewinding_dice_deals_the_same_faces_again() -> None:
    source = LoadedDice([1, 2], SeededDice(3, (1, 1, 0)))
    kept = source.state
    first = source.roll(4)
    rewind(source, kept)
    assert source.roll(4) == first and source.state != kept


def test_loaded_dice_that_would_fall_back_on_duplicate_dice_are_refused() -> None:
    duplicate = dice_to_dict(DuplicateDice(5, (1, 2, 1), [1, 0, 2, 0, 0]).state)
    with pytest.raises(DamagedSave):  # they could not roll by count once the loaded faces ran out
        dice_from_dict({"kind": "loaded", "faces": [1, 2], "fallback": duplicate})
    dice = dice_from_dict({"kind": "loaded", "faces": [1, 2], "fallback": {"kind": "random"}}).source()
    assert isinstance(dice, LoadedDice) and dice.faces == [1, 2]


def finished_record(source: Union[SeededDice, DuplicateDice]) -> dict[str, Any]:
    game = Game.start([Player("ANN")], HASBRO, source)
    play_randomly(game, random.Random(2), new_throws())
    return record_of(FinishedGame.of(game, "2026-11-30T12:00:00+00:00"))


def test_the_record_says_duplicate_only_for_duplicate_dice_and_older_records_still_read() -> None:
    record = finished_record(DuplicateDice(8))
    assert record["duplicate"] is True and record["seed"] == 8
    check_record(record)
    plain = finished_record(SeededDice(8))
    assert "duplicate" not in plain
    check_record(plain)
    for wrong in (False, "yes", 1):
        with pytest.raises(InvalidRecord):
            check_record({**record, "duplicate": wrong})


def scripted_game(lines_per_turn: Callable, players: tuple[str, str] = ("ANN", "BOB")) -> list[str]:
    """The input lines of a whole plain-mode game: every player makes the same choices."""
    lines = ["", "n", *players, "", "y"]
    for box in BOX_ORDER:
        lines += [line for _ in players for line in lines_per_turn(box)]
    return lines


def run_plain(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lines: list[str],
        *options: Any) -> Any:
    """The real program in-process in plain mode; (exit code, output, history records)."""
    saves = tmp_path / "saves"
    done = run_game(["--saves", str(saves), *options], typed(lines), in_process=True)
    history = saves / "history.jsonl"
    records = [json.loads(line) for line in history.read_text().splitlines()] if history.exists() else []
    return done.returncode, done.stdout, records


@pytest.mark.parametrize("options", [["--duplicate"], ["--duplicate", "--seed", "12"]])
def test_two_players_making_the_same_choices_end_with_the_same_scorecards(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch,
                                                                          options: list[str]) -> None:
    lines = scripted_game(lambda box: ["", "12", "r", "35", "r", box, "y"]) + ["n"]
    code, out, records = run_plain(tmp_path, monkeypatch, lines, *options)
    assert code == 0
    (record,) = records
    ann, bob = record["players"]
    assert ann["scores"] == bob["scores"] and ann["total"] == bob["total"]
    assert record["duplicate"] is True and record["winners"] == ["ANN", "BOB"]
    assert DUPLICATE_LINE in out


def test_without_duplicate_dice_the_same_choices_give_different_cards(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    lines = scripted_game(lambda box: ["", "r", box, "y"]) + ["n"]
    code, _, (record,) = run_plain(tmp_path, monkeypatch, lines, "--seed", "12")
    ann, bob = record["players"]
    assert code == 0 and ann["scores"] != bob["scores"] and "duplicate" not in record


def test_a_game_stopped_and_resumed_deals_what_the_same_seed_deals_uninterrupted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def per_turn(box: Category) -> Any:
        return ["", "2", "r", "r", box, "y"]
    lines = scripted_game(per_turn)
    cut = 6 + 6 * 13 + 2  # the 14th turn rolled once, a die marked for the reroll
    code, _, _ = run_plain(tmp_path / "a", monkeypatch, lines[:cut] + ["f10", "y"], "--duplicate")
    saved = json.loads((tmp_path / "a" / "saves" / "autosave.json").read_text())
    seed = saved["dice"]["seed"]
    assert saved["dice"]["kind"] == "duplicate" and saved["game"]["turn"]["rolls"] == 1
    resumed = ["y", *lines[cut:], "n"]
    code, _, (record,) = run_plain(tmp_path / "a", monkeypatch, resumed)
    assert code == 0 and record["duplicate"] is True and record["seed"] == seed
    _, _, (again,) = run_plain(tmp_path / "b", monkeypatch, lines + ["n"], "--duplicate", "--seed", str(seed))
    assert again["players"] == record["players"]


def test_the_duplicate_preference_round_trips_through_prefs_json(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    saves = Saves(tmp_path / "saves")
    assert saves.load_prefs().duplicate is False
    saves.save_prefs(replace(saves.load_prefs(), duplicate=True))
    assert Saves(tmp_path / "saves").load_prefs().duplicate is True
    lines = ["", "p", "a", "x", "n", "ANN", "BOB", "", "f10", "y"]
    code, out, _ = run_plain(tmp_path / "run", monkeypatch, lines)
    assert "Duplicate dice: all roll the same (next game): ON." in out
    assert "1-9, 0, A-E change a setting, X done" in out
    assert DUPLICATE_LINE in out.split("Ready to play?")[0]
    prefs = json.loads((tmp_path / "run" / "saves" / "prefs.json").read_text())
    assert prefs["duplicate"] is True
    (tmp_path / "run" / "saves" / "autosave.json").unlink(missing_ok=True)
    code, out, _ = run_plain(tmp_path / "run", monkeypatch, ["", "n", "ANN", "", "f10", "y"])
    assert DUPLICATE_LINE in out.split("Ready to play?")[0]


def test_duplicate_with_a_dice_file_is_refused_on_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    dice = tmp_path / "dice.txt"
    dice.write_text("1 2 3 4 5")
    assert cli.main(["--duplicate", "--dice-file", str(dice), "--saves", str(tmp_path)]) == 2
    assert "--duplicate cannot be used with --dice-file" in capsys.readouterr().err


def test_the_duplicate_preference_leaves_loaded_dice_as_they_are_and_says_so(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "saves").mkdir()
    (tmp_path / "saves" / "prefs.json").write_text('{"version": 1, "duplicate": true}')
    lines = ["", "n", "ANN", "", "y", "", "r", "c", "y", "f10", "y"]
    code, out, _ = play_plain(tmp_path, monkeypatch, lines, [6, 5, 4, 3, 1])
    assert "Dice: loaded from the dice file, so not duplicate" in out
    assert "ANN posts 19 in CHANCE." in out and DUPLICATE_LINE not in out


def test_the_confirm_screen_and_the_recap_name_duplicate_dice() -> None:
    session = Session([Player("ANN"), Player("BOB")], source=DuplicateDice(3))
    console = plain_console(["y"])
    ctx = table_context(session=session)
    confirm(console, ctx)
    assert DUPLICATE_LINE in printed(console)
    session.game = None
    session.results = [finished_game(finished_record(DuplicateDice(3)))]
    console = plain_console([""])
    show_recap(console, ctx, "Press any key to finish")
    shown = printed(console)
    assert f"Rules: {text(HASBRO.describe())}\n{DUPLICATE_LINE}" in shown
    ctx.session.source = SeededDice(3)
    console = plain_console([""])
    show_recap(console, ctx, "Press any key to finish")
    assert "duplicate" not in printed(console)
