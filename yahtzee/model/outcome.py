"""A finished game as a value: when it ended, under which rules, each player's card and the
winners. The history and the autosave keep it (yahtzee.saves.records turns it into a file's
record and back); the end screens, the recap, the statistics and the review read it."""
import datetime
from dataclasses import dataclass
from typing import Optional

from .dice import is_duplicate, is_loaded
from .game import ROUNDS, Game, Player, PlayerKind
from .moves import Move
from .rules import Rules
from .scorecard import Scorecard
from .scoring import YAHTZEE_POINTS, Category


@dataclass(frozen=True)
class PlayerResult:
    """One player's card at the end of a game (the total is every box, bonus and banked point)."""

    name: str
    kind: PlayerKind
    scores: tuple[Optional[int], ...]  # the boxes' points in Category order; None: open (a race ended first)
    upper_bonus: int
    yahtzee_bonus: int
    total: int
    roll_bonus: int = 0  # FiveOAK
    banked: int = 0  # a race's columns banked
    blanks: frozenset[Category] = frozenset()  # Acorn's blanked boxes

    @classmethod
    def of(cls, player: Player) -> "PlayerResult":
        """A seat's card as the game ends."""
        card = player.card
        return cls(player.name, player.kind, tuple(card.boxes.get(box) for box in Category), card.upper_bonus,
                   card.yahtzee_bonus, card.total, card.roll_bonus, card.banked, frozenset(card.blanks))

    @property
    def is_human(self) -> bool:
        """Played by a person."""
        return self.kind == "human"

    def points_in(self, box: Category) -> Optional[int]:
        """What the card holds in `box`; None for a box left open (a race ends before every box is posted)."""
        return self.scores[list(Category).index(box)]

    @property
    def won_upper_bonus(self) -> bool:
        """The card earned the upper bonus."""
        return self.upper_bonus > 0

    def yahtzees(self, rules: Rules) -> int:
        """How many Yahtzees the card scored: 50 in its box and every extra paid as a bonus."""
        per_extra = rules.extra_yahtzee_bonus
        extra = self.yahtzee_bonus // per_extra if per_extra else 0
        return (self.points_in(Category.YAHTZEE) == YAHTZEE_POINTS) + extra

    def card(self) -> Scorecard:
        """The card itself, to show its sheet."""
        boxes = {box: points for box, points in zip(Category, self.scores) if points is not None}
        return Scorecard(boxes, self.yahtzee_bonus, self.roll_bonus, set(self.blanks), banked=self.banked)


@dataclass(frozen=True)
class FinishedGame:
    """One finished game: when, under which rules, the players' cards in seat order, the winners."""

    finished: str  # ISO-8601, as the clock gave it
    rules: Rules
    players: tuple[PlayerResult, ...]
    winners: tuple[str, ...]
    seed: Optional[int] = None
    race_target: Optional[int] = None
    duplicate: bool = False  # duplicate dice: every player rolled the same
    practice: bool = False  # loaded dice (a file's): its scores count for nothing
    moves: Optional[tuple[Move, ...]] = None  # every decision; None in a game from before the log

    @classmethod
    def of(cls, game: Game, finished: str) -> "FinishedGame":
        """The game just ended, at `finished` (ISO-8601)."""
        return cls(finished, game.rules, tuple(PlayerResult.of(player) for player in game.players),
                   tuple(game.winners()), game.source.seed, game.race_target, is_duplicate(game.source),
                   is_loaded(game.source), None if game.moves is None else tuple(game.moves))

    @property
    def when(self) -> datetime.datetime:
        """When the game finished, as an aware time (a time without zone is taken as UTC)."""
        when = datetime.datetime.fromisoformat(self.finished)
        return when if when.tzinfo else when.replace(tzinfo=datetime.timezone.utc)

    @property
    def date(self) -> str:
        """The day the game finished: 'YYYY-MM-DD'."""
        return self.finished[:10]

    @property
    def is_race(self) -> bool:
        """A race, whose total runs over many rounds."""
        return self.race_target is not None

    @property
    def totals(self) -> dict[str, int]:
        """Each player's total, in seat order: {name: total}."""
        return {player.name: player.total for player in self.players}

    def game(self) -> Game:
        """The finished game itself, to show its sheets."""
        players = [Player(result.name, result.kind, result.card()) for result in self.players]
        return Game(players, self.rules, round=ROUNDS + 1, race_target=self.race_target)
