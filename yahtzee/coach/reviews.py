"""The post-game reviews of one session: each history record judged once by its rules' table."""
import json
from typing import TYPE_CHECKING, Any

from ..saves.records import record_rules
from ..speech.languages import _
from .replay import CannotReview, judges_by_win, require_moves, review_game
from .tablekeeper import NoTable, TableKeeper

if TYPE_CHECKING:  # only for the reader: the strategy modules would load numpy at start-up
    from .replay import Review


class Reviewer:
    """Reviews of finished games, kept by record: the recap adds them up again."""

    def __init__(self, tables: TableKeeper) -> None:
        self.tables = tables
        self._reviews: dict[str, Review] = {}

    def review(self, record: dict[str, Any]) -> "Review":
        """The post-game review of a history record (yahtzee.coach.replay); CannotReview says in
        one line why a game cannot be judged."""
        key = json.dumps(record, sort_keys=True)
        if key not in self._reviews:
            require_moves(record)
            rules = record_rules(record)
            table = self.tables.table(rules)
            if isinstance(table, NoTable):
                raise CannotReview(_("the review cannot judge these rules: {reason}").format(reason=table.reason))
            if judges_by_win(record) and table.exact:
                table = self.tables.load(rules, with_rests=True)  # what the chance to win needs
            with self.tables.thinking:
                self._reviews[key] = review_game(record, table)
        return self._reviews[key]
