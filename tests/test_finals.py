"""What a card still scores under the table's play (strategy.finals), checked against counts
made through the game model: every throw of the dice enumerated with its chance, every
decision asked of the *thinker computer player, every posting scored by the model itself.
Then the chance to win of a last turn against an opponent who still has one or two boxes
to fill, against the same exact count."""
import copy
import random
from pathlib import Path
from typing import Any, Callable, Union

import numpy as np
import pytest
from helpers import LOCK_ERRNO, game_copy
from test_win_chance import FULL_CARD, last_turn, throws

from yahtzee.model.choices import Option, Reroll
from yahtzee.model.dice import RandomDice
from yahtzee.model.game import Game, Player, Turn
from yahtzee.model.rules import ACORN, FIVEOAK, HASBRO, Rules
from yahtzee.model.scorecard import Scorecard
from yahtzee.model.scoring import UPPER, Category
from yahtzee.present.render import choice_text
from yahtzee.strategy.exact.position import card_state
from yahtzee.strategy.exact.statespace import state_index, states_of
from yahtzee.strategy.exact.table import StrategyTable
from yahtzee.strategy.odds.computers import computer_player
from yahtzee.strategy.odds.finals import remaining_distributions, remaining_pmfs
from yahtzee.strategy.odds.rests import (
    FULL_CARD_KINDS,
    SHAPE_REACH,
    STEPS_PER_SPREAD,
    Rests,
    placed_shape,
    played_games,
    rest_kinds,
    state_kinds,
)
from yahtzee.strategy.odds.rival import RivalPlayer
from yahtzee.strategy.odds.winchance import option_chances
from yahtzee.strategy.play.advisor import advise
from yahtzee.strategy.play.players import ComputerPlayer
from yahtzee.strategy.storage.cache import table_loader

pytestmark = pytest.mark.slow(15)

C = Category


@pytest.fixture(scope="module")
def loader(shared_table_cache: Path) -> Callable:
    return table_loader(shared_table_cache)


def model_key(card: Scorecard) -> tuple[frozenset, int, bool]:
    """What the thinker's play of a card depends on: its boxes, capped upper sum, a fifty."""
    upper = min(63, sum(points for box, points in card.boxes.items() if box in UPPER))
    return frozenset(card.boxes), upper, card.boxes.get(C.YAHTZEE) == 50


def remaining_by_model(
        card: Scorecard, rules: Rules, thinker: Union[ComputerPlayer, RivalPlayer],
        memo: dict[tuple[frozenset, int, bool], dict[int, float]]) -> dict[int, float]:
    """{points still to come: chance} of a card played by *thinker, through the game model."""
    if card.is_full:
        return {0: 1.0}
    key = model_key(card)
    if key in memo:
        return memo[key]
    game = Game.start([Player("BOB", "computer", mood="thinker")], rules, source=RandomDice(random.Random(1)))
    game.players[0].card = copy.deepcopy(card)
    game.round = len(card.boxes) + 1
    resolved = {}

    def resolve(dice: Any, rolls: Any) -> Any:
        if (dice, rolls) not in resolved:
            game.turn = Turn(dice=dice, rolls=rolls)
            action = thinker.next_action(game)
            result: dict[Any, float] = {}
            if isinstance(action, Reroll):
                kept = tuple(face for face, again in zip(dice, action.marked) if not again)
                for fresh, chance in throws(5 - len(kept)):
                    for points, p in resolve(tuple(sorted(kept + fresh)), rolls + 1).items():
                        result[points] = result.get(points, 0.0) + chance * p
            else:
                trial = game_copy(game)
                trial.post(action.box)
                after = trial.players[0].card
                for points, p in remaining_by_model(after, rules, thinker, memo).items():
                    gained = after.total - card.total + points
                    result[gained] = result.get(gained, 0.0) + p
            resolved[dice, rolls] = result
        return resolved[dice, rolls]

    total: dict[int, float] = {}
    for dice, chance in throws(5):
        for points, p in resolve(dice, 1).items():
            total[points] = total.get(points, 0.0) + chance * p
    memo[key] = total
    return total


def card_with_open(*open_boxes: Any, **filled: Any) -> Scorecard:
    """A Scorecard of FULL_CARD's points with these boxes open (and these points changed)."""
    points = {**FULL_CARD, **{Category[name.upper()]: value for name, value in filled.items()}}
    return Scorecard(boxes={box: value for box, value in points.items() if box not in open_boxes})


