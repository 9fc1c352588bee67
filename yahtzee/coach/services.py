"""The strategy engine's services for one session, each with one job, sharing one keeper of
tables: advice for the player, reviews of finished games, the computer players."""
from dataclasses import dataclass
from typing import Optional

from .opponents import Opponents
from .reviews import Reviewer
from .tablekeeper import TableKeeper
from .tips import Coach


@dataclass(frozen=True)
class StrategyServices:
    """The tables, the coach, the reviewer and the computer players of one session."""

    tables: TableKeeper
    coach: Coach
    reviewer: Reviewer
    opponents: Opponents

    @classmethod
    def over(cls, tables: TableKeeper, seed: Optional[int] = None) -> "StrategyServices":
        """The services that work from `tables`; `seed` makes the computer players' choices reproducible."""
        return cls(tables, Coach(tables), Reviewer(tables), Opponents(tables, seed))

    def close(self) -> None:
        """The game is ending: builds stop, a turn's head start ends."""
        self.tables.close()
        self.coach.close()
