"""The chance to win: for each choice, the chance of finishing ahead of every other player.

This player's turn is worked out exactly, every roll and keep, played from each choice on
for the win. Every card's score after it is its total so far plus what it still scores,
drawn from the distribution of that card's own remaining score under the exact table's play
(see finals: exact for a card with few boxes open, else its next two turns exactly and then
the card's own mean and spread, exact, in the shape measured over cards alike). A
yahtChallenge extra turn is played out too. When every other card is full and this turn
fills the last box, nothing is estimated: the chance is an exact count over the remaining
rolls. A tie for first counts as half a win.
"""
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Callable, Optional, Union

import numpy as np

from ...model import scoring
from ...model.choices import Option
from ...model.game import Game
from ...model.match import MatchStand
from ...model.scorecard import Scorecard
from ...model.scoring import Category
from ..exact.dicemath import (
    CHILDREN,
    DICE,
    FACE_COUNT,
    KEEP_INDEX,
    KEEPS,
    ROLL_INDEX,
    ROLLS,
    SUB_KEEPS,
    YAHTZEE_ROLLS,
    over_rolls,
    size_rows,
)
from ..exact.position import BIT_OF, card_state
from ..exact.rulearrays import BOX_COUNT, UP_CAP, UPPER_BITS, YAHTZEE_BIT, RuleTables
from ..exact.statespace import state_index
from ..exact.table import StrategyTable
from ..play.advisor import CACHE_SIZE
from .finals import EXACT_TURNS, remaining_pmfs

SCORE_LIMIT = 4000  # final scores are counted on 0..SCORE_LIMIT (higher ones are clipped)
NOT_LEGAL = -1.0
NO_STATE = -1
EXACT_EXTRA_TURNS = 40  # more than a card can ever need: each extra turn adds its bonus
ESTIMATED_EXTRA_TURNS = 2
StageChances = tuple[dict[int, np.ndarray], dict[int, np.ndarray]]  # see turn_stages


@dataclass(frozen=True)
class Final:
    """A player's final score: the total so far plus a remaining score with this distribution
    (index = points; [1.0] for a finished card)."""

    total: int
    remaining: np.ndarray = field(default_factory=lambda: np.ones(1))

    def cdf(self, limit: int = SCORE_LIMIT) -> np.ndarray:
        """P(final <= x) for every x in 0..limit (a higher final counts as `limit`)."""
        pmf = np.zeros(limit + 1)
        start = min(self.total, limit)
        end = min(limit + 1, start + len(self.remaining))
        pmf[start:end] = self.remaining[:end - start]
        cdf = np.minimum(np.cumsum(pmf), 1.0)
        cdf[-1] = 1.0
        return cdf


def final_of(table: StrategyTable, card: Scorecard) -> Final:
    """The final score of a card at the start of its turn (known once it is full)."""
    index = state_index(*card_state(card.boxes))
    return Final(card.total, remaining_pmfs(table, [index])[index])


def ahead_chances(others: Sequence[Final], limit: int = SCORE_LIMIT) -> np.ndarray:
    """For each final score 0..limit, the chance it ends ahead of all `others`."""
    below, at_most = np.ones(limit + 1), np.ones(limit + 1)
    for final in others:
        cdf = final.cdf(limit)
        below *= np.concatenate(([0.0], cdf[:-1]))
        at_most *= cdf
    return below + (at_most - below) / 2


def win_values(table: StrategyTable, states: Union[Sequence[int], np.ndarray], totals: Union[Sequence[int], np.ndarray],
               ahead: np.ndarray) -> np.ndarray:
    """The chance to win of cards at the start of a turn in `states` (value table indices)
    with these totals: each total plus the state's remaining score, against `ahead`."""
    states, totals = np.asarray(states, dtype=np.int64), np.asarray(totals, dtype=np.int64)
    result = np.empty(len(states))
    if not len(states):
        return result
    pmfs = remaining_pmfs(table, np.unique(states), turns=EXACT_TURNS - 1)  # this turn is one of them
    longest = max(len(pmf) for pmf in pmfs.values())
    padded = np.concatenate([ahead, np.full(longest, ahead[-1])])
    for state, pmf in pmfs.items():
        rows = np.flatnonzero(states == state)
        start = np.minimum(totals[rows], SCORE_LIMIT)
        result[rows] = padded[start[:, None] + np.arange(len(pmf))] @ pmf
    return result


