"""The chance to win: for each choice, the chance of finishing ahead of every other player.

A final score is either known (a finished card) or taken as normal: its mean is the total
so far plus the exact table's expected remainder, its spread the measured spread of a
thinker's remaining score with that many boxes open (see remaining_spreads). This player's turn is
worked out exactly, every roll and keep, played from each choice on for the win; only the
turns after it are estimated. When every other card is full and this turn fills the last
box, nothing is estimated: the chance is an exact count over the remaining rolls. A tie
for first counts as half a win.
"""
from dataclasses import dataclass
from typing import List, Sequence

import numpy as np

from ..scoring import Category
from .advisor import CACHE_SIZE, box_options
from .batch import Cards, NumpyDice, play_turns
from .dicemath import CHILDREN, DICE, KEEP_INDEX, KEEPS, ROLL_INDEX, ROLL_PROBABILITY, ROLLS, SUB_KEEPS, size_rows
from .position import card_state, card_total
from .tables import BOX_COUNT

SCORE_LIMIT = 4000  # final scores are counted on 0..SCORE_LIMIT (higher ones are clipped)
SCORES = np.arange(SCORE_LIMIT + 1)
NORMAL_STEPS = np.linspace(-4.0, 4.0, 33)
NORMAL_WEIGHTS = np.exp(-NORMAL_STEPS ** 2 / 2) / np.exp(-NORMAL_STEPS ** 2 / 2).sum()
SPREAD_GAMES = 4000
# (rules, objective, games, seed) -> spreads; apart from a table's memo, which is emptied when full.
MEASURED_SPREADS = {}
NOT_LEGAL = -1.0
EXACT_EXTRA_TURNS = 40  # more than a card can ever need: each extra turn adds its bonus
ESTIMATED_EXTRA_TURNS = 2
BOX_INDEX = {box: index for index, box in enumerate(Category)}


@dataclass(frozen=True)
class Final:
    """A player's final score: known (spread 0), or normal with this mean and spread."""

    mean: float
    spread: float = 0.0


def final_of(table, card, spreads: Sequence[float]) -> Final:
    """The final score of a card at the start of its turn, known once it is full."""
    mask, up, fifty = card_state(card.boxes)
    open_count = BOX_COUNT - len(card.boxes)
    if not open_count:
        return Final(card.total)
    return Final(card.total + table.value(mask, up, fifty), spreads[open_count])


def ahead_chances(others: Sequence[Final]) -> np.ndarray:
    """For each final score 0..SCORE_LIMIT, the chance it ends ahead of all `others`."""
    below, at_most = np.ones(len(SCORES)), np.ones(len(SCORES))
    for final in others:
        cdf = final_cdf(final)
        below *= np.concatenate(([0.0], cdf[:-1]))
        at_most *= cdf
    return below + (at_most - below) / 2


def final_cdf(final: Final) -> np.ndarray:
    """P(score <= x) for every x: a step at a known score, else a discretised normal."""
    if final.spread <= 0:
        return (SCORES >= round(final.mean)).astype(float)
    weights = np.exp(-((SCORES - final.mean) / final.spread) ** 2 / 2)
    return np.cumsum(weights) / weights.sum()


def chance_of(means: np.ndarray, spread: float, ahead: np.ndarray) -> np.ndarray:
    """The chance to win of final scores with these means and one spread."""
    if spread <= 0:
        return ahead[np.clip(np.rint(means), 0, SCORE_LIMIT).astype(np.int64)]
    points = np.asarray(means)[..., None] + NORMAL_STEPS * spread
    return (np.interp(points, SCORES, ahead) * NORMAL_WEIGHTS).sum(axis=-1)


@dataclass(frozen=True)
class Postings:
    """Every roll's postings from one turn-start state after some rolls: for each roll and
    column (a box, then the extra turn) the expected final score less the points already
    on the card (NaN where not legal), the spread of what is still to come after a box, and
    the bonus an extra turn brings (NaN where none is earned)."""

    means: np.ndarray        # rolls x (boxes + 1)
    spread: float
    extra_bonus: np.ndarray  # rolls

    def chances(self, already: float, ahead: np.ndarray, extra_turn) -> np.ndarray:
        """The chance to win of every posting (NOT_LEGAL where there is none); an extra turn's
        is `extra_turn(total)`, the chance of another turn with that total."""
        result = np.full(self.means.shape, NOT_LEGAL)
        legal = ~np.isnan(self.means)
        for column in range(BOX_COUNT):
            result[legal[:, column], column] = chance_of(already + self.means[legal[:, column], column],
                                                         self.spread, ahead)
        extra = legal[:, BOX_COUNT]
        result[extra, BOX_COUNT] = [extra_turn(already + bonus) for bonus in self.extra_bonus[extra]]
        return result


def postings(table, boxes: dict, rolls_used: int, spreads: Sequence[float]) -> Postings:
    """The postings of every roll from this card after `rolls_used` rolls (remembered per state)."""
    state = card_state(boxes)
    key = ("postings", state, rolls_used)
    if key not in table.memo:
        already = card_total(boxes, 0)
        means = np.full((len(ROLLS), BOX_COUNT + 1), np.nan)
        extra_bonus = np.full(len(ROLLS), np.nan)
        for roll, dice in enumerate(ROLLS):
            for option in box_options(table, boxes, dice, already, rolls_used):
                column = BOX_COUNT if option.extra_turn else BOX_INDEX[option.box]
                means[roll, column] = option.value - already
                extra_bonus[roll] = option.points if option.extra_turn else extra_bonus[roll]
        if len(table.memo) >= CACHE_SIZE:
            table.memo.clear()
        table.memo[key] = Postings(means, spreads[max(BOX_COUNT - len(boxes) - 1, 0)], extra_bonus)
    return table.memo[key]


