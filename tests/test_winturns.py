"""*rival's turns before its last, played for an estimated chance to win (winturns): the
postings of many cards at once against the one-card rule, the normal arithmetic against
independent counts, and every keep and box of a turn against a brute force over the dice."""
import collections
import functools
import itertools
import math
import random
from typing import Any

import numpy as np
import pytest

from yahtzee.model.dice import RandomDice
from yahtzee.model.game import Game, Player, Turn
from yahtzee.model.rules import HASBRO, YAHTC, Rules
from yahtzee.model.scorecard import Scorecard
from yahtzee.model.scoring import Category
from yahtzee.strategy.exact.dicemath import KEEPS, ROLL_INDEX, ROLLS, SUB_KEEPS
from yahtzee.strategy.exact.position import card_state, reroll_marks
from yahtzee.strategy.exact.statespace import state_index, states_of
from yahtzee.strategy.exact.table import Loader, StrategyTable
from yahtzee.strategy.odds.computers import computer_player
from yahtzee.strategy.odds.earlyturns import (
    EXTRA_TURN,
    TIE_BREAK,
    Normal,
    batch_postings,
    best_of,
    final_normals,
    normal_cdf,
    state_spreads,
    turn_plans,
)
from yahtzee.strategy.odds.rests import Rests
from yahtzee.strategy.odds.winchance import rule_postings
from yahtzee.strategy.play.players import Reroll

C = Category


@pytest.mark.parametrize("rules", [HASBRO, YAHTC], ids=["hasbro", "yahtc"])
def test_the_postings_of_many_cards_at_once_are_each_cards_own(loader: Loader, rules: Rules) -> None:
    table = loader(rules)
    rng = np.random.default_rng(5)
    states = states_of(rng.choice(np.flatnonzero(table.values > 0), 60))
    gains, afters = batch_postings(table.engine.tables, states.mask, states.up, states.fifty)
    for card in range(len(states)):
        one = rule_postings(table.engine.tables, (int(states.mask[card]), int(states.up[card]),
                                                  int(states.fifty[card])), 1)
        assert (afters[card] == one.afters).all()
        legal = one.afters >= 0
        assert (gains[card][legal] == one.gains[legal]).all()


def test_the_normal_distribution_function_is_within_two_parts_in_ten_million() -> None:
    z = np.linspace(-9, 9, 721)
    truth = np.array([0.5 * math.erfc(-value / math.sqrt(2)) for value in z])
    assert np.abs(normal_cdf(z) - truth).max() < 2e-7


def test_the_best_of_several_finals_has_the_monte_carlo_mean_and_spread() -> None:
    rng = np.random.default_rng(11)
    means, spreads = [250.0, 238.0, 262.0], [30.0, 45.0, 12.0]
    draws = np.max([rng.normal(m, s, 400_000) for m, s in zip(means, spreads)], axis=0)
    best = best_of([Normal(np.array([m]), np.array([s])) for m, s in zip(means, spreads)])
    standard_error = draws.std() / math.sqrt(len(draws))
    assert abs(best.mean[0] - draws.mean()) < 5 * standard_error + 0.3  # Clark's moments are exact for two
    assert best.spread[0] == pytest.approx(draws.std(), rel=0.05)
    two = best_of([Normal(np.array([means[0]]), np.array([spreads[0]])),
                   Normal(np.array([means[1]]), np.array([spreads[1]]))])
    pair = np.maximum(rng.normal(means[0], spreads[0], 400_000), rng.normal(means[1], spreads[1], 400_000))
    assert abs(two.mean[0] - pair.mean()) < 5 * pair.std() / math.sqrt(len(pair))
    assert two.spread[0] == pytest.approx(pair.std(), rel=0.01)


def test_a_full_card_has_no_spread_and_an_open_one_has_its_own(table: StrategyTable, rests: Rests) -> None:
    spreads = state_spreads(table)
    assert spreads[state_index(2 ** 13 - 1, 63, 1)] == 0.0
    assert 30 < spreads[state_index(0, 0, 0)] < 80


@functools.cache
def throws(
        count: int) -> Any:
    """Every throw of `count` dice, sorted, with its chance (counted over the ordered throws)."""
    outcomes = collections.Counter(tuple(sorted(faces)) for faces in itertools.product(range(1, 7), repeat=count))
    return tuple((faces, times / 6 ** count) for faces, times in outcomes.items())


def mid_card() -> dict[Category, int]:
    """A card in round 9 with SIXES, the straights, YAHTZEE and CHANCE open."""
    return {C.ONES: 3, C.TWOS: 6, C.THREES: 9, C.FOURS: 16, C.FIVES: 15, C.THREE_OF_A_KIND: 24,
            C.FOUR_OF_A_KIND: 0, C.FULL_HOUSE: 25}


