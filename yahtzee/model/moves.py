"""The move log: every decision of a game, compact enough for each history record.

A move is (seat, round, kind, dice, detail). Kinds: "roll" (the dice after a roll; detail:
the places rolled, 0-4, all five on a turn's first roll), "post" and "blank" (the dice posted;
detail: the box), "extra" (an extra Yahtzee taken as its bonus and another turn; detail:
None). As JSON a move is a list: [seat, round, kind, "35226", "024" | box name | ""].
"""
from collections.abc import Iterable
from enum import Enum
from typing import Any, NamedTuple, Optional, Union

from .checks import is_int
from .dice import DICE_COUNT, FACE_DIGITS
from .scoring import Category
from .words import N_, Refusal, Say


class MoveKind(str, Enum):
    """What a move did; its value is the word the JSON keeps."""

    ROLL = "roll"
    POST = "post"
    BLANK = "blank"
    EXTRA = "extra"


KINDS = {kind.value: kind for kind in MoveKind}
POSTINGS = (MoveKind.POST, MoveKind.BLANK, MoveKind.EXTRA)
MAX_MOVES = 1_000_000
BY_WIN = "w"  # a move's sixth item: decided under the chance to win
PLACE_DIGITS = frozenset(str(place) for place in range(DICE_COUNT))  # a die's place as a roll's detail writes it
# A move's detail: the places rolled, the box posted or blanked, or None for an extra turn.
Detail = Union[tuple[int, ...], Category, None]


class BadMoves(Refusal):
    """Move-log data that does not describe moves; the message names what is wrong."""


class Move(NamedTuple):
    """One step of a game: a roll, or a posting that ends a turn."""

    seat: int
    round: int
    kind: MoveKind
    dice: tuple[int, ...]
    detail: Detail = None  # roll: the places rolled; post/blank: the box; extra: None
    # The decision was made by a human who ranks advice by the chance to win (W), not the
    # expected score: the review judges it by the chance to win.
    by_win: bool = False

    @property
    def is_posting(self) -> bool:
        """A posting, a blank or an extra turn: the end of a turn's decisions."""
        return self.kind in POSTINGS


def take_back(moves: Optional[list[Move]]) -> None:
    """Undo: drop the posting just taken back (the turn's rolls stay: the turn goes on)."""
    if moves and moves[-1].is_posting:
        moves.pop()


def moves_to_json(moves: Iterable[Move]) -> list[list[Union[int, str]]]:
    """The log as JSON data: one short list per move (a sixth item, "w", for a decision made
    under the chance to win)."""
    return [[m.seat, m.round, m.kind.value, "".join(map(str, m.dice)), _detail_to_json(m), *([BY_WIN] * m.by_win)]
            for m in moves]


def _detail_to_json(move: Move) -> str:
    if isinstance(move.detail, tuple):
        return "".join(map(str, move.detail))
    return move.detail.value if move.detail is not None else ""


def moves_from_json(data: Any, seats: int, rounds: int) -> list[Move]:
    """The log moves_to_json wrote, checked for `seats` players and at most `rounds` rounds;
    BadMoves if it is not one."""
    _require(isinstance(data, list) and len(data) <= MAX_MOVES, N_("the moves are not a list"))
    moves = [_move_from_json(item, seats, rounds) for item in data]
    _require(all(a.round <= b.round for a, b in zip(moves, moves[1:])), N_("the moves go back in rounds"))
    return moves


def _move_from_json(item: Any, seats: int, rounds: int) -> Move:
    _require(isinstance(item, list) and (len(item) == 5 or item[5:] == [BY_WIN]), N_("a move is not a list of five"))
    seat, round_, kind, dice, detail = item[:5]
    _require(is_int(seat, 0, seats - 1), N_("a move's seat is out of range"))
    _require(is_int(round_, 1, rounds), N_("a move's round is out of range"))
    _require(isinstance(kind, str) and kind in KINDS, N_("a move of an unknown kind"))
    _require(isinstance(dice, str) and len(dice) == DICE_COUNT and set(dice) <= FACE_DIGITS,
             N_("a move's dice"))
    _require(isinstance(detail, str), N_("a move's detail"))
    return Move(seat, round_, KINDS[kind], tuple(map(int, dice)), _detail_from_json(KINDS[kind], detail),
                len(item) == 6)


def _detail_from_json(kind: MoveKind, detail: str) -> Detail:
    if kind is MoveKind.ROLL:
        places = tuple(int(c) for c in detail if c in PLACE_DIGITS)
        _require(places and len(places) == len(detail) == len(set(places)) and list(places) == sorted(places),
                 N_("the dice a roll rolled"))
        return places
    if kind is MoveKind.EXTRA:
        _require(detail == "", N_("an extra turn names a box"))
        return None
    _require(detail in {box.value for box in Category}, N_("a posting's box"))
    return Category(detail)


def _require(condition: object, reason: str) -> None:
    if not condition:
        raise BadMoves(Say(reason))
