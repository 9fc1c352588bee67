"""The strategy engine: optimal solver, table cache, advisor, computer players, simulation.

numpy is needed only here, and nothing here is imported when the game starts: the names
below load their modules on first use (MOODS and the progress bar need no numpy).
`simulate` shares its name with its module: import it from yahtzee.strategy.simulate.
"""
from importlib import import_module
from typing import Any

from .moods import MOOD_TRAITS, MOODS, UnknownMood, mood_named
from .progress import progress_bar, text_progress

_LAZY = {
    "Objective": "objective", "EXPECTED_SCORE": "objective",
    "StrategyTable": "table", "load_table": "cache", "build_table": "cache", "table_loader": "cache",
    "table_file_name": "cache",
    "Option": "advisor", "advise": "advisor", "advise_position": "advisor", "choice_cost": "advisor",
    "cost_of_reroll": "advisor", "cost_of_post": "advisor",
    "computer_player": "computers", "ComputerPlayer": "players", "Reroll": "players", "Post": "players",
    "OBJECTIVES": "players",
    "format_simulation": "simulate",
    "UnsupportedRules": "tables",
}

__all__ = ["MOODS", "MOOD_TRAITS", "UnknownMood", "mood_named", "progress_bar", "text_progress", *_LAZY]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
