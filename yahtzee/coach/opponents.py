"""The computer players of one session: one per mood and rules, playing from the session's tables."""
import functools
import random
from typing import TYPE_CHECKING, Optional, Union

from ..model.choices import Action
from ..model.moods import mood_named
from ..strategy.storage.builder import Waiting, engine
from .tablekeeper import TableKeeper

if TYPE_CHECKING:  # only for the reader: the strategy modules would load numpy at start-up
    from ..model.game import Game
    from ..model.rules import Rules
    from ..strategy.odds.rival import RivalPlayer
    from ..strategy.play.players import ComputerPlayer


class Opponents:
    """The computer seats' players; with a seed, each mood's own choices are reproducible."""

    def __init__(self, tables: TableKeeper, seed: Optional[int] = None) -> None:
        self.tables = tables
        self.seed = seed
        # What a turn's random choices (nowhere's mood) are drawn from: the seed, or one drawn for the run.
        self.turn_seed = str(seed) if seed is not None else str(random.SystemRandom().getrandbits(64))
        self._players: dict[tuple[str, Rules], Union[ComputerPlayer, RivalPlayer]] = {}

    def player(self, mood: str, rules: "Rules") -> Union["ComputerPlayer", "RivalPlayer"]:
        """The computer player of a mood (one per mood and rules)."""
        key = (mood, rules)
        if key not in self._players:
            # *rival plays for the win: it works with win chances, so with the rests
            load = functools.partial(self.tables.load, with_rests=True) if mood_named(mood) == "rival" \
                else self.tables.load
            self._players[key] = engine().computer_player(mood, rules, load, turn_seed=f"{self.turn_seed}/{mood}")
        return self._players[key]

    def waiting(self, game: "Game") -> Optional[Waiting]:
        """The work the computer at the current seat waits for before it can play (its mood's
        tables, *rival's rests too), or None when there is none."""
        mood = game.current.mood or "thinker"
        with_rests = mood_named(mood) == "rival"
        for objective in engine().mood_objectives(mood):
            waiting = self.tables.waiting(game.rules, objective, with_rests)
            if waiting is not None:
                return waiting
        return None

    def action(self, game: "Game") -> Action:
        """What the computer at the current seat of `game` does next (a keep or a box)."""
        brain = self.player(game.current.mood or "thinker", game.rules)
        with self.tables.thinking:
            return brain.next_action(game)
