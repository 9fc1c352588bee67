"""The game model: turns, postings, exceptions, dice sources and the JSON round trip."""
import json
import random
from pathlib import Path
from typing import Any, Callable

import pytest
from helpers import any_json, there
from hypothesis import given, settings
from hypothesis import strategies as st

from yahtzee.model.dice import DiceFileError, DiceSource, LoadedDice, RandomDice, SeededDice, parse_faces
from yahtzee.model.game import (
    BoxFilled,
    Game,
    GameOver,
    JokerRuleError,
    NoRollsLeft,
    NothingMarked,
    NotRolledYet,
    Player,
    PostingResult,
)
from yahtzee.model.outcome import FinishedGame
from yahtzee.model.rules import FREE_JOKER, HASBRO, NO_BONUS, Rules
from yahtzee.model.scoring import Category
from yahtzee.model.session import Session
from yahtzee.saves.codec import game_from_dict, game_to_dict, session_from_dict, session_to_dict
from yahtzee.saves.dicefile import read_dice_file
from yahtzee.saves.records import record_of
from yahtzee.saves.strict import DamagedSave

C = Category


def loaded_game(faces: list[int], names: tuple[str, ...] = ("ANN",), rules: Rules = HASBRO) -> Game:
    """A game whose dice come from `faces`, then from a fixed seed."""
    return Game.start([Player(n) for n in names], rules, LoadedDice(faces, SeededDice(0)))


def play_randomly(game: Game, rng: random.Random) -> list[PostingResult]:
    """Finish the game with random legal choices; returns the postings."""
    postings = []
    while not game.is_over:
        game.roll()
        while game.rolls_left and rng.random() < 0.6:
            for die in rng.sample(range(5), rng.randint(1, 5)):
                game.toggle(die)
            if any(game.turn.marked):
                game.roll()
        postings.append(game.post(rng.choice(game.legal_boxes())))
    return postings


def test_a_turn_rolls_all_then_only_the_marked_dice() -> None:
    game = loaded_game([1, 2, 3, 4, 5, 6, 6])
    assert game.roll() == (1, 2, 3, 4, 5)
    assert game.turn.marked == (False,) * 5
    game.toggle(0)
    game.toggle(4)
    assert game.roll() == (6, 2, 3, 4, 6)
    assert game.turn.marked == (False,) * 5 and game.rolls_left == 1


def test_illegal_actions_raise_specific_errors_with_player_messages() -> None:
    game = loaded_game([2, 3, 2, 3, 3] + [5] * 5 + [5] * 5 + [5] * 5)
    with pytest.raises(NotRolledYet):
        game.post(C.CHANCE)
    with pytest.raises(NotRolledYet):
        game.toggle(1)
    game.roll()
    with pytest.raises(NothingMarked):
        game.roll()
    assert game.post(C.FULL_HOUSE).points == 25
    game.roll()
    game.post(C.YAHTZEE)
    game.roll()
    with pytest.raises(BoxFilled, match="FULL HOUSE is already filled"):
        game.post(C.FULL_HOUSE)
    with pytest.raises(JokerRuleError, match="a Joker must go in FIVES while it is open"):
        game.post(C.CHANCE)
    posting = game.post(C.FIVES)
    assert (posting.points, posting.bonus) == (25, 100)
    game.roll()
    for _ in range(2):
        game.toggle(0)
        game.toggle(0)
        game.toggle(0)
        game.roll()
    with pytest.raises(NoRollsLeft):
        game.roll()
    with pytest.raises(NoRollsLeft):
        game.toggle(0)


def test_players_take_turns_and_the_game_ends_after_thirteen_rounds() -> None:
    game = Game.start([Player("ANN"), Player("BOB")], source=SeededDice(3))
    seats = []
    while not game.is_over:
        seats.append(game.current.name)
        game.roll()
        game.post(game.legal_boxes()[0])
    assert seats == ["ANN", "BOB"] * 13
    with pytest.raises(GameOver):
        game.roll()