@pytest.mark.parametrize("their_mean", [230.0, 290.0, 340.0], ids=["ahead", "even", "behind"])
def test_every_keep_and_box_of_a_turn_is_the_best_estimated_chance_by_brute_force(table: StrategyTable, rests: Rests,
                                                                                  their_mean: float) -> None:
    boxes = mid_card()
    mask, up, fifty = card_state(boxes)
    total = sum(boxes.values())
    theirs = Normal(np.array([their_mean]), np.array([35.0]))
    plans = turn_plans(table, np.array([mask]), np.array([up]), np.array([fifty]), np.array([total]), theirs)
    spreads, rolls = state_spreads(table), table.rules.rolls_per_turn
    postings = rule_postings(table.engine.tables, (mask, up, fifty), rolls)

    def posting_score(roll: Any, column: Any) -> Any:
        after = postings.afters[roll, column]
        if after < 0:
            return -math.inf
        mean = total + postings.gains[roll, column] + table.values[after]
        z = (mean - their_mean) / math.hypot(spreads[after], 35.0)
        return 0.5 * math.erfc(-z / math.sqrt(2)) + TIE_BREAK * mean

    best_post = {roll: max(posting_score(index, column) for column in range(EXTRA_TURN + 1))
                 for index, roll in enumerate(ROLLS)}
    for index, roll in enumerate(ROLLS):
        column = plans.boxes[rolls - 1, index, 0]
        assert posting_score(index, column) == pytest.approx(best_post[roll], abs=1e-12)

    def keep_score(kept: Any, later: Any) -> Any:
        return sum(p * later[tuple(sorted(kept + fresh))] for fresh, p in throws(5 - len(kept)))

    second = {roll: max(best_post[roll], max(keep_score(KEEPS[k], best_post) for k in set(SUB_KEEPS[ROLL_INDEX[roll]])))
              for roll in ROLLS}
    for roll in random.Random(2).sample(ROLLS, 12):
        index = ROLL_INDEX[roll]
        for used, later in ((rolls - 1, best_post), (rolls - 2, second)):
            keep = plans.keeps[used - 1, index, 0]
            choices = {k: keep_score(KEEPS[k], later) for k in set(SUB_KEEPS[index])}
            best_keep = max(choices.values())
            if keep >= 0:
                assert choices[keep] == pytest.approx(best_keep, abs=1e-12) and best_keep > best_post[roll] - 1e-12
            else:
                assert best_post[roll] >= best_keep - 1e-12


def race_game(other_total: int, dice: tuple[int, int, int, int, int]) -> Game:
    """RIVAL's turn in round 9 (mid_card) against BOB, who has the same boxes open and `other_total`."""
    game = Game.start([Player("BOB"), Player("RIVAL", "computer", mood="rival")], HASBRO,
                      source=RandomDice(random.Random(1)))
    bob = {**mid_card(), C.FOURS: 12}
    game.players[0].card = Scorecard(boxes=bob, yahtzee_bonus=other_total - sum(bob.values()))
    game.players[1].card = Scorecard(boxes=mid_card())
    game.seat, game.round = 1, 9
    game.turn = Turn(dice=dice, rolls=1)
    return game


def test_the_rival_plays_a_turn_before_its_last_for_the_win(loader: Loader, table: StrategyTable) -> None:
    rival, thinker = computer_player("*rival", HASBRO, loader), computer_player("*thinker", HASBRO, loader)
    for other_total, dice in ((98, (6, 6, 6, 2, 1)), (150, (1, 1, 1, 2, 3))):
        game = race_game(other_total, dice)
        theirs = final_normals(table, np.array([state_index(*card_state(game.players[0].card.boxes))]),
                               np.array([other_total]))
        mask, up, fifty = card_state(game.current.card.boxes)
        plans = turn_plans(table, np.array([mask]), np.array([up]), np.array([fifty]),
                           np.array([game.current.card.total]), theirs)
        assert rival.next_action(game) == plans.action(dice, 1)
    # Level, it plays as the thinker; 52 points behind, it keeps three ones for five alike
    # where the thinker keeps the 2 and 3 for the straights.
    level, behind = race_game(98, (6, 6, 6, 2, 1)), race_game(150, (1, 1, 1, 2, 3))
    assert rival.next_action(level) == thinker.next_action(level)
    assert rival.next_action(behind) == Reroll(reroll_marks((1, 1, 1, 2, 3), (1, 1, 1)))
    assert thinker.next_action(behind) == Reroll(reroll_marks((1, 1, 1, 2, 3), (2, 3)))


def test_in_the_rivalry_the_rival_sees_the_other_card_as_the_round_began(table: StrategyTable,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from yahtzee.strategy.headless import duels
    seen = []
    play = duels.play_rival_turns

    def watched(table: StrategyTable, rival: Any, other: Any, games: Any, dice: Any, plans: Any) -> None:
        seen.append((rival.open_counts(games), other.open_counts(games)))
        play(table, rival, other, games, dice, plans)

    monkeypatch.setattr(duels, "play_rival_turns", watched)
    rival, thinker = duels.play_rivalries(40, table, np.random.default_rng(2))
    assert rival.is_full.all() and thinker.is_full.all() and len(seen) == 26
    # Sitting second (the odd games) too, the other card has as many boxes open as its own.
    assert all((mine == theirs).all() for mine, theirs in seen)