@dataclass(frozen=True)
class Postings:
    """Every roll's postings from one turn-start state after some rolls: for each roll and
    column (a box, then the extra turn) the points it adds and the state after it
    (NO_STATE where it is not legal; an extra turn keeps the state)."""

    gains: np.ndarray   # rolls x (boxes + 1)
    afters: np.ndarray  # rolls x (boxes + 1)

    def expected(self, table: StrategyTable) -> np.ndarray:
        """The expected points still to come after every posting, the posting's own included
        (0 where it is not legal)."""
        legal = self.afters != NO_STATE
        return np.where(legal, self.gains + table.values[np.where(legal, self.afters, 0)], 0.0)

    def chances(self, table: StrategyTable, total: int, ahead: np.ndarray,
                extra_turn: Callable[[int], float]) -> np.ndarray:
        """The chance to win of every posting (NOT_LEGAL where there is none); an extra turn's
        is `extra_turn(total)`, the chance of another turn with that total."""
        result = np.full(self.gains.shape, NOT_LEGAL)
        legal = self.afters != NO_STATE
        legal[:, BOX_COUNT] = False
        result[legal] = win_values(table, self.afters[legal], total + self.gains[legal], ahead)
        extra = self.afters[:, BOX_COUNT] != NO_STATE
        result[extra, BOX_COUNT] = [extra_turn(total + gain) for gain in self.gains[extra, BOX_COUNT]]
        return result


def postings(table: StrategyTable, boxes: Mapping[Category, int], rolls_used: int) -> Postings:
    """The postings of every roll from this card after `rolls_used` rolls, read off the rule
    tables the solver plays by (remembered per state)."""
    state = card_state(boxes)
    key = ("postings", state, rolls_used)
    if key not in table.memo:
        if len(table.memo) >= CACHE_SIZE:
            table.memo.clear()
        table.memo[key] = rule_postings(table.engine.tables, state, rolls_used)
    return table.memo[key]


def rule_postings(tables: RuleTables, state: tuple[int, int, int], rolls_used: int) -> Postings:
    """Every roll's postings in every box (and an extra turn) from a turn-start state."""
    mask, up, fifty = state
    case = 0 if not mask >> YAHTZEE_BIT & 1 else 1 + fifty
    bits = np.arange(BOX_COUNT)
    legal = np.repeat(((mask >> bits) & 1 == 0)[None, :], len(ROLLS), axis=0)
    points = tables.points.copy()
    bonus = np.zeros(len(ROLLS), dtype=np.int64)
    five = list(YAHTZEE_ROLLS)
    faces = np.arange(FACE_COUNT)
    legal[five] = (tables.yahtzee_legal[case, mask, faces][:, None] >> bits) & 1 == 1
    matching = (mask >> np.array(UPPER_BITS)) & 1
    points[five] = tables.five_points[case, matching, faces]
    bonus[five] = tables.bonus[case, faces]
    upper = np.isin(bits, UPPER_BITS)
    new_up = np.where(upper, np.minimum(up + points, UP_CAP), up)
    upper_bonus = np.where(upper & (up < UP_CAP) & (up + points >= UP_CAP), scoring.UPPER_BONUS, 0)
    roll_bonus = tables.stage_bonus(rolls_used) * tables.fits
    new_fifty = np.where(bits == YAHTZEE_BIT, (points == scoring.YAHTZEE_POINTS).astype(np.int64), fifty)
    gains = np.zeros((len(ROLLS), BOX_COUNT + 1), dtype=np.int64)
    afters = np.full((len(ROLLS), BOX_COUNT + 1), NO_STATE, dtype=np.int64)
    gains[:, :BOX_COUNT] = points + upper_bonus + bonus[:, None] + roll_bonus
    afters[:, :BOX_COUNT] = np.where(legal, state_index(mask | (1 << bits), new_up, new_fifty), NO_STATE)
    turn_bonus = tables.turn_bonus[case, faces]
    gains[five, BOX_COUNT] = turn_bonus
    afters[five, BOX_COUNT] = np.where(turn_bonus > 0, state_index(mask, up, fifty), NO_STATE)
    return Postings(gains, afters)


