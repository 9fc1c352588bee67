"""The game model: players, scorecards, the turn and the session's finished games."""
from dataclasses import dataclass, field, fields

from . import scoring
from .dice import RandomDice, dice_from_dict
from .rules import HASBRO, RULES, Rules, rules_named
from .scoring import Category

STATE_VERSION = 1
DICE_COUNT = 5
ROUNDS = len(Category)
KINDS = ("human", "computer")


class IllegalMove(ValueError):
    """An action the rules do not allow now; its message is for the player."""


class BoxFilled(IllegalMove):
    """The chosen box already holds a score."""


class JokerRuleError(IllegalMove):
    """The joker rule sends this Yahtzee to another box."""


class NotRolledYet(IllegalMove):
    """Nothing can be posted or marked before the first roll."""


class NoRollsLeft(IllegalMove):
    """The turn's rolls are used up."""


class NothingMarked(IllegalMove):
    """A reroll with no die marked."""


class GameOver(IllegalMove):
    """Every box of every card is filled."""


class BadState(ValueError):
    """Saved game data that does not describe a valid game."""


@dataclass
class Scorecard:
    """One player's filled boxes and the bonus points their extra Yahtzees earned."""

    boxes: dict = field(default_factory=dict)
    yahtzee_bonus: int = 0

    @property
    def upper_sum(self):
        """The upper boxes added up."""
        return scoring.upper_sum(self.boxes)

    @property
    def upper_bonus(self):
        """35 for an upper sum of 63 or more."""
        return scoring.upper_bonus(self.boxes)

    @property
    def upper_total(self):
        """Upper sum plus its bonus."""
        return self.upper_sum + self.upper_bonus

    @property
    def lower_total(self):
        """The lower boxes added up."""
        return scoring.lower_sum(self.boxes)

    @property
    def total(self):
        """The grand total."""
        return self.upper_total + self.lower_total + self.yahtzee_bonus

    @property
    def is_full(self):
        """All thirteen boxes filled."""
        return len(self.boxes) == len(Category)


@dataclass
class Player:
    """A seat at the table."""

    name: str
    kind: str = "human"
    card: Scorecard = field(default_factory=Scorecard)

    @property
    def is_computer(self):
        """Played by the program."""
        return self.kind == "computer"


@dataclass
class Turn:
    """The five dice in their fixed places, which are marked for the reroll, rolls used."""

    dice: tuple = (0,) * DICE_COUNT
    marked: tuple = (False,) * DICE_COUNT
    rolls: int = 0

    @property
    def has_rolled(self):
        """At least one roll made."""
        return self.rolls > 0


@dataclass(frozen=True)
class Posting:
    """What a posting scored."""

    player: str
    box: Category
    points: int
    bonus: int


