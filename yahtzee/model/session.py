"""The session: the players at the table, its finished games and the game in play, within a
match."""
from dataclasses import dataclass, field
from typing import Optional

from .dice import RandomDice, Source
from .game import Game, Player
from .match import SINGLE_GAME, Challenge, Match, MatchStand, Scores, totals
from .outcome import FinishedGame
from .rules import HASBRO, Rules
from .seatowners import Seats
from .words import Text


@dataclass
class Session:
    """The players at the table, the session's finished games and the game in play."""

    players: list[Player]
    results: list[FinishedGame] = field(default_factory=list)
    game: Optional[Game] = None
    verify: bool = True
    sound: bool = True
    rules: Rules = HASBRO
    source: Source = field(default_factory=RandomDice)
    match: Match = SINGLE_GAME
    # Where the match's games begin among the results.
    match_start: int = 0
    # The humans whose advice ranks by the chance to win (W on the advice page), by name.
    win_rankers: set[str] = field(default_factory=set)
    # The seats played from a friend's own terminal over SSH, by folded name: what proves the seat
    # is theirs (their key's fingerprint, or 'code:' and a hash of their rejoin code; '' not yet),
    # and whom the host removed (not saved: for this run of the game).
    seats: Seats = field(default_factory=Seats)

    def new_game(self) -> Game:
        """Start the session's next game with the players now seated (a new match of the
        same kind once the last one is decided)."""
        if self.match_is_over:
            self.match_start = len(self.results)
        self.game = Game.start(self.players, self.rules, self.source, len(self.results) + 1,
                               self.match.race_target, self.win_rankers)
        return self.game

    def start_match(self, match: Match) -> None:
        """Play `match` from the next game on."""
        self.match, self.match_start = match, len(self.results)

    @property
    def match_scores(self) -> list[Scores]:
        """Each of the match's finished games as {name: total}."""
        return [game.totals for game in self.results[self.match_start:]]

    @property
    def match_is_over(self) -> bool:
        """The match is decided."""
        return self.match.is_over(self.match_scores, self.game)

    def match_stand(self) -> Optional[MatchStand]:
        """Where a challenge stands for the game in play (the chance to win is the match's),
        or None: a single game, a race (one game) or a match to a target (games without end)."""
        if not isinstance(self.match, Challenge) or self.game is None:
            return None
        scores = self.match_scores
        return MatchStand(totals(scores), max(0, self.match.games - len(scores) - 1))

    def standings_lines(self) -> list[Text]:
        """Where the match stands, for the recap."""
        return self.match.standings_lines(self.match_scores, self.game)

    def finish_game(self, finished: str) -> FinishedGame:
        """File the game in play among the results, finished at `finished` (ISO-8601)."""
        assert self.game is not None
        done = FinishedGame.of(self.game, finished)
        self.results.append(done)
        self.game = None
        return done
