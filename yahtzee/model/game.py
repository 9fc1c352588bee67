"""The game model: players, scorecards, the turn and its postings."""
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Literal, Optional

from . import scoring
from .dice import DICE_COUNT, DiceState, RandomDice, Source, rewind, throw

# The model's refusals live in yahtzee.model.illegal; the screens import them from here.
from .illegal import BoxFilled as BoxFilled
from .illegal import CannotUndo as CannotUndo
from .illegal import GameOver as GameOver
from .illegal import IllegalMove as IllegalMove
from .illegal import JokerRuleError as JokerRuleError
from .illegal import NoExtraTurn as NoExtraTurn
from .illegal import NoRollsLeft as NoRollsLeft
from .illegal import NothingMarked as NothingMarked
from .illegal import NotRolledYet as NotRolledYet
from .moves import Detail, Move, MoveKind, take_back
from .rules import HASBRO, Rules
from .scorecard import Scorecard
from .scoring import Category
from .words import Say, Text

ROUNDS = len(Category)
PlayerKind = Literal["human", "computer"]
KINDS: tuple[PlayerKind, ...] = ("human", "computer")
MAX_PLAYERS = 4


@dataclass
class Player:
    """A seat at the table."""

    name: str
    kind: PlayerKind = "human"
    card: Scorecard = field(default_factory=Scorecard)
    mood: str = ""  # a computer player's way of playing (see yahtzee.model.moods)
    stand_in: bool = False  # a person away: the program plays this turn for them (a game's player only)

    @property
    def is_computer(self) -> bool:
        """Played by the program (for the whole game, or for this turn in its person's place)."""
        return self.kind == "computer" or self.stand_in


@dataclass
class Turn:
    """The five dice in their fixed places, which are marked for the reroll, rolls used."""

    dice: tuple[int, ...] = (0,) * DICE_COUNT
    marked: tuple[bool, ...] = (False,) * DICE_COUNT
    rolls: int = 0
    # yahtChallenge: how many extra turns the player has taken in a row before this one.
    extra: int = 0

    @property
    def has_rolled(self) -> bool:
        """At least one roll made."""
        return self.rolls > 0


@dataclass(frozen=True)
class PostingResult:
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
    reset: tuple[str, ...] = ()


@dataclass
class UndoPoint:
    """The moment before a posting, kept until the next roll so that it can be taken back."""

    seat: int
    round: int
    turn: Turn
    card: Scorecard
    dice: Optional[DiceState]  # None: a save that kept no state of the dice (they are not rewound)