# CHANCE and YAHTZEE open: counted through the cards with one of them open too.
CARDS = [
    (HASBRO, card_with_open(C.SIXES, fives=20)),  # 18 or more in SIXES brings the upper bonus
    (HASBRO, card_with_open(C.FIVES, C.SIXES, threes=6)),  # the upper sum 27 is worked out as 26 (the same future)
    (HASBRO, card_with_open(C.CHANCE, C.YAHTZEE)),
    (HASBRO, card_with_open(C.FOURS, C.FULL_HOUSE, yahtzee=50)),  # a joker earns 100 more
    (FIVEOAK, card_with_open(C.LARGE_STRAIGHT)),  # a roll bonus for an early posting
    (ACORN, card_with_open(C.ONES, yahtzee=50)),  # an extra Yahtzee blanks a box for 100
]


@pytest.mark.parametrize("rules, card", CARDS)
def test_a_cards_remaining_score_is_the_count_through_the_game_model(
        loader: Callable, rules: Rules, card: Scorecard) -> None:
    table = loader(rules)
    thinker = computer_player("*thinker", rules, loader)
    expected = remaining_by_model(card, rules, thinker, {})
    index = state_index(*card_state(card.boxes))
    (shown,) = remaining_distributions(table, [index]).values()
    assert sum(expected.values()) == pytest.approx(1.0, abs=1e-12)
    assert {points for points, chance in enumerate(shown) if chance > 1e-15} == set(expected)
    for points, chance in expected.items():
        assert shown[points] == pytest.approx(chance, abs=1e-12)
    assert sum(points * chance for points, chance in enumerate(shown)) == pytest.approx(table.values[index], abs=1e-9)


def test_the_state_that_stands_for_others_has_their_values(loader: Callable) -> None:
    """statespace.same_future: every reachable state and the one that stands for it have the
    same expected score (the finals work out one distribution for them all)."""
    from yahtzee.strategy.exact.statespace import REACHABLE_UPS, UPPER_MASK, same_future
    table = loader(HASBRO)
    masks = np.arange(2 ** 13)
    ups = [REACHABLE_UPS[mask & UPPER_MASK] for mask in masks.tolist()]
    mask = np.repeat(masks, [len(up) for up in ups])
    index = state_index(mask, np.concatenate(ups), 0)
    standing = same_future(index)
    assert (standing != index).sum() > 10_000  # many stand for others
    assert (table.values[standing] == table.values[index]).all()
    filled = mask >> 11 & 1 == 1
    assert (table.values[same_future(index[filled] + 1)] == table.values[index[filled] + 1]).all()  # with a fifty


def opponent_with(game: Game, card: Scorecard) -> Game:
    """The game with BOB's card replaced: BOB, who plays first, still has boxes to fill."""
    game.players[0].card = card
    return game


def exact_chances(game: Game, options: list[Option], bob_remaining: dict[int, float]) -> list[float]:
    """Each option's exact chance to win of ANN's last turn, BOB's final drawn from his count."""
    bob_total = game.players[0].card.total

    def won(total: int) -> Any:
        return sum(p * (1.0 if total > bob_total + points else 0.5 if total == bob_total + points else 0.0)
                   for points, p in bob_remaining.items())

    rolls = game.rules.rolls_per_turn
    posted = {}

    def post_now(dice: Any, used: Any) -> Any:
        if (dice, used) not in posted:
            trial = game_copy(game)
            trial.turn = Turn(dice=dice, rolls=used)
            trial.post(trial.legal_boxes()[0])
            posted[dice, used] = won(trial.players[1].card.total)
        return posted[dice, used]

    def best(dice: Any, used: Any) -> Any:
        choices = [post_now(dice, used)]
        if used < rolls:
            choices += [reroll(keep, used) for keep in keeps(dice)]
        return max(choices)

    def reroll(kept: Any, used: Any) -> Any:
        return sum(p * best(tuple(sorted(kept + fresh)), used + 1) for fresh, p in throws(5 - len(kept)))

    dice, used = tuple(sorted(game.turn.dice)), game.turn.rolls
    return [post_now(dice, used) if option.kind == "box" else reroll(option.kept, used) for option in options]


