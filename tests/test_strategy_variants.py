"""The strategy engine under the rule variants: exact start values (checked by simulation),
golden positions, the advisor agreeing with the solver, every mood playing every rule set
legally, and the dice-bank heuristic saying that it is one."""
import math
import random
from dataclasses import astuple
from pathlib import Path
from typing import Any, Callable, Union

import numpy as np
import pytest
from helpers import there
from test_strategy import FiveAlikeOften, random_card, start_midway

from yahtzee.coach.services import StrategyServices
from yahtzee.coach.tablekeeper import TableKeeper
from yahtzee.model import scoring
from yahtzee.model.dice import SeededDice
from yahtzee.model.game import Game, Player
from yahtzee.model.moods import MOODS
from yahtzee.model.rules import ACORN, FIVEOAK, FREE_JOKER, HASBRO, NO_BONUS, RULES, YAHTC, Rules
from yahtzee.model.scoring import Category
from yahtzee.present.render import choice_text
from yahtzee.speech.languages import text
from yahtzee.strategy.exact.dicemath import ROLL_PROBABILITY, ROLLS
from yahtzee.strategy.exact.objective import Objective
from yahtzee.strategy.exact.position import BIT_OF, card_state, card_total
from yahtzee.strategy.exact.rulearrays import (
    CASES,
    FULL_CARD,
    YAHTZEE_BIT,
    YAHTZEE_FIFTY,
    YAHTZEE_OPEN,
    YAHTZEE_ZERO,
    UnsupportedRules,
    boxes_of,
    check_supported,
    check_tables,
    planning_rules,
    rule_tables,
)
from yahtzee.strategy.exact.solver import TurnSolver
from yahtzee.strategy.exact.statespace import States
from yahtzee.strategy.exact.table import Loader, StrategyTable
from yahtzee.strategy.headless.simulate import simulate
from yahtzee.strategy.odds.computers import computer_player
from yahtzee.strategy.odds.rival import RivalPlayer
from yahtzee.strategy.play.advisor import advise, advise_position
from yahtzee.strategy.play.players import OBJECTIVES, ComputerPlayer, Post, Reroll
from yahtzee.strategy.storage import cache

pytestmark = pytest.mark.slow(4)

C = Category
FOUR_ROLLS = HASBRO.with_options(rolls=4)
# The exact start values of the variants the solver solves (hasbro, freejoker and nobonus
# with three rolls are in test_strategy.py).
VARIANT_START_VALUES = {
    "hasbro, 4 rolls": (FOUR_ROLLS, 328.9552924),
    "fiveoak": (FIVEOAK, 269.3842491),
    "acorn": (ACORN, 251.7265999),
    "yahtc": (YAHTC, 248.7122399),
}
EXACT = [HASBRO, FREE_JOKER, NO_BONUS, FIVEOAK, ACORN, YAHTC]
WITH_OPTIONS = EXACT + [rules.with_options(rolls=4, bank=2) for rules in EXACT] + \
    [FOUR_ROLLS, HASBRO.with_options(bank=5)]


@pytest.fixture(scope="session")
def variant_loader(shared_table_cache: Path) -> Callable:
    """Tables kept in the test run's shared cache folder, so each is built once."""
    return cache.table_loader(shared_table_cache)


# -- exact solving ---------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(VARIANT_START_VALUES))
def test_variant_start_values(variant_loader: Loader, name: str) -> None:
    rules, expected = VARIANT_START_VALUES[name]
    table = variant_loader(rules)
    assert table.exact and table.note == ""
    assert table.start_value == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize("name", sorted(VARIANT_START_VALUES))
def test_the_thinker_averages_each_variants_start_value(
        shared_table_cache: Path, variant_loader: Loader, name: str) -> None:
    rules, expected = VARIANT_START_VALUES[name]
    variant_loader(rules)
    stats = simulate(2000, "thinker", rules, seed=5, cache_dir=shared_table_cache)
    assert abs(stats.mean - expected) < 3 * stats.stdev / math.sqrt(stats.games)


