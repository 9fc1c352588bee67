"""The post-game review: every decision of every player judged by the exact table, the same
figures as the play screen's "Given away", on the end screen and from --review."""
import json
import os
import random
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from helpers import KeyScript, clock, plain_console, present, printed, table_context, there

from yahtzee import cli
from yahtzee.coach.replay import CannotReview, review_game
from yahtzee.coach.services import StrategyServices
from yahtzee.coach.tablekeeper import TableKeeper
from yahtzee.model.choices import Option
from yahtzee.model.dice import LoadedDice, SeededDice
from yahtzee.model.game import Game, Player
from yahtzee.model.moves import MoveKind
from yahtzee.model.outcome import FinishedGame
from yahtzee.model.rules import HASBRO
from yahtzee.model.scoring import UPPER_BONUS, UPPER_BONUS_THRESHOLD, Category, posting_points
from yahtzee.model.session import Session
from yahtzee.present.look import framed
from yahtzee.present.render import choice_text
from yahtzee.present.verdicts import review_lines
from yahtzee.reports import review_to_json
from yahtzee.saves.records import record_of
from yahtzee.saves.store import Saves
from yahtzee.screens.context import Context
from yahtzee.screens.ending import ANOTHER_GAME, given_away, show_review
from yahtzee.screens.flow import Keeper, run
from yahtzee.screens.prompts import QuitGame
from yahtzee.speech.languages import text
from yahtzee.strategy.exact.position import BIT_OF
from yahtzee.strategy.exact.table import StrategyTable

BOXES = ["1", "2", "3", "4", "5", "6", "t", "f", "h", "s", "l", "y", "c"]
FINISHED = "2026-11-30T10:00:00+00:00"
NO_VIEW = framed(lambda look: [])  # the end screen behind the review, of no matter here


@pytest.fixture(scope="module")
def strategy() -> Iterator[StrategyServices]:
    made = StrategyServices.over(TableKeeper(Path(os.environ["YAHTZEE_CACHE"])))
    yield made
    made.close()


def finish_randomly(game: Game, rng: random.Random) -> Game:
    """Play the rest of the game with random legal choices."""
    while not game.is_over:
        game.roll()
        while game.rolls_left and rng.random() < 0.5:
            game.toggle(rng.randrange(5))
            game.roll()
        game.post(rng.choice(game.legal_boxes()))
    return game


def first_turn_to_a_straight(players: tuple[str, ...] = ("ANN",), **options: Any) -> Game:
    """ANN's first turn: 2 2 3 4 6, reroll die 1, then die 5, ending on 1 2 3 4 5."""
    game = Game.start([Player(name) for name in players], source=LoadedDice([2, 2, 3, 4, 6, 1, 5], SeededDice(1)),
                      **options)
    game.roll()
    game.toggle(0)
    game.roll()
    game.toggle(4)
    game.roll()
    return game


def test_a_postings_loss_is_the_best_boxs_value_less_the_chosen_ones_by_hand(strategy: StrategyServices) -> None:
    table = strategy.tables.load(HASBRO)
    game = first_turn_to_a_straight()
    game.post(Category.CHANCE)  # 1 2 3 4 5 after the last roll: 15 where LARGE STRAIGHT has 40
    review = review_game(FinishedGame.of(finish_randomly(game, random.Random(5)), FINISHED), table)

    def after_posting(box: Category) -> float:
        points = posting_points(box, (1, 2, 3, 4, 5), {}, HASBRO)
        up = min(points, UPPER_BONUS_THRESHOLD) if box.is_upper else 0
        bonus = UPPER_BONUS if up >= UPPER_BONUS_THRESHOLD else 0
        return points + bonus + table.value(1 << BIT_OF[box], up, int(box is Category.YAHTZEE and points == 50))

    best = max(after_posting(box) for box in Category)
    posting = [d for d in review.decisions if d.kind == "post"][0]
    assert (posting.dice, choice_text(posting.done), choice_text(posting.best)) == \
        ((1, 2, 3, 4, 5), "CHANCE 15", "LARGE STRAIGHT 40")
    assert posting.cost == pytest.approx(best - after_posting(Category.CHANCE), abs=1e-6)
    assert posting.cost > 10 and review.costliest["ANN"][0] == posting