def keeps(dice: Any) -> Any:
    """The distinct sorted keeps of a roll that reroll at least one die."""
    return {tuple(sorted(dice[i] for i in range(5) if picked >> i & 1)) for picked in range(31)}


@pytest.mark.parametrize("bob_open, bob_filled, ann_open, ann_filled, dice", [
    ((C.CHANCE,), {}, C.THREE_OF_A_KIND, {}, (6, 6, 2, 5, 1)),
    ((C.YAHTZEE,), {}, C.CHANCE, {}, (6, 3, 5, 1, 2)),
    ((C.CHANCE, C.YAHTZEE), {}, C.SIXES, {}, (6, 6, 1, 2, 3)),
    # strange cards: zeros in the upper boxes (the bonus needs five FOURS), YAHTZEE scratched
    ((C.FOURS, C.FULL_HOUSE), {"ones": 0, "twos": 0, "threes": 0}, C.FIVES, {"sixes": 0}, (5, 5, 1, 2, 3)),
    ((C.LARGE_STRAIGHT, C.SIXES), {"fives": 0, "chance": 5}, C.SMALL_STRAIGHT, {"ones": 0, "twos": 0}, (2, 3, 4, 6, 6)),
])
def test_a_last_turns_win_chance_against_one_or_two_open_boxes_is_exact(
        loader: Callable, bob_open: tuple[Category, ...], bob_filled: dict[str, int],
        ann_open: Category, ann_filled: dict[str, Any], dice: tuple[int, int, int, int, int]) -> None:
    table = loader(HASBRO)
    thinker = computer_player("*thinker", HASBRO, loader)
    bob = card_with_open(*bob_open, **bob_filled)
    game = opponent_with(last_turn(ann_open, dice, rolls=2, other_total=0, **ann_filled), bob)
    options = advise(table, game)
    shown = option_chances(table, game, options)
    exact = exact_chances(game, options, remaining_by_model(bob, HASBRO, thinker, {}))
    for option, chance, truth in zip(options, shown, exact):
        assert chance == pytest.approx(truth, abs=1e-9), choice_text(option)
    assert max(exact) - min(exact) > 0.01  # the case tells choices apart


def test_a_full_cards_rest_is_nothing_and_a_large_cards_has_its_own_mean(loader: Callable) -> None:
    table = loader(HASBRO)
    full = state_index(*card_state(FULL_CARD))
    empty = state_index(0, 0, 0)
    pmfs = remaining_pmfs(table, [full, empty])
    assert list(pmfs[full]) == [1.0]
    points = range(len(pmfs[empty]))
    assert sum(pmfs[empty]) == pytest.approx(1.0, abs=1e-12)
    assert sum(p * c for p, c in zip(points, pmfs[empty])) == pytest.approx(table.values[empty], abs=0.05)


def test_a_shape_placed_at_a_mean_keeps_the_mean_and_its_spread() -> None:
    shape = np.zeros(2 * SHAPE_REACH + 1)
    shape[SHAPE_REACH - 10], shape[SHAPE_REACH + 30] = 0.75, 0.25  # offsets -10 and +30, mean 0
    pmf = placed_shape(shape, 0.0, 100.4, STEPS_PER_SPREAD)  # a step a point
    assert sum(pmf) == pytest.approx(1.0)
    assert sum(p * c for p, c in enumerate(pmf)) == pytest.approx(100.4)
    assert pmf[90] == pytest.approx(0.75 * 0.6) and pmf[91] == pytest.approx(0.75 * 0.4)
    wide = placed_shape(shape, 0.0, 100.0, 2.5 * STEPS_PER_SPREAD)  # offsets -25 and +75: spread 2.5 times
    assert wide[75] == pytest.approx(0.75) and wide[175] == pytest.approx(0.25) and sum(wide) == pytest.approx(1.0)
    moved = placed_shape(shape, 10.0, 100.0, STEPS_PER_SPREAD)  # a shape centred at +10 is moved 10 less
    assert moved[80] == pytest.approx(0.75) and moved[120] == pytest.approx(0.25)