@dataclass
class Game:
    """One game: the players in seat order, whose turn it is, and the dice."""

    players: list[Player]
    rules: Rules = HASBRO
    source: Source = field(default_factory=RandomDice)
    number: int = 1
    seat: int = 0
    round: int = 1
    turn: Turn = field(default_factory=Turn)
    # Race: the score to reach; the game then ends with the round. None: thirteen rounds.
    race_target: Optional[int] = None
    undo_point: Optional[UndoPoint] = None
    # Every decision so far (yahtzee.model.moves); None for a game resumed from a save without one.
    moves: Optional[list[Move]] = field(default_factory=list)
    # The humans who rank advice by the chance to win (the session's set, shared): their
    # decisions are logged as made under it.
    win_rankers: set[str] = field(default_factory=set)

    @classmethod
    def start(cls, players: Iterable[Player], rules: Rules = HASBRO, source: Optional[Source] = None, number: int = 1,
              race_target: Optional[int] = None, win_rankers: Optional[set[str]] = None) -> "Game":
        """A new game whose first turn has begun."""
        game = cls([Player(p.name, p.kind, mood=p.mood) for p in players], rules, source or RandomDice(), number,
                   race_target=race_target, win_rankers=set() if win_rankers is None else win_rankers)
        game.source.start_turn(game.number, game.round, game.seat)
        return game

    @property
    def current(self) -> Player:
        """The player whose turn it is."""
        return self.players[self.seat]

    @property
    def is_over(self) -> bool:
        """Every card full; in a race, a round completed with someone at the target."""
        if self.race_target is None:
            return self.round > ROUNDS
        round_done = self.seat == 0 and self.round > 1 and self.turn == Turn()
        return round_done and max(p.card.total for p in self.players) >= self.race_target

    @property
    def rolls_left(self) -> int:
        """Rolls still allowed this turn, banked ones included."""
        return self.rules.rolls_per_turn + self.current.card.bank - self.turn.rolls

    @property
    def can_take_extra_turn(self) -> bool:
        """yahtChallenge: these dice are an extra Yahtzee, which may be taken as its bonus and
        another turn (post in YAHTZEE, or take_extra_turn)."""
        return (not self.is_over and self.turn.has_rolled
                and scoring.earns_extra_turn(self.turn.dice, self.current.card.boxes, self.rules))

    @property
    def must_blank(self) -> bool:
        """Acorn: these dice are an extra Yahtzee, so the chosen box is blanked for 100."""
        return (not self.is_over and self.turn.has_rolled
                and scoring.must_blank(self.turn.dice, self.current.card.boxes, self.rules))

    @property
    def can_undo(self) -> bool:
        """The last posting may be taken back now."""
        return not self._undo_refusal()

    def legal_boxes(self) -> list[Category]:
        """The boxes the current dice may be posted in."""
        return scoring.legal_boxes(self.turn.dice, self.current.card.boxes, self.rules)

    def points_for(self, box: Category) -> int:
        """What posting the current dice in `box` would score, bonus apart."""
        return scoring.posting_points(box, self.turn.dice, self.current.card.boxes, self.rules)

    def preview(self, box: Category) -> PostingResult:
        """The PostingResult that posting the current dice in `box` would make (nothing changes)."""
        dice, boxes, rules = self.turn.dice, self.current.card.boxes, self.rules
        if box is Category.YAHTZEE and self.can_take_extra_turn:
            return PostingResult(self.current.name, box, 0, scoring.extra_turn_bonus(dice, boxes, rules),
                           extra_turn=True)
        return PostingResult(self.current.name, box, self.points_for(box),
                       scoring.yahtzee_bonus(dice, boxes, rules),
                       scoring.roll_bonus_points(box, dice, self.turn.rolls, boxes, rules),
                       blank=scoring.must_blank(dice, boxes, rules))

    def toggle(self, die: int) -> None:
        """Mark die 0-4 for the reroll, or lock it again."""
        self._require_rolled()
        if self.rolls_left <= 0:
            raise NoRollsLeft(Say("no rolls are left: choose a box"))
        marked = list(self.turn.marked)
        marked[die] = not marked[die]
        self.turn.marked = tuple(marked)

    def roll(self) -> tuple[int, ...]:
        """Roll all dice on the first roll, else the marked ones; all start locked again."""
        if self.is_over:
            raise GameOver(Say("the game is over"))
        if self.rolls_left <= 0:
            raise NoRollsLeft(Say("no rolls are left: choose a box"))
        places = range(DICE_COUNT) if not self.turn.has_rolled else [
            i for i, marked in enumerate(self.turn.marked) if marked]
        if not places:
            raise NothingMarked(Say("no dice are marked for the reroll"))
        faces = iter(throw(self.source, places))
        dice = list(self.turn.dice)
        for place in places:
            dice[place] = next(faces)
        self.turn = Turn(tuple(dice), (False,) * DICE_COUNT, self.turn.rolls + 1, self.turn.extra)
        self._log(MoveKind.ROLL, tuple(places))
        return self.turn.dice

    def check_posting(self, box: Category) -> None:
        """Raise the IllegalMove that posting in `box` now would meet, if any."""
        if self.is_over:
            raise GameOver(Say("the game is over"))
        self._require_rolled()
        boxes = self.current.card.boxes
        if box is Category.YAHTZEE and self.can_take_extra_turn:
            return
        if box in boxes:
            raise BoxFilled(Say("{box} is already filled").format(box=box.title))
        if box not in self.legal_boxes():
            raise JokerRuleError(scoring.joker_requirement(self.turn.dice, boxes, self.rules))

    def post(self, box: Category) -> PostingResult:
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
        self._log(MoveKind.BLANK if posting.blank else MoveKind.POST, box)
        self._next_turn()
        return posting

    def take_extra_turn(self) -> PostingResult:
        """yahtChallenge: add an extra Yahtzee's bonus and start the same player's turn again,
        no box filled; returns the PostingResult (extra_turn=True)."""
        if not self.can_take_extra_turn:
            raise NoExtraTurn(Say("only another Yahtzee, with 50 in YAHTZEE, earns another turn"))
        posting = self.preview(Category.YAHTZEE)
        self._keep_undo_point()
        self.current.card.yahtzee_bonus += posting.bonus
        self._bank_unused_rolls()
        self._log(MoveKind.EXTRA, None)
        # The dice stream goes on from this turn's: reseeding for the same seat and round
        # would deal the same Yahtzee again.
        self.turn = Turn(extra=self.turn.extra + 1)
        return posting

    def undo(self) -> None:
        """Take back the last posting (a human's, before anyone rolls again)."""
        refusal = self._undo_refusal()
        if refusal:
            raise CannotUndo(refusal)
        point, self.undo_point = self.undo_point, None
        assert point is not None
        take_back(self.moves)
        self.seat, self.round, self.turn = point.seat, point.round, point.turn
        self.players[point.seat].card = point.card.copy()
        if point.dice is not None:
            rewind(self.source, point.dice)

    def _undo_refusal(self) -> Text:
        if self.undo_point is None:
            return Say("there is no posting to take back")
        if self.is_over:
            return Say("the game is over")
        if self.turn.has_rolled:
            return Say("the dice have been rolled since that posting")
        if self.players[self.undo_point.seat].is_computer:
            return Say("a computer's posting cannot be taken back")
        return ""

    def _keep_undo_point(self) -> None:
        self.undo_point = UndoPoint(self.seat, self.round, self.turn, self.current.card.copy(), self.source.state)

    def _log(self, kind: MoveKind, detail: Detail) -> None:
        if self.moves is not None:
            self.moves.append(Move(self.seat, self.round, kind, self.turn.dice, detail,
                                   self.current.name in self.win_rankers))

    def _bank_unused_rolls(self) -> None:
        self.current.card.bank = min(self.rules.dice_bank, self.rolls_left)

    def _require_rolled(self) -> None:
        if not self.turn.has_rolled:
            raise NotRolledYet(Say("roll the dice first"))

    def _next_turn(self) -> None:
        self.current.stand_in = False  # a turn played in its person's place is theirs again after it
        self.seat += 1
        if self.seat == len(self.players):
            self.seat, self.round = 0, self.round + 1
        self.turn = Turn()
        if not self.is_over:
            self.source.start_turn(self.number, self.round, self.seat)

    def stand_in(self, name: str) -> bool:
        """The program plays this turn of the human `name`, whose turn it is, in their place
        (they are away); False when it is not their turn."""
        if self.is_over or self.current.name != name or self.current.kind != "human":
            return False
        self.current.stand_in = True
        return True

    def winners(self) -> list[str]:
        """The names with the highest total (ties share the win)."""
        best = max(player.card.total for player in self.players)
        return [player.name for player in self.players if player.card.total == best]
