"""Match types as values: a single game, a challenge of N games, a race to a target score,
first to a total over games. Pure: they read history records (and a race's game in play)."""
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Optional, Protocol, Union

from .checks import is_int
from .language import N_, _, ngettext

MAX_CHALLENGE_GAMES = 100
MAX_RACE_TARGET = 100_000
MAX_FIRST_TO_TARGET = 1_000_000


class BadMatch(ValueError):
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
    """What a match reads of the game in play: yahtzee.game imports this module, so not its Game."""

    @property
    def players(self) -> Sequence[_Seat]: ...

    @property
    def is_over(self) -> bool: ...


def _require_count(value: object, low: int, high: int, what: str) -> None:
    if not is_int(value, low, high):
        raise BadMatch(_("{what} must be a whole number from {low} to {high}, not {value}").format(
            what=_(what), low=low, high=high, value=repr(value)))


def totals(records: Iterable[dict[str, Any]]) -> dict[str, int]:
    """Each name's points over the records, in order of first appearance: {name: total}."""
    from .records import totals_of  # records reads the model, which reads matches
    summed: dict[str, int] = {}
    for record in records:
        for name, total in totals_of(record).items():
            summed[name] = summed.get(name, 0) + total
    return summed


def leaders(points: Mapping[str, int]) -> list[str]:
    """The names with the most points of a {name: points} mapping (ties share)."""
    if not points:
        return []
    best = max(points.values())
    return [name for name, value in points.items() if value == best]


def _names(names: list[str]) -> str:
    return _(" and ").join([", ".join(names[:-1])] + names[-1:]) if len(names) > 1 else names[0]


def lead_phrase(points: Mapping[str, int]) -> str:
    """Who leads whom by how much: 'ANN leads BOB by 34', 'ANN and BOB are level on 80'."""
    ranked = sorted(points.items(), key=lambda item: -item[1])
    top = leaders(points)
    if len(ranked) == 1:
        return _("{name} has {points}").format(name=ranked[0][0], points=ranked[0][1])
    if len(top) > 1:
        return _("{names} are level on {points}").format(names=_names(top), points=ranked[0][1])
    (first, best), (second, next_best) = ranked[:2]
    return _("{first} leads {second} by {points}").format(first=first, second=second,
                                                         points=best - next_best)


def win_phrase(points: Mapping[str, int]) -> str:
    """The result of a finished match: 'ANN wins by 34', 'ANN and BOB share the win on 80'."""
    top = leaders(points)
    ranked = sorted(points.values(), reverse=True)
    if len(ranked) == 1:
        return _("{name} finishes with {points}").format(name=top[0], points=ranked[0])
    if len(top) > 1:
        return _("{names} share the win on {points}").format(names=_names(top), points=ranked[0])
    return _("{name} wins by {points}").format(name=top[0], points=ranked[0] - ranked[1])


def score_line(points: Mapping[str, int]) -> str:
    """Each name and their points: 'ANN 612, BOB 578'."""
    return ", ".join(f"{name} {value}" for name, value in points.items())


def _first_winners(records: Sequence[dict[str, Any]]) -> list[str]:
    from .records import winners_of
    return winners_of(records[0]) if records else []


def _game_totals(game: GameInPlay) -> dict[str, int]:
    return {player.name: player.card.total for player in game.players}


@dataclass(frozen=True)
class SingleGame:
    """One game; its winner wins."""

    kind: ClassVar[str] = "single"
    race_target: ClassVar[None] = None

    def is_over(self, records: Sequence[dict[str, Any]], game: Optional[GameInPlay] = None) -> bool:
        """Over once its game is filed."""
        return len(records) >= 1

    def winners(self, records: Sequence[dict[str, Any]]) -> list[str]:
        """The game's winners (none before it is over)."""
        return _first_winners(records)

    def standings_lines(self, records: Sequence[dict[str, Any]], game: Optional[GameInPlay] = None) -> list[str]:
        """Nothing to add to the recap of a single game."""
        return []

    def describe(self) -> str:
        """The match in a few words."""
        return _("a single game")

    def to_dict(self) -> dict[str, Union[str, int]]:
        """The match as JSON data."""
        return {"kind": self.kind}


