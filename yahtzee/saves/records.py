"""The history record: a finished game (yahtzee.model.outcome) as history.jsonl and the autosave
hold it. Written, checked and read here only, so that its shape and version are stated once.

A record: {"version", "finished" (ISO-8601), "rules", "seed", "players": [{"name", "kind",
"scores" (all 13 boxes: each posted box's points; null for a box a race left open, never
posted or cleared with its full column), "upper_bonus", "yahtzee_bonus", "total", and where a variant has
them "roll_bonus", "banked", "blanks"}], "winners", and where there are some "options" and
"race_target", "duplicate": true for a game of duplicate dice, and "dice": "loaded" for a
practice game, whose dice came from a file (--dice-file)}, and in records since the move log
(yahtzee.model.moves) "moves": every decision.

Version 1 records held a number in every box, a race's open boxes as 0; they are read as they are.
"""
import datetime
import math
from typing import Any, Optional

from ..model.checks import MAX_ROUNDS, is_int, is_text, is_valid_name
from ..model.game import KINDS, MAX_PLAYERS, ROUNDS
from ..model.match import MAX_RACE_TARGET
from ..model.moves import BadMoves, Move, moves_from_json, moves_to_json
from ..model.outcome import FinishedGame, PlayerResult
from ..model.rules import HASBRO, RULES, BadOption, Rules
from ..model.scoring import YAHTZEE_POINTS, Category, is_possible_points, upper_bonus
from ..model.words import Refusal, Say, Text, joined
from .shapes import JSONObject

RECORD_VERSION = 2  # 2: a race's open boxes are null, not 0
RECORD_VERSIONS = (1, RECORD_VERSION)  # the versions read: 1 as it is, with every box a number
LOADED = "loaded"  # "dice" of a practice game: its dice came from a file


class InvalidRecord(Refusal):
    """A history record that does not follow the history.jsonl format; its words say how."""


# Writing

def record_of(game: FinishedGame) -> JSONObject:
    """The finished game as a history record. Options and a race target appear only when
    there are some."""
    record: JSONObject = {
        "version": RECORD_VERSION,
        "finished": game.finished,
        "rules": game.rules.name,
        "seed": game.seed,
        "players": [_player_record(player) for player in game.players],
        "winners": list(game.winners),
    }
    if game.rules.options:
        record["options"] = game.rules.options
    if game.race_target is not None:
        record["race_target"] = game.race_target
    if game.duplicate:
        record["duplicate"] = True
    if game.practice:
        record["dice"] = LOADED
    if game.moves is not None:
        record["moves"] = moves_to_json(game.moves)
    return record


def _player_record(player: PlayerResult) -> JSONObject:
    record: JSONObject = {
        "name": player.name,
        "kind": player.kind,
        "scores": {box.value: points for box, points in zip(Category, player.scores)},
        "upper_bonus": player.upper_bonus,
        "yahtzee_bonus": player.yahtzee_bonus,
        "total": player.total,
    }
    # Only the variants that have them add these; total = boxes + every bonus + banked.
    extras: JSONObject = {"roll_bonus": player.roll_bonus, "banked": player.banked,
              "blanks": [box.value for box in Category if box in player.blanks]}
    record.update({key: value for key, value in extras.items() if value})
    return record


# Checking

def check_record(record: Any) -> Optional[list[Move]]:
    """Raise InvalidRecord unless `record` is a valid history.jsonl game record; its moves
    as they were checked (None for a record without them)."""
    _require(isinstance(record, dict), Say("not an object"))
    _require(is_int(record.get("version")) and record["version"] in RECORD_VERSIONS, Say("unknown version"))
    _require(_is_timestamp(record.get("finished")), Say("'finished' is not an ISO-8601 time"))
    _require(is_text(record.get("rules")), Say("'rules' is not a rule-set name"))
    _require(record.get("seed") is None or is_int(record.get("seed")), Say("'seed' is not a number"))
    _require(record.get("duplicate", True) is True, Say("'duplicate' is not true"))
    _require(record.get("dice", LOADED) == LOADED, Say("'dice' is not 'loaded'"))
    _require(record.get("race_target") is None or is_int(record["race_target"], 1, MAX_RACE_TARGET),
             Say("'race_target' is out of range"))
    rules, race = _record_rules(record), "race_target" in record
    may_be_open = race and record["version"] >= 2
    players = record.get("players")
    _require(isinstance(players, list) and 1 <= len(players) <= MAX_PLAYERS, Say("bad 'players'"))
    for player in players:
        check_player_record(player, rules, race, may_be_open)
    names = [player["name"] for player in players]
    _require(len(set(names)) == len(names), Say("two players share a name"))
    winners = record.get("winners")
    _require(isinstance(winners, list) and winners and all(w in names for w in winners)
             and len(set(winners)) == len(winners), Say("'winners' are not among the players"))
    if "moves" not in record:
        return None
    return _checked_moves(record["moves"], len(players), MAX_ROUNDS if race else ROUNDS)


