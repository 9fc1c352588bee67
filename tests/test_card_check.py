"""One check of a card's bonuses, derived from the rules the game was played under, for the
history record and the saved game alike: every rule set (and rules made up here) played with
many Yahtzees goes through record -> check, and a bonus the rules could not pay is refused."""
import random
from dataclasses import replace
from typing import Any

import pytest
from helpers import any_json
from test_review import finish_randomly

from yahtzee.model.dice import LoadedDice, SeededDice
from yahtzee.model.game import Game, Player
from yahtzee.model.outcome import FinishedGame
from yahtzee.model.rules import RULES, Rules
from yahtzee.model.scoring import Category
from yahtzee.saves import records
from yahtzee.saves.codec import DamagedSave, game_from_dict, game_to_dict
from yahtzee.saves.records import InvalidRecord, check_record, record_of

FINISHED = "2026-12-02T12:00:00+00:00"
MADE_UP = Rules(name="madeup", joker="free", extra_yahtzee_bonus=70, roll_bonus=(9, 6))


def yahtzee_heavy_game(rules: Rules, seed: int = 1) -> Game:
    """Two players, every roll a Yahtzee for many turns, then random dice; random legal play."""
    game = Game.start([Player("ANN"), Player("BOB")], rules, LoadedDice([6] * 200, SeededDice(seed)))
    return finish_randomly(game, random.Random(seed))


@pytest.fixture(params=[*RULES, "madeup"])
def rules(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Rules:
    """Each rule set, and one made up here (known to the records by its name for the test)."""
    monkeypatch.setitem(RULES, "madeup", MADE_UP)  # the records' RULES: the same dict
    return RULES[request.param]


def test_every_rule_set_records_and_checks_its_own_games(rules: Rules) -> None:
    for seed in range(3):
        game = yahtzee_heavy_game(rules, seed)
        check_record(record_of(FinishedGame.of(game, FINISHED)))
        assert game_from_dict(game_to_dict(game)).players == game.players


def test_a_bonus_the_rules_could_not_pay_is_refused(rules: Rules) -> None:
    record = any_json(record_of(FinishedGame.of(yahtzee_heavy_game(rules), FINISHED)))
    player = record["players"][0]
    for field, wrong in (("yahtzee_bonus", 1), ("roll_bonus", 1)):
        player[field] = player.get(field, 0) + wrong
        player["total"] += wrong
        with pytest.raises(InvalidRecord, match="out of range"):
            check_record(record)
        player[field] -= wrong
        player["total"] -= wrong
    check_record(record)


def test_the_bonus_follows_the_rules_payment_not_a_fixed_fifty() -> None:
    odd = replace(MADE_UP, name="madeup")
    assert records.bonus_problem(70 * 12, 0, odd, long_game=False) is None
    assert records.bonus_problem(70 * 13, 0, odd, long_game=False) is not None  # one a turn at most
    assert records.bonus_problem(100, 0, odd, long_game=False) is not None
    assert records.bonus_problem(0, 9 + 6 + 6, odd, long_game=False) is None
    assert records.bonus_problem(0, 9 * 14, odd, long_game=False) is not None
    assert records.bonus_problem(50, 0, RULES["nobonus"], long_game=False) is not None


def test_a_yahtchallenge_game_of_thirty_extra_yahtzees_is_filed_and_resumed() -> None:
    game = Game.start([Player("ANN")], RULES["yahtc"], LoadedDice([6] * 5 * 40, SeededDice(2)))
    extra = 0
    while extra < 30:
        game.roll()
        if game.can_take_extra_turn:
            game.take_extra_turn()
            extra += 1
        else:
            game.post(Category.YAHTZEE)  # the first Yahtzee fills the box with 50
    finish_randomly(game, random.Random(2))
    assert game.players[0].card.yahtzee_bonus == 30 * 50
    check_record(record_of(FinishedGame.of(game, FINISHED)))
    saved: Any = game_to_dict(game)
    assert game_from_dict(saved).players == game.players
    saved["players"][0]["yahtzee_bonus"] += 25
    with pytest.raises(DamagedSave, match="Yahtzee bonus"):
        game_from_dict(saved)
