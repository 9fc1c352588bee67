"""The model as JSON data and back: sessions, games, cards, turns, rules.

Decoding trusts nothing: every value is checked for its JSON type and range before use, and
anything malformed raises DamagedSave, the one fault for a damaged file. Only these checks
raise it; an error in the game's own code goes on as the error it is.
"""
from dataclasses import fields
from typing import Any, Optional, cast

from ..model import scoring
from ..model.checks import MAX_ROUNDS, DamagedSave, is_int, is_valid_name
from ..model.dice import (
    DICE_COUNT,
    FACES,
    CountingState,
    DiceState,
    DuplicateState,
    LoadedState,
    RandomState,
    SeededState,
    Source,
)
from ..model.game import KINDS, MAX_PLAYERS, ROUNDS, Game, Player, Turn, UndoPoint
from ..model.match import MATCH_KINDS, MAX_RACE_TARGET, SINGLE_GAME, BadMatch, Match
from ..model.moods import MOODS
from ..model.moves import BadMoves, Move, moves_from_json, moves_to_json
from ..model.outcome import FinishedGame
from ..model.rules import HASBRO, BadOption, Rules, UnknownRules, rules_named
from ..model.scorecard import Scorecard
from ..model.scoring import Category, is_possible_points
from ..model.session import Session
from ..speech.languages import N_, _, text
from .proofs import is_seat_proof
from .records import InvalidRecord, bonus_problem, finished_game, record_of
from .shapes import JSONObject

__all__ = ["DamagedSave", "session_to_dict", "session_from_dict", "game_to_dict", "game_from_dict",
           "dice_to_dict", "dice_from_dict", "rules_to_dict", "rules_from_dict", "SESSION_VERSION", "GAME_VERSION"]

# Version 1 of a session held the screen it stood at; 2 leaves that to the autosave's resume point.
SESSION_VERSION = 2
OLD_SESSION_VERSIONS = (1,)
GAME_VERSION = 1
# Bounds for games that may run long (races, extra turns).
MAX_POINTS = 1_000_000
MAX_GAMES = 10_000
MAX_LOSS = 10_000
MAX_DRAWN = 1000  # faces seeded dice have drawn in one turn
MAX_THROWS = 10_000  # throws of one die in one round (extra turns may add many)
MAX_SCREEN_CHARS = 40
BOX_NAMES = {box.value for box in Category}
_MISSING = object()


def _finished_game(record: object) -> FinishedGame:
    try:
        return finished_game(record)
    except InvalidRecord:
        raise DamagedSave(_("a finished game in it is not valid")) from None


# Checks

def _check(condition: object, what: str) -> None:
    if not condition:
        raise DamagedSave(_("the saved game is damaged: {what}").format(what=_(what)))


def _object(value: object, what: str) -> dict[str, Any]:
    _check(isinstance(value, dict), what)
    return cast("dict[str, Any]", value)


def _list(value: object, what: str) -> list[Any]:
    _check(isinstance(value, list), what)
    return cast("list[Any]", value)


def _int(data: dict[str, Any], key: str, low: Optional[int], high: Optional[int], what: str,
         default: object = _MISSING) -> int:
    value = data.get(key, default)
    _check(is_int(value, low, high), what)
    return cast(int, value)


def _required(data: dict[str, Any], key: str, what: str) -> object:
    _check(key in data, what)
    return data[key]


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
        "seat_owners": dict(sorted(session.seat_owners.items())),
    }