@dataclass
class Game:
    """One game: the players in seat order, whose turn it is, and the dice."""

    players: list
    rules: Rules = HASBRO
    source: object = field(default_factory=RandomDice)
    number: int = 1
    seat: int = 0
    round: int = 1
    turn: Turn = field(default_factory=Turn)

    @classmethod
    def start(cls, players, rules=HASBRO, source=None, number=1):
        """A new game whose first turn has begun."""
        game = cls([Player(p.name, p.kind) for p in players], rules, source or RandomDice(), number)
        game.source.start_turn(game.number, game.round, game.seat)
        return game

    @property
    def current(self):
        """The player whose turn it is."""
        return self.players[self.seat]

    @property
    def is_over(self):
        """Every card full."""
        return self.round > ROUNDS

    @property
    def rolls_left(self):
        """Rolls still allowed this turn."""
        return self.rules.rolls_per_turn - self.turn.rolls

    def legal_boxes(self):
        """The boxes the current dice may be posted in."""
        return scoring.legal_boxes(self.turn.dice, self.current.card.boxes, self.rules)

    def points_for(self, box):
        """What posting the current dice in `box` would score, bonus apart."""
        return scoring.posting_points(box, self.turn.dice, self.current.card.boxes, self.rules)

    def toggle(self, die):
        """Mark die 0-4 for the reroll, or lock it again."""
        self._require_rolled()
        if self.rolls_left <= 0:
            raise NoRollsLeft("no rolls are left: choose a box")
        marked = list(self.turn.marked)
        marked[die] = not marked[die]
        self.turn.marked = tuple(marked)

    def roll(self):
        """Roll all dice on the first roll, else the marked ones; all start locked again."""
        if self.is_over:
            raise GameOver("the game is over")
        if self.rolls_left <= 0:
            raise NoRollsLeft("no rolls are left: choose a box")
        places = range(DICE_COUNT) if not self.turn.has_rolled else [
            i for i, marked in enumerate(self.turn.marked) if marked]
        if not places:
            raise NothingMarked("no dice are marked for the reroll")
        faces = iter(self.source.roll(len(places)))
        dice = list(self.turn.dice)
        for place in places:
            dice[place] = next(faces)
        self.turn = Turn(tuple(dice), (False,) * DICE_COUNT, self.turn.rolls + 1)
        return self.turn.dice

    def check_posting(self, box):
        """Raise the IllegalMove that posting in `box` now would meet, if any."""
        if self.is_over:
            raise GameOver("the game is over")
        self._require_rolled()
        boxes = self.current.card.boxes
        if box in boxes:
            raise BoxFilled(f"{box.title} is already filled")
        if box not in self.legal_boxes():
            raise JokerRuleError(scoring.joker_requirement(self.turn.dice, boxes, self.rules))

    def post(self, box):
        """Post the dice in `box`, then pass the turn on; returns what it scored."""
        self.check_posting(box)
        card = self.current.card
        dice = self.turn.dice
        points = self.points_for(box)
        bonus = scoring.yahtzee_bonus(dice, card.boxes, self.rules)
        card.boxes[box] = points
        card.yahtzee_bonus += bonus
        posting = Posting(self.current.name, box, points, bonus)
        self._next_turn()
        return posting

    def _require_rolled(self):
        if not self.turn.has_rolled:
            raise NotRolledYet("roll the dice first")

    def _next_turn(self):
        self.seat += 1
        if self.seat == len(self.players):
            self.seat, self.round = 0, self.round + 1
        self.turn = Turn()
        if not self.is_over:
            self.source.start_turn(self.number, self.round, self.seat)

    def winners(self):
        """The names with the highest total (ties share the win)."""
        best = max(player.card.total for player in self.players)
        return [player.name for player in self.players if player.card.total == best]

    def record(self, finished):
        """The finished game as a history.jsonl record; `finished` is an ISO-8601 time."""
        return {
            "version": 1,
            "finished": finished,
            "rules": self.rules.name,
            "seed": self.source.seed,
            "players": [_player_record(player) for player in self.players],
            "winners": self.winners(),
        }

    @classmethod
    def from_record(cls, record):
        """The finished game a history record describes (for showing its sheet)."""
        players = [Player(p["name"], p["kind"],
                          Scorecard({Category(box): points for box, points in p["scores"].items()},
                                    p["yahtzee_bonus"]))
                   for p in record["players"]]
        return cls(players, RULES.get(record["rules"], HASBRO), round=ROUNDS + 1)

    def to_dict(self):
        """The whole state as JSON data, a game stopped mid-turn included."""
        return {
            "version": STATE_VERSION,
            "rules": rules_to_dict(self.rules),
            "number": self.number,
            "seat": self.seat,
            "round": self.round,
            "players": [{"name": p.name, "kind": p.kind,
                         "boxes": {box.value: points for box, points in p.card.boxes.items()},
                         "yahtzee_bonus": p.card.yahtzee_bonus} for p in self.players],
            "turn": {"dice": list(self.turn.dice), "marked": list(self.turn.marked),
                     "rolls": self.turn.rolls},
            "dice": self.source.to_dict(),
        }

    @classmethod
    def from_dict(cls, data):
        """Rebuild a game from to_dict's data; BadState says what is wrong with it."""
        return _parsed(_game_from_dict, data)


@dataclass
class Session:
    """The players at the table, the session's finished games and the game in play."""

    players: list
    results: list = field(default_factory=list)
    game: object = None
    verify: bool = True
    sound: bool = True
    rules: Rules = HASBRO
    source: object = field(default_factory=RandomDice)
    # The screen the session stands at, so that a saved session resumes at the same moment.
    screen: str = ""

    def new_game(self):
        """Start the session's next game with the players now seated."""
        self.game = Game.start(self.players, self.rules, self.source, len(self.results) + 1)
        return self.game

    def finish_game(self, finished):
        """File the game in play among the results; returns its record."""
        record = self.game.record(finished)
        self.results.append(record)
        self.game = None
        return record

    def to_dict(self):
        """The whole session as JSON data."""
        return {
            "version": STATE_VERSION,
            "players": [{"name": p.name, "kind": p.kind} for p in self.players],
            "results": self.results,
            "game": self.game.to_dict() if self.game else None,
            "verify": self.verify,
            "sound": self.sound,
            "rules": rules_to_dict(self.rules),
            "dice": self.source.to_dict(),
            "screen": self.screen,
        }

    @classmethod
    def from_dict(cls, data):
        """Rebuild a session from to_dict's data; BadState says what is wrong with it."""
        return _parsed(_session_from_dict, data)


