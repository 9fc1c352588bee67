"""The history record: one finished game as history.jsonl holds it. Built, checked and read
here only, so that its shape and version are stated once.

A record: {"version", "finished" (ISO-8601), "rules", "seed", "players": [{"name", "kind",
"scores" (all 13 boxes), "upper_bonus", "yahtzee_bonus", "total", and where a variant has
them "roll_bonus", "banked", "blanks"}], "winners", and where there are some "options" and
"race_target", "duplicate": true for a game of duplicate dice, and "dice": "loaded" for a
practice game, whose dice came from a file (--dice-file)}, and in records since the move log
(yahtzee.model.moves) "moves": every decision.
"""
import contextlib
import datetime
import math
from typing import Any, Optional, cast

from ..model.checks import MAX_ROUNDS, is_int, is_text, is_valid_name
from ..model.dice import is_duplicate, is_loaded
from ..model.game import KINDS, MAX_PLAYERS, ROUNDS, Game, Player
from ..model.match import MAX_RACE_TARGET
from ..model.moves import BadMoves, Move, moves_from_json, moves_to_json
from ..model.rules import HASBRO, RULES, BadOption, Rules
from ..model.scorecard import Scorecard
from ..model.scoring import YAHTZEE_POINTS, Category, is_possible_points, upper_bonus
from ..speech.languages import N_, _, text

RECORD_VERSION = 1
LOADED = "loaded"  # "dice" of a practice game: its dice came from a file


class InvalidRecord(ValueError):
    """A history record that does not follow the history.jsonl format."""


# Building

def build_record(game: Game, finished: str) -> dict[str, Any]:
    """The finished game as a record; `finished` is an ISO-8601 time. Options and a race
    target appear only when there are some."""
    record: dict[str, Any] = {
        "version": RECORD_VERSION,
        "finished": finished,
        "rules": game.rules.name,
        "seed": game.source.seed,
        "players": [_player_record(player) for player in game.players],
        "winners": game.winners(),
    }
    if game.rules.options:
        record["options"] = game.rules.options
    if game.race_target is not None:
        record["race_target"] = game.race_target
    if is_duplicate(game.source):
        record["duplicate"] = True
    if is_loaded(game.source):
        record["dice"] = LOADED
    if game.moves is not None:
        record["moves"] = moves_to_json(game.moves)
    return record


def _player_record(player: Player) -> dict[str, Any]:
    card = player.card
    record: dict[str, Any] = {
        "name": player.name,
        "kind": player.kind,
        "scores": {box.value: card.boxes.get(box, 0) for box in Category},
        "upper_bonus": card.upper_bonus,
        "yahtzee_bonus": card.yahtzee_bonus,
        "total": card.total,
    }
    # Only the variants that have them add these; total = boxes + every bonus + banked.
    extras = {"roll_bonus": card.roll_bonus, "banked": card.banked,
              "blanks": [box.value for box in Category if box in card.blanks]}
    record.update({key: value for key, value in extras.items() if value})
    return record


# Checking

def check_record(record: Any) -> None:
    """Raise InvalidRecord unless `record` is a valid history.jsonl game record."""
    _require(isinstance(record, dict), N_("not an object"))
    _require(is_int(record.get("version")) and record["version"] == RECORD_VERSION, N_("unknown version"))
    _require(_is_timestamp(record.get("finished")), N_("'finished' is not an ISO-8601 time"))
    _require(is_text(record.get("rules")), N_("'rules' is not a rule-set name"))
    _require(record.get("seed") is None or is_int(record.get("seed")), N_("'seed' is not a number"))
    _require(record.get("duplicate", True) is True, N_("'duplicate' is not true"))
    _require(record.get("dice", LOADED) == LOADED, N_("'dice' is not 'loaded'"))
    _require(record.get("race_target") is None or is_int(record["race_target"], 1, MAX_RACE_TARGET),
             N_("'race_target' is out of range"))
    rules = record_rules(record)
    players = record.get("players")
    _require(isinstance(players, list) and 1 <= len(players) <= MAX_PLAYERS, N_("bad 'players'"))
    for player in players:
        check_player_record(player, rules, is_race(record))
    names = [player["name"] for player in players]
    _require(len(set(names)) == len(names), N_("two players share a name"))
    winners = record.get("winners")
    _require(isinstance(winners, list) and winners and all(w in names for w in winners)
             and len(set(winners)) == len(winners), N_("'winners' are not among the players"))
    if "moves" in record:
        _check_moves(record["moves"], len(players), MAX_ROUNDS if is_race(record) else ROUNDS)