def _checked_moves(moves: object, seats: int, rounds: int) -> list[Move]:
    try:
        return moves_from_json(moves, seats, rounds)
    except BadMoves as error:
        raise InvalidRecord(joined(("'moves': ", error.said))) from None


def _record_rules(record: dict[str, Any]) -> Rules:
    """The rules a record's game was played under, with its options."""
    rules = RULES.get(record.get("rules", ""))
    _require(rules is not None, Say("'rules' is not a rule set this game knows"))
    assert rules is not None
    try:
        return rules.with_options(**record.get("options", {}))
    except (BadOption, TypeError):
        raise InvalidRecord(Say("'options' are not options of its rules")) from None


def bonus_problem(yahtzee_bonus: object, roll_bonus: object, rules: Rules, long_game: bool) -> Optional[Say]:
    """Why a card's Yahtzee and roll bonuses cannot come from a game under `rules` (None when
    they can): each a whole number of what the rules pay for one, at most one a turn, and a
    long game (a race, or extra turns) may have as many turns as any game can."""
    turns = MAX_ROUNDS if long_game else ROUNDS
    if not is_count_of(yahtzee_bonus, (rules.extra_yahtzee_bonus,), turns - 1):
        return Say("the Yahtzee bonus is out of range")
    if not is_count_of(roll_bonus, rules.roll_bonus, turns):
        return Say("the roll bonus is out of range")
    return None


def is_count_of(points: object, payments: tuple[int, ...], most: int) -> bool:
    """`points` can be made of at most `most` of these payments (a multiple of their greatest
    common divisor, at most `most` times the largest); none paid, only 0."""
    step, largest = math.gcd(*payments, 0), max(payments, default=0)
    if not (isinstance(points, int) and is_int(points, 0, largest * most)):
        return False
    return points % step == 0 if step else points == 0


def check_player_record(player: Any, rules: Rules = HASBRO, race: bool = False, may_be_open: bool = False) -> None:
    """Raise InvalidRecord unless `player` is one valid entry of a record's players, under the
    record's rules (null boxes only where `may_be_open`: a race's, since version 2)."""
    _require(isinstance(player, dict), Say("a player is not an object"))
    _require(is_valid_name(player.get("name")), Say("a player name is missing or not printable"))
    _require(player.get("kind") in KINDS, Say("a player kind is not human or computer"))
    scores = player.get("scores")
    _require(isinstance(scores, dict) and set(scores) == {box.value for box in Category},
             Say("the scores do not name the 13 boxes"))
    for box in Category:
        _require((may_be_open and scores[box.value] is None) or is_possible_points(box, scores[box.value]),
                 Say("{box} is out of range").format(box=box.value))
    posted = {box: scores[box.value] for box in Category if scores[box.value] is not None}
    bonus = player.get("upper_bonus")
    _require(is_int(bonus) and bonus == upper_bonus(posted),
             Say("the upper bonus does not match the upper boxes"))
    # Variants add these: FiveOAK's roll bonus, a race's banked columns, Acorn's blanks.
    roll_bonus, banked, extra = player.get("roll_bonus", 0), player.get("banked", 0), player.get("yahtzee_bonus")
    problem = bonus_problem(extra, roll_bonus, rules, race or rules.extra_yahtzee_turn)
    _require(problem is None, problem or "")
    _require(is_int(banked, 0), Say("the banked race points are out of range"))
    blanks = player.get("blanks", [])
    _require(isinstance(blanks, list) and all(isinstance(box, str) and scores.get(box) == 0 for box in blanks),
             Say("a blanked box that does not hold 0"))
    _require(extra == 0 or banked or posted.get(Category.YAHTZEE) == YAHTZEE_POINTS,
             Say("a Yahtzee bonus without 50 in the Yahtzee box"))
    _require(is_int(player.get("total")) and player["total"] == sum(posted.values()) + bonus + extra
             + roll_bonus + banked, Say("the total is not the sum of the boxes and bonuses"))


def _require(condition: object, reason: Text) -> None:
    if not condition:
        raise InvalidRecord(reason)


def _is_timestamp(value: Any) -> bool:
    if not is_text(value):
        return False
    try:
        datetime.datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


# Reading

def finished_game(record: object) -> FinishedGame:
    """The finished game a history record holds; InvalidRecord if it is not a valid one."""
    moves = check_record(record)  # the moves are read once, as they are checked
    assert isinstance(record, dict)
    players = tuple(_player_result(player) for player in record["players"])
    return FinishedGame(record["finished"], _record_rules(record), players, tuple(record["winners"]),
                        record.get("seed"), record.get("race_target"), record.get("duplicate", False),
                        record.get("dice") == LOADED, None if moves is None else tuple(moves))


def _player_result(player: dict[str, Any]) -> PlayerResult:
    return PlayerResult(player["name"], player["kind"], tuple(player["scores"][box.value] for box in Category),
                        player["upper_bonus"], player["yahtzee_bonus"], player["total"], player.get("roll_bonus", 0),
                        player.get("banked", 0), frozenset(Category(box) for box in player.get("blanks", [])))