def session_from_dict(data: object) -> Session:
    """The session saved by session_to_dict (or by version 1); DamagedSave if it is not one."""
    data = _object(data, N_("not a saved session"))
    version = data.get("version")
    _check(is_int(version) and version in (SESSION_VERSION, *OLD_SESSION_VERSIONS), _("unknown version"))
    players = [_seat_from_dict(p) for p in _list(data.get("players"), N_("the players"))]
    _check(1 <= len(players) <= MAX_PLAYERS, _("the number of players"))
    results = [_finished_game(record) for record in _list(data.get("results"), N_("the finished games"))]
    source = _dice(data.get("dice"))
    saved_game = _required(data, "game", N_("the game in play"))
    game = game_from_dict(saved_game) if saved_game is not None else None
    if game:
        game.source = source  # one dice stream serves the whole session
    verify, sound = data.get("verify"), data.get("sound")
    _check(isinstance(verify, bool) and isinstance(sound, bool), _("verify and sound"))
    if version == 1:
        old_screen(data)
    match_start = _int(data, "match_start", 0, len(results), N_("where the match begins"), 0)
    _losses(data.get("losses", {}))  # older saves kept them; the review of each game counts them now
    win_rankers = _list(data.get("win_rankers", []), N_("the players who rank advice by the chance to win"))
    _check(all(isinstance(name, str) and is_valid_name(name) for name in win_rankers),
           N_("the players who rank advice by the chance to win"))
    rankers = set(win_rankers)
    owners = _seat_owners(data)
    if game:
        game.win_rankers = rankers  # one set for the session and its game
    return Session(players, results, game, cast(bool, verify), cast(bool, sound), rules_from_dict(data.get("rules")),
                   source, _match(data.get("match", match_to_dict(SINGLE_GAME))), match_start, rankers,
                   owners)


def _seat_owners(data: dict[str, Any]) -> dict[str, str]:
    """The seats friends took, and what proves each theirs (a save before proofs lists the names)."""
    what = N_("the seats played from a friend's terminal")
    owners = _object(data.get("seat_owners", {}), what)
    friends = _list(data.get("friend_seats", []), what)
    _check(all(isinstance(name, str) and is_valid_name(name) for name in [*owners, *friends]), what)
    _check(all(is_seat_proof(proof) for proof in owners.values()), what)
    return {**dict.fromkeys(friends, ""), **owners}


def old_screen(data: dict[str, Any]) -> str:
    """The screen a version 1 session stood at ('posting h', 'play', '')."""
    screen = data.get("screen")
    _check(isinstance(screen, str) and len(screen) <= MAX_SCREEN_CHARS and screen.isprintable(), _("the screen"))
    return cast(str, screen)


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
        raise BadMatch(_("unknown match kind {kind}").format(kind=repr(kind)))
    return MATCH_KINDS[kind](data.get(_COUNT_FIELD.get(kind, ""), 0))


def _match(data: object) -> Match:
    try:
        return match_from_dict(data)
    except BadMatch as error:
        raise DamagedSave(_("the saved game is damaged: {what}").format(what=text(error.said))) from None


def _losses(losses: object) -> dict[str, float]:
    _check(isinstance(losses, dict) and all(
        isinstance(lost, (int, float)) and not isinstance(lost, bool) and 0 <= lost < MAX_LOSS
        for lost in losses.values()), N_("the losses"))
    return cast("dict[str, float]", losses)


def _seat_to_dict(player: Player) -> dict[str, str]:
    seat = {"name": player.name, "kind": player.kind}
    return {**seat, "mood": player.mood} if player.mood else seat


def _seat_from_dict(data: object) -> Player:
    return _player_from_dict({"boxes": {}, **_object(data, N_("a player"))})


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
    data = _object(data, N_("the game in play"))
    _check(is_int(data.get("version")) and data["version"] == GAME_VERSION, N_("unknown version"))
    rules = rules_from_dict(data.get("rules"))
    race_target = data.get("race_target")
    _check(race_target is None or is_int(race_target, 1, MAX_RACE_TARGET), _("the race target"))
    race = race_target is not None
    players = [_player_from_dict(_object(p, N_("a player")), rules, race)
               for p in _list(data.get("players"), N_("the players"))]
    _check(1 <= len(players) <= MAX_PLAYERS, _("the number of players"))
    seat = _int(data, "seat", 0, len(players) - 1, N_("whose turn it is"))
    turn = _turn_from_dict(data.get("turn"), rules, players[seat].card.bank)
    number = _int(data, "number", 1, MAX_GAMES, N_("the game number"))
    round_ = _int(data, "round", 1, MAX_ROUNDS if race else ROUNDS + 1, N_("the round"))
    game = Game(players, rules, _dice(data.get("dice")), number, seat, round_, turn, race_target)
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
        raise DamagedSave(_("the saved game is damaged: {what}").format(what=text(error.said))) from None
    _check(not moves or (moves[-1].round, moves[-1].seat) <= (game.round, game.seat), _("the moves"))
    return moves