@pytest.mark.parametrize("rules", [FIVEOAK, ACORN, YAHTC], ids=lambda r: r.name)
def test_variant_tables_agree_with_scoring_on_many_cards(rules: Rules) -> None:
    check_tables(TurnSolver(rules).tables, rules, masks=range(0, FULL_CARD, 211), whole=FULL_CARD)


@pytest.mark.parametrize("rules", EXACT + [Rules(name="forcedblank", joker="forced", extra_yahtzee_blank=True),
                                   Rules(name="freeblank", joker="free", extra_yahtzee_blank=True)],
                         ids=lambda r: r.name)
def test_the_solvers_legal_boxes_of_five_alike_are_scorings_on_every_card(rules: Rules) -> None:
    legal = np.zeros((len(CASES), FULL_CARD + 1, 6), dtype=np.int64)
    for mask in range(FULL_CARD):
        for case in (YAHTZEE_ZERO, YAHTZEE_FIFTY) if mask >> YAHTZEE_BIT & 1 else (YAHTZEE_OPEN,):
            boxes = boxes_of(mask, case)
            for face in range(1, 7):
                chosen = scoring.legal_boxes((face,) * 5, boxes, rules)
                legal[case, mask, face - 1] = sum(1 << BIT_OF[box] for box in chosen)
    assert np.array_equal(rule_tables(rules).yahtzee_legal, legal)


def test_a_table_is_solved_only_for_arrays_that_agree_with_the_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    from yahtzee.strategy.exact import rulearrays
    wrong = rulearrays.RuleTables(*(np.zeros_like(array) if index == 3 else array
                                for index, array in enumerate(astuple(rule_tables(HASBRO)))))
    monkeypatch.setattr(cache, "TurnSolver", lambda rules, objective: type("E", (), {"tables": wrong})())
    with pytest.raises(UnsupportedRules, match="legal boxes"):
        cache.build_table(HASBRO)


def test_only_the_dice_bank_is_left_to_the_heuristic() -> None:
    for rules in EXACT:
        for rolls in (3, 4):
            check_supported(rules.with_options(rolls=rolls))
        with pytest.raises(UnsupportedRules, match="dice bank"):
            check_supported(rules.with_options(bank=1))


def test_the_extra_turn_value_is_a_fixed_point(variant_loader: Loader) -> None:
    # With only CHANCE open and 50 in YAHTZEE, five alike may take 50 and the same turn again.
    table = variant_loader(YAHTC)
    mask = FULL_CARD ^ 1 << BIT_OF[C.CHANCE]
    value = table.value(mask, 0, 1)
    boxes: dict[Category, int] = {box: 0 for box in C if box is not C.CHANCE}
    boxes |= {C.YAHTZEE: 50}
    options = advise_position(table, boxes, 0, (2, 2, 2, 2, 2), 0)
    extra = next(o for o in options if o.extra_turn)
    assert extra.value == pytest.approx(50 + 50 + value) and choice_text(extra) == "extra turn +50"
    assert value > table.value(mask, 0, 0) + 0.5  # the chance of extra turns is worth something
    state = States(np.array([mask]), np.array([0]), np.array([1]))
    assert TurnSolver(YAHTC).turn_start_values(table.values, state)[0] == pytest.approx(value, abs=1e-9)


# -- golden positions ----------------------------------------------------------------

def test_fiveoak_straight_on_the_first_roll_posts_now_for_40_plus_10(variant_loader: Loader) -> None:
    options = advise_position(variant_loader(FIVEOAK), {}, 0, (1, 2, 3, 4, 5), 2)
    assert options[0].best and options[0].box is C.LARGE_STRAIGHT and \
        (options[0].points, options[0].roll_bonus) == (40, 10)


def test_fiveoak_roll_bonus_shrinks_with_the_rolls_used(variant_loader: Loader) -> None:
    table = variant_loader(FIVEOAK)
    points = [next(o.gain for o in advise_position(table, {}, 0, (1, 2, 3, 4, 5), 3 - used)
                   if o.box is C.LARGE_STRAIGHT) for used in (1, 2, 3)]
    assert points == [50, 45, 40]


