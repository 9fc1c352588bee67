"""The post-game reviews of one session: each finished game judged once by its rules' table."""
from typing import TYPE_CHECKING, Optional

from ..model.outcome import FinishedGame
from ..model.words import Say
from ..strategy.storage.builder import Waiting, engine
from .replay import CannotReview, judges_by_win, require_moves, review_game
from .tablekeeper import NoTable, TableKeeper

if TYPE_CHECKING:  # only for the reader: the strategy modules would load numpy at start-up
    from .replay import Review


class Reviewer:
    """Reviews of finished games, kept by game: the recap adds them up again."""

    def __init__(self, tables: TableKeeper) -> None:
        self.tables = tables
        self._reviews: dict[FinishedGame, Review] = {}

    def waiting(self, game: FinishedGame) -> Optional[Waiting]:
        """The work review() waits for before it answers at once (the table, and its rests
        where the game is judged by the chance to win), or None when there is none."""
        if game in self._reviews:
            return None
        table_work = self.tables.waiting(game.rules)
        if table_work is not None or not (judges_by_win(game) and engine().is_solved_exactly(game.rules)):
            return table_work
        return self.tables.waiting(game.rules, with_rests=True)

    def review(self, game: FinishedGame) -> "Review":
        """The post-game review of a finished game (yahtzee.coach.replay); CannotReview says in
        one line why a game cannot be judged."""
        if game not in self._reviews:
            require_moves(game)
            rules = game.rules
            table = self.tables.table(rules)
            if isinstance(table, NoTable):
                raise CannotReview(Say("the review cannot judge these rules: {reason}").format(reason=table.reason))
            if judges_by_win(game) and table.exact:
                table = self.tables.load(rules, with_rests=True)  # what the chance to win needs
            with self.tables.thinking:
                self._reviews[game] = review_game(game, table)
        return self._reviews[game]
