"""Advice for the player at the table: every option with its value, each option's chance to
win, and what a reroll or a posting gives away; worked out from the session's tables."""
import contextlib
import threading
from typing import TYPE_CHECKING, Optional, Union

from ..strategy.exact.objective import EXPECTED_SCORE
from ..strategy.exact.position import kept_faces
from ..strategy.storage.builder import Waiting, engine, ready_table
from .tablekeeper import NoTable, TableKeeper

if TYPE_CHECKING:  # only for the reader: the strategy modules would load numpy at start-up
    from ..model.choices import Option
    from ..model.game import Game
    from ..model.match import MatchStand
    from ..model.scorecard import Scorecard
    from ..model.scoring import Category
    from ..strategy.exact.table import StrategyTable

HEAD_START_CLOSE_SECONDS = 10.0  # the longest the game waits at its end for a turn's head start


class Coach:
    """Advice, win chances and costs against perfect play, from the tables a keeper holds."""

    def __init__(self, tables: TableKeeper) -> None:
        self.tables = tables
        self._head_start: Optional[threading.Thread] = None
        self._turn_over = threading.Event()  # the head start's turn is over: it stops

    def close(self) -> None:
        """The game is ending: a turn's head start under way stops and ends first (numpy
        stopped halfway by the interpreter's exit can abort the process)."""
        self._turn_over.set()
        if self._head_start is not None:
            self._head_start.join(timeout=HEAD_START_CLOSE_SECONDS)

    def chances_waiting(self, game: "Game") -> "Optional[Waiting]":
        """The work win_chances needs done before it answers at once (the table's rests), or
        None: none left, or no chances shown. The table itself is ready (the advice waited)."""
        table = self.tables.table(game.rules)
        if isinstance(table, NoTable) or not shows_chances(game, table):
            return None
        return self.tables.waiting(game.rules, with_rests=True)

    def options(self, game: "Game") -> Union[list["Option"], NoTable]:
        """Every keep and legal box for the current dice, best first, or why there is no advice."""
        table = self.tables.table(game.rules)
        if isinstance(table, NoTable):
            return table
        with self.tables.thinking:
            return engine().advise(table, game)

    def win_chances(self, game: "Game", options: list["Option"],
                    stand: Optional["MatchStand"] = None) -> Optional[list[float]]:
        """Each option's chance to finish ahead of every other player (with `stand`, over the
        challenge's games), or None: alone at the table, in a race, or with rules the tables
        plan only approximately (a dice bank)."""
        table = self.tables.table(game.rules)
        if isinstance(table, NoTable) or not shows_chances(game, table):
            return None
        table = self.tables.load(game.rules, with_rests=True)
        with self.tables.thinking:
            return engine().option_chances(table, game, options, stand)

    def prepare_turn(self, game: "Game") -> None:
        """Start working out in the background, before the current player's first roll, what
        the turn's win chances need, so that the advice page shows them at once; only when
        they are shown and the table is ready (never waiting for one)."""
        self._turn_over.set()  # the last turn's head start, if still at work, is of no more use
        table = ready_table(game.rules, EXPECTED_SCORE, with_rests=True)
        if not shows_chances(game, table):
            return
        assert table is not None
        others = [player.card.copy() for player in game.players if player is not game.current]
        self._turn_over = threading.Event()
        self._head_start = threading.Thread(target=self._prepare_turn, name="coach", daemon=True,
                                            args=(table, game.current.card.copy(), others, self._turn_over))
        self._head_start.start()

    def _prepare_turn(self, table: "StrategyTable", card: "Scorecard", others: list["Scorecard"],
                      turn_over: threading.Event) -> None:
        """The background part of prepare_turn, stopping between its parts once `turn_over` is set."""
        # only a head start: the look itself works it out and reports what goes wrong
        with self.tables.thinking, contextlib.suppress(Exception):
            engine().prepare_turn(table, card, others, turn_over.is_set)

    def win_cost(self, game: "Game", box: "Optional[Category]" = None,
                 stand: Optional["MatchStand"] = None) -> Optional[float]:
        """Win % the marked reroll (or posting in `box`) gives away against the option likeliest
        to win (with `stand`, the challenge), or None where win chances are not shown."""
        options = self.options(game)
        chances = self.win_chances(game, options, stand) if isinstance(options, list) else None
        if chances is None or not isinstance(options, list):
            return None
        kept = kept_faces(game.turn.dice, game.turn.marked)
        chosen = next(index for index, option in enumerate(options)
                      if (option.kind == "box" and option.box is box if box is not None
                          else option.kind == "keep" and option.kept == kept))
        return 100 * (max(chances) - chances[chosen])

    def cost_of_reroll(self, game: "Game") -> float:
        """Expected points the marked reroll gives away against perfect play."""
        options = self.options(game)
        return engine().cost_of_reroll(options, game.turn.dice, game.turn.marked) if isinstance(options, list) else 0.0

    def cost_of_post(self, game: "Game", box: "Category") -> float:
        """Expected points posting in `box` gives away against perfect play."""
        options = self.options(game)
        return engine().cost_of_post(options, box) if isinstance(options, list) else 0.0


def shows_chances(game: "Game", table: Optional["StrategyTable"]) -> bool:
    """Whether win chances are shown: two players or more, not a race, and a table that plays
    these rules exactly."""
    return len(game.players) >= 2 and game.race_target is None and table is not None and table.exact