def _check_card_fits_round(game: Game, seat: int, player: Player) -> None:
    boxes = player.card.boxes
    if game.race_target is None:
        done = game.round - 1 + (seat < game.seat)
        _check(len(boxes) == min(done, ROUNDS), _("{name}'s card and the round").format(name=player.name))
    else:
        _check(not scoring.columns_to_reset(boxes), _("{name}'s card has a column to clear").format(name=player.name))


def _player_from_dict(data: dict[str, Any], rules: Rules = HASBRO, race: bool = False) -> Player:
    name, kind, mood = data.get("name"), data.get("kind", "human"), data.get("mood", "")
    _check(is_valid_name(name), _("a player name"))
    _check(isinstance(kind, str) and kind in KINDS, _("a player kind"))
    _check(mood == "" or kind == "computer" and isinstance(mood, str) and mood in MOODS,
           N_("a computer player's mood"))
    return Player(cast(str, name), kind, _card_from_dict(data, rules, race), mood)


def _card_to_dict(card: Scorecard) -> JSONObject:
    return {"boxes": {box.value: points for box, points in card.boxes.items()},
            "yahtzee_bonus": card.yahtzee_bonus, "roll_bonus": card.roll_bonus,
            "blanks": [box.value for box in Category if box in card.blanks],
            "bank": card.bank, "banked": card.banked}


def _card_from_dict(data: dict[str, Any], rules: Rules, race: bool = False) -> Scorecard:
    boxes: dict[Category, int] = {}
    for name, points in _object(data.get("boxes"), N_("the boxes")).items():
        _check(name in BOX_NAMES, _("an unknown box {name}").format(name=repr(name[:20])))
        box = Category(name)
        _check(is_possible_points(box, points),
               _("{box} holds {points}").format(box=text(box.title), points=repr(str(points)[:20])))
        boxes[box] = points
    bonus, roll_bonus = data.get("yahtzee_bonus", 0), data.get("roll_bonus", 0)
    problem = bonus_problem(bonus, roll_bonus, rules, race or rules.extra_yahtzee_turn)
    _check(problem is None, problem or "")
    blank_names = _list(data.get("blanks", []), N_("the blanked boxes"))
    _check(all(isinstance(name, str) and name in BOX_NAMES for name in blank_names)
           and len(set(blank_names)) == len(blank_names), N_("the blanked boxes"))
    blanks = {Category(name) for name in blank_names}
    _check(not blanks or rules.extra_yahtzee_blank, _("blanked boxes under rules without blanks"))
    _check(all(boxes.get(box) == 0 for box in blanks), N_("a blanked box that does not hold 0"))
    bank = _int(data, "bank", 0, rules.dice_bank, N_("the rolls in the dice bank"), 0)
    banked = _int(data, "banked", 0, MAX_POINTS if race else 0, N_("the points banked in the race"), 0)
    return Scorecard(boxes, bonus, roll_bonus, blanks, bank, banked)


def _turn_to_dict(turn: Turn) -> JSONObject:
    return {"dice": list(turn.dice), "marked": list(turn.marked), "rolls": turn.rolls, "extra": turn.extra}


def _turn_from_dict(data: object, rules: Rules, bank: int) -> Turn:
    data = _object(data, N_("the turn"))
    dice = _list(data.get("dice"), N_("the dice"))
    marked = _list(data.get("marked"), N_("the marks"))
    _check(len(dice) == DICE_COUNT and all(is_int(d, 0, max(FACES)) for d in dice), N_("the dice"))
    _check(len(marked) == DICE_COUNT and all(isinstance(m, bool) for m in marked), N_("the marks"))
    rolls = _int(data, "rolls", 0, rules.rolls_per_turn + bank, N_("the rolls used"))
    _check(set(dice) == {0} if rolls == 0 else 0 not in dice, _("the dice do not match the rolls used"))
    extra = _int(data, "extra", 0, MAX_ROUNDS if rules.extra_yahtzee_turn else 0, N_("the extra turns taken"), 0)
    return Turn(tuple(dice), tuple(marked), rolls, extra)


def _undo_to_dict(point: Optional[UndoPoint]) -> Optional[JSONObject]:
    if point is None:
        return None
    return {"seat": point.seat, "round": point.round, "turn": _turn_to_dict(point.turn),
            "card": _card_to_dict(point.card), "dice": None if point.dice is None else dice_to_dict(point.dice)}