def test_the_rerolls_judged_are_the_two_of_the_first_turn(strategy: StrategyServices) -> None:
    game = first_turn_to_a_straight()
    game.post(Category.LARGE_STRAIGHT)
    finished = FinishedGame.of(finish_randomly(game, random.Random(5)), FINISHED)
    review = review_game(finished, strategy.tables.load(HASBRO))
    first = review.decisions[:3]
    assert [(d.kind, d.roll, d.dice, choice_text(d.done)) for d in first] == [
        ("reroll", 1, (2, 2, 3, 4, 6), "keep 2 3 4 6"), ("reroll", 2, (1, 2, 3, 4, 6), "keep 1 2 3 4"),
        ("post", 3, (1, 2, 3, 4, 5), "LARGE STRAIGHT 40")]
    assert first[2].cost == 0.0 and first[2].best == first[2].done


def play_plain_game(
        tmp_path: Path, seed: int = 1, ending: tuple[str, ...] = ("r", "n"),
        cost_notes: bool = True) -> tuple[Context, str]:
    """ANN (rerolling dice 1 and 2 every turn, boxes in order) against a computer, cost notes
    on (or off), in plain mode; R at the end prints the review. Returns (context, output)."""
    lines = ["", "n", "ANN", "*", "", "y"]
    for box in BOXES:
        lines += ["", "12", "r", "r", box, "y"]
    console = plain_console(lines + list(ending))
    saves = Saves(tmp_path / "saves", now=clock)
    game_strategy = StrategyServices.over(TableKeeper(Path(os.environ["YAHTZEE_CACHE"])), seed)
    ctx = table_context(session=Session([], source=SeededDice(seed)), saves=saves, strategy=game_strategy,
                        prefs={"advisor": cost_notes, "computer_delay": 0})
    try:
        run(console, ctx, Keeper(ctx))
    except QuitGame:
        pass  # F10 at the next game's confirm screen
    finally:
        game_strategy.close()
        saves.close()
    return ctx, printed(console)