def test_acorn_extra_yahtzee_offers_only_blanks_worth_100(variant_loader: Loader) -> None:
    boxes = {C.YAHTZEE: 50, C.THREES: 9, C.CHANCE: 20}
    options = advise_position(variant_loader(ACORN), boxes, 0, (3, 3, 3, 3, 3), 2)
    posts = [o for o in options if o.kind == "box"]
    assert {o.box for o in posts} == set(C) - set(boxes)
    assert all(o.blank and (o.points, o.yahtzee_bonus) == (0, 100) for o in posts)
    assert all(choice_text(o) == f"blank {text(there(o.box).title)} +100 YAHTZEE bonus" for o in posts)


def test_yahtc_extra_yahtzee_lists_the_extra_turn_and_takes_it(variant_loader: Loader) -> None:
    table = variant_loader(YAHTC)
    game = Game.start([Player("CPU", "computer")], YAHTC, SeededDice(1))
    game.current.card.boxes[C.YAHTZEE] = 50
    game.roll()
    game.turn.dice = (6,) * 5
    options = advise(table, game)
    assert options[0].extra_turn and options[0].box is C.YAHTZEE and options[0].yahtzee_bonus == 50
    assert choice_text(options[0]) == "extra turn +50"
    assert sum(o.kind == "box" for o in options) == 12 + 1
    action = computer_player("thinker", YAHTC, lambda rules, objective: table).next_action(game)
    assert action == Post(C.YAHTZEE)
    assert game.post(action.box).extra_turn and game.round == 1 and game.current.card.yahtzee_bonus == 50


def test_yahtc_declines_the_extra_turn_when_posting_is_worth_more(variant_loader: Loader) -> None:
    # A table that values every future at nothing: 30 + 35 in SIXES beats 50 and nothing.
    zero = StrategyTable(YAHTC, OBJECTIVES["thinker"], np.zeros_like(variant_loader(YAHTC).values))
    game = Game.start([Player("CPU", "computer")], YAHTC, SeededDice(1))
    game.current.card.boxes.update({box: 0 for box in C if box is not C.SIXES})
    game.current.card.boxes.update({C.YAHTZEE: 50, C.FIVES: 25, C.FOURS: 8})
    game.roll()
    game.turn.dice = (6,) * 5
    assert game.can_take_extra_turn
    assert computer_player("thinker", YAHTC, lambda rules, objective: zero).next_action(game) == Post(C.SIXES)


@pytest.mark.parametrize("rules", [FIVEOAK, ACORN, YAHTC, FOUR_ROLLS], ids=lambda r: text(r.describe()))
def test_the_advisor_averaged_over_the_first_roll_is_the_solver_value(variant_loader: Loader, rules: Rules) -> None:
    table = variant_loader(rules)
    rng = random.Random(text(rules.describe()))
    for _ in range(2):
        boxes = random_card(rng, rng.randint(1, 10))
        if C.YAHTZEE in boxes:
            boxes[C.YAHTZEE] = rng.choice((0, 50))
        rolls_left = rules.rolls_per_turn - 1
        best = [advise_position(table, boxes, 0, roll, rolls_left)[0].value for roll in ROLLS]
        expected = card_total(boxes, 0) + table.value(*card_state(boxes))
        assert float(np.dot(ROLL_PROBABILITY, best)) == pytest.approx(expected, abs=1e-8)


# -- the dice-bank heuristic -----------------------------------------------------------

def test_a_dice_bank_plans_with_the_exact_table_of_the_same_rules_and_says_so(variant_loader: Loader) -> None:
    rules = YAHTC.with_options(rolls=3, bank=2)
    table = variant_loader(rules)
    assert not table.exact and table.rules == rules and table.plan_rules == YAHTC
    assert np.shares_memory(table.values, variant_loader(YAHTC).values)
    assert text(table.note) == ("Advice for yahtChallenge: extra turn, bank 2 is approximate: it plans with the "
                                "exact table for yahtChallenge: extra turn, uses banked rolls as extra rerolls and "
                                "gives rolls saved for later no value.")


