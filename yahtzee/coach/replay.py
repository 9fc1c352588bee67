"""The post-game review: a finished game replayed from its move log, every decision of every
player judged by the strategy table of the game's rules, as the advisor judges it in play: by
the expected final score, and, for a decision its player made ranking advice by the chance to
win (W), by that chance too: its cost in points of win % beside the points, never added to them
(a player's win % costs are summed up as their mean, a decision's share of a chance).

Pure: it takes a finished game and a strategy table (TableKeeper.load(rules)) and returns values.
The advisor (yahtzee.strategy, numpy) is loaded only when a review is made.
"""
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal, NoReturn, Optional, cast

from ..model.choices import Option, OptionKind
from ..model.dice import DICE_COUNT, RandomState
from ..model.game import Game, Player
from ..model.illegal import IllegalMove
from ..model.moves import Move, MoveKind
from ..model.outcome import FinishedGame
from ..model.scoring import Category
from ..model.words import Refusal, Say, Text
from ..strategy.storage.builder import engine

if TYPE_CHECKING:
    from ..strategy.exact.table import StrategyTable

# A decision within this many of the best by its own measure (expected points, or win % for a W
# decision) counts as accurate (YAHTZEE.DOC).
ACCURATE = 0.5
# The least cost a costliest decision has: the play screen's cost notes start here too.
COSTLY = 0.05
COSTLIEST = 3
DICE = range(DICE_COUNT)


class CannotReview(Refusal):
    """A game the review cannot judge; the message says why, in one line."""


DecisionKind = Literal["reroll", "post"]


@dataclass(frozen=True)
class Decision:
    """One choice of one player: the dice, what was done, the best choice, the points given away
    and, where its player ranked the advice by the chance to win, the win % given away."""

    player: str
    round: int
    roll: int    # the turn's roll the choice followed (1 = the first)
    kind: DecisionKind
    dice: tuple[int, ...]
    done: Option  # what was done
    best: Option  # the advisor's best choice by the expected final score
    cost: float  # expected points given away against `best` (0.0 for the best)
    likeliest: Optional[Option] = None  # where judged by the chance to win: the choice likeliest to win
    win_cost: Optional[float] = None  # and the win % given away against it

    @property
    def by_win(self) -> bool:
        """Whether its player ranked the advice by the chance to win (W): judged by that chance."""
        return self.win_cost is not None

    @property
    def own_best(self) -> Option:
        """The best choice by the decision's own measure: the likeliest to win, or the best by score."""
        return self.likeliest if self.likeliest is not None else self.best

    @property
    def own_cost(self) -> float:
        """What the decision gave away by its own measure: win % where judged by it, else points."""
        return self.win_cost if self.win_cost is not None else self.cost

    @property
    def is_accurate(self) -> bool:
        """Whether it came within ACCURATE of the best by its own measure."""
        return self.own_cost < ACCURATE


@dataclass(frozen=True)
class Review:
    """Every decision in play order; each player's points given away, mean win % given away per
    W decision, accuracy (percent) and costliest decisions; a note where the table plans
    approximately."""

    players: tuple[str, ...]
    decisions: tuple[Decision, ...]
    totals: dict[str, float]  # expected points given away, by every decision
    accuracy: dict[str, float]  # percent of the decisions within ACCURATE, each by its own measure
    costliest: dict[str, tuple[Decision, ...]]  # by points, then the W decisions by win %
    note: Text = ""  # said in the reader's language where it is shown
    win_means: dict[str, float] = field(default_factory=dict)  # mean win % given away per W decision


class LogDice:
    """Dice that deal the faces the move log recorded, roll by roll."""

    seed: Optional[int] = None

    def __init__(self) -> None:
        self.faces: list[int] = []

    def start_turn(self, game: int, round_: int, seat: int) -> None:
        """Nothing to reseed: the log says what came."""

    def roll(self, count: int) -> list[int]:
        """The next `count` faces of the log."""
        faces, self.faces = self.faces[:count], self.faces[count:]
        return faces

    @property
    def state(self) -> RandomState:
        """Nothing to keep: a replayed game is never saved nor taken back."""
        return RandomState()


def require_moves(finished: FinishedGame) -> tuple[Move, ...]:
    """The game's move log; CannotReview when it has none."""
    if finished.moves is None:
        raise CannotReview(Say("this game was played before moves were kept: there is nothing to review"))
    return finished.moves


def judges_by_win(finished: FinishedGame) -> bool:
    """Some decision of the game was made under the chance to win (and the game had others to
    beat, and was no race): the review needs the table's rests."""
    moves = finished.moves or ()
    return len(finished.players) >= 2 and not finished.is_race and any(m.by_win for m in moves)