def keep_chances(roll_chances: np.ndarray) -> np.ndarray:
    """The chance of every keep, from the chance of every roll the reroll may bring."""
    values = np.empty(len(KEEPS))
    values[size_rows(DICE)] = roll_chances
    for size in range(DICE - 1, -1, -1):
        values[size_rows(size)] = values[CHILDREN[size]].mean(axis=1)
    return values


def turn_stages(post_chances: Callable[[int], np.ndarray], first_used: int, last_used: int) -> StageChances:
    """The rest of a turn played for the win: for each number of rolls used from `first_used`
    to `last_used`, the chance of every posting (rolls x columns), and before the last the
    chance of every keep rerolled then; `post_chances(used)` gives the postings' chances."""
    posts = {used: post_chances(used) for used in range(first_used, last_used + 1)}
    keeps: dict[int, np.ndarray] = {}
    best = posts[last_used].max(axis=1)
    for used in range(last_used - 1, first_used - 1, -1):
        keeps[used] = keep_chances(best)
        best = np.maximum(posts[used].max(axis=1), keeps[used][SUB_KEEPS].max(axis=1))
    return posts, keeps


def card_stages(table: StrategyTable, boxes: Mapping[Category, int], total: int, ahead: np.ndarray, first_used: int,
                last_used: int, extra_turns: Optional[int] = None) -> StageChances:
    """turn_stages (played for the win) of a card with these boxes and total points; an extra
    turn is played out, up to `extra_turns` more of them (by default as many as can matter
    when every other card is full, else ESTIMATED_EXTRA_TURNS), then estimated."""
    extra_turns = default_extra_turns(ahead) if extra_turns is None else extra_turns
    played: dict[int, float] = {}
    here = state_index(*card_state(boxes))

    def extra_turn(new_total: int) -> float:
        if new_total not in played:
            played[new_total] = (turn_chance(table, boxes, new_total, ahead, extra_turns - 1) if extra_turns > 0
                                 else float(win_values(table, [here], [new_total], ahead)[0]))
        return played[new_total]

    def post_chances(used: int) -> np.ndarray:
        return postings(table, boxes, used).chances(table, total, ahead, extra_turn)
    return turn_stages(post_chances, first_used, last_used)


def turn_chance(table: StrategyTable, boxes: Mapping[Category, int], total: int, ahead: np.ndarray,
                extra_turns: int) -> float:
    """The chance to win of a whole turn from this card, played for the win."""
    if ahead[int(min(total, SCORE_LIMIT))] >= 1.0:
        return 1.0  # ahead of every final already: points only add
    rolls = table.rules.rolls_per_turn
    posts, keeps = card_stages(table, boxes, total, ahead, 1, rolls, extra_turns)
    best = posts[1].max(axis=1)
    if rolls > 1:
        best = np.maximum(best, keeps[1][SUB_KEEPS].max(axis=1))
    return float(over_rolls(best))


def default_extra_turns(ahead: np.ndarray) -> int:
    """How many extra turns in a row are played out: all that can matter against finished
    cards (the chance is then exact), ESTIMATED_EXTRA_TURNS against estimated ones."""
    finished = np.isin(ahead, (0.0, 0.5, 1.0)).all()
    return EXACT_EXTRA_TURNS if finished else ESTIMATED_EXTRA_TURNS


