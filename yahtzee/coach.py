"""The strategy engine as the screens use it: tables made ready in the background, numpy
loaded there and never at start-up."""
import contextlib
import json
import random
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

from .language import _

if TYPE_CHECKING:  # only for the reader: the strategy modules would load numpy at start-up
    from .choices import Option
    from .game import Game
    from .review import Review
    from .rules import Rules
    from .scorecard import Scorecard
    from .scoring import Category
    from .strategy.builder import TableBuilder
    from .strategy.cache import StrategyTable
    from .strategy.players import ComputerPlayer, Post, Reroll
    from .strategy.rival import RivalPlayer
    from .strategy.solver import Objective

HEAD_START_CLOSE_SECONDS = 10.0  # the longest the game waits at its end for a turn's head start


class Coach:
    """Advice, costs and computer players for one session; tables come from a background builder."""

    def __init__(self, cache_dir: Optional[Path], progress: Optional[Callable[[int, int], None]] = None,
                 seed: Optional[int] = None, notify: Optional[Callable[[str], None]] = None) -> None:
        self.cache_dir = cache_dir
        # progress(done, total): shown while the game waits for a table that is not ready.
        self.progress = progress
        self.seed = seed
        # Told in one line when a damaged table is set aside and built again.
        self.notify = notify
        # Called while waiting for a table; raises to stop the wait (a stop signal).
        self.stopping: Callable[[], None] = lambda: None
        self._builder: Optional[TableBuilder] = None
        self._planned: dict[tuple[Rules, Objective], StrategyTable] = {}
        self._players: dict[tuple[str, Rules], Union[ComputerPlayer, RivalPlayer]] = {}
        self._reviews: dict[str, Review] = {}  # the reviews made, by record: the recap adds them up again
        # The tables' memos are worked on by one thread at a time: the screens' or a turn's
        # preparation in the background (prepare_turn).
        self._thinking = threading.RLock()
        self._head_start: Optional[threading.Thread] = None
        self.unsupported = ""

    def builder(self) -> "TableBuilder":
        """The background builder (started on first use; cheap: numpy loads in its thread)."""
        if self._builder is None:
            from .strategy.builder import TableBuilder
            self._builder = TableBuilder(self.cache_dir, self.notify)
        return self._builder

    def prepare(self, rules: "Rules", moods: Iterable[str] = ()) -> None:
        """Start making ready the tables these rules and computer moods will need."""
        self.builder().prepare(rules, moods)

    def close(self) -> None:
        """The game is ending: stop any build under way at once."""
        if self._builder is not None:
            self._builder.close()
        # A head start under way ends first: numpy stopped halfway by the interpreter's exit
        # can abort the process ("terminate called without an active exception").
        if self._head_start is not None:
            self._head_start.join(timeout=HEAD_START_CLOSE_SECONDS)

    def load(self, rules: "Rules", objective: Optional["Objective"] = None) -> "StrategyTable":
        """The table for these rules and objective, waiting for it if it is not ready yet; for
        rules not solved exactly, the nearest exact table, planning for the rules played."""
        from .strategy import EXPECTED_SCORE
        from .strategy.builder import wait_for
        from .strategy.cache import is_solved_exactly, planned_with
        from .strategy.tables import planning_rules
        objective = objective or EXPECTED_SCORE
        if not is_solved_exactly(rules):
            key = (rules, objective)
            if key not in self._planned:
                self._planned[key] = planned_with(rules, self.load(planning_rules(rules), objective))
            return self._planned[key]
        job = self.builder().table(rules, objective)
        return wait_for(job, self.builder(), self.progress, self.stopping)

    def table(self, rules: "Rules") -> Optional["StrategyTable"]:
        """The strategy table for these rules, or None (the reason in `unsupported`). It is
        exact for every rule set and roll option; with a dice bank it plans approximately
        (table.exact is False and table.note says so)."""
        from .strategy import UnsupportedRules
        try:
            return self.load(rules)
        except UnsupportedRules as error:
            self.unsupported = str(error)
            return None

    def note(self, rules: "Rules") -> str:
        """One sentence for the player when the advice for these rules is approximate, else ''."""
        table = self.table(rules)
        return table.note if table is not None else ""

    def options(self, game: "Game") -> Optional[list["Option"]]:
        """Every keep and legal box for the current dice, best first (None if not solvable)."""
        from .strategy import advise
        table = self.table(game.rules)
        with self._thinking:
            return advise(table, game) if table is not None else None

    def win_chances(self, game: "Game", options: list["Option"]) -> Optional[list[float]]:
        """Each option's chance to finish ahead of every other player, or None: alone at the
        table, in a race, or with rules the tables plan only approximately (a dice bank)."""
        from .strategy.winchance import option_chances
        table = self.table(game.rules)
        if table is None or not shows_chances(game, table):
            return None
        with self._thinking:
            return option_chances(table, game, options)

    def prepare_turn(self, game: "Game") -> None:
        """Start working out in the background, before the current player's first roll, what
        the turn's win chances need, so that the advice page shows them at once; only when
        they are shown and the table is ready (never waiting for one)."""
        from .strategy import EXPECTED_SCORE
        from .strategy.builder import READY
        table = READY.get((game.rules, EXPECTED_SCORE))
        if not shows_chances(game, table):
            return
        others = [player.card.copy() for player in game.players if player is not game.current]
        self._head_start = threading.Thread(target=self._prepare_turn, name="coach", daemon=True,
                                            args=(table, game.current.card.copy(), others))
        self._head_start.start()

    def _prepare_turn(self, table: "StrategyTable", card: "Scorecard", others: list["Scorecard"]) -> None:
        """The background part of prepare_turn."""
        from .strategy.winchance import prepare_turn
        # only a head start: the look itself works it out and reports what goes wrong
        with self._thinking, contextlib.suppress(Exception):
            prepare_turn(table, card, others)

    def cost_of_reroll(self, game: "Game") -> float:
        """Expected points the marked reroll gives away against perfect play."""
        from .strategy import cost_of_reroll
        options = self.options(game)
        return cost_of_reroll(options, game.turn.dice, game.turn.marked) if options else 0.0

    def cost_of_post(self, game: "Game", box: "Category") -> float:
        """Expected points posting in `box` gives away against perfect play."""
        from .strategy import cost_of_post
        options = self.options(game)
        return cost_of_post(options, box) if options else 0.0

    def review(self, record: dict[str, Any]) -> "Review":
        """The post-game review of a history record (yahtzee.review), judged by the table of
        its rules; CannotReview says in one line why a game cannot be judged."""
        from .review import CannotReview, record_rules, require_moves, review_game
        key = json.dumps(record, sort_keys=True)
        if key not in self._reviews:
            require_moves(record)
            table = self.table(record_rules(record))
            if table is None:
                raise CannotReview(_("the review cannot judge these rules: {reason}").format(
                    reason=self.unsupported))
            with self._thinking:
                self._reviews[key] = review_game(record, table)
        return self._reviews[key]

    def player(self, mood: str, rules: "Rules") -> Union["ComputerPlayer", "RivalPlayer"]:
        """The computer player of a mood (one per mood and rules)."""
        from .strategy import computer_player
        key = (mood, rules)
        if key not in self._players:
            rng = random.Random(f"{self.seed}/{mood}") if self.seed is not None else None
            self._players[key] = computer_player(mood, rules, self.load, rng)
        return self._players[key]

    def computer_action(self, game: "Game") -> Union["Reroll", "Post"]:
        """What the computer at the current seat of `game` does next (a keep or a box)."""
        brain = self.player(game.current.mood or "thinker", game.rules)
        with self._thinking:
            return brain.next_action(game)


def shows_chances(game: "Game", table: Optional["StrategyTable"]) -> bool:
    """Whether win chances are shown: two players or more, not a race, and a table that plays
    these rules exactly."""
    return len(game.players) >= 2 and game.race_target is None and table is not None and table.exact