def keep_chances(roll_chances: np.ndarray) -> np.ndarray:
    """The chance of every keep, from the chance of every roll the reroll may bring."""
    values = np.empty(len(KEEPS))
    values[size_rows(DICE)] = roll_chances
    for size in range(DICE - 1, -1, -1):
        values[size_rows(size)] = values[CHILDREN[size]].mean(axis=1)
    return values


def turn_stages(post_chances, first_used: int, last_used: int):
    """The rest of a turn played for the win: for each number of rolls used from `first_used`
    to `last_used`, the chance of every posting (rolls x columns), and before the last the
    chance of every keep rerolled then; `post_chances(used)` gives the postings' chances."""
    posts = {used: post_chances(used) for used in range(first_used, last_used + 1)}
    keeps = {}
    best = posts[last_used].max(axis=1)
    for used in range(last_used - 1, first_used - 1, -1):
        keeps[used] = keep_chances(best)
        best = np.maximum(posts[used].max(axis=1), keeps[used][SUB_KEEPS].max(axis=1))
    return posts, keeps


def card_stages(table, boxes: dict, total: int, ahead: np.ndarray, spreads: Sequence[float],
                first_used: int, last_used: int, extra_turns: int = None):
    """turn_stages (played for the win) of a card with these boxes and total points; an extra
    turn is played out, up to `extra_turns` more of them (by default as many as can matter
    when every other card is full, else ESTIMATED_EXTRA_TURNS), then estimated."""
    extra_turns = default_extra_turns(ahead) if extra_turns is None else extra_turns
    played = {}

    def extra_turn(new_total):
        if new_total not in played:
            played[new_total] = (turn_chance(table, boxes, new_total, ahead, spreads, extra_turns - 1)
                                 if extra_turns > 0 else estimated_chance(table, boxes, new_total, ahead, spreads))
        return played[new_total]

    def post_chances(used):
        return postings(table, boxes, used, spreads).chances(total, ahead, extra_turn)
    return turn_stages(post_chances, first_used, last_used)


def turn_chance(table, boxes: dict, total: int, ahead: np.ndarray, spreads: Sequence[float],
                extra_turns: int) -> float:
    """The chance to win of a whole turn from this card, played for the win."""
    if ahead[int(min(total, SCORE_LIMIT))] >= 1.0:
        return 1.0  # ahead of every final already: points only add
    rolls = table.rules.rolls_per_turn
    posts, keeps = card_stages(table, boxes, total, ahead, spreads, 1, rolls, extra_turns)
    best = posts[1].max(axis=1)
    if rolls > 1:
        best = np.maximum(best, keeps[1][SUB_KEEPS].max(axis=1))
    return float(ROLL_PROBABILITY @ best)


def estimated_chance(table, boxes: dict, total: int, ahead: np.ndarray, spreads: Sequence[float]) -> float:
    """The chance to win of a card at the start of a turn with this total, estimated."""
    mean = total + table.value(*card_state(boxes))
    return float(chance_of(np.array([mean]), spreads[BOX_COUNT - len(boxes)], ahead)[0])


def default_extra_turns(ahead: np.ndarray) -> int:
    """How many extra turns in a row are played out: all that can matter against finished
    cards (the chance is then exact), ESTIMATED_EXTRA_TURNS against estimated ones."""
    finished = np.isin(ahead, (0.0, 0.5, 1.0)).all()
    return EXACT_EXTRA_TURNS if finished else ESTIMATED_EXTRA_TURNS


def remaining_spreads(table, games: int = SPREAD_GAMES, seed: int = 0) -> List[float]:
    """The spread of a player's remaining score by boxes open (0-13), measured over `games`
    seeded games of the table's own play (remembered per table)."""
    key = (table.rules, table.objective, games, seed)
    if key not in MEASURED_SPREADS:
        cards = Cards.empty(games)
        dice, playing = NumpyDice(np.random.default_rng(seed)), np.arange(games)
        starts = []
        while len(playing):
            starts.append((playing, cards.open_counts(playing), cards.totals[playing]))
            play_turns(table, cards, playing, dice)
            playing = playing[~cards.is_full[playing]]
        finals = cards.totals
        spreads = [0.0] * (BOX_COUNT + 1)
        for open_count in range(1, BOX_COUNT + 1):
            rest = np.concatenate([finals[g][o == open_count] - t[o == open_count] for g, o, t in starts])
            spreads[open_count] = float(rest.std()) if len(rest) > 1 else 0.0
        MEASURED_SPREADS[key] = spreads
    return MEASURED_SPREADS[key]


def others_ahead(table, game, spreads: Sequence[float]) -> np.ndarray:
    """For each final score, the chance it ends ahead of the current player's opponents."""
    return ahead_chances([final_of(table, player.card, spreads)
                          for seat, player in enumerate(game.players) if seat != game.seat])


def option_chances(table, game, options) -> List[float]:
    """The chance to win of each of the advisor's options for the current player of `game`."""
    card = game.current.card
    spreads = remaining_spreads(table)
    ahead = others_ahead(table, game, spreads)
    used = game.turn.rolls
    posts, keeps = card_stages(table, card.boxes, card.total, ahead, spreads, used, used + game.rolls_left)
    roll = ROLL_INDEX[tuple(sorted(game.turn.dice))]
    return [float(keeps[used][KEEP_INDEX[option.kept]]) if option.kind == "keep"
            else float(posts[used][roll, BOX_COUNT if option.extra_turn else BOX_INDEX[option.box]])
            for option in options]
