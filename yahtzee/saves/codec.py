"""The model as JSON data and back: sessions, games, cards, turns, matches, rules (the dice are
saves.dicestates, an earlier version's session is brought to this one's form by saves.versions).

Decoding trusts nothing: every value is checked for its JSON type and range before use, and
anything malformed raises DamagedSave, the one fault for a damaged file (saves.strict). Only
these checks raise it; an error in the game's own code goes on as the error it is.
"""
from dataclasses import fields
from typing import Any, Optional, cast

from ..model import scoring
from ..model.checks import MAX_ROUNDS, is_int, is_valid_name
from ..model.dice import DICE_COUNT, FACES
from ..model.game import KINDS, MAX_PLAYERS, ROUNDS, Game, Player, Turn, UndoPoint
from ..model.match import MATCH_KINDS, MAX_RACE_TARGET, SINGLE_GAME, BadMatch, Match
from ..model.moods import MOODS
from ..model.moves import BadMoves, Move, moves_from_json, moves_to_json
from ..model.outcome import FinishedGame
from ..model.rules import HASBRO, BadOption, Rules, UnknownRules, rules_named
from ..model.scorecard import Scorecard
from ..model.scoring import Category, is_possible_points
from ..model.seatowners import Seats
from ..model.session import Session
from ..model.words import Say
from .dicestates import dice_from_dict, dice_source, dice_to_dict
from .proofs import is_seat_proof
from .records import InvalidRecord, bonus_problem, finished_game, record_of
from .shapes import JSONObject
from .strict import DamagedSave, check, damaged, int_field, json_list, json_object, required
from .versions import SESSION_VERSION, current_form

__all__ = ["DamagedSave", "session_to_dict", "session_from_dict", "game_to_dict", "game_from_dict",
           "rules_to_dict", "rules_from_dict", "SESSION_VERSION", "GAME_VERSION"]

GAME_VERSION = 1
# Bounds for games that may run long (races, extra turns).
MAX_POINTS = 1_000_000
MAX_GAMES = 10_000
BOX_NAMES = {box.value for box in Category}


def _finished_game(record: object) -> FinishedGame:
    try:
        return finished_game(record)
    except InvalidRecord:
        raise DamagedSave(Say("a finished game in it is not valid")) from None


# Sessions

def session_to_dict(session: Session) -> JSONObject:
    """The whole session as JSON data."""
    return {
        "version": SESSION_VERSION,
        "players": [_seat_to_dict(p) for p in session.players],
        "results": [record_of(game) for game in session.results],
        "game": game_to_dict(session.game) if session.game else None,
        "verify": session.verify,
        "sound": session.sound,
        "rules": rules_to_dict(session.rules),
        "dice": dice_to_dict(session.source.state),
        "match": match_to_dict(session.match),
        "match_start": session.match_start,
        "win_rankers": sorted(session.win_rankers),
        "seat_owners": dict(sorted(session.seats.owners().items())),
    }


def session_from_dict(data: object) -> Session:
    """The session saved by session_to_dict (or by an earlier version); DamagedSave if it is not one."""
    data = current_form(json_object(data, Say("not a saved session")))
    players = [_seat_from_dict(p) for p in json_list(data.get("players"), Say("the players"))]
    check(1 <= len(players) <= MAX_PLAYERS, Say("the number of players"))
    results = [_finished_game(record) for record in json_list(data.get("results"), Say("the finished games"))]
    source = dice_source(data.get("dice"))
    saved_game = required(data, "game", Say("the game in play"))
    game = game_from_dict(saved_game) if saved_game is not None else None
    if game:
        game.source = source  # one dice stream serves the whole session
    verify, sound = data.get("verify"), data.get("sound")
    check(isinstance(verify, bool) and isinstance(sound, bool), Say("verify and sound"))
    match_start = int_field(data, "match_start", 0, len(results), Say("where the match begins"), 0)
    win_rankers = json_list(data.get("win_rankers", []), Say("the players who rank advice by the chance to win"))
    check(all(isinstance(name, str) and is_valid_name(name) for name in win_rankers),
           Say("the players who rank advice by the chance to win"))
    rankers = set(win_rankers)
    owners = _seat_owners(data)
    if game:
        game.win_rankers = rankers  # one set for the session and its game
    return Session(players, results, game, cast(bool, verify), cast(bool, sound), rules_from_dict(data.get("rules")),
                   source, _match(data.get("match", match_to_dict(SINGLE_GAME))), match_start, rankers,
                   Seats(owners))


