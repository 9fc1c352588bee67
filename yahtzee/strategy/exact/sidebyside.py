"""Solitaire games of a computer player played side by side as arrays.

A batch of games takes its turns together: the games' turn-start states are gathered, each
distinct state's turn is worked out once (TurnStages), and then every game rolls, keeps and
posts by array lookups. The points come from the same rule tables the solver plays by.
"""
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Optional, Protocol

import numpy as np

from ...model import scoring
from .dicemath import DICE, FACE_COUNT, KEEPS, ROLLS, YAHTZEE_ROLLS, random_faces
from .rulearrays import BOX_COUNT, FULL_CARD, UP_CAP, UPPER_BITS, YAHTZEE_BIT, RuleTables
from .solver import TurnSolver
from .stages import CHUNK
from .statespace import States, same_future, states_of

_CODE_BASE = FACE_COUNT + 1


def _dice_code(faces: np.ndarray) -> np.ndarray:
    """A number for each row of sorted faces (the rows of `faces`, base 7)."""
    return faces.astype(np.int64) @ (_CODE_BASE ** np.arange(DICE))


def _padded_faces(multisets: Iterable[tuple[int, ...]]) -> np.ndarray:
    """Each multiset's faces, left-aligned and padded with zeros to five."""
    return np.array([multiset + (0,) * (DICE - len(multiset)) for multiset in multisets], dtype=np.int64)


ROLL_FACES = _padded_faces(ROLLS)
ROLL_OF_CODE = np.full(_CODE_BASE ** DICE, -1, dtype=np.int64)
ROLL_OF_CODE[_dice_code(ROLL_FACES)] = np.arange(len(ROLLS))
KEEP_FACES = _padded_faces(KEEPS)
KEEP_SIZE = np.array([len(keep) for keep in KEEPS])
FIVE_ALIKE_FACE = np.full(len(ROLLS), -1)
FIVE_ALIKE_FACE[list(YAHTZEE_ROLLS)] = np.arange(FACE_COUNT)
UPPER_BIT_OF_FACE = np.array(UPPER_BITS)
IS_UPPER = np.isin(np.arange(BOX_COUNT), UPPER_BITS)


def roll_numbers(faces: np.ndarray) -> np.ndarray:
    """The roll number (index into ROLLS) of each row of five faces, in any order."""
    return ROLL_OF_CODE[_dice_code(np.sort(faces, axis=1))]


class SolvedTable(Protocol):
    """What a batch plays by: a table.StrategyTable."""

    @property
    def engine(self) -> TurnSolver: ...

    @property
    def values(self) -> np.ndarray: ...


class TurnChoices(Protocol):
    """A batch's decisions in a turn: a stages.TurnStages, or an earlyturns.TurnPlans (earlyturns
    imports this module, through rests)."""

    @property
    def boxes(self) -> np.ndarray: ...

    def choose_keeps(self, stage: int, rolls: np.ndarray, columns: np.ndarray) -> np.ndarray: ...


class BatchDice(Protocol):
    """Dice for a batch of games: NumpyDice, or dice that repeat throws (duels.RoundDice)."""

    def roll(self, games: np.ndarray, counts: np.ndarray) -> np.ndarray: ...


