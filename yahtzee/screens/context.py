"""What the screens share: the session, the services and the settings, and where the flow stands."""
from __future__ import annotations

import datetime
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Callable

from ..model.dice import with_duplicate
from ..model.game import Game
from ..model.session import Session
from ..model.words import Text
from ..saves.prefs import DEFAULTS, Prefs, RunSettings, game_settings
from .steps import Moment, Screen

if TYPE_CHECKING:  # only for the reader: importing these would slow the start
    from ..coach.services import StrategyServices
    from ..saves.store import Saves


def game_in_play(session: Session) -> Game:
    """The session's game in play, for the screens that run only while there is one."""
    game = session.game
    assert isinstance(game, Game)
    return game


@dataclass
class Services:
    """What the screens use but do not own: the clock, the saves, the strategy engine, the manual."""

    clock: Callable[[], datetime.datetime]
    saves: Saves | None = None
    strategy: StrategyServices | None = None
    manual: list[str] = field(default_factory=list)


@dataclass
class Settings:
    """The preferences, and what this run's command line chose."""

    prefs: Prefs = DEFAULTS
    # Game settings given on the command line for this run only (--rules, --match, --duplicate).
    run_settings: RunSettings = RunSettings()
    # Dice options given on this command line (ignored when a saved game resumes).
    dice_options: bool = False

    def for_games(self) -> Prefs:
        """The preferences the next game is played under: this run's settings in their place."""
        return self.run_settings.over(self.prefs)


@dataclass
class Passing:
    """What one screen hands the next and nothing keeps."""

    # The end of game's notices (a place in the hall of fame, a personal best...).
    notices: list[Text] = field(default_factory=list)
    # How many finished games the flow has filed in the history (None: not yet looked).
    filed: int | None = None
    # Where a screen is told in lines: what greets the last roll (YAHTZEE!), said after its dice.
    greeting: list[Text] = field(default_factory=list)


@dataclass
class Context:
    """Everything a screen is given besides the console."""

    session: Session
    services: Services
    settings: Settings = field(default_factory=Settings)
    passing: Passing = field(default_factory=Passing)
    moment: Moment = Moment(Screen.OPENING)
    # A saved game the host is asked to resume: until it is answered, its seats are the table's.
    offered: Session | None = None
    set_aside: bool = False  # the host chose not to resume the saved game offered
    # A server's table: the host's login name (folded), who may take up a saved game of another's.
    hosted_by: str | None = None

    def apply_game_settings(self) -> None:
        """Play the rules, match and dice the preferences and this run's settings choose, from
        the next game on."""
        session = self.session
        chosen = self.settings.for_games()
        session.rules, match = game_settings(chosen)
        session.source = with_duplicate(session.source, chosen.duplicate)
        if match != session.match:
            session.start_match(match)

    def now(self) -> str:
        """The current time as ISO-8601 text."""
        return self.services.clock().isoformat(timespec="seconds")

    def prepare_tables(self) -> None:
        """Have the strategy tables this session may need made ready in the background (unless
        one player sits alone, what win chances need too: before the names are in, most
        likely wanted, and they take longest)."""
        strategy = self.services.strategy
        if strategy is not None:
            players = self.session.players
            strategy.tables.prepare(self.session.rules, [p.mood for p in players if p.is_computer],
                                    chances=len(players) != 1)

    def prefs_to_keep(self) -> Prefs:
        """The preferences as prefs.json keeps them, verify and sound from the session."""
        return replace(self.settings.prefs, verify=self.session.verify, sound=self.session.sound)