def _check_moves(moves: object, seats: int, rounds: int) -> None:
    try:
        moves_from_json(moves, seats, rounds)
    except BadMoves as error:
        raise InvalidRecord(f"'moves': {text(error.said)}") from None


def record_rules(record: dict[str, Any]) -> Rules:
    """The rules a record's game was played under, with its options."""
    rules = RULES.get(record.get("rules", ""))
    _require(rules is not None, N_("'rules' is not a rule set this game knows"))
    assert rules is not None
    try:
        return rules.with_options(**record.get("options", {}))
    except (BadOption, TypeError):
        raise InvalidRecord(_("'options' are not options of its rules")) from None


def bonus_problem(yahtzee_bonus: object, roll_bonus: object, rules: Rules, long_game: bool) -> Optional[str]:
    """Why a card's Yahtzee and roll bonuses cannot come from a game under `rules` (None when
    they can): each a whole number of what the rules pay for one, at most one a turn, and a
    long game (a race, or extra turns) may have as many turns as any game can."""
    turns = MAX_ROUNDS if long_game else ROUNDS
    if not is_count_of(yahtzee_bonus, (rules.extra_yahtzee_bonus,), turns - 1):
        return N_("the Yahtzee bonus is out of range")
    if not is_count_of(roll_bonus, rules.roll_bonus, turns):
        return N_("the roll bonus is out of range")
    return None


def is_count_of(points: object, payments: tuple[int, ...], most: int) -> bool:
    """`points` can be made of at most `most` of these payments (a multiple of their greatest
    common divisor, at most `most` times the largest); none paid, only 0."""
    step, largest = math.gcd(*payments, 0), max(payments, default=0)
    if not (isinstance(points, int) and is_int(points, 0, largest * most)):
        return False
    return points % step == 0 if step else points == 0


def check_player_record(player: Any, rules: Rules = HASBRO, race: bool = False) -> None:
    """Raise InvalidRecord unless `player` is one valid entry of a record's players, under the
    record's rules."""
    _require(isinstance(player, dict), N_("a player is not an object"))
    _require(is_valid_name(player.get("name")), N_("a player name is missing or not printable"))
    _require(player.get("kind") in KINDS, N_("a player kind is not human or computer"))
    scores = player.get("scores")
    _require(isinstance(scores, dict) and set(scores) == {box.value for box in Category},
             N_("the scores do not name the 13 boxes"))
    for box in Category:
        _require(is_possible_points(box, scores[box.value]),
                 _("{box} is out of range").format(box=box.value))
    bonus = player.get("upper_bonus")
    _require(is_int(bonus) and bonus == upper_bonus({box: scores[box.value] for box in Category}),
             N_("the upper bonus does not match the upper boxes"))
    # Variants add these: FiveOAK's roll bonus, a race's banked columns, Acorn's blanks.
    roll_bonus, banked, extra = player.get("roll_bonus", 0), player.get("banked", 0), player.get("yahtzee_bonus")
    problem = bonus_problem(extra, roll_bonus, rules, race or rules.extra_yahtzee_turn)
    _require(problem is None, problem or "")
    _require(is_int(banked, 0), N_("the banked race points are out of range"))
    blanks = player.get("blanks", [])
    _require(isinstance(blanks, list) and all(isinstance(box, str) and scores.get(box) == 0 for box in blanks),
             N_("a blanked box that does not hold 0"))
    _require(extra == 0 or banked or scores[Category.YAHTZEE.value] == YAHTZEE_POINTS,
             N_("a Yahtzee bonus without 50 in the Yahtzee box"))
    _require(is_int(player.get("total")) and player["total"] == sum(scores.values()) + bonus + extra
             + roll_bonus + banked, N_("the total is not the sum of the boxes and bonuses"))