def others_ahead(table: StrategyTable, game: Game, stand: Optional[MatchStand] = None) -> np.ndarray:
    """For each final score of this game, the chance the current player ends ahead of the
    opponents: in the game, or with `stand` in the match (the totals before it, this game's
    final and a whole game's score for each game to come)."""
    opponents = [player for seat, player in enumerate(game.players) if seat != game.seat]
    if stand is None:
        return ahead_chances([final_of(table, player.card) for player in opponents])
    to_come = games_to_come(table, stand.games_after)
    match_finals = [Final(stand.before.get(player.name, 0) + final.total, convolved(final.remaining, to_come))
                    for player, final in ((player, final_of(table, player.card)) for player in opponents)]
    mine = stand.before.get(game.current.name, 0)
    limit = mine + SCORE_LIMIT + len(to_come)
    ahead = ahead_chances(match_finals, limit)
    # ahead in the game at x: ahead in the match at mine + x + y, y the score of the games to come
    return np.clip(sliding_dot(ahead[mine:], to_come)[:SCORE_LIMIT + 1], 0.0, 1.0)


def games_to_come(table: StrategyTable, games: int) -> np.ndarray:
    """The distribution of the points a player scores in `games` whole games (remembered)."""
    key = ("games_to_come", games)
    if key not in table.memo:
        empty = state_index(*card_state({}))
        whole = remaining_pmfs(table, [empty])[empty]
        result = np.ones(1)
        for _game in range(games):
            result = convolved(result, whole)
        table.memo[key] = result
    return table.memo[key]


def convolved(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """The distribution of the sum of two independent scores with these distributions."""
    size = len(first) + len(second) - 1
    if min(len(first), len(second)) < 64:
        return np.convolve(first, second)
    length = 1 << (size - 1).bit_length()
    return np.maximum(np.fft.irfft(np.fft.rfft(first, length) * np.fft.rfft(second, length), length)[:size], 0.0)


def sliding_dot(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """result[x] = sum over y of values[x + y] * weights[y], for every x where values[x] is
    defined (beyond its end values stay at their last)."""
    padded = np.concatenate([values, np.full(len(weights) - 1, values[-1])])
    if len(weights) < 64:
        return np.correlate(padded, weights, mode="valid")
    length = 1 << (len(padded) - 1).bit_length()
    spectrum = np.fft.rfft(padded, length) * np.conj(np.fft.rfft(weights, length))
    return np.fft.irfft(spectrum, length)[:len(values)]


def prepare_turn(table: StrategyTable, card: Scorecard, others: Sequence[Scorecard],
                 stopped: Callable[[], bool] = lambda: False) -> None:
    """Work out, before a player's first roll, what every look at the turn's chances needs
    whatever the dice (all remembered in the table's memo): the final scores of the `others`
    cards and the remaining score of every state a posting from `card` can leave; each part
    only while `stopped()` is False."""
    for other in others:
        if stopped():
            return
        final_of(table, other)
    if stopped():
        return
    afters = postings(table, card.boxes, 1).afters
    remaining_pmfs(table, np.unique(afters[afters != NO_STATE]), turns=EXACT_TURNS - 1)


def option_chances(table: StrategyTable, game: Game, options: Iterable[Option],
                   stand: Optional[MatchStand] = None) -> list[float]:
    """The chance to win of each of the advisor's options for the current player of `game`:
    the game, or with `stand` the match it belongs to."""
    card = game.current.card
    ahead = others_ahead(table, game, stand)
    used = game.turn.rolls
    posts, keeps = card_stages(table, card.boxes, card.total, ahead, used, used + game.rolls_left)
    roll = ROLL_INDEX[tuple(sorted(game.turn.dice))]
    return [float(keeps[used][KEEP_INDEX[option.kept]]) if option.kind == "keep"
            else float(posts[used][roll, _posting_column(option)])
            for option in options]


def _posting_column(option: Option) -> int:
    """The column of a box option in Postings: its box, or the extra turn."""
    if option.extra_turn:
        return BOX_COUNT
    assert option.box is not None  # a box option names its box
    return BIT_OF[option.box]