def _seat_owners(data: dict[str, Any]) -> dict[str, str]:
    """The seats friends took, and what proves each theirs (a save before proofs lists the names)."""
    what = Say("the seats played from a friend's terminal")
    owners = json_object(data.get("seat_owners", {}), what)
    friends = json_list(data.get("friend_seats", []), what)
    check(all(isinstance(name, str) and is_valid_name(name) for name in [*owners, *friends]), what)
    check(all(is_seat_proof(proof) for proof in owners.values()), what)
    return {**dict.fromkeys(friends, ""), **owners}


# The field that holds each match kind's number (a single game has none).
_COUNT_FIELD = {"challenge": "games", "race": "target", "first_to": "target"}


def match_to_dict(match: Match) -> JSONObject:
    """A match as JSON data: its kind and its number."""
    field = _COUNT_FIELD.get(match.kind)
    return {"kind": match.kind} | ({field: getattr(match, field)} if field else {})


def match_from_dict(data: object) -> Match:
    """The match saved by match_to_dict; BadMatch when the data is not one."""
    kind = data.get("kind") if isinstance(data, dict) else None
    if not isinstance(data, dict) or not isinstance(kind, str) or kind not in MATCH_KINDS:
        raise BadMatch(Say("unknown match kind {kind}").format(kind=repr(kind)))
    return MATCH_KINDS[kind](data.get(_COUNT_FIELD.get(kind, ""), 0))


def _match(data: object) -> Match:
    try:
        return match_from_dict(data)
    except BadMatch as error:
        raise damaged(error.said) from None


def _seat_to_dict(player: Player) -> dict[str, Any]:
    seat: dict[str, Any] = {"name": player.name, "kind": player.kind}
    return seat | ({"mood": player.mood} if player.mood else {}) | ({"stand_in": True} if player.stand_in else {})


def _seat_from_dict(data: object) -> Player:
    return _player_from_dict({"boxes": {}, **json_object(data, Say("a player"))})


# Games

def game_to_dict(game: Game) -> JSONObject:
    """The whole game as JSON data, a game stopped mid-turn included."""
    return {
        "version": GAME_VERSION,
        "rules": rules_to_dict(game.rules),
        "number": game.number,
        "seat": game.seat,
        "round": game.round,
        "players": [{**_seat_to_dict(p), **_card_to_dict(p.card)} for p in game.players],
        "turn": _turn_to_dict(game.turn),
        "dice": dice_to_dict(game.source.state),
        "race_target": game.race_target,
        "undo": _undo_to_dict(game.undo_point),
        **({"moves": moves_to_json(game.moves)} if game.moves is not None else {}),
    }