class NumpyDice:
    """Fresh dice from a numpy Generator (each game draws five faces a roll, uses what it needs)."""

    def __init__(self, rng: "np.random.Generator") -> None:
        self.rng = rng

    def roll(self, games: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """New faces for `games`: row i's first counts[i] are used."""
        return random_faces(self.rng, (len(games), DICE))


@dataclass(frozen=True)
class PostingArrays:
    """What posting rolls in boxes brings, by the rule tables: each posting's box points, its
    Yahtzee bonus (an extra turn's included), its roll bonus, and whether it fills its box
    (five alike that earn an extra turn and chose YAHTZEE take the turn instead)."""

    points: np.ndarray
    yahtzee_bonus: np.ndarray
    roll_bonus: np.ndarray
    posted: np.ndarray

    @classmethod
    def of(cls, tables: RuleTables, masks: np.ndarray, fifties: np.ndarray, rolls: np.ndarray, boxes: np.ndarray,
           rolls_used: np.ndarray) -> "PostingArrays":
        """Roll `rolls[i]` posted in box `boxes[i]` after rolls_used[i] rolls, on a card with
        the boxes of masks[i] filled and fifties[i] in its Yahtzee box."""
        case = np.where(masks >> YAHTZEE_BIT & 1, 1 + fifties, 0)
        face = FIVE_ALIKE_FACE[rolls]
        five, face = face >= 0, np.maximum(face, 0)
        matching = masks >> UPPER_BIT_OF_FACE[face] & 1
        points = np.where(five, tables.five_points[case, matching, face, boxes], tables.points[rolls, boxes])
        bonus = np.where(five, tables.bonus[case, face], 0)
        turn_bonus = np.where(five, tables.turn_bonus[case, face], 0)
        extra = (turn_bonus > 0) & (boxes == YAHTZEE_BIT)
        stage_bonus = np.array([tables.stage_bonus(used) for used in range(rolls_used.max() + 1)])
        return cls(points, np.where(extra, turn_bonus, bonus), stage_bonus[rolls_used] * tables.fits[rolls, boxes],
                   ~extra)


@dataclass
class Cards:
    """The scorecards of a batch of games: points per box, filled boxes and bonuses."""

    points: np.ndarray
    mask: np.ndarray
    upper: np.ndarray          # the upper boxes' sum, uncapped
    fifty: np.ndarray          # the Yahtzee box holds 50
    yahtzee_bonus: np.ndarray  # extra-Yahtzee bonuses, extra turns' included
    roll_bonus: np.ndarray

    @classmethod
    def empty(cls, count: int) -> "Cards":
        """`count` blank cards."""
        zeros = lambda: np.zeros(count, dtype=np.int64)  # noqa: E731
        return cls(np.zeros((count, BOX_COUNT), dtype=np.int64), zeros(), zeros(), zeros(), zeros(), zeros())

    def states(self, games: np.ndarray) -> States:
        """The turn-start states of `games`."""
        return States(self.mask[games], np.minimum(self.upper[games], UP_CAP), self.fifty[games])

    @property
    def upper_bonus(self) -> np.ndarray:
        """The upper bonus of every card."""
        return np.where(self.upper >= UP_CAP, scoring.UPPER_BONUS, 0)

    @property
    def totals(self) -> np.ndarray:
        """The grand total of every card."""
        return self.points.sum(axis=1) + self.upper_bonus + self.yahtzee_bonus + self.roll_bonus

    def post(self, tables: RuleTables, games: np.ndarray, rolls: np.ndarray, boxes: np.ndarray,
             rolls_used: np.ndarray) -> None:
        """Post roll `rolls[i]` of game `games[i]` in box `boxes[i]` after rolls_used[i] rolls;
        five alike that earn an extra turn and chose YAHTZEE take it instead."""
        posting = PostingArrays.of(tables, self.mask[games], self.fifty[games], rolls, boxes, rolls_used)
        self.yahtzee_bonus[games] += posting.yahtzee_bonus
        posted = posting.posted
        games, boxes, points = games[posted], boxes[posted], posting.points[posted]
        self.points[games, boxes] = points
        self.mask[games] |= 1 << boxes
        self.upper[games] += np.where(IS_UPPER[boxes], points, 0)
        self.fifty[games] |= (boxes == YAHTZEE_BIT) & (points == scoring.YAHTZEE_POINTS)
        self.roll_bonus[games] += posting.roll_bonus[posted]

    def copy(self, games: np.ndarray, into: np.ndarray) -> None:
        """Give the cards of `into` those of `games`, one for one."""
        for field in (self.points, self.mask, self.upper, self.fifty, self.yahtzee_bonus, self.roll_bonus):
            field[into] = field[games]

    def open_counts(self, games: np.ndarray) -> np.ndarray:
        """How many boxes are open on each of these games' cards."""
        return BOX_COUNT - ((self.mask[games, None] >> np.arange(BOX_COUNT)) & 1).sum(axis=1)

    @property
    def is_full(self) -> np.ndarray:
        """Every box of each card filled."""
        return self.mask == FULL_CARD


def play_games(count: int, tables: Sequence[SolvedTable], rng: "np.random.Generator",
               dice: Optional[BatchDice] = None) -> Cards:
    """`count` finished solitaire games; `tables` holds one StrategyTable, or several for a
    player who takes one of them at random each turn (nowhere). Returns their Cards."""
    cards = Cards.empty(count)
    dice = dice or NumpyDice(rng)
    playing = np.arange(count)
    while len(playing):
        moods = rng.integers(len(tables), size=len(playing)) if len(tables) > 1 else np.zeros(len(playing), int)
        for mood, table in enumerate(tables):
            play_turns(table, cards, playing[moods == mood], dice)
        playing = playing[~cards.is_full[playing]]
    return cards


def play_turns(table: SolvedTable, cards: Cards, games: np.ndarray, dice: BatchDice) -> None:
    """Play the current turn of each of `games` with one table's plans."""
    index = cards.states(games).index
    order = np.argsort(index, kind="stable")
    games, index = games[order], index[order]
    new = np.empty(len(index), dtype=bool)  # where each run of one state starts, in the sorted order
    new[:1] = True
    np.not_equal(index[1:], index[:-1], out=new[1:])
    first, inverse = np.flatnonzero(new), np.cumsum(new) - 1
    states = cards.states(games[first])
    for start in range(0, len(first), CHUNK):
        solved, columns = turns_worked_out(states.part(slice(start, start + CHUNK)))
        stages = table.engine.turn_stages(table.values, solved)
        low, high = np.searchsorted(inverse, [start, start + CHUNK])
        play_turn(table.engine, stages, cards, games[low:high], columns[inverse[low:high] - start], dice)


def turns_worked_out(states: States) -> tuple[States, np.ndarray]:
    """The states whose turns are worked out for these distinct `states`, and the column of
    each state's among them. A build solves one state for all those with the same future and
    gives them its values (TurnSolver.share_solved): their turns are the same to the last bit,
    so only that one state's is worked out."""
    standing, columns = np.unique(same_future(states.index), return_inverse=True)
    return states_of(standing), columns


def play_turn(engine: TurnSolver, stages: TurnChoices, cards: Cards, games: np.ndarray, columns: np.ndarray,
              dice: BatchDice) -> None:
    """Roll, keep and post for `games`, game i in state `columns[i]` of `stages`."""
    faces = dice.roll(games, np.full(len(games), DICE))
    rolls = roll_numbers(faces)
    rolls_used = np.ones(len(games), dtype=np.int64)
    rolling = np.arange(len(games))
    for stage in range(engine.rolls - 1):
        keeps = stages.choose_keeps(stage, rolls[rolling], columns[rolling])
        rolling, keeps = rolling[keeps >= 0], keeps[keeps >= 0]
        if not len(rolling):
            break
        kept = KEEP_SIZE[keeps]
        fresh = dice.roll(games[rolling], DICE - kept)
        place = np.arange(DICE)
        from_fresh = np.take_along_axis(fresh, np.maximum(place - kept[:, None], 0), axis=1)
        rolls[rolling] = roll_numbers(np.where(place < kept[:, None], KEEP_FACES[keeps], from_fresh))
        rolls_used[rolling] = stage + 2
    boxes = stages.boxes[rolls_used - 1, rolls, columns].astype(np.int64)
    cards.post(engine.tables, games, rolls, boxes, rolls_used)
