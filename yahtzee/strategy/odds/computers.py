"""The computer player of each mood, and the tables each mood plays with: the one place that
knows both the table players (players) and *rival (rival)."""
import random
from typing import Optional, Union

from ...model.moods import mood_named
from ...model.rules import Rules
from ..exact.objective import Objective
from ..exact.table import TableLoader
from ..play.players import OBJECTIVES, ComputerPlayer
from .rival import RIVAL_OBJECTIVES, RivalPlayer


def computer_player(mood: str, rules: Rules, table_loader: TableLoader, rng: Optional[random.Random] = None,
                    turn_seed: Optional[str] = None) -> Union[RivalPlayer, ComputerPlayer]:
    """A computer player: mood '*thinker', 'norisk', ...; table_loader(rules, objective) -> table;
    a turn seed makes nowhere's mood a turn's own (see ComputerPlayer)."""
    if mood_named(mood) == "rival":
        return RivalPlayer(rules, table_loader)
    return ComputerPlayer(mood, rules, table_loader, rng, turn_seed)


def mood_objectives(mood: str) -> tuple[Objective, ...]:
    """The objectives whose tables a mood plays with (nowhere the other four's, rival its three)."""
    mood = mood_named(mood)
    if mood == "rival":
        return RIVAL_OBJECTIVES
    return (OBJECTIVES[mood],) if mood in OBJECTIVES else tuple(OBJECTIVES.values())