@pytest.mark.parametrize("mean", [100.4, 3.25, 0.0, 37.0])
def test_a_placed_shape_puts_each_offset_on_the_two_points_around_it(mean: float) -> None:
    shape = np.random.default_rng(3).random(2 * SHAPE_REACH + 1)
    shape /= shape.sum()
    expected: dict[int, float] = {}
    for offset, chance in zip(range(-SHAPE_REACH, SHAPE_REACH + 1), shape):
        low = int(np.floor(mean + offset))
        share = mean + offset - low
        expected[max(low, 0)] = expected.get(max(low, 0), 0.0) + chance * (1 - share)
        expected[max(low + 1, 0)] = expected.get(max(low + 1, 0), 0.0) + chance * share
    pmf = placed_shape(shape, 0.0, mean, STEPS_PER_SPREAD)
    assert {point: pmf[point] for point in expected} == pytest.approx(expected, abs=1e-15)
    assert sum(pmf) == pytest.approx(1.0, abs=1e-12)


def test_the_measured_shapes_tell_cards_apart_by_yahtzee_box_and_upper_bonus(rests: Rests) -> None:
    full = (1 << 13) - 1
    yahtzee_open = full ^ 0b111111 ^ 1 << 11  # the upper boxes and YAHTZEE open
    fifty_in = full ^ 0b1111111  # the upper boxes and THREE OF A KIND open, 50 in YAHTZEE
    kinds = rest_kinds(states_of([state_index(yahtzee_open, 0, 0), state_index(fifty_in, 0, 1)]))
    yahtzee_open, fifty = (rests.shapes[kind] for kind in kinds)
    assert all(abs(rests.centres[kind]) < 0.5 for kind in kinds)
    assert rests.spreads[state_index(full, 63, 1)] == 0 and np.isfinite(rests.spreads).all()
    assert not (yahtzee_open == fifty).all()


def test_the_spread_of_cards_alike_is_that_of_the_cards_of_its_kind(rests: Rests) -> None:
    """Every game starts at the empty card, alone of its kind: its kind's spread is its own
    (the published 59.61); the cards after one turn with YAHTZEE open (where most games
    are then) have a spread among their own; a full card's is 0."""
    empty = state_index(0, 0, 0)
    assert rests.alike_spreads[empty] == pytest.approx(rests.spreads[empty], rel=1e-12)
    assert rests.alike_spreads[empty] == pytest.approx(59.61, abs=0.005)
    after_one = state_index(1 << 6, 0, 0)  # THREE OF A KIND filled
    own = rests.spreads[state_kinds() == state_kinds()[after_one]]
    assert own.min() < rests.alike_spreads[after_one] < own.max()
    assert (rests.alike[:FULL_CARD_KINDS] == 0).all() and (rests.alike[FULL_CARD_KINDS:] > 0).all()


def test_a_straying_game_leaves_its_own_game_at_its_straying_turn_and_counts_from_the_next(
        table: StrategyTable) -> None:
    """An own game's turn starts count at all 13 turns, a straying game's from the turn after it
    strays; then it stands where its own game stood at that turn (their turns before are one and
    the same), with one box more filled, at random."""
    games = 300
    cards, strays, (rows, _kinds, at, _totals) = played_games(table, games, seed=5, progress=None)
    assert cards.is_full.all() and (strays[:games] == -1).all()
    counts = np.bincount(rows, minlength=2 * games)
    assert (counts[:games] == 13).all() and (counts[games:] == 12 - strays[games:]).all()
    starts: list[list[int]] = [[] for _ in range(2 * games)]
    for game, state in zip(rows.tolist(), at.tolist()):
        starts[game].append(state)
    for stray in range(games, 2 * games):
        own, first = states_of([starts[stray - games][strays[stray]], starts[stray][0]]).mask.tolist()
        assert bin(first & ~own).count("1") == 1 and own & ~first == 0, stray