def game_from_dict(data: object) -> Game:
    """The game saved by game_to_dict; DamagedSave if the data is not one."""
    data = json_object(data, Say("the game in play"))
    check(is_int(data.get("version")) and data["version"] == GAME_VERSION, Say("unknown version"))
    rules = rules_from_dict(data.get("rules"))
    race_target = data.get("race_target")
    check(race_target is None or is_int(race_target, 1, MAX_RACE_TARGET), Say("the race target"))
    race = race_target is not None
    players = [_player_from_dict(json_object(p, Say("a player")), rules, race)
               for p in json_list(data.get("players"), Say("the players"))]
    check(1 <= len(players) <= MAX_PLAYERS, Say("the number of players"))
    seat = int_field(data, "seat", 0, len(players) - 1, Say("whose turn it is"))
    turn = _turn_from_dict(data.get("turn"), rules, players[seat].card.bank)
    number = int_field(data, "number", 1, MAX_GAMES, Say("the game number"))
    round_ = int_field(data, "round", 1, MAX_ROUNDS if race else ROUNDS + 1, Say("the round"))
    game = Game(players, rules, dice_source(data.get("dice")), number, seat, round_, turn, race_target)
    for place, player in enumerate(players):
        _check_card_fits_round(game, place, player)
    game.undo_point = _undo_from_dict(data.get("undo"), game)
    game.moves = _moves(data["moves"], game) if "moves" in data else None
    return game


def _moves(data: object, game: Game) -> list[Move]:
    """The game's move log, checked against its seats and round."""
    try:
        moves = moves_from_json(data, len(game.players), game.round)
    except BadMoves as error:
        raise damaged(error.said) from None
    check(not moves or (moves[-1].round, moves[-1].seat) <= (game.round, game.seat), Say("the moves"))
    return moves


def _check_card_fits_round(game: Game, seat: int, player: Player) -> None:
    boxes = player.card.boxes
    if game.race_target is None:
        done = game.round - 1 + (seat < game.seat)
        check(len(boxes) == min(done, ROUNDS), Say("{name}'s card and the round").format(name=player.name))
    else:
        check(not scoring.columns_to_reset(boxes), Say("{name}'s card has a column to clear").format(name=player.name))


def _player_from_dict(data: dict[str, Any], rules: Rules = HASBRO, race: bool = False) -> Player:
    name, kind, mood = data.get("name"), data.get("kind", "human"), data.get("mood", "")
    stand_in = data.get("stand_in", False)
    check(is_valid_name(name), Say("a player name"))
    check(isinstance(kind, str) and kind in KINDS, Say("a player kind"))
    check(mood == "" or kind == "computer" and isinstance(mood, str) and mood in MOODS,
           Say("a computer player's mood"))
    check(stand_in is False or stand_in is True and kind == "human", Say("a turn played in a person's place"))
    return Player(cast(str, name), kind, _card_from_dict(data, rules, race), mood, stand_in)


def _card_to_dict(card: Scorecard) -> JSONObject:
    return {"boxes": {box.value: points for box, points in card.boxes.items()},
            "yahtzee_bonus": card.yahtzee_bonus, "roll_bonus": card.roll_bonus,
            "blanks": [box.value for box in Category if box in card.blanks],
            "bank": card.bank, "banked": card.banked}


def _card_from_dict(data: dict[str, Any], rules: Rules, race: bool = False) -> Scorecard:
    boxes: dict[Category, int] = {}
    for name, points in json_object(data.get("boxes"), Say("the boxes")).items():
        check(name in BOX_NAMES, Say("an unknown box {name}").format(name=repr(name[:20])))
        box = Category(name)
        check(is_possible_points(box, points),
               Say("{box} holds {points}").format(box=box.title, points=repr(str(points)[:20])))
        boxes[box] = points
    bonus, roll_bonus = data.get("yahtzee_bonus", 0), data.get("roll_bonus", 0)
    problem = bonus_problem(bonus, roll_bonus, rules, race or rules.extra_yahtzee_turn)
    check(problem is None, problem or "")
    blank_names = json_list(data.get("blanks", []), Say("the blanked boxes"))
    check(all(isinstance(name, str) and name in BOX_NAMES for name in blank_names)
           and len(set(blank_names)) == len(blank_names), Say("the blanked boxes"))
    blanks = {Category(name) for name in blank_names}
    check(not blanks or rules.extra_yahtzee_blank, Say("blanked boxes under rules without blanks"))
    check(all(boxes.get(box) == 0 for box in blanks), Say("a blanked box that does not hold 0"))
    bank = int_field(data, "bank", 0, rules.dice_bank, Say("the rolls in the dice bank"), 0)
    banked = int_field(data, "banked", 0, MAX_POINTS if race else 0, Say("the points banked in the race"), 0)
    return Scorecard(boxes, bonus, roll_bonus, blanks, bank, banked)