def _undo_from_dict(data: object, game: Game) -> Optional[UndoPoint]:
    if data is None:
        return None
    data = _object(data, N_("the posting to take back"))
    seat = _int(data, "seat", 0, len(game.players) - 1, N_("the posting to take back"))
    round_ = _int(data, "round", 1, game.round, N_("the posting to take back"))
    card = _card_from_dict(_object(data.get("card"), N_("the card before the posting")), game.rules,
                           game.race_target is not None)
    turn = _turn_from_dict(data.get("turn"), game.rules, card.bank)
    _check(turn.has_rolled, _("the posting to take back was made before a roll"))
    dice = data.get("dice")
    return UndoPoint(seat, round_, turn, card, None if dice is None else dice_from_dict(dice))


# Dice

_DICE = N_("the dice")


def dice_to_dict(state: DiceState) -> JSONObject:
    """The state of the dice as JSON data."""
    if isinstance(state, SeededState):
        return {"kind": "seeded", "seed": state.seed, "turn": list(state.turn), "drawn": state.drawn}
    if isinstance(state, DuplicateState):
        return {"kind": "duplicate", "seed": state.seed, "turn": list(state.turn), "thrown": list(state.thrown),
                "random_seed": state.random_seed}
    if isinstance(state, LoadedState):
        return {"kind": "loaded", "faces": list(state.faces), "fallback": dice_to_dict(state.fallback)}
    return {"kind": "random"}


def dice_from_dict(data: object) -> DiceState:
    """The state of the dice saved by dice_to_dict; DamagedSave if the data is not one."""
    data = _object(data, _DICE)
    kind = data.get("kind")
    if kind == "random":
        return RandomState()
    if kind == "loaded":
        fallback = dice_from_dict(data.get("fallback"))
        _check(not isinstance(fallback, DuplicateState), _DICE)  # loaded dice fall back on dice that roll by count
        return LoadedState(_ints(data.get("faces"), 1, 6), cast(CountingState, fallback))
    _check(kind in ("seeded", "duplicate"), _DICE)
    seed, turn = _int(data, "seed", None, None, _DICE), _dice_turn(data.get("turn"))
    if kind == "seeded":
        return SeededState(seed, turn, _int(data, "drawn", 0, MAX_DRAWN, _DICE))
    random_seed = data.get("random_seed")
    _check(isinstance(random_seed, bool), _DICE)
    return DuplicateState(seed, turn, _ints(data.get("thrown"), 0, MAX_THROWS, DICE_COUNT), cast(bool, random_seed))


def _dice_turn(data: object) -> tuple[int, int, int]:
    game, round_, seat = _ints(data, 0, None, 3)
    return game, round_, seat


def _ints(data: object, low: int, high: Optional[int], count: Optional[int] = None) -> tuple[int, ...]:
    """The whole numbers of a list (`count` of them, if given) within [low, high], for the dice."""
    values = _list(data, _DICE)
    _check((count is None or len(values) == count) and all(is_int(value, low, high) for value in values), _DICE)
    return tuple(values)


def _dice(data: object) -> Source:
    return dice_from_dict(data).source()


# Rules

def rules_to_dict(rules: Rules) -> JSONObject:
    """A rules value as JSON data."""
    return {f.name: list(v) if isinstance(v := getattr(rules, f.name), tuple) else v
            for f in fields(rules)}


def rules_from_dict(data: object) -> Rules:
    """The rules saved by rules_to_dict: a named rule set with its options, checked field by field."""
    data = _object(data, N_("the rules"))
    try:
        base = rules_named(data.get("name", ""))
    except UnknownRules:
        raise DamagedSave(_("the saved game is damaged: {what}").format(what=_("unknown rules"))) from None
    values: dict[str, Any] = {}
    for f in fields(Rules):
        default = getattr(base, f.name)
        value = data.get(f.name, default)
        if isinstance(default, tuple):
            _check(isinstance(value, (list, tuple)), _("the rules field '{name}'").format(name=f.name))
            value = tuple(value)
        _check(type(value) is type(default), _("the rules field '{name}' has the wrong type").format(name=f.name))
        values[f.name] = value
    rules = Rules(**values)
    try:
        expected = base.with_options(rules.rolls_per_turn, rules.dice_bank)
    except BadOption as error:
        raise DamagedSave(_("the saved rules are damaged: {what}").format(what=text(error.said))) from None
    _check(rules == expected, _("the saved rules differ from {name}'s").format(name=base.name))
    return rules
