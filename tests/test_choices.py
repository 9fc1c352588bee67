"""An advisor's choice is a value (box, the box's own points, the bonuses beside them), made
into words only where it is shown: the advice page and the review say "TWOS 6" for a posting
that completes the upper bonus, with the bonus named beside it, in English and in German."""
import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Callable

import pytest
from helpers import any_json

from yahtzee.coach.replay import review_game
from yahtzee.coach.services import StrategyServices
from yahtzee.coach.tablekeeper import TableKeeper
from yahtzee.model.choices import Option, OptionKind
from yahtzee.model.dice import LoadedDice, SeededDice
from yahtzee.model.game import Game, Player
from yahtzee.model.outcome import FinishedGame
from yahtzee.model.rules import HASBRO
from yahtzee.model.scoring import Category
from yahtzee.present import render
from yahtzee.present.verdicts import review_lines
from yahtzee.reports import review_to_json
from yahtzee.speech import languages as language
from yahtzee.strategy.play.advisor import advise

C = Category
# Five turns that bring the upper boxes to 57, then 2 2 2 in TWOS: 63, the upper bonus.
TURNS = [((1, 1, 1, 2, 3), C.ONES), ((3, 3, 3, 1, 2), C.THREES), ((4, 4, 4, 1, 2), C.FOURS),
         ((5, 5, 5, 1, 2), C.FIVES), ((6, 6, 6, 1, 2), C.SIXES)]
TWOS_DICE = (2, 2, 2, 5, 6)


@pytest.fixture(scope="module")
def strategy() -> Iterator[StrategyServices]:
    made = StrategyServices.over(TableKeeper(Path(os.environ["YAHTZEE_CACHE"])))
    yield made
    made.close()


@pytest.fixture
def speak() -> Iterator[Callable]:
    """Install a language for one test; English after."""
    yield language.use
    language.use("en")


def at_the_twos() -> Game:
    """ANN's game at the posting of 2 2 2 5 6, her upper boxes at 57 with TWOS open."""
    faces = [face for dice, _box in TURNS for face in dice] + list(TWOS_DICE)
    game = Game.start([Player("ANN")], HASBRO, LoadedDice(faces, SeededDice(1)))
    for _dice, box in TURNS:
        game.roll()
        game.post(box)
    game.roll()
    return game


def test_the_option_keeps_the_boxs_points_and_the_bonus_apart(strategy: StrategyServices) -> None:
    game = at_the_twos()
    (twos,) = [o for o in advise(strategy.tables.load(HASBRO), game) if o.kind == "box" and o.box is C.TWOS]
    assert (twos.points, twos.upper_bonus, twos.yahtzee_bonus, twos.gain) == (6, 35, 0, 41)
    before = game.current.card.total
    game.post(C.TWOS)
    assert game.players[0].card.total - before == twos.gain  # the model agrees on what it adds


def test_options_are_the_same_choice_whatever_each_expects_of_it() -> None:
    keep = Option(OptionKind.KEEP, 201.5, (False, True, False, True, True), kept=(2, 5), best=True)
    assert keep.is_same_choice(Option(OptionKind.KEEP, 190.0, (True, False, False, True, True), kept=(2, 5)))
    assert not keep.is_same_choice(Option(OptionKind.KEEP, 201.5, (False, True, True, True, True), kept=(2,)))
    twos = Option(OptionKind.BOX, 180.0, box=Category.TWOS, points=6, upper_bonus=35)
    assert twos.is_same_choice(Option(OptionKind.BOX, 170.0, box=Category.TWOS, points=6, upper_bonus=35))
    assert not twos.is_same_choice(Option(OptionKind.BOX, 180.0, box=Category.TWOS, points=6))
    assert not twos.is_same_choice(Option(OptionKind.BOX, 180.0, box=Category.CHANCE, points=6, upper_bonus=35))


@pytest.mark.parametrize("code, words", [("en", "TWOS 6 +35 upper bonus"), ("de", "ZWEIER 6 +35 Bonus oben")])
def test_the_advice_page_says_twos_6_and_the_bonus_beside_it(
        strategy: StrategyServices, speak: Callable, code: str, words: str) -> None:
    speak(code)
    game = at_the_twos()
    options = advise(strategy.tables.load(HASBRO), game)
    lines = render.advice_lines([(option, None) for option in options], game.turn, at_posting=True)
    assert any(words in line for line in lines)
    assert not any(" 41" in line.split("press")[0] for line in lines)  # never the points and bonus as one


def finished_twos_game() -> FinishedGame:
    """The game above played on at random to its end."""
    game = at_the_twos()
    game.post(C.TWOS)
    rng = random.Random(3)
    while not game.is_over:
        game.roll()
        game.post(rng.choice(game.legal_boxes()))
    return FinishedGame.of(game, "2026-12-01T10:00:00+00:00")


@pytest.mark.parametrize("code, words", [("en", "TWOS 6 +35 bonus"), ("de", "ZWEIER 6 +35 Bonus")])
def test_the_review_says_twos_6_and_its_json_keeps_values(
        strategy: StrategyServices, speak: Callable, code: str, words: str) -> None:
    speak(code)
    review = review_game(finished_twos_game(), strategy.tables.load(HASBRO))
    lines = review_lines(review)
    (twos,) = [line for line in lines if " 2 2 2 5 6 " in line]
    assert words in twos
    (decision,) = [d for d in any_json(review_to_json(review))["decisions"] if d["dice"] == list(TWOS_DICE)]
    assert decision["done"] == {"kind": "post", "box": "twos", "points": 6, "upper_bonus": 35}
    assert json.loads(json.dumps(decision)) == decision
