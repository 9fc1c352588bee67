"""The game model: players, scorecards, the turn and the session's finished games."""
from dataclasses import dataclass, field, fields, replace

from . import scoring
from .dice import RandomDice, dice_from_dict, restore_source
from .match import SINGLE_GAME, match_from_dict, match_to_dict
from .rules import HASBRO, RULES, BadOption, Rules, rules_named
from .scoring import LOWER, UPPER, Category

STATE_VERSION = 1
DICE_COUNT = 5
ROUNDS = len(Category)
KINDS = ("human", "computer")
MAX_PLAYERS = 4
# The computer players' ways of playing; yahtzee.strategy plays them.
MOODS = ("thinker", "norisk", "gambler", "yclover", "nowhere")
# Bounds for the saved state of games that may run long (races, extra turns).
MAX_ROUNDS = 10_000
MAX_POINTS = 1_000_000
MAX_RACE_TARGET = 100_000
COLUMN_NAMES = {UPPER: "upper", LOWER: "lower"}


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


class NoExtraTurn(IllegalMove):
    """Another turn is earned only by an extra Yahtzee, where the rules give one."""


class CannotUndo(IllegalMove):
    """There is no posting that may be taken back now."""


class BadState(ValueError):
    """Saved game data that does not describe a valid game."""


@dataclass
class Scorecard:
    """One player's filled boxes, the bonus points earned beside them, and the rolls banked."""

    boxes: dict = field(default_factory=dict)
    yahtzee_bonus: int = 0
    # FiveOAK: points for postings made in fewer rolls, kept as they were earned.
    roll_bonus: int = 0
    # Acorn: the boxes an extra Yahtzee blanked (each also holds 0 in `boxes`).
    blanks: set = field(default_factory=set)
    # Dice bank: unused rolls carried into this player's next turn.
    bank: int = 0
    # Race: the points of the columns already completed and cleared.
    banked: int = 0

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
        return self.upper_total + self.lower_total + self.yahtzee_bonus + self.roll_bonus + self.banked

    @property
    def is_full(self):
        """All thirteen boxes filled."""
        return len(self.boxes) == len(Category)

    @property
    def par(self):
        """FiveOAK's tracker: over (+) or under (-) three of each face so far, or None once
        the upper bonus is won or lost."""
        return scoring.par(self.boxes)

    def is_blank(self, box):
        """The box was blanked by an extra Yahtzee (Acorn), shown as '-'."""
        return box in self.blanks

    def enter(self, posting):
        """Write a posting's points and bonuses on the card."""
        self.boxes[posting.box] = posting.points
        self.yahtzee_bonus += posting.bonus
        self.roll_bonus += posting.roll_bonus
        if posting.blank:
            self.blanks.add(posting.box)

    def reset_full_columns(self):
        """Race: bank and clear the columns due for it; returns their names."""
        columns = scoring.columns_to_reset(self.boxes)
        for column in columns:
            self.banked += sum(self.boxes[box] for box in column)
            self.banked += self.upper_bonus if column is UPPER else 0
        for column in columns:
            for box in column:
                del self.boxes[box]
                self.blanks.discard(box)
        return tuple(COLUMN_NAMES[column] for column in columns)

    def copy(self):
        """An independent copy of the card."""
        return replace(self, boxes=dict(self.boxes), blanks=set(self.blanks))


@dataclass
class Player:
    """A seat at the table."""

    name: str
    kind: str = "human"
    card: Scorecard = field(default_factory=Scorecard)
    mood: str = ""  # a computer player's way of playing (see yahtzee.strategy.moods)

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
    # yahtChallenge: how many extra turns the player has taken in a row before this one.
    extra: int = 0

    @property
    def has_rolled(self):
        """At least one roll made."""
        return self.rolls > 0


@dataclass(frozen=True)
class Posting:
    """What a posting scored: the box's points, the extra-Yahtzee bonus, the roll bonus;
    whether it blanked the box (Acorn) or took another turn instead (yahtChallenge), and
    which race columns it completed and cleared."""

    player: str
    box: Category
    points: int
    bonus: int
    roll_bonus: int = 0
    blank: bool = False
    extra_turn: bool = False
    reset: tuple = ()