@pytest.mark.wine_lacks(reason=LOCK_ERRNO)
def test_rests_another_copy_is_measuring_are_waited_for_and_read_not_measured_twice(
        tmp_path: Path, shared_table_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil
    import threading

    from yahtzee.saves.locks import default_lock
    from yahtzee.strategy.odds import rests
    from yahtzee.strategy.storage import cache
    table = cache.load_table(HASBRO, cache_dir=shared_table_cache)
    cache.ready_rests(table, shared_table_cache)  # in this copy's memory (read from the package)
    shipped = cache.SHIPPED
    monkeypatch.setenv("YAHTZEE_SHIPPED", "")  # as for rules whose rests must be made
    folder = tmp_path / "cache"
    folder.mkdir()
    other_copy = default_lock(folder / (cache.table_file_name(HASBRO, table.objective) + ".lock"))
    assert other_copy.acquire()  # another copy of the game is measuring them
    monkeypatch.delitem(rests.MEASURED_RESTS, (HASBRO, table.objective))  # not yet in this copy's memory
    measured, waiting = [], threading.Event()
    def measuring(table: StrategyTable, progress: Any = None, processes: int = 1) -> Rests:
        measured.append(table)
        return rests.measured_rests(table)
    monkeypatch.setattr(cache, "measured_rests", measuring)
    reader = threading.Thread(target=cache.ready_rests, args=(table, folder, lambda done, total: waiting.set()))
    reader.start()
    try:
        assert waiting.wait(30)
        name = cache.rests_file_name(table)
        shutil.copy(shipped / name, folder / name)  # the other copy keeps what it measured
    finally:
        other_copy.release()
    reader.join(30)
    assert not reader.is_alive() and measured == [] and rests.has_rests(table)


def test_the_rests_are_kept_beside_the_table_and_a_damaged_file_is_measured_again(
        tmp_path: Path, shared_table_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    from yahtzee.strategy.odds import rests
    from yahtzee.strategy.storage import cache
    folder = tmp_path / "cache"
    table = cache.load_table(HASBRO, cache_dir=shared_table_cache)
    cache.ready_rests(table, shared_table_cache)  # in this copy's memory (read from the package)
    shipped = cache.SHIPPED
    monkeypatch.setenv("YAHTZEE_SHIPPED", "")  # as for rules whose rests must be made
    name = cache.table_file_name(HASBRO, table.objective)
    folder.mkdir()
    shutil.copy(shipped / name, folder / name)
    rests_path = folder / cache.rests_file_name(table)
    measured = rests.measured_rests(table)
    shutil.copy(shipped / rests_path.name, rests_path)
    kept = cache.read_rests(table, rests_path)
    assert kept is not None and (kept.shapes == measured.shapes).all() and (kept.alike == measured.alike).all()
    # A file of an earlier game, without the spreads of cards alike, is not read either.
    meta: cache.CacheMeta = {"version": cache.FORMAT_VERSION, "key": cache.table_key(HASBRO, table.objective)}
    assert cache.save_arrays(rests_path, meta, spreads=measured.spreads, shapes=measured.shapes,
                             centres=measured.centres)
    assert cache.read_rests(table, rests_path) is None
    # A damaged file is never read; the next readying measures them again and keeps them anew.
    for damage in (b"not a zip", b"", rests_path.read_bytes()[:-100]):
        rests_path.write_bytes(damage)
        assert cache.read_rests(table, rests_path) is None
    monkeypatch.delitem(rests.MEASURED_RESTS, (HASBRO, table.objective))
    again = []  # measured again, on fewer games than the game plays (the file is the point here)
    exact = measured.exact
    remeasure = lambda table, progress=None: rests.measure_rests(table, 500, exact=exact)  # noqa: E731
    def measuring_again(table: StrategyTable, progress: Any = None, processes: int = 1) -> Rests:
        again.append(remeasure(table))
        return again[0]
    monkeypatch.setattr(cache, "measured_rests", measuring_again)
    cache.ready_rests(cache.load_table(HASBRO, cache_dir=folder), folder)
    kept = cache.read_rests(table, rests_path)
    assert len(again) == 1 and kept is not None and (kept.shapes == again[0].shapes).all()


def test_a_full_memo_is_emptied_before_and_never_loses_a_state_asked_for(table: StrategyTable, rests: Rests,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The memos of distributions are emptied when full: before the states still to do are
    chosen, so that states already known but asked for again are worked out again, not lost."""
    from yahtzee.strategy.odds import finals
    monkeypatch.setattr(finals, "MEMO_LIMIT", 1)
    table.memo.clear()
    small = [state_index(*card_state(card_with_open(*boxes).boxes)) for boxes in ((C.CHANCE,), (C.SIXES, C.YAHTZEE))]
    large = [state_index(0, 0, 0), state_index(0b1, 3, 0)]
    for states in (small[:1], small, large[:1], large):  # each time one known, one new, the memo over its limit
        pmfs = remaining_pmfs(table, states)
        assert set(pmfs) == set(states) and all(sum(pmf) == pytest.approx(1.0) for pmf in pmfs.values())