@dataclass(frozen=True)
class Challenge:
    """`games` games; the highest total over all of them wins (yahtChallenge, FiveOAK)."""

    games: int
    kind: ClassVar[str] = "challenge"
    race_target: ClassVar[None] = None

    def __post_init__(self) -> None:
        _require_count(self.games, 1, MAX_CHALLENGE_GAMES, N_("the games of a challenge"))

    def is_over(self, records: Sequence[dict[str, Any]], game: Optional[GameInPlay] = None) -> bool:
        """Over once all its games are filed."""
        return len(records) >= self.games

    def winners(self, records: Sequence[dict[str, Any]]) -> list[str]:
        """The best totals over the games (none before the challenge is over)."""
        return leaders(totals(records)) if self.is_over(records) else []

    def standings_lines(self, records: Sequence[dict[str, Any]], game: Optional[GameInPlay] = None) -> list[str]:
        """Where the challenge stands: after which game, who leads, the totals."""
        if not records:
            return [_("Challenge of {games} games: none played yet").format(games=self.games)]
        points = totals(records)
        if self.is_over(records):
            return [_("Challenge of {games} games: {result}").format(
                games=self.games, result=win_phrase(points)), score_line(points)]
        left = self.games - len(records)
        return [_("Challenge: after game {game} of {games}, {lead}").format(
                    game=len(records), games=self.games, lead=lead_phrase(points)),
                ngettext("{scores}; {count} game to go", "{scores}; {count} games to go",
                         left).format(scores=score_line(points), count=left)]

    def describe(self) -> str:
        """The match in a few words."""
        return _("a challenge of {games} games").format(games=self.games)

    def to_dict(self) -> dict[str, Union[str, int]]:
        """The match as JSON data."""
        return {"kind": self.kind, "games": self.games}


@dataclass(frozen=True)
class Race:
    """yahtChallenge's race: one game that goes on, completed columns cleared and their
    points kept, until a round ends with someone at `target` or over; the best total wins."""

    target: int
    kind: ClassVar[str] = "race"

    def __post_init__(self) -> None:
        _require_count(self.target, 1, MAX_RACE_TARGET, N_("the target of a race"))

    @property
    def race_target(self) -> int:
        """The score the race game runs to."""
        return self.target

    def is_over(self, records: Sequence[dict[str, Any]], game: Optional[GameInPlay] = None) -> bool:
        """Over once the race game is finished (filed, or over in play)."""
        return len(records) >= 1 or bool(game and game.is_over)

    def winners(self, records: Sequence[dict[str, Any]]) -> list[str]:
        """The race game's winners (none before it is over)."""
        return _first_winners(records)

    def standings_lines(self, records: Sequence[dict[str, Any]], game: Optional[GameInPlay] = None) -> list[str]:
        """The race so far: the scores, who leads, and how far the leader has to go."""
        points = totals(records[:1]) if records else _game_totals(game) if game else {}
        if not points:
            return [_("Race to {target}: not started").format(target=self.target)]
        if records or (game is not None and game.is_over):
            return [_("Race to {target}: {result}").format(target=self.target,
                                                          result=win_phrase(points)),
                    score_line(points)]
        best = max(points.values())
        to_go = (ngettext("{names} needs {points} more", "{names} need {points} more",
                          len(leaders(points))).format(names=_names(leaders(points)),
                                                      points=self.target - best)
                 if best < self.target else _("the target is reached: the race ends with this round"))
        return [_("Race to {target}: {lead}").format(target=self.target, lead=lead_phrase(points)),
                f"{score_line(points)}; {to_go}"]

    def describe(self) -> str:
        """The match in a few words."""
        return _("a race to {target}").format(target=self.target)

    def to_dict(self) -> dict[str, Union[str, int]]:
        """The match as JSON data."""
        return {"kind": self.kind, "target": self.target}