@dataclass
class UndoPoint:
    """The moment before a posting, kept until the next roll so that it can be taken back."""

    seat: int
    round: int
    turn: Turn
    card: Scorecard
    dice: dict


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
    # Race: the score to reach; the game then ends with the round. None: thirteen rounds.
    race_target: object = None
    undo_point: object = None

    @classmethod
    def start(cls, players, rules=HASBRO, source=None, number=1, race_target=None):
        """A new game whose first turn has begun."""
        game = cls([Player(p.name, p.kind, mood=p.mood) for p in players], rules, source or RandomDice(), number,
                   race_target=race_target)
        game.source.start_turn(game.number, game.round, game.seat)
        return game

    @property
    def current(self):
        """The player whose turn it is."""
        return self.players[self.seat]

    @property
    def is_over(self):
        """Every card full; in a race, a round completed with someone at the target."""
        if self.race_target is None:
            return self.round > ROUNDS
        round_done = self.seat == 0 and self.round > 1 and self.turn == Turn()
        return round_done and max(p.card.total for p in self.players) >= self.race_target

    @property
    def rolls_left(self):
        """Rolls still allowed this turn, banked ones included."""
        return self.rules.rolls_per_turn + self.current.card.bank - self.turn.rolls

    @property
    def can_take_extra_turn(self):
        """yahtChallenge: these dice are an extra Yahtzee, which may be taken as its bonus and
        another turn (post in YAHTZEE, or take_extra_turn)."""
        return (not self.is_over and self.turn.has_rolled
                and scoring.earns_extra_turn(self.turn.dice, self.current.card.boxes, self.rules))

    @property
    def must_blank(self):
        """Acorn: these dice are an extra Yahtzee, so the chosen box is blanked for 100."""
        return (not self.is_over and self.turn.has_rolled
                and scoring.must_blank(self.turn.dice, self.current.card.boxes, self.rules))

    @property
    def can_undo(self):
        """The last posting may be taken back now."""
        return not self._undo_refusal()

    def legal_boxes(self):
        """The boxes the current dice may be posted in."""
        return scoring.legal_boxes(self.turn.dice, self.current.card.boxes, self.rules)

    def points_for(self, box):
        """What posting the current dice in `box` would score, bonus apart."""
        return scoring.posting_points(box, self.turn.dice, self.current.card.boxes, self.rules)

    def preview(self, box):
        """The Posting that posting the current dice in `box` would make (nothing changes)."""
        dice, boxes, rules = self.turn.dice, self.current.card.boxes, self.rules
        if box is Category.YAHTZEE and self.can_take_extra_turn:
            return Posting(self.current.name, box, 0, scoring.extra_turn_bonus(dice, boxes, rules),
                           extra_turn=True)
        return Posting(self.current.name, box, self.points_for(box),
                       scoring.yahtzee_bonus(dice, boxes, rules),
                       scoring.roll_bonus_points(box, dice, self.turn.rolls, boxes, rules),
                       blank=scoring.must_blank(dice, boxes, rules))

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
        self.turn = Turn(tuple(dice), (False,) * DICE_COUNT, self.turn.rolls + 1, self.turn.extra)
        return self.turn.dice

    def check_posting(self, box):
        """Raise the IllegalMove that posting in `box` now would meet, if any."""
        if self.is_over:
            raise GameOver("the game is over")
        self._require_rolled()
        boxes = self.current.card.boxes
        if box is Category.YAHTZEE and self.can_take_extra_turn:
            return
        if box in boxes:
            raise BoxFilled(f"{box.title} is already filled")
        if box not in self.legal_boxes():
            raise JokerRuleError(scoring.joker_requirement(self.turn.dice, boxes, self.rules))

    def post(self, box):
        """Post the dice in `box` (blank it, for an Acorn extra Yahtzee), then pass the turn
        on; returns what it scored. YAHTZEE, when an extra turn is earned, takes it."""
        if box is Category.YAHTZEE and self.can_take_extra_turn:
            return self.take_extra_turn()
        self.check_posting(box)
        posting = self.preview(box)
        self._keep_undo_point()
        card = self.current.card
        card.enter(posting)
        self._bank_unused_rolls()
        if self.race_target is not None:
            posting = replace(posting, reset=card.reset_full_columns())
        self._next_turn()
        return posting

    def take_extra_turn(self):
        """yahtChallenge: add an extra Yahtzee's bonus and start the same player's turn again,
        no box filled; returns the Posting (extra_turn=True)."""
        if not self.can_take_extra_turn:
            raise NoExtraTurn("only another Yahtzee, with 50 in YAHTZEE, earns another turn")
        posting = self.preview(Category.YAHTZEE)
        self._keep_undo_point()
        self.current.card.yahtzee_bonus += posting.bonus
        self._bank_unused_rolls()
        # The dice stream goes on from this turn's: reseeding for the same seat and round
        # would deal the same Yahtzee again.
        self.turn = Turn(extra=self.turn.extra + 1)
        return posting

    def undo(self):
        """Take back the last posting (a human's, before anyone rolls again)."""
        refusal = self._undo_refusal()
        if refusal:
            raise CannotUndo(refusal)
        point, self.undo_point = self.undo_point, None
        self.seat, self.round, self.turn = point.seat, point.round, point.turn
        self.players[point.seat].card = point.card.copy()
        if point.dice is not None:
            restore_source(self.source, point.dice)

    def _undo_refusal(self):
        if self.undo_point is None:
            return "there is no posting to take back"
        if self.is_over:
            return "the game is over"
        if self.turn.has_rolled:
            return "the dice have been rolled since that posting"
        if self.players[self.undo_point.seat].is_computer:
            return "a computer's posting cannot be taken back"
        return ""

    def _keep_undo_point(self):
        # A source that cannot describe itself (a test's scripted dice) is simply not rewound.
        describe = getattr(self.source, "to_dict", lambda: None)
        self.undo_point = UndoPoint(self.seat, self.round, self.turn, self.current.card.copy(), describe())

    def _bank_unused_rolls(self):
        self.current.card.bank = min(self.rules.dice_bank, self.rolls_left)

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
        """The finished game as a history.jsonl record; `finished` is an ISO-8601 time.
        Options and a race target appear only when there are some."""
        record = {
            "version": 1,
            "finished": finished,
            "rules": self.rules.name,
            "seed": self.source.seed,
            "players": [_player_record(player) for player in self.players],
            "winners": self.winners(),
        }
        if self.rules.options:
            record["options"] = self.rules.options
        if self.race_target is not None:
            record["race_target"] = self.race_target
        return record

    @classmethod
    def from_record(cls, record):
        """The finished game a history record describes (for showing its sheet)."""
        players = [Player(p["name"], p["kind"], _card_from_record(p)) for p in record["players"]]
        rules = RULES.get(record["rules"], HASBRO)
        try:
            rules = rules.with_options(**record.get("options", {}))
        except (BadOption, TypeError):
            pass  # the sheet is still worth showing under the rule set's own options
        return cls(players, rules, round=ROUNDS + 1, race_target=record.get("race_target"))

    def to_dict(self):
        """The whole state as JSON data, a game stopped mid-turn included."""
        return {
            "version": STATE_VERSION,
            "rules": rules_to_dict(self.rules),
            "number": self.number,
            "seat": self.seat,
            "round": self.round,
            "players": [{**_seat_to_dict(p), **_card_to_dict(p.card)} for p in self.players],
            "turn": _turn_to_dict(self.turn),
            "dice": self.source.to_dict(),
            "race_target": self.race_target,
            "undo": _undo_to_dict(self.undo_point),
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
    match: object = SINGLE_GAME
    # Where the match's games begin among the results.
    match_start: int = 0
    # Each player's expected points given away against perfect play, for the recap.
    losses: dict = field(default_factory=dict)

    def new_game(self):
        """Start the session's next game with the players now seated (a new match of the
        same kind once the last one is decided)."""
        if self.match_is_over:
            self.match_start = len(self.results)
        self.game = Game.start(self.players, self.rules, self.source, len(self.results) + 1,
                               self.match.race_target)
        return self.game

    def start_match(self, match):
        """Play `match` from the next game on."""
        self.match, self.match_start = match, len(self.results)

    @property
    def match_records(self):
        """The records of the match's finished games."""
        return self.results[self.match_start:]

    @property
    def match_is_over(self):
        """The match is decided."""
        return self.match.is_over(self.match_records, self.game)

    def match_winners(self):
        """The match's winners once it is decided, else []."""
        return self.match.winners(self.match_records)

    def standings_lines(self):
        """Where the match stands, for the recap."""
        return self.match.standings_lines(self.match_records, self.game)

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
            "players": [_seat_to_dict(p) for p in self.players],
            "results": self.results,
            "game": self.game.to_dict() if self.game else None,
            "verify": self.verify,
            "sound": self.sound,
            "rules": rules_to_dict(self.rules),
            "dice": self.source.to_dict(),
            "screen": self.screen,
            "match": match_to_dict(self.match),
            "match_start": self.match_start,
            "losses": self.losses,
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
    _check(1 <= len(players) <= MAX_PLAYERS, "the number of players")
    _check(isinstance(data["results"], list) and all(isinstance(r, dict) for r in data["results"]),
           "the finished games")
    source = dice_from_dict(data["dice"])
    game = Game.from_dict(data["game"]) if data["game"] is not None else None
    if game:
        game.source = source  # one dice stream serves the whole session
    _check(isinstance(data["verify"], bool) and isinstance(data["sound"], bool), "verify and sound")
    _check(isinstance(data["screen"], str) and len(data["screen"]) <= 40, "the screen")
    match = match_from_dict(data.get("match", SINGLE_GAME.to_dict()))
    match_start = data.get("match_start", 0)
    _check(_is_int(match_start, 0, len(data["results"])), "where the match begins")
    losses = data.get("losses", {})
    _check(isinstance(losses, dict) and all(
        isinstance(name, str) and isinstance(lost, (int, float)) and not isinstance(lost, bool)
        and 0 <= lost < 10_000 for name, lost in losses.items()), "the losses")
    return Session(players, data["results"], game, data["verify"], data["sound"],
                   rules_from_dict(data["rules"]), source, data["screen"], match, match_start,
                   losses)


def _player_record(player):
    card = player.card
    record = {
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


def _card_from_record(player):
    boxes = {Category(box): points for box, points in player["scores"].items()}
    blanks = {Category(box) for box in player.get("blanks", [])}
    return Scorecard(boxes, player["yahtzee_bonus"], player.get("roll_bonus", 0), blanks,
                     banked=player.get("banked", 0))


def rules_to_dict(rules):
    """A rules value as JSON data."""
    return {f.name: list(v) if isinstance(v := getattr(rules, f.name), tuple) else v
            for f in fields(rules)}


def rules_from_dict(data):
    """The rules value saved by rules_to_dict: a named rule set with its options, checked
    field by field."""
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
    rules = Rules(**values)
    try:
        expected = base.with_options(rules.rolls_per_turn, rules.dice_bank)
    except BadOption as error:
        raise BadState(f"the saved rules are damaged: {error}") from None
    _check(rules == expected, f"the saved rules differ from {base.name}'s")
    return rules


def _check(condition, what):
    if not condition:
        raise BadState(f"the saved game is damaged: {what}")


def _is_int(value, low, high):
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _card_to_dict(card):
    return {"boxes": {box.value: points for box, points in card.boxes.items()},
            "yahtzee_bonus": card.yahtzee_bonus, "roll_bonus": card.roll_bonus,
            "blanks": [box.value for box in Category if box in card.blanks],
            "bank": card.bank, "banked": card.banked}


def _card_from_dict(data, rules=HASBRO, race=False):
    boxes = {}
    for name, points in data["boxes"].items():
        box = Category(name)
        _check(_is_int(points, 0, 50), f"{box.title} holds {points!r}")
        boxes[box] = points
    long_game = race or rules.extra_yahtzee_turn
    bonus = data.get("yahtzee_bonus", 0)
    _check(_is_int(bonus, 0, MAX_POINTS if long_game else 100 * ROUNDS), "the Yahtzee bonus is out of range")
    roll_bonus = data.get("roll_bonus", 0)
    _check(_is_int(roll_bonus, 0, MAX_POINTS if rules.roll_bonus else 0), "the roll bonus is out of range")
    blanks = data.get("blanks", [])
    _check(isinstance(blanks, list) and len(set(blanks)) == len(blanks), "the blanked boxes")
    blanks = {Category(name) for name in blanks}
    _check(not blanks or rules.extra_yahtzee_blank, "blanked boxes under rules without blanks")
    _check(all(boxes.get(box) == 0 for box in blanks), "a blanked box that does not hold 0")
    bank = data.get("bank", 0)
    _check(_is_int(bank, 0, rules.dice_bank), "the rolls in the dice bank")
    banked = data.get("banked", 0)
    _check(_is_int(banked, 0, MAX_POINTS if race else 0), "the points banked in the race")
    return Scorecard(boxes, bonus, roll_bonus, blanks, bank, banked)


def _seat_to_dict(player):
    seat = {"name": player.name, "kind": player.kind}
    return {**seat, "mood": player.mood} if player.mood else seat


def _player_from_dict(data, rules=HASBRO, race=False):
    name, kind, mood = data["name"], data.get("kind", "human"), data.get("mood", "")
    _check(isinstance(name, str) and 0 < len(name) <= 40 and name.isprintable(), "a player name")
    _check(kind in KINDS, "a player kind")
    _check(mood == "" or kind == "computer" and mood in MOODS, "a computer player's mood")
    return Player(name, kind, _card_from_dict(data, rules, race), mood)


def _turn_to_dict(turn):
    return {"dice": list(turn.dice), "marked": list(turn.marked), "rolls": turn.rolls, "extra": turn.extra}


def _turn_from_dict(data, rules, bank):
    dice, marked = tuple(data["dice"]), tuple(data["marked"])
    rolls, extra = data["rolls"], data.get("extra", 0)
    _check(len(dice) == DICE_COUNT and all(_is_int(d, 0, 6) for d in dice), "the dice")
    _check(len(marked) == DICE_COUNT and all(isinstance(m, bool) for m in marked), "the marks")
    _check(_is_int(rolls, 0, rules.rolls_per_turn + bank), "the rolls used")
    _check(set(dice) == {0} if rolls == 0 else 0 not in dice, "the dice do not match the rolls used")
    _check(_is_int(extra, 0, MAX_ROUNDS if rules.extra_yahtzee_turn else 0), "the extra turns taken")
    return Turn(dice, marked, rolls, extra)


def _undo_to_dict(point):
    if point is None:
        return None
    return {"seat": point.seat, "round": point.round, "turn": _turn_to_dict(point.turn),
            "card": _card_to_dict(point.card), "dice": point.dice}


def _undo_from_dict(data, game):
    if data is None:
        return None
    seat, round_ = data["seat"], data["round"]
    _check(_is_int(seat, 0, len(game.players) - 1) and _is_int(round_, 1, game.round),
           "the posting to take back")
    card = _card_from_dict(data["card"], game.rules, game.race_target is not None)
    turn = _turn_from_dict(data["turn"], game.rules, card.bank)
    _check(turn.has_rolled, "the posting to take back was made before a roll")
    if data["dice"] is not None:
        dice_from_dict(data["dice"])
    return UndoPoint(seat, round_, turn, card, data["dice"])


def _game_from_dict(data):
    _check(isinstance(data, dict) and data.get("version") == STATE_VERSION, "unknown version")
    rules = rules_from_dict(data["rules"])
    race_target = data.get("race_target")
    _check(race_target is None or _is_int(race_target, 1, MAX_RACE_TARGET), "the race target")
    race = race_target is not None
    players = [_player_from_dict(p, rules, race) for p in data["players"]]
    _check(1 <= len(players) <= MAX_PLAYERS, "the number of players")
    _check(_is_int(data["seat"], 0, len(players) - 1), "whose turn it is")
    turn = _turn_from_dict(data["turn"], rules, players[data["seat"]].card.bank)
    game = Game(players, rules, dice_from_dict(data["dice"]), data["number"], data["seat"],
                data["round"], turn, race_target)
    _check(_is_int(game.number, 1, 10_000), "the game number")
    _check(_is_int(game.round, 1, MAX_ROUNDS if race else ROUNDS + 1), "the round")
    for seat, player in enumerate(players):
        _check_card_fits_round(game, seat, player)
    game.undo_point = _undo_from_dict(data.get("undo"), game)
    return game


def _check_card_fits_round(game, seat, player):
    boxes = player.card.boxes
    if game.race_target is None:
        done = game.round - 1 + (seat < game.seat)
        _check(len(boxes) == min(done, ROUNDS), f"{player.name}'s card and the round")
    else:
        _check(not scoring.columns_to_reset(boxes), f"{player.name}'s card has a column to clear")