def is_valid_record(record: object) -> bool:
    """True when `record` follows the history.jsonl format."""
    try:
        check_record(record)
    except InvalidRecord:
        return False
    return True


def _require(condition: object, reason: str) -> None:
    if not condition:
        raise InvalidRecord(_(reason))


def _is_timestamp(value: Any) -> bool:
    if not is_text(value):
        return False
    try:
        datetime.datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


# Reading (of checked records)

def finished_at(record: dict[str, Any]) -> datetime.datetime:
    """When the game finished, as an aware datetime (a time without zone is taken as UTC)."""
    when = datetime.datetime.fromisoformat(record["finished"])
    return when if when.tzinfo else when.replace(tzinfo=datetime.timezone.utc)


def finished_text(record: dict[str, Any]) -> str:
    """When the game finished, as the record holds it (ISO-8601)."""
    return cast(str, record["finished"])


def finished_date(record: dict[str, Any]) -> str:
    """The day the game finished: 'YYYY-MM-DD'."""
    return cast(str, record["finished"])[:10]


def rules_name(record: dict[str, Any]) -> str:
    """The name of the rule set the game was played under."""
    return cast(str, record["rules"])


def is_race(record: dict[str, Any]) -> bool:
    """The game was a race, whose total runs over many rounds."""
    return "race_target" in record


def is_practice(record: dict[str, Any]) -> bool:
    """A practice game: its dice were loaded from a file, so its scores count for nothing."""
    return record.get("dice") == LOADED


def moves_of(record: dict[str, Any]) -> Optional[list[Move]]:
    """The game's move log (yahtzee.model.moves), or None for a record from before it was kept."""
    return moves_from_json(record["moves"], len(record["players"]), MAX_ROUNDS) if "moves" in record else None


def players_of(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The players' entries, in seat order."""
    return cast("list[dict[str, Any]]", record["players"])


def winners_of(record: dict[str, Any]) -> list[str]:
    """The names of the game's winners."""
    return list(record["winners"])


def totals_of(record: dict[str, Any]) -> dict[str, int]:
    """Each player's total, in seat order: {name: total}."""
    return {player["name"]: player["total"] for player in record["players"]}


def name_of(player: dict[str, Any]) -> str:
    """A player entry's name."""
    return cast(str, player["name"])


def total_of(player: dict[str, Any]) -> int:
    """A player entry's grand total."""
    return cast(int, player["total"])


def kind_of(player: dict[str, Any]) -> str:
    """'human' or 'computer'."""
    return cast(str, player["kind"])


def points_in(player: dict[str, Any], box: Category) -> int:
    """What a player entry holds in `box`."""
    return cast(int, player["scores"][box.value])


def yahtzee_bonus_of(player: dict[str, Any]) -> int:
    """The extra-Yahtzee bonus points a player entry earned."""
    return cast(int, player["yahtzee_bonus"])


def won_upper_bonus(player: dict[str, Any]) -> bool:
    """The player entry earned the upper bonus."""
    return cast(int, player["upper_bonus"]) > 0


def game_from_record(record: dict[str, Any]) -> Game:
    """The finished game a record describes (for showing its sheet)."""
    players = [Player(p["name"], p["kind"], _card_from_record(p)) for p in record["players"]]
    rules = RULES.get(record["rules"], HASBRO)
    with contextlib.suppress(BadOption, TypeError):  # else the sheet shows under the rule set's own options
        rules = rules.with_options(**record.get("options", {}))
    return Game(players, rules, round=ROUNDS + 1, race_target=record.get("race_target"))


def _card_from_record(player: dict[str, Any]) -> Scorecard:
    boxes = {Category(box): points for box, points in player["scores"].items()}
    blanks = {Category(box) for box in player.get("blanks", [])}
    return Scorecard(boxes, player["yahtzee_bonus"], player.get("roll_bonus", 0), blanks,
                     banked=player.get("banked", 0))