def test_the_coach_tells_the_player_which_advice_is_approximate(shared_table_cache: Path) -> None:
    strategy = StrategyServices.over(TableKeeper(shared_table_cache))
    assert strategy.tables.note(HASBRO) == "" and strategy.tables.note(FIVEOAK) == ""
    assert "approximate" in text(strategy.tables.note(HASBRO.with_options(bank=3)))
    game = Game.start([Player("ANN")], HASBRO.with_options(bank=2), SeededDice(3))
    game.current.card.bank = 2
    game.roll()
    options = strategy.coach.options(game)
    assert isinstance(options, list)  # not NoTable
    assert options[0].best and any(o.kind == "keep" for o in options)
    assert strategy.opponents.player("thinker", game.rules).note == strategy.tables.note(game.rules)


def test_banked_rolls_are_extra_rerolls_for_the_advisor(variant_loader: Loader) -> None:
    rules = HASBRO.with_options(bank=2)
    table = variant_loader(rules)
    three = advise_position(variant_loader(HASBRO), {}, 0, (1, 1, 2, 3, 6), 2, 1)
    five = advise_position(table, {}, 0, (1, 1, 2, 3, 6), 4, 1)
    assert five[0].kind == "keep" and five[0].value > three[0].value + 1


# -- every mood, every rule set, every option: legal to the end --------------------------

def play_out(game: Game, player: Union[ComputerPlayer, RivalPlayer], seen: set[str]) -> set[str]:
    """Let the computer finish the game, checking each action; note the variant moves seen."""
    while not game.is_over:
        game.roll()
        while True:
            action = player.next_action(game)
            if isinstance(action, Post):
                if game.can_take_extra_turn and action.box is C.YAHTZEE:
                    seen.add("extra turn")
                else:
                    assert action.box in game.legal_boxes()
                    seen.add("decline" if game.can_take_extra_turn else "blank" if game.must_blank else "post")
                seen.add("bank" if game.turn.rolls > game.rules.rolls_per_turn else "no bank")
                game.post(action.box)
                break
            assert isinstance(action, Reroll) and game.rolls_left > 0 and any(action.marked)
            for die, marked in enumerate(action.marked):
                if marked:
                    game.toggle(die)
            game.roll()
    assert game.players[0].card.is_full
    return seen


def stand_in_loader(variant_loader: Loader) -> Callable:
    """The real tables for the thinker where the tests build them; elsewhere a stand-in that
    plays by the mood's own objective and the real rules on the values of a table already
    built (whether a move is legal does not depend on the values)."""
    built = EXACT + [FOUR_ROLLS]

    def loader(rules: Rules, objective: Objective = OBJECTIVES["thinker"]) -> Any:
        plan = planning_rules(rules)
        if objective == OBJECTIVES["thinker"] and plan in built:
            return variant_loader(rules)
        values = variant_loader(plan if plan in built else plan.with_options(rolls=3)).values
        return StrategyTable(rules, objective, values, plan_rules=plan)
    return loader


@pytest.mark.parametrize("rules", WITH_OPTIONS, ids=lambda r: text(r.describe()))
def test_every_mood_plays_every_rule_set_legally(variant_loader: Loader, rules: Rules) -> None:
    loader = stand_in_loader(variant_loader)
    seen: set[Any] = set()
    for seed, mood in enumerate(MOODS):
        player = computer_player(mood, rules, loader, random.Random(seed))
        play_out(start_midway(rules, seed, FiveAlikeOften(seed)), player, seen)
    if rules.extra_yahtzee_turn:
        assert "extra turn" in seen
    if rules.extra_yahtzee_blank:
        assert "blank" in seen
    if rules.dice_bank:
        assert "bank" in seen


def test_simulations_finish_under_extra_turns_and_a_bank(shared_table_cache: Path, variant_loader: Loader) -> None:
    rules = YAHTC.with_options(rolls=3, bank=1)
    variant_loader(rules)
    stats = simulate(300, "thinker", rules, seed=2, cache_dir=shared_table_cache)
    assert stats.games == 300 and stats.extra_yahtzee_rate > 0
    assert stats.mean > VARIANT_START_VALUES["yahtc"][1] - 5


def test_every_rule_set_is_covered() -> None:
    assert {rules.name for rules in EXACT} == set(RULES)