@pytest.mark.parametrize("seed", range(40))
def test_random_legal_play_fills_every_box_and_adds_up(seed: int) -> None:
    rng = random.Random(seed)
    rules = (HASBRO, FREE_JOKER, NO_BONUS)[seed % 3]
    game = Game.start([Player(f"P{i}") for i in range(1 + seed % 4)], rules, SeededDice(seed))
    postings = play_randomly(game, rng)
    assert len(postings) == 13 * len(game.players)
    for player in game.players:
        card = player.card
        assert card.is_full
        mine = [p for p in postings if p.player == player.name]
        assert sorted(p.box.value for p in mine) == sorted(c.value for c in Category)
        assert card.total == sum(card.boxes.values()) + card.upper_bonus + card.yahtzee_bonus
        assert card.yahtzee_bonus == sum(p.bonus for p in mine)
        assert card.upper_bonus == (35 if card.upper_sum >= 63 else 0)
    record = any_json(record_of(FinishedGame.of(game, "2026-11-30T12:00:00")))
    assert [p["total"] for p in record["players"]] == [p.card.total for p in game.players]
    assert set(record["winners"]) <= {p.name for p in game.players}


def test_seeded_games_replay_identically() -> None:
    def transcript(seed: int) -> Any:
        game = Game.start([Player("ANN"), Player("BOB")], source=SeededDice(seed))
        return [(p.box, p.points) for p in play_randomly(game, random.Random(7))]
    assert transcript(42) == transcript(42)
    assert transcript(42) != transcript(43)


def test_seeded_dice_reseed_every_turn_from_game_round_and_seat() -> None:
    first = SeededDice(9)
    first.start_turn(1, 5, 2)
    again = SeededDice(9, turn=(1, 5, 2))
    assert first.roll(5) == again.roll(5)
    other_seat = SeededDice(9, turn=(1, 5, 3))
    other_game = SeededDice(9, turn=(2, 5, 2))
    rolls = {tuple(s.roll(20)) for s in (SeededDice(9, (1, 5, 2)), other_seat, other_game)}
    assert len(rolls) == 3


def test_a_loaded_dice_file_gives_exactly_its_faces_then_random(tmp_path: Path) -> None:
    path = tmp_path / "dice.txt"
    path.write_text("6 6 6\n6 6\n1 2\t3\n")
    source = LoadedDice(read_dice_file(path), SeededDice(1))
    game = Game.start([Player("ANN")], source=source)
    assert game.roll() == (6, 6, 6, 6, 6)
    game.post(C.YAHTZEE)
    dice = game.roll()
    assert dice[:3] == (1, 2, 3)
    assert source.faces == [] and all(1 <= d <= 6 for d in dice)


@pytest.mark.parametrize("text, message", [
    ("1 2 7", "'7' (entry 3) is not a die face 1-6"),
    ("1 2 x", "'x' (entry 3) is not a die face 1-6"),
    ("1,2,3", "'1,2,3' (entry 1)"),
    ("", "holds no dice faces"),
    ("0", "'0' (entry 1)"),
])
def test_a_malformed_dice_file_is_refused_clearly(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "dice.txt"
    path.write_text(text)
    with pytest.raises(DiceFileError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_dice_file(path)


def test_a_missing_or_binary_dice_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DiceFileError, match="No such file"):
        read_dice_file(tmp_path / "none.txt")
    path = tmp_path / "bin"
    path.write_bytes(b"\xff\x00\x01")
    with pytest.raises(DiceFileError, match="characters other than"):
        read_dice_file(path)


def test_parse_faces_shows_hostile_words_safely() -> None:
    with pytest.raises(DiceFileError) as error:
        parse_faces("1 \x1b[31mred")
    assert "\x1b" not in str(error.value)


def round_trip(game: Game) -> Game:
    return game_from_dict(json.loads(json.dumps(game_to_dict(game))))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 4), st.integers(0, 60), st.sampled_from(["seeded", "loaded", "random"]))
