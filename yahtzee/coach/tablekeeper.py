"""The strategy tables one session uses: made ready by a background builder (numpy loads in
its thread, never at start-up), waited for with a progress line when a screen needs one."""
import contextlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional, Union

from ..model.rules import Rules
from ..model.words import Text
from ..strategy.exact.objective import EXPECTED_SCORE, Objective
from ..strategy.exact.progress import Progress
from ..strategy.storage.builder import TableBuilder, Waiting, engine, wait_for
from ..strategy.storage.memo import THINKING, remembered

if TYPE_CHECKING:  # only for the reader: these modules would load numpy at start-up
    from ..strategy.exact.table import StrategyTable
    from ..strategy.storage.cache import Notify


@dataclass(frozen=True)
class NoTable:
    """Rules the strategy engine cannot plan for, and why, in a few words."""

    reason: Text


def never_stop() -> None:
    """A wait that nothing stops."""


@dataclass(frozen=True)
class WaitsShown:
    """Where a wait for a table is shown and heard of: a console's, while the game runs at it."""

    # progress(done, total): shown while the game waits for a table that is not ready.
    progress: Optional[Progress] = None
    # Called while waiting for a table; raises to stop the wait (a stop signal).
    stopping: Callable[[], None] = never_stop
    # Told in one line when a damaged table is set aside and built again.
    notify: Optional["Notify"] = None


class TableKeeper:
    """The tables a session uses, from the process's memo: each read or built once, in the
    background, and waited for where the session needs one."""

    def __init__(self, cache_dir: Optional[Path], shown: WaitsShown = WaitsShown()) -> None:
        self.cache_dir = cache_dir
        self.shown = shown
        self.thinking = THINKING  # the tables' own memos, worked on by one thread at a time
        self._builder: Optional[TableBuilder] = None

    def builder(self) -> "TableBuilder":
        """The background builder (started on first use; cheap: numpy loads in its thread)."""
        if self._builder is None:
            self._builder = TableBuilder(self.cache_dir, self._notify)
        return self._builder

    @contextlib.contextmanager
    def shown_at(self, shown: WaitsShown) -> Iterator[None]:
        """While the game runs at a console: its waits for tables shown there and stopped by
        its stop signals, and its notices told there."""
        before, self.shown = self.shown, shown
        try:
            yield
        finally:
            self.shown = before

    def _notify(self, line: Text) -> None:
        """From the builder's thread: a notice, told where the game runs now."""
        if self.shown.notify is not None:
            self.shown.notify(line)

    def prepare(self, rules: "Rules", moods: Iterable[str] = (), chances: bool = False) -> None:
        """Start making ready the tables these rules and computer moods will need (and with
        `chances`, what win chances need)."""
        self.builder().prepare(rules, moods, chances)

    def close(self) -> None:
        """The game is ending: stop any build under way at once."""
        if self._builder is not None:
            self._builder.close()

    def load(self, rules: "Rules", objective: Optional["Objective"] = None,
             with_rests: bool = False) -> "StrategyTable":
        """The table for these rules and objective, waiting for it if it is not ready yet
        (`with_rests`: and for the rests that win chances need); for rules not solved
        exactly, the nearest exact table, planning for the rules played."""
        objective = objective or EXPECTED_SCORE
        if engine().nearest_exact(rules) == rules:
            return self._exact(rules, objective, with_rests)
        # Kept in the memo with the plans it made; it has no chances (with_rests is for the exact tables)
        return remembered(rules, objective, lambda: engine().table_for(
            rules, objective, lambda exact, _: self._exact(exact, objective, False)))

    def _exact(self, rules: "Rules", objective: "Objective", with_rests: bool) -> "StrategyTable":
        """The exact table for these rules, waited for if it is not ready yet."""
        return wait_for(self.builder().table(rules, objective, with_rests), self.builder(), self.shown.progress,
                        self.shown.stopping)

    def waiting(self, rules: "Rules", objective: Optional["Objective"] = None,
                with_rests: bool = False) -> Optional[Waiting]:
        """The work to wait for before load() answers at once, asked for ahead of all other
        work; None when there is none."""
        job = self.builder().table(engine().nearest_exact(rules), objective or EXPECTED_SCORE, with_rests)
        return None if job.done() else Waiting(job, self.builder())

    def table(self, rules: "Rules") -> Union["StrategyTable", NoTable]:
        """The expected-score table for these rules, or why there is none. It is exact for
        every rule set and roll option; with a dice bank it plans approximately (table.exact
        is False and table.note says so)."""
        try:
            return self.load(rules)
        except engine().UnsupportedRules as error:
            return NoTable(error.said)

    def note(self, rules: "Rules") -> Text:
        """One sentence for the player when the advice for these rules is approximate, else ''."""
        table = self.table(rules)
        return "" if isinstance(table, NoTable) else table.note
