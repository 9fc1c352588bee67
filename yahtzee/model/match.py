"""Match types as values: a single game, a challenge of N games, a race to a target score,
first to a total over games. Pure: they read each finished game's scores, {name: total} in
seat order (and a race's game in play)."""
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal, NamedTuple, Optional, Protocol, Union

from .checks import is_int
from .words import N_, Refusal, Say, Text, joined

MAX_CHALLENGE_GAMES = 100
MAX_RACE_TARGET = 100_000
MAX_FIRST_TO_TARGET = 1_000_000


MatchKind = Literal["single", "challenge", "race", "first_to"]


class BadMatch(Refusal):
    """A match the game does not offer, with the reason for the player."""


class _Card(Protocol):
    @property
    def total(self) -> int: ...


class _Seat(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def card(self) -> _Card: ...


class GameInPlay(Protocol):
    """What a match reads of the game in play (yahtzee.model.game.Game has it): the seats and whether it is over."""

    @property
    def players(self) -> Sequence[_Seat]: ...

    @property
    def is_over(self) -> bool: ...


def _require_count(value: object, low: int, high: int, what: str) -> None:
    if not is_int(value, low, high):
        raise BadMatch(Say("{what} must be a whole number from {low} to {high}, not {value}").format(
            what=Say(what), low=low, high=high, value=repr(value)))


Scores = Mapping[str, int]


def totals(finished: Iterable[Scores]) -> dict[str, int]:
    """Each name's points over the games, in order of first appearance: {name: total}."""
    summed: dict[str, int] = {}
    for scores in finished:
        for name, total in scores.items():
            summed[name] = summed.get(name, 0) + total
    return summed


def leaders(points: Mapping[str, int]) -> list[str]:
    """The names with the most points of a {name: points} mapping (ties share)."""
    if not points:
        return []
    best = max(points.values())
    return [name for name, value in points.items() if value == best]


def names_phrase(names: Sequence[str]) -> Text:
    """Names as a sentence says them: 'ANN', 'ANN and BOB', 'ANN, BOB and CAL'."""
    return joined([", ".join(names[:-1]), Say(" and "), names[-1]]) if len(names) > 1 else names[0]


def lead_phrase(points: Mapping[str, int]) -> Say:
    """Who leads whom by how much: 'ANN leads BOB by 34', 'ANN and BOB are level on 80'."""
    ranked = sorted(points.items(), key=lambda item: -item[1])
    top = leaders(points)
    if len(ranked) == 1:
        return Say("{name} has {points}").format(name=ranked[0][0], points=ranked[0][1])
    if len(top) > 1:
        return Say("{names} are level on {points}").format(names=names_phrase(top), points=ranked[0][1])
    (first, best), (second, next_best) = ranked[:2]
    return Say("{first} leads {second} by {points}").format(first=first, second=second,
                                                         points=best - next_best)


class ResultSentences(NamedTuple):
    """Who won, in three sentences: the one player's finish, a win shared, a win alone (told by
    its margin, or by the points)."""

    alone: str
    shared: str
    won: str
    by_margin: bool = False


GAME_RESULT = ResultSentences(N_("{name} finishes with {points} points."),
                              N_("{names} share the win with {points} points each!"),
                              N_("{name} wins with {points} points!"))
MATCH_RESULT = ResultSentences(N_("{name} finishes with {points}"), N_("{names} share the win on {points}"),
                               N_("{name} wins by {points}"), by_margin=True)


def result_phrase(points: Mapping[str, int], sentences: ResultSentences = GAME_RESULT) -> Say:
    """Who won with how many points: a game's ('ANN wins with 250 points!') or a match's
    ('ANN wins by 34')."""
    top = leaders(points)
    ranked = sorted(points.values(), reverse=True)
    if len(ranked) == 1:
        return Say(sentences.alone).format(name=top[0], points=ranked[0])
    if len(top) > 1:
        return Say(sentences.shared).format(names=names_phrase(top), points=ranked[0])
    won = ranked[0] - ranked[1] if sentences.by_margin else ranked[0]
    return Say(sentences.won).format(name=top[0], points=won)


def score_line(points: Mapping[str, int]) -> str:
    """Each name and their points: 'ANN 612, BOB 578'."""
    return ", ".join(f"{name} {value}" for name, value in points.items())


def _first_winners(finished: Sequence[Scores]) -> list[str]:
    return leaders(finished[0]) if finished else []


def _game_totals(game: GameInPlay) -> dict[str, int]:
    return {player.name: player.card.total for player in game.players}


@dataclass(frozen=True)
class MatchStand:
    """Where a match of whole games stands for the game in play: each player's total over
    the games before it, and how many games are still to come after it."""

    before: Mapping[str, int]
    games_after: int


@dataclass(frozen=True)
class SingleGame:
    """One game; its winner wins."""

    kind: ClassVar[MatchKind] = "single"
    race_target: ClassVar[None] = None

    def is_over(self, finished: Sequence[Scores], game: Optional[GameInPlay] = None) -> bool:
        """Over once its game is filed."""
        return len(finished) >= 1

    def winners(self, finished: Sequence[Scores]) -> list[str]:
        """The game's winners (none before it is over)."""
        return _first_winners(finished)

    def standings_lines(self, finished: Sequence[Scores], game: Optional[GameInPlay] = None) -> list[Text]:
        """Nothing to add to the recap of a single game."""
        return []

    def describe(self) -> Say:
        """The match in a few words."""
        return Say("a single game")



@dataclass(frozen=True)
class Challenge:
    """`games` games; the highest total over all of them wins (yahtChallenge, FiveOAK)."""

    games: int
    kind: ClassVar[MatchKind] = "challenge"
    race_target: ClassVar[None] = None

    def __post_init__(self) -> None:
        _require_count(self.games, 1, MAX_CHALLENGE_GAMES, N_("the games of a challenge"))

    def is_over(self, finished: Sequence[Scores], game: Optional[GameInPlay] = None) -> bool:
        """Over once all its games are filed."""
        return len(finished) >= self.games

    def winners(self, finished: Sequence[Scores]) -> list[str]:
        """The best totals over the games (none before the challenge is over)."""
        return leaders(totals(finished)) if self.is_over(finished) else []

    def standings_lines(self, finished: Sequence[Scores], game: Optional[GameInPlay] = None) -> list[Text]:
        """Where the challenge stands: after which game, who leads, the totals."""
        if not finished:
            return [Say("Challenge of {games} games: none played yet").format(games=self.games)]
        points = totals(finished)
        if self.is_over(finished):
            return [Say("Challenge of {games} games: {result}").format(
                games=self.games, result=result_phrase(points, MATCH_RESULT)), score_line(points)]
        left = self.games - len(finished)
        return [Say("Challenge: after game {game} of {games}, {lead}").format(
                    game=len(finished), games=self.games, lead=lead_phrase(points)),
                Say.plurals("{scores}; {count} game to go", "{scores}; {count} games to go",
                         left).format(scores=score_line(points), count=left)]

    def describe(self) -> Say:
        """The match in a few words."""
        return Say("a challenge of {games} games").format(games=self.games)



@dataclass(frozen=True)
class Race:
    """yahtChallenge's race: one game that goes on, completed columns cleared and their
    points kept, until a round ends with someone at `target` or over; the best total wins."""

    target: int
    kind: ClassVar[MatchKind] = "race"

    def __post_init__(self) -> None:
        _require_count(self.target, 1, MAX_RACE_TARGET, N_("the target of a race"))

    @property
    def race_target(self) -> int:
        """The score the race game runs to."""
        return self.target

    def is_over(self, finished: Sequence[Scores], game: Optional[GameInPlay] = None) -> bool:
        """Over once the race game is finished (filed, or over in play)."""
        return len(finished) >= 1 or bool(game and game.is_over)

    def winners(self, finished: Sequence[Scores]) -> list[str]:
        """The race game's winners (none before it is over)."""
        return _first_winners(finished)

    def standings_lines(self, finished: Sequence[Scores], game: Optional[GameInPlay] = None) -> list[Text]:
        """The race so far: the scores, who leads, and how far the leader has to go."""
        points = totals(finished[:1]) if finished else _game_totals(game) if game else {}
        if not points:
            return [Say("Race to {target}: not started").format(target=self.target)]
        if finished or (game is not None and game.is_over):
            return [Say("Race to {target}: {result}").format(target=self.target,
                                                          result=result_phrase(points, MATCH_RESULT)),
                    score_line(points)]
        best = max(points.values())
        to_go = (Say.plurals("{names} needs {points} more", "{names} need {points} more",
                          len(leaders(points))).format(names=names_phrase(leaders(points)),
                                                      points=self.target - best)
                 if best < self.target else Say("the target is reached: the race ends with this round"))
        return [Say("Race to {target}: {lead}").format(target=self.target, lead=lead_phrase(points)),
                joined([score_line(points), to_go], "; ")]

    def describe(self) -> Say:
        """The match in a few words."""
        return Say("a race to {target}").format(target=self.target)



@dataclass(frozen=True)
class FirstTo:
    """FiveOAK's 'first to an agreed total': whole games until someone's total over them
    reaches `target`; the best total then wins."""

    target: int
    kind: ClassVar[MatchKind] = "first_to"
    race_target: ClassVar[None] = None

    def __post_init__(self) -> None:
        _require_count(self.target, 1, MAX_FIRST_TO_TARGET, N_("the target total"))

    def is_over(self, finished: Sequence[Scores], game: Optional[GameInPlay] = None) -> bool:
        """Over once a filed game brings someone's total to the target."""
        return bool(finished) and max(totals(finished).values()) >= self.target

    def winners(self, finished: Sequence[Scores]) -> list[str]:
        """The best totals over the games (none before the match is over)."""
        return leaders(totals(finished)) if self.is_over(finished) else []

    def standings_lines(self, finished: Sequence[Scores], game: Optional[GameInPlay] = None) -> list[Text]:
        """The totals so far, who leads, and how far the leader has to go."""
        if not finished:
            return [Say("First to {target}: no game played yet").format(target=self.target)]
        points = totals(finished)
        played = len(finished)
        if self.is_over(finished):
            return [Say.plurals("First to {target}: {result} after {count} game",
                             "First to {target}: {result} after {count} games", played).format(
                target=self.target, result=result_phrase(points, MATCH_RESULT), count=played), score_line(points)]
        best = max(points.values())
        return [Say.plurals("First to {target}: after {count} game, {lead}",
                         "First to {target}: after {count} games, {lead}", played).format(
                    target=self.target, count=played, lead=lead_phrase(points)),
                Say("{scores}; {points} more needed").format(scores=score_line(points),
                                                          points=self.target - best)]

    def describe(self) -> Say:
        """The match in a few words."""
        return Say("first to {target}").format(target=self.target)



Match = Union[SingleGame, Challenge, Race, FirstTo]
SINGLE_GAME = SingleGame()
MATCH_KINDS: dict[str, Callable[[int], Match]] = {"single": lambda n: SINGLE_GAME, "challenge": Challenge,
                                                  "race": Race, "first_to": FirstTo}


def parse_match(text: str) -> Match:
    """A match from a player's words: 'single', 'challenge 3', 'race 500', 'first_to 1000'."""
    words = text.replace(":", " ").replace("-", "_").split()
    kind = words[0].lower() if words else ""
    if kind not in MATCH_KINDS:
        raise BadMatch(Say("unknown match '{text}' (known: single, challenge N, race N, first_to N)")
                       .format(text=text))
    if kind == "single":
        return SINGLE_GAME
    if len(words) != 2 or not words[1].isdigit():
        raise BadMatch(Say("'{kind}' needs one number, as in '{kind} {number}'").format(
            kind=kind, number=3 if kind == "challenge" else 500))
    return MATCH_KINDS[kind](int(words[1]))