@dataclass(frozen=True)
class FirstTo:
    """FiveOAK's 'first to an agreed total': whole games until someone's total over them
    reaches `target`; the best total then wins."""

    target: int
    kind: ClassVar[str] = "first_to"
    race_target: ClassVar[None] = None

    def __post_init__(self) -> None:
        _require_count(self.target, 1, MAX_FIRST_TO_TARGET, N_("the target total"))

    def is_over(self, records: Sequence[dict[str, Any]], game: Optional[GameInPlay] = None) -> bool:
        """Over once a filed game brings someone's total to the target."""
        return bool(records) and max(totals(records).values()) >= self.target

    def winners(self, records: Sequence[dict[str, Any]]) -> list[str]:
        """The best totals over the games (none before the match is over)."""
        return leaders(totals(records)) if self.is_over(records) else []

    def standings_lines(self, records: Sequence[dict[str, Any]], game: Optional[GameInPlay] = None) -> list[str]:
        """The totals so far, who leads, and how far the leader has to go."""
        if not records:
            return [_("First to {target}: no game played yet").format(target=self.target)]
        points = totals(records)
        played = len(records)
        if self.is_over(records):
            return [ngettext("First to {target}: {result} after {count} game",
                             "First to {target}: {result} after {count} games", played).format(
                target=self.target, result=win_phrase(points), count=played), score_line(points)]
        best = max(points.values())
        return [ngettext("First to {target}: after {count} game, {lead}",
                         "First to {target}: after {count} games, {lead}", played).format(
                    target=self.target, count=played, lead=lead_phrase(points)),
                _("{scores}; {points} more needed").format(scores=score_line(points),
                                                          points=self.target - best)]

    def describe(self) -> str:
        """The match in a few words."""
        return _("first to {target}").format(target=self.target)

    def to_dict(self) -> dict[str, Union[str, int]]:
        """The match as JSON data."""
        return {"kind": self.kind, "target": self.target}


Match = Union[SingleGame, Challenge, Race, FirstTo]
SINGLE_GAME = SingleGame()
MATCH_KINDS: dict[str, Callable[[int], Match]] = {"single": lambda n: SINGLE_GAME, "challenge": Challenge,
                                                  "race": Race, "first_to": FirstTo}
_COUNT_FIELD = {"challenge": "games", "race": "target", "first_to": "target"}


def match_to_dict(match: Match) -> dict[str, Union[str, int]]:
    """A match as JSON data."""
    return match.to_dict()


def match_from_dict(data: object) -> Match:
    """The match saved by match_to_dict; BadMatch when the data is not one."""
    kind = data.get("kind") if isinstance(data, dict) else None
    if not isinstance(data, dict) or not isinstance(kind, str) or kind not in MATCH_KINDS:
        raise BadMatch(_("unknown match kind {kind}").format(kind=repr(kind)))
    return MATCH_KINDS[kind](data.get(_COUNT_FIELD.get(kind), 0))


def parse_match(text: str) -> Match:
    """A match from a player's words: 'single', 'challenge 3', 'race 500', 'first_to 1000'."""
    words = text.replace(":", " ").replace("-", "_").split()
    kind = words[0].lower() if words else ""
    if kind not in MATCH_KINDS:
        raise BadMatch(_("unknown match '{text}' (known: single, challenge N, race N, first_to N)")
                       .format(text=text))
    if kind == "single":
        return SINGLE_GAME
    if len(words) != 2 or not words[1].isdigit():
        raise BadMatch(_("'{kind}' needs one number, as in '{kind} {number}'").format(
            kind=kind, number=3 if kind == "challenge" else 500))
    return MATCH_KINDS[kind](int(words[1]))


def is_over(match: Match, records: Sequence[dict[str, Any]], game: Optional[GameInPlay] = None) -> bool:
    """The match is decided."""
    return match.is_over(records, game)


def winners(match: Match, records: Sequence[dict[str, Any]]) -> list[str]:
    """The match's winners once it is over, else []."""
    return match.winners(records)


def standings_lines(match: Match, records: Sequence[dict[str, Any]], game: Optional[GameInPlay] = None) -> list[str]:
    """Lines for the recap: where the match stands, who leads, what is left."""
    return match.standings_lines(records, game)