def test_mid_game_states_survive_the_json_round_trip(seed: int, players: int, steps: int, kind: str) -> None:
    rng = random.Random(seed)
    sources: dict[str, Callable[[], DiceSource]] = {
        "seeded": lambda: SeededDice(seed),
        "loaded": lambda: LoadedDice([rng.randint(1, 6) for _ in range(30)], SeededDice(seed)),
        "random": lambda: RandomDice()}
    source = sources[kind]()
    game = Game.start([Player(f"P{i}", "computer" if i == 3 else "human") for i in range(players)],
                      source=source)
    for _ in range(steps):
        if game.is_over:
            break
        action = rng.random()
        if not game.turn.has_rolled or (action < 0.3 and game.rolls_left and any(game.turn.marked)):
            game.roll()
        elif action < 0.7 and game.rolls_left:
            game.toggle(rng.randrange(5))
        else:
            game.post(rng.choice(game.legal_boxes()))
    restored = round_trip(game)
    assert restored == game
    if kind != "random" and not game.is_over:
        # The restored game goes on with exactly the dice the original would have had.
        if game.turn.rolls and game.rolls_left and not any(game.turn.marked):
            game.toggle(0)
            restored.toggle(0)
        if game.rolls_left and (not game.turn.has_rolled or any(game.turn.marked)):
            assert game.roll() == restored.roll()


def test_a_session_round_trips_with_its_finished_games() -> None:
    session = Session([Player("ANN"), Player("BOB")], verify=False, source=SeededDice(1))
    session.new_game()
    play_randomly(there(session.game), random.Random(1))
    record = session.finish_game("2026-11-30T10:00:00")
    session.new_game()
    there(session.game).roll()
    restored = session_from_dict(json.loads(json.dumps(session_to_dict(session))))
    assert restored == session
    assert restored.results == [record] and there(restored.game).number == 2
    assert there(restored.game).source is restored.source
    there(restored.game).toggle(2)
    there(session.game).toggle(2)
    assert there(restored.game).roll() == there(session.game).roll()


def test_history_record_has_the_spec_shape() -> None:
    game = loaded_game([3, 3, 3, 3, 3], names=("ANN", "BOB"))
    play_randomly(game, random.Random(2))
    record = any_json(record_of(FinishedGame.of(game, "2026-11-30T10:00:00+00:00")))
    assert set(record) == {"version", "finished", "rules", "seed", "players", "winners", "moves", "dice"}
    assert record["rules"] == "hasbro" and record["seed"] == 0 and record["dice"] == "loaded"
    for player in record["players"]:
        assert set(player) == {"name", "kind", "scores", "upper_bonus", "yahtzee_bonus", "total"}
        assert set(player["scores"]) == {c.value for c in Category}
        assert player["total"] == (sum(player["scores"].values()) + player["upper_bonus"]
                                   + player["yahtzee_bonus"])


def test_ties_share_the_win() -> None:
    game = Game.start([Player("ANN"), Player("BOB")], source=LoadedDice([1] * 500))
    while not game.is_over:
        game.roll()
        game.post(game.legal_boxes()[0])
    assert game.players[0].card.total == game.players[1].card.total
    assert game.winners() == ["ANN", "BOB"]


@pytest.mark.parametrize("damage", [
    lambda d: d.update(version=99),
    lambda d: d["players"][0]["boxes"].update(chance=999),
    lambda d: d["players"][0]["boxes"].update(nonsense=3),
    lambda d: d["players"][0].update(name="\x1b[2J"),
    lambda d: d["turn"].update(dice=[1, 2, 3]),
    lambda d: d["turn"].update(rolls="2"),
    lambda d: d.update(seat=7),
    lambda d: d.update(players=[]),
    lambda d: d["dice"].update(kind="magic"),
    lambda d: d["rules"].update(name="nope"),
    lambda d: d["rules"].update(rolls_per_turn="3"),
    lambda d: d.pop("turn"),
    lambda d: d["players"][0]["boxes"].update(ones=1, twos=2),
])
def test_damaged_game_data_is_refused_with_bad_state(damage: Callable) -> None:
    game = loaded_game([1, 2, 3, 4, 5])
    game.roll()
    data = json.loads(json.dumps(game_to_dict(game)))
    damage(data)
    with pytest.raises(DamagedSave):
        game_from_dict(data)