def _parsed(build, data):
    try:
        return build(data)
    except BadState:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        raise BadState(f"the saved game is damaged ({error.__class__.__name__}: {error})") from None


def _session_from_dict(data):
    _check(isinstance(data, dict) and data.get("version") == STATE_VERSION, "unknown version")
    players = [_player_from_dict({"boxes": {}, **p}) for p in data["players"]]
    _check(1 <= len(players) <= 4, "the number of players")
    _check(isinstance(data["results"], list) and all(isinstance(r, dict) for r in data["results"]),
           "the finished games")
    source = dice_from_dict(data["dice"])
    game = Game.from_dict(data["game"]) if data["game"] is not None else None
    if game:
        game.source = source  # one dice stream serves the whole session
    _check(isinstance(data["verify"], bool) and isinstance(data["sound"], bool), "verify and sound")
    _check(isinstance(data["screen"], str) and len(data["screen"]) <= 40, "the screen")
    return Session(players, data["results"], game, data["verify"], data["sound"],
                   rules_from_dict(data["rules"]), source, data["screen"])


def _player_record(player):
    card = player.card
    return {
        "name": player.name,
        "kind": player.kind,
        "scores": {box.value: card.boxes.get(box, 0) for box in Category},
        "upper_bonus": card.upper_bonus,
        "yahtzee_bonus": card.yahtzee_bonus,
        "total": card.total,
    }


def rules_to_dict(rules):
    """A rules value as JSON data."""
    return {f.name: list(v) if isinstance(v := getattr(rules, f.name), tuple) else v
            for f in fields(rules)}


def rules_from_dict(data):
    """The rules value saved by rules_to_dict, checked field by field."""
    base = rules_named(data["name"])
    values = {}
    for f in fields(Rules):
        value = data.get(f.name, getattr(base, f.name))
        default = getattr(base, f.name)
        if isinstance(default, tuple):
            value = tuple(value)
        if type(value) is not type(default):
            raise BadState(f"the saved rules field '{f.name}' has the wrong type")
        values[f.name] = value
    return Rules(**values)


def _check(condition, what):
    if not condition:
        raise BadState(f"the saved game is damaged: {what}")


def _is_int(value, low, high):
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _card_from_dict(data):
    boxes = {}
    for name, points in data["boxes"].items():
        box = Category(name)
        _check(_is_int(points, 0, 50), f"{box.title} holds {points!r}")
        boxes[box] = points
    bonus = data.get("yahtzee_bonus", 0)
    _check(_is_int(bonus, 0, 100 * ROUNDS), "the Yahtzee bonus is out of range")
    return Scorecard(boxes, bonus)


def _player_from_dict(data):
    name, kind = data["name"], data.get("kind", "human")
    _check(isinstance(name, str) and 0 < len(name) <= 40 and name.isprintable(), "a player name")
    _check(kind in KINDS, "a player kind")
    return Player(name, kind, _card_from_dict(data))


def _game_from_dict(data):
    _check(isinstance(data, dict) and data.get("version") == STATE_VERSION, "unknown version")
    players = [_player_from_dict(p) for p in data["players"]]
    _check(1 <= len(players) <= 4, "the number of players")
    rules = rules_from_dict(data["rules"])
    turn_data = data["turn"]
    dice = tuple(turn_data["dice"])
    marked = tuple(turn_data["marked"])
    rolls = turn_data["rolls"]
    _check(len(dice) == DICE_COUNT and all(_is_int(d, 0, 6) for d in dice), "the dice")
    _check(len(marked) == DICE_COUNT and all(isinstance(m, bool) for m in marked), "the marks")
    _check(_is_int(rolls, 0, rules.rolls_per_turn + rules.dice_bank), "the rolls used")
    _check(set(dice) == {0} if rolls == 0 else 0 not in dice, "the dice do not match the rolls used")
    game = Game(players, rules, dice_from_dict(data["dice"]), data["number"], data["seat"],
                data["round"], Turn(dice, marked, rolls))
    _check(_is_int(game.number, 1, 10_000), "the game number")
    _check(_is_int(game.seat, 0, len(players) - 1), "whose turn it is")
    _check(_is_int(game.round, 1, ROUNDS + 1), "the round")
    for seat, player in enumerate(players):
        done = game.round - 1 + (seat < game.seat)
        _check(len(player.card.boxes) == min(done, ROUNDS), f"{player.name}'s card and the round")
    return game