def _turn_to_dict(turn: Turn) -> JSONObject:
    return {"dice": list(turn.dice), "marked": list(turn.marked), "rolls": turn.rolls, "extra": turn.extra}


def _turn_from_dict(data: object, rules: Rules, bank: int) -> Turn:
    data = json_object(data, Say("the turn"))
    dice = json_list(data.get("dice"), Say("the dice"))
    marked = json_list(data.get("marked"), Say("the marks"))
    check(len(dice) == DICE_COUNT and all(is_int(d, 0, max(FACES)) for d in dice), Say("the dice"))
    check(len(marked) == DICE_COUNT and all(isinstance(m, bool) for m in marked), Say("the marks"))
    rolls = int_field(data, "rolls", 0, rules.rolls_per_turn + bank, Say("the rolls used"))
    check(set(dice) == {0} if rolls == 0 else 0 not in dice, Say("the dice do not match the rolls used"))
    extra = int_field(data, "extra", 0, MAX_ROUNDS if rules.extra_yahtzee_turn else 0, Say("the extra turns taken"), 0)
    return Turn(tuple(dice), tuple(marked), rolls, extra)


def _undo_to_dict(point: Optional[UndoPoint]) -> Optional[JSONObject]:
    if point is None:
        return None
    return {"seat": point.seat, "round": point.round, "turn": _turn_to_dict(point.turn),
            "card": _card_to_dict(point.card), "dice": None if point.dice is None else dice_to_dict(point.dice)}


def _undo_from_dict(data: object, game: Game) -> Optional[UndoPoint]:
    if data is None:
        return None
    data = json_object(data, Say("the posting to take back"))
    seat = int_field(data, "seat", 0, len(game.players) - 1, Say("the posting to take back"))
    round_ = int_field(data, "round", 1, game.round, Say("the posting to take back"))
    card = _card_from_dict(json_object(data.get("card"), Say("the card before the posting")), game.rules,
                           game.race_target is not None)
    turn = _turn_from_dict(data.get("turn"), game.rules, card.bank)
    check(turn.has_rolled, Say("the posting to take back was made before a roll"))
    dice = data.get("dice")
    return UndoPoint(seat, round_, turn, card, None if dice is None else dice_from_dict(dice))


# Rules

def rules_to_dict(rules: Rules) -> JSONObject:
    """A rules value as JSON data."""
    return {f.name: list(v) if isinstance(v := getattr(rules, f.name), tuple) else v
            for f in fields(rules)}


def rules_from_dict(data: object) -> Rules:
    """The rules saved by rules_to_dict: a named rule set with its options, checked field by field."""
    data = json_object(data, Say("the rules"))
    try:
        base = rules_named(data.get("name", ""))
    except UnknownRules:
        raise damaged(Say("unknown rules")) from None
    values: dict[str, Any] = {}
    for f in fields(Rules):
        default = getattr(base, f.name)
        value = data.get(f.name, default)
        if isinstance(default, tuple):
            check(isinstance(value, (list, tuple)), Say("the rules field '{name}'").format(name=f.name))
            value = tuple(value)
        check(type(value) is type(default), Say("the rules field '{name}' has the wrong type").format(name=f.name))
        values[f.name] = value
    rules = Rules(**values)
    try:
        expected = base.with_options(rules.rolls_per_turn, rules.dice_bank)
    except BadOption as error:
        raise DamagedSave(Say("the saved rules are damaged: {what}").format(what=error.said)) from None
    check(rules == expected, Say("the saved rules differ from {name}'s").format(name=base.name))
    return rules