def test_a_plain_games_review_lists_every_decision_and_its_totals_match_given_away(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ctx, out = play_plain_game(tmp_path)
    record: Any
    (record,) = map(record_of, ctx.session.results)
    assert f"{ANOTHER_GAME}> " in out and "ANN: gave away" in out.split(ANOTHER_GAME)[1]
    assert cli.main(["--saves", str(tmp_path / "saves"), "--review", "--json"]) == 0
    review = json.loads(capsys.readouterr().out)
    computer = record["players"][1]["name"]
    assert review["players"] == ["ANN", computer]
    decisions = review["decisions"]
    moves = record["moves"]
    for seat, name in enumerate(review["players"]):
        own = [d for d in decisions if d["player"] == name]
        rolls = [m for m in moves if m[0] == seat and m[2] == "roll"]
        assert sum(d["kind"] == "post" for d in own) == 13
        assert sum(d["kind"] == "reroll" for d in own) == len(rolls) - 13
    assert sum(d["kind"] == "reroll" for d in decisions if d["player"] == "ANN") == 13
    assert review["totals"]["ANN"] > 0
    assert review["totals"][computer] == pytest.approx(0.0, abs=0.01)  # the computer plays the table
    assert 0 <= review["accuracy"]["ANN"] < review["accuracy"][computer] == 100.0
    costly = review["costliest"]["ANN"]
    assert len(costly) == 3 and [d["cost"] for d in costly] == sorted((d["cost"] for d in costly), reverse=True)
    assert costly[0]["cost"] == max(d["cost"] for d in decisions)
    assert all(d["cost"] >= 0 for d in decisions) and review["note"] == ""


def test_the_review_text_fits_80_columns_and_names_the_costliest_first(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    play_plain_game(tmp_path, seed=1)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)  # at a terminal
    assert cli.main(["--saves", str(tmp_path / "saves"), "--review", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Review of the game finished") and max(map(len, lines)) <= 80
    ann = lines.index(next(line for line in lines if line.startswith("ANN: gave away")))
    assert lines[ann + 1] == "  Costliest:" and lines[ann + 5] == "  Every decision:"


def test_an_old_record_without_moves_and_a_game_out_of_range_are_one_line_errors(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["yahtzee.py"])  # as the game is started, whatever started pytest
    saves = Saves(tmp_path / "saves", now=clock)
    game = finish_randomly(Game.start([Player("ANN")], source=SeededDice(3)), random.Random(3))
    saves.append_history(replace(FinishedGame.of(game, FINISHED), moves=None))
    saves.close()
    folder = str(tmp_path / "saves")
    assert cli.main(["--saves", folder, "--stats"]) == 0
    assert "ANN" in capsys.readouterr().out
    assert cli.main(["--saves", folder, "--review"]) == 2
    err = capsys.readouterr().err
    assert err == "yahtzee.py: this game was played before moves were kept: there is nothing to review\n"
    assert cli.main(["--saves", folder, "--review", "2", "--json"]) == 2
    assert capsys.readouterr().err == "yahtzee.py: --review 2: the history holds 1 game\n"


def test_a_log_that_does_not_replay_to_the_scores_cannot_be_reviewed(strategy: StrategyServices) -> None:
    game = finish_randomly(Game.start([Player("ANN")], source=SeededDice(3)), random.Random(3))
    done = FinishedGame.of(game, FINISHED)
    (ann,) = done.players
    with pytest.raises(CannotReview, match="do not replay"):
        strategy.reviewer.review(replace(done, players=(replace(ann, total=ann.total + 1),)))
    assert done.moves
    with pytest.raises(CannotReview, match="do not replay"):
        strategy.reviewer.review(replace(done, moves=done.moves[:-1]))
    # A fourth roll in a turn of three: no keep to judge it by, refused like any other.
    moves = done.moves
    third = next(i for i in range(2, len(moves)) if [m.kind for m in moves[i - 2:i + 1]] == [MoveKind.ROLL] * 3)
    fourth = moves[:third + 1] + (moves[third]._replace(detail=(1,)),) + moves[third + 1:]
    with pytest.raises(CannotReview, match="do not replay"):
        strategy.reviewer.review(replace(done, moves=fourth))


def test_a_dice_bank_is_planned_approximately_and_the_review_says_so(strategy: StrategyServices) -> None:
    rules = HASBRO.with_options(bank=2)
    game = Game.start([Player("ANN")], rules, SeededDice(6))
    review = strategy.reviewer.review(FinishedGame.of(finish_randomly(game, random.Random(6)), FINISHED))
    assert review.note and "approximate" in text(review.note)
    assert text(review.note) in review_lines(review) and review_to_json(review)["note"] == text(review.note)


def session_with_game(record: FinishedGame) -> Session:
    session = Session([Player("ANN")])
    session.results.append(record)
    return session


def test_r_on_the_end_screen_pages_the_review_in_key_mode(strategy: StrategyServices) -> None:
    game = finish_randomly(Game.start([Player("ANN")], source=SeededDice(8)), random.Random(8))
    script = KeyScript("x")
    try:
        ctx = table_context(session=session_with_game(FinishedGame.of(game, FINISHED)), strategy=strategy)
        show_review(script.console, ctx, NO_VIEW)
    finally:
        script.close()
    assert script.screens[-1][0] == "Review of the game"
    assert script.screens[-1][-2].startswith("Page 1 of ") and len(script.screens[-1]) <= 24


def test_r_prints_the_review_in_plain_mode_and_an_old_game_says_why_not(strategy: StrategyServices) -> None:
    game = finish_randomly(Game.start([Player("ANN")], source=SeededDice(8)), random.Random(8))
    done = FinishedGame.of(game, FINISHED)
    console = plain_console([])
    show_review(console, table_context(session=session_with_game(done), strategy=strategy), NO_VIEW)
    assert printed(console).splitlines() == review_lines(strategy.reviewer.review(done), fit=False)
    console = plain_console([])
    show_review(console, table_context(session=session_with_game(replace(done, moves=None)), strategy=strategy),
                NO_VIEW)
    assert printed(console) == (
        "This game was played before moves were kept: there is nothing to review.\n")


@pytest.mark.parametrize("cost_notes", [False, True])
def test_the_recap_shows_the_reviews_given_away_only_with_cost_notes_on(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str],
                                                                        cost_notes: bool) -> None:
    ctx, out = play_plain_game(tmp_path, ending=("y", "", "f10", "y"), cost_notes=cost_notes)
    assert ("That reroll cost" in out) == cost_notes
    recap = out.split("RECAP")[1]
    rows = [line for line in recap.splitlines() if line.startswith("Given away")]
    assert cli.main(["--saves", str(tmp_path / "saves"), "--review", "--json"]) == 0
    review = json.loads(capsys.readouterr().out)
    assert review["totals"]["ANN"] > 1  # counted either way
    if not cost_notes:
        assert rows == [] and "against perfect play" not in recap  # the 1987 game never judged
        return
    ann, computer = rows[0].split()[2:4]
    assert float(ann) == pytest.approx(review["totals"]["ANN"], abs=0.05) and float(ann) > 1
    assert computer == "-"  # a computer's choices are not the player's to be told of


def every_label_option() -> list[Option]:
    """Every box with and without each bonus it may carry, blanks, extra turns and keeps."""
    from yahtzee.model.choices import Option, OptionKind
    options = [Option(OptionKind.KEEP, 0.0, kept=(1, 2, 3, 4)), Option(OptionKind.KEEP, 0.0),
               Option(OptionKind.BOX, 0.0, box=Category.YAHTZEE, extra_turn=True, yahtzee_bonus=50)]
    for box in Category:
        for upper, extra, early in [(0, 0, 0), (35, 0, 0), (0, 100, 0), (35, 100, 10), (0, 100, 5)]:
            options.append(Option(OptionKind.BOX, 0.0, box=box, points=30, upper_bonus=upper * box.is_upper,
                                  yahtzee_bonus=extra, roll_bonus=early))
        options.append(Option(OptionKind.BOX, 0.0, box=box, blank=True, yahtzee_bonus=100))
    return list(dict.fromkeys(options))  # each once (a lower box has no upper bonus to vary)


@pytest.mark.parametrize("code", ["en", "de"])
def test_the_review_columns_hold_every_label_whole(code: str) -> None:
    from yahtzee.coach.replay import Decision
    from yahtzee.present.palette import visible_width
    from yahtzee.present.verdicts import LABEL_WIDTH, decision_lines
    from yahtzee.speech import languages as language
    language.use(code)
    try:
        options = every_label_option()
        start = len(decision_lines(Decision("ANN", 13, 3, "post", (1, 2, 3, 4, 5), options[0], options[1], 0.0))[0]
                    .split("1 2 3 4 5")[0]) + len("1 2 3 4 5") + 1
        for done, best in zip(options, options[1:] + options[:1]):
            decision = Decision("ANN", 13, 3, "post", (1, 2, 3, 4, 5), done, best, 12.5)
            rows = decision_lines(decision, fit=True)
            assert all(visible_width(row) <= 80 for row in rows), rows
            for column, option in ((start, done), (start + LABEL_WIDTH + 1, best)):
                cells = " ".join(row[column:column + LABEL_WIDTH].strip() for row in rows).strip()
                assert cells == choice_text(option, short=True), rows
            (line,) = decision_lines(decision, fit=False)
            assert line.split("\t")[3:] == [choice_text(done, short=True), choice_text(best, short=True),
                                            language.number(12.5, ".1f")]
        assert ("W3" if code == "de" else "r3") in rows[0]
    finally:
        language.use("en")


def test_a_move_made_ranking_by_the_chance_to_win_is_logged_and_read_back_so() -> None:
    from yahtzee.model.moves import moves_from_json, moves_to_json
    game = finish_randomly(Game.start([Player("ANN"), Player("BOB")], source=SeededDice(4), win_rankers={"ANN"}),
                           random.Random(4))
    assert game.moves is not None
    assert {m.by_win for m in game.moves if game.players[m.seat].name == "ANN"} == {True}
    assert {m.by_win for m in game.moves if game.players[m.seat].name == "BOB"} == {False}
    data = moves_to_json(game.moves)
    assert {len(item) for item in data} == {5, 6} and all(item[5:] in ([], ["w"]) for item in data)
    assert moves_from_json(data, 2, 13) == game.moves


def test_a_players_w_choices_are_judged_by_the_chance_to_win_and_kept_apart(shared_table_cache: Path) -> None:
    """ANN ranked advice by the chance to win, BOB by the score: ANN's win % costs are what her
    choices lost against the likeliest option (as the advice page's chances count them), summed
    up as their mean, beside her points; BOB's are expected points; the recap shows the two in
    two rows."""
    from yahtzee.coach.replay import LogDice
    from yahtzee.coach.reviews import Reviewer
    from yahtzee.coach.tablekeeper import TableKeeper
    from yahtzee.coach.tips import Coach
    from yahtzee.present.render import recap_lines
    tables = TableKeeper(shared_table_cache)
    game = finish_randomly(Game.start([Player("ANN"), Player("BOB")], source=SeededDice(7), win_rankers={"ANN"}),
                           random.Random(7))  # ANN's first decision is a reroll
    done = FinishedGame.of(game, FINISHED)
    record: Any = record_of(done)
    try:
        review = Reviewer(tables).review(done)
        coach = Coach(tables)
        ann = [d for d in review.decisions if d.player == "ANN"]
        bob = [d for d in review.decisions if d.player == "BOB"]
        assert ann and all(d.by_win for d in ann) and not any(d.by_win for d in bob)
        assert review.totals["ANN"] == pytest.approx(sum(d.cost for d in ann), abs=0.01) and review.totals["ANN"] > 0
        assert review.win_means["ANN"] == pytest.approx(sum(present(d.win_cost for d in ann)) / len(ann), abs=0.01)
        assert review.totals["BOB"] > 0 and "BOB" not in review.win_means
        # ANN's first reroll, seen again as the advice page saw it: the same chances, the same cost
        dice = LogDice()
        replay = Game.start([Player("ANN"), Player("BOB")], source=dice)
        first = record["moves"][0]
        dice.faces = [int(face) for face in first[3]]
        replay.roll()
        replay.turn.marked = tuple(str(die) in record["moves"][1][4] for die in range(5))
        assert record["moves"][1][2] == "roll"  # ANN rerolled after her first roll
        options = coach.options(replay)
        assert isinstance(options, list)  # not NoTable
        chances = coach.win_chances(replay, options)
        assert chances is not None
        lost = 100 * (max(chances) - chances[[o.kept for o in options].index(ann[0].done.kept)])
        assert ann[0].kind == "reroll" and ann[0].win_cost == pytest.approx(lost, abs=1e-9)
        data: Any = review_to_json(review)
        assert data["decisions"][0]["judged_by"] == "win_chance"
        session = Session([Player("ANN"), Player("BOB")])
        session.results.append(done)
        services = StrategyServices.over(tables)
        away = given_away(table_context(session=session, strategy=services))
        assert away is not None
        points, win = away
        assert points == review.totals and win == {"ANN": review.win_means["ANN"]}
        lines = recap_lines([done], losses=points, win_losses=win)
        assert [line.split()[0] for line in lines if line.startswith(("Given", "Win"))] == ["Given", "Win"]
        assert f"{review.win_means['ANN']:.1f}" in next(line for line in lines if line.startswith("Win"))
        assert "(mean win % given away per choice made ranking advice by it, W)" in " ".join(lines)
    finally:
        tables.close()


def w_game_with_a_costly_posting() -> tuple[Game, FinishedGame]:
    """ANN ranks advice by the chance to win and posts 1 2 3 4 5 in CHANCE (15, where LARGE
    STRAIGHT has 40) in her first turn; BOB ranks by the score; the rest played at random."""
    def started() -> Game:
        return first_turn_to_a_straight(("ANN", "BOB"), win_rankers={"ANN"})
    game = started()
    game.post(Category.CHANCE)
    return started(), FinishedGame.of(finish_randomly(game, random.Random(5)), FINISHED)


def after_posting(table: StrategyTable, box: Category, dice: tuple[int, int, int, int, int]) -> float:
    """The expected final score of a first posting of `dice` in `box`, by hand from the table."""
    points = posting_points(box, dice, {}, HASBRO)
    up = min(points, UPPER_BONUS_THRESHOLD) if box.is_upper else 0
    bonus = UPPER_BONUS if up >= UPPER_BONUS_THRESHOLD else 0
    return points + bonus + table.value(1 << BIT_OF[box], up, int(box is Category.YAHTZEE and points == 50))


def test_a_w_players_posting_gives_away_points_counted_by_hand_and_win_chance_beside_them(
        shared_table_cache: Path) -> None:
    """Points always (the sum over every decision), win % where the player ranked by it: a
    posting that lost points and chance is counted in both, and the win % only as a mean."""
    from yahtzee.coach.reviews import Reviewer
    from yahtzee.coach.tips import Coach
    tables = TableKeeper(shared_table_cache)
    before_posting, done = w_game_with_a_costly_posting()
    try:
        review = Reviewer(tables).review(done)
        table = tables.load(HASBRO)
        values = {box: after_posting(table, box, (1, 2, 3, 4, 5)) for box in Category}
        coach = Coach(tables)
        options = coach.options(before_posting)
        assert isinstance(options, list)  # not NoTable
        chances = coach.win_chances(before_posting, options)
        assert chances is not None
    finally:
        tables.close()
    ann = [d for d in review.decisions if d.player == "ANN"]
    posting = next(d for d in ann if d.kind == "post")
    assert choice_text(posting.done) == "CHANCE 15" and choice_text(posting.best) == "LARGE STRAIGHT 40"
    assert posting.cost == pytest.approx(max(values.values()) - values[Category.CHANCE], abs=1e-6)
    assert posting.cost > 10 and posting.by_win
    chance = [o.box for o in options].index(Category.CHANCE)
    assert posting.win_cost == pytest.approx(100 * (max(chances) - chances[chance]), abs=1e-9)
    assert posting.likeliest == options[max(range(len(options)), key=lambda i: (chances[i], options[i].value))]
    assert all(d.by_win and d.win_cost is not None for d in ann)
    points = 0.0
    for decision in ann:
        points = round(points + decision.cost, 3)
    assert review.totals["ANN"] == pytest.approx(points, abs=1e-9) and points >= posting.cost
    win_costs = present(d.win_cost for d in ann)
    assert review.win_means["ANN"] == pytest.approx(sum(win_costs) / len(win_costs), abs=1e-3)
    assert review.accuracy["ANN"] == pytest.approx(100 * sum(c < 0.5 for c in win_costs) / len(ann), abs=0.05)
    bob = [d for d in review.decisions if d.player == "BOB"]
    assert "BOB" not in review.win_means and not any(d.by_win for d in bob)
    assert review.accuracy["BOB"] == pytest.approx(100 * sum(d.cost < 0.5 for d in bob) / len(bob), abs=0.05)
    data: Any = review_to_json(review)
    assert data["totals"]["ANN"] == review.totals["ANN"] and data["win_means"] == review.win_means
    assert "win_totals" not in data
    (first,) = [d for d in data["decisions"] if d["player"] == "ANN" and d["kind"] == "post"][:1]
    assert first["cost"] == round(posting.cost, 3) and first["win_cost"] == round(there(posting.win_cost), 3)
    assert first["best"] == {"kind": "post", "box": "large_straight", "points": 40}
    assert first["judged_by"] == "win_chance"
    assert all("win_cost" not in d and "likeliest" not in d for d in data["decisions"] if d["player"] == "BOB")


@pytest.mark.parametrize("code", ["en", "de"])
def test_the_review_of_a_w_player_says_each_measure_and_its_unit_within_80_columns(shared_table_cache: Path,
                                                                                   code: str) -> None:
    from yahtzee.coach.reviews import Reviewer
    from yahtzee.present.palette import visible_width
    from yahtzee.speech import languages as language
    from yahtzee.speech.languages import translator
    number = translator(code).number
    tables = TableKeeper(shared_table_cache)
    try:
        review = Reviewer(tables).review(w_game_with_a_costly_posting()[1])
    finally:
        tables.close()
    language.use(code)
    try:
        lines = review_lines(review)
        text = " ".join(line.strip() for line in lines)
    finally:
        language.use("en")
    assert all(visible_width(line) <= 80 and "\t" not in line for line in lines), lines
    ann = review.decisions[0]
    accurate = {name: sum((there(d.win_cost) if d.by_win else d.cost) < 0.5
                          for d in review.decisions if d.player == name)
                for name in review.players}
    counts = {name: sum(d.player == name for d in review.decisions) for name in review.players}
    if code == "de":
        assert (f"ANN: {number(review.totals['ANN'], '.1f')} Punkte verschenkt; Genauigkeit "
                f"{review.accuracy['ANN']:.0f}% ({accurate['ANN']} von {counts['ANN']} bis 0,5 % Gewinnchance "
                "unter der aussichtsreichsten Wahl)") in text
        assert f"im Mittel {number(review.win_means['ANN'], '.1f')} % Gewinnchance verschenkt" in text
        assert next(line for line in lines if "Runde" in line).split()[-2:] == ["Kosten", "Gew.%"]
        return
    assert (f"ANN: gave away {review.totals['ANN']:.1f} points; accuracy {review.accuracy['ANN']:.0f}% "
            f"({accurate['ANN']} of {counts['ANN']} within 0.5 win % of the likeliest to win)") in text
    assert f"({accurate['BOB']} of {counts['BOB']} within 0.5 points of the best)" in text
    assert f"{review.win_means['ANN']:.1f} win % given away per decision on average" in text
    heading = next(line for line in lines if line.lstrip().startswith("Round"))
    assert heading.split()[-3:] == ["Cost", "Win", "%"]
    row = next(line for line in lines if line.startswith(" 1 r1") or line.startswith("   1 r1"))
    assert row.split()[-2:] == [f"{ann.cost:.1f}", f"{ann.win_cost:.1f}"]


def test_into_a_pipe_the_review_is_a_line_a_decision_of_tab_separated_fields(tmp_path: Path,
                                                                             capsys: pytest.CaptureFixture[str],
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    play_plain_game(tmp_path)
    folder = str(tmp_path / "saves")
    assert cli.main(["--saves", folder, "--review", "--json"]) == 0
    decisions = [d for d in json.loads(capsys.readouterr().out)["decisions"] if d["player"] == "ANN"]
    assert cli.main(["--saves", folder, "--review"]) == 0  # capsys: not a terminal
    lines = capsys.readouterr().out.splitlines()
    every = lines.index("  Every decision:", lines.index(next(line for line in lines if line.startswith("ANN:"))))
    assert lines[every + 1] == "Round\tRoll\tDice\tDone\tBest\tCost"
    rows = [line.split("\t") for line in lines[every + 2:every + 2 + len(decisions)]]
    assert [(int(r[0]), int(r[1]), r[2], float(r[5])) for r in rows] == [
        (d["round"], d["roll"], " ".join(map(str, d["dice"])), round(d["cost"], 1)) for d in decisions]
    assert all(len(r) == 6 for r in rows) and not lines[every + 2 + len(decisions)].count("\t")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert cli.main(["--saves", folder, "--review"]) == 0
    shown = capsys.readouterr().out.splitlines()
    assert not any("\t" in line for line in shown) and max(map(len, shown)) <= 80
    assert shown[shown.index("  Every decision:") + 1].split() == ["Round", "Dice", "Done", "Best", "Cost"]


def test_the_manual_names_every_key_review_json_prints(shared_table_cache: Path) -> None:
    from yahtzee.coach.reviews import Reviewer
    from yahtzee.manual import read_manual
    tables = TableKeeper(shared_table_cache)
    try:
        data: Any = review_to_json(Reviewer(tables).review(w_game_with_a_costly_posting()[1]))
    finally:
        tables.close()
    manual = "\n".join(read_manual())
    told = manual[manual.index("--json prints one object"):manual.index("12. OTHER RULES")]
    keys = {*data, *(key for decision in data["decisions"] for key in decision)}
    assert {"win_means", "likeliest", "win_cost"} <= keys and "win_totals" not in told
    assert [key for key in sorted(keys) if f'"{key}"' not in told] == []