def review_game(finished: FinishedGame, table: "StrategyTable") -> Review:
    """Replay the finished game and judge every decision by `table` (by the chance to win, where
    its player ranked advice by it: `table` then has its rests)."""
    moves = require_moves(finished)
    game = Game.start([Player(p.name, p.kind) for p in finished.players], finished.rules, LogDice(),
                      race_target=finished.race_target)
    decisions: list[Decision] = []
    by_win = judges_by_win(finished) and table.exact  # a table that plans approximately has no chances
    try:
        for move in moves:
            _require(not game.is_over and (move.seat, move.round) == (game.seat, game.round))
            decision = _step(table, game, move, move.by_win and by_win)
            decisions += [decision] if decision else []
    except IllegalMove:
        raise CannotReview(Say("the game's moves do not replay to its scores")) from None
    _require(game.is_over and {p.name: p.card.total for p in game.players} == finished.totals)
    return summary(tuple(p.name for p in finished.players), decisions, table.note)


def _require(condition: object) -> None:
    if not condition:
        _refuse()


def _refuse() -> NoReturn:
    raise CannotReview(Say("the game's moves do not replay to its scores"))


def _step(table: "StrategyTable", game: Game, move: Move, by_win: bool = False) -> Optional[Decision]:
    """Replay one move; the Decision it was (None for a turn's first roll), judged by the chance
    to win where `by_win`."""
    if move.kind is MoveKind.ROLL:
        return _roll(table, game, move, by_win)
    box = Category.YAHTZEE if move.kind is MoveKind.EXTRA else cast(Category, move.detail)
    options = engine().advise(table, game)
    chosen = next((o for o in options if o.kind is OptionKind.BOX and o.box is box), None)
    _require(chosen is not None and chosen.extra_turn == (move.kind is MoveKind.EXTRA)
             and chosen.blank == (move.kind is MoveKind.BLANK))
    decision = _decision(game, "post", options, cast(Option, chosen), engine().cost_of_post(options, box),
                         table if by_win else None)
    game.post(box)
    return decision


def _roll(table: "StrategyTable", game: Game, move: Move, by_win: bool = False) -> Optional[Decision]:
    """Replay a roll; a reroll is judged first."""
    decision = None
    rolled = cast("tuple[int, ...]", move.detail)
    if game.turn.has_rolled:
        game.turn.marked = tuple(die in rolled for die in DICE)
        options = engine().advise(table, game)
        kept = tuple(sorted(d for d, marked in zip(game.turn.dice, game.turn.marked) if not marked))
        chosen = next((o for o in options if o.kind is OptionKind.KEEP and o.kept == kept), None)
        if chosen is None:  # no keep to judge: a roll past the turn's last
            _refuse()
        cost = engine().cost_of_reroll(options, game.turn.dice, game.turn.marked)
        decision = _decision(game, "reroll", options, chosen, cost, table if by_win else None)
    else:
        _require(rolled == tuple(DICE))
    cast(LogDice, game.source).faces = [move.dice[die] for die in rolled]
    game.roll()
    _require(game.turn.dice == move.dice)
    return decision


def _decision(game: Game, kind: DecisionKind, options: list[Option], chosen: Option, cost: float,
              chances_from: "Optional[StrategyTable]" = None) -> Decision:
    """The decision as the advisor judges it: by the expected score, and (`chances_from`, a table
    with its rests) by the chance to win too, its likeliest choice and the win % lost against it."""
    decision = Decision(game.current.name, game.round, game.turn.rolls, kind, game.turn.dice,
                        chosen, options[0], max(0.0, cost))
    if chances_from is None:
        return decision
    chances = engine().option_chances(chances_from, game, options)
    best = max(range(len(options)), key=lambda index: (chances[index], options[index].value))
    lost = 100 * (chances[best] - chances[options.index(chosen)])
    return replace(decision, likeliest=options[best], win_cost=max(0.0, lost))


def summary(players: tuple[str, ...], decisions: list[Decision], note: Text = "") -> Review:
    """Each player's points given away (every decision), mean win % given away (the W decisions),
    accuracy and costliest decisions, from the decisions."""
    totals, win_means, accuracy, costliest = {}, {}, {}, {}
    for name in players:
        own = [d for d in decisions if d.player == name]
        totals[name] = added_up(d.cost for d in own)
        by_win = [d for d in own if d.by_win]
        if by_win:
            win_means[name] = mean_lost(d.own_cost for d in by_win)
        accuracy[name] = round(100 * sum(d.is_accurate for d in own) / len(own), 1) if own else 100.0
        costliest[name] = (*costliest_of([d for d in own if not d.by_win]), *costliest_of(by_win))
    return Review(players, tuple(decisions), totals, accuracy, costliest, note, win_means=win_means)


def costliest_of(decisions: list[Decision]) -> tuple[Decision, ...]:
    """The COSTLIEST decisions that gave away at least COSTLY by their own measure, costliest first."""
    return tuple(sorted((d for d in decisions if d.own_cost >= COSTLY), key=lambda d: -d.own_cost)[:COSTLIEST])


def mean_lost(costs: Iterable[float]) -> float:
    """The mean of win % costs (a sum of differences of chances means nothing), to 3 places."""
    listed = list(costs)
    return round(sum(listed) / len(listed), 3) if listed else 0.0


def added_up(costs: Iterable[float]) -> float:
    """Costs added up as the play screen adds up "Given away" (rounded at each step)."""
    total = 0.0
    for cost in costs:
        total = round(total + cost, 3)
    return total
