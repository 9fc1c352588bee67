"""Hall of fame and player statistics from finished games: pure functions, no I/O.

Choices made here:
- The hall of fame holds every player, computer ones included: a computer's score is a fair
  mark to beat. Equal scores are ordered by the earlier game, then by seat.
- A player's Yahtzees are the games whose Yahtzee box holds 50, plus one for every extra
  Yahtzee bonus paid (yahtzee_bonus divided by the rule set's bonus per extra Yahtzee, 100
  unless the rules say otherwise). Rule sets that pay no bonus leave the extra ones uncounted.
- Notices after a game are for human players only: the computer does not chase records.
- A practice game (loaded dice) counts for nothing: it stays out of the hall of fame and the
  statistics, and is only counted apart. So does a race, whose total runs over many rounds.
"""
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Optional

from ..model.game import PlayerKind
from ..model.outcome import FinishedGame, PlayerResult
from ..model.rules import rules_title
from ..model.words import Later, Num, Say, Text
from ..speech.languages import N_, _, ngettext, number, text
from .palette import cut_to_cells, pad, visible_width

HALL_SIZE = 10


@dataclass(frozen=True)
class HallEntry:
    """One line of the hall of fame."""

    name: str
    score: int
    date: str
    rules: str
    kind: PlayerKind
    finished: str


@dataclass(frozen=True)
class PlayerStats:
    """One player's results over a set of games."""

    name: str
    games: int = 0
    wins: int = 0
    best: int = 0
    points: int = 0
    yahtzees: int = 0
    upper_bonuses: int = 0

    @property
    def average(self) -> float:
        """Mean total per game."""
        return self.points / self.games if self.games else 0.0

    @property
    def upper_bonus_rate(self) -> float:
        """Share of games with the upper bonus, 0.0 to 1.0."""
        return self.upper_bonuses / self.games if self.games else 0.0

    def plus(self, game: FinishedGame, player: PlayerResult) -> "PlayerStats":
        """These statistics with one more game."""
        total = player.total
        return PlayerStats(
            self.name, self.games + 1, self.wins + (self.name in game.winners),
            max(self.best, total) if self.games else total, self.points + total,
            self.yahtzees + player.yahtzees(game.rules), self.upper_bonuses + player.won_upper_bonus)


def whole_games(games: Iterable[FinishedGame]) -> list[FinishedGame]:
    """The ordinary games: a race's total runs over many rounds and is left out, and a practice
    game's dice were loaded."""
    return [game for game in games if not (game.is_race or game.practice)]


def hall_of_fame(games: Iterable[FinishedGame], size: int = HALL_SIZE) -> list[HallEntry]:
    """The `size` best scores, highest first; equal scores in the order they were made."""
    entries = []
    for order, game in enumerate(sorted(whole_games(games), key=lambda game: game.when)):
        for seat, player in enumerate(game.players):
            entry = HallEntry(player.name, player.total, game.date, game.rules.name, player.kind, game.finished)
            entries.append(((-entry.score, game.when, order, seat), entry))
    entries.sort(key=lambda pair: pair[0])
    return [entry for _, entry in entries[:size]]


def player_stats(games: Iterable[FinishedGame]) -> dict[str, PlayerStats]:
    """{name: PlayerStats} for every player of the games, in order of first appearance."""
    stats: dict[str, PlayerStats] = {}
    for game in sorted(whole_games(games), key=lambda game: game.when):
        for player in game.players:
            stats[player.name] = stats.get(player.name, PlayerStats(player.name)).plus(game, player)
    return stats


def game_notices(earlier_games: Iterable[FinishedGame], game: FinishedGame, size: int = HALL_SIZE) -> list[Text]:
    """One-line notices for the humans of a just-finished game, against the games before it
    (none for a race, whose total is not one game's; for a practice game, that it counts for nothing)."""
    if game.practice:
        return [Say("a practice game (loaded dice): it stays out of the hall of fame and the statistics")]
    if game.is_race:
        return []
    earlier = list(earlier_games)
    before = player_stats(earlier)
    after = player_stats(earlier + [game])
    places = _hall_places(hall_of_fame(earlier + [game], size), game)
    notices = []
    for player in game.players:
        if player.is_human:
            name = player.name
            notices += _player_notices(name, player.total, before.get(name), after[name], places.get(name))
    return notices


def places(hall: Sequence[HallEntry]) -> list[int]:
    """Each entry's place in the hall of fame: equal scores share one (1, 1, 3)."""
    return [1 + sum(other.score > entry.score for other in hall) for entry in hall]


def _hall_places(hall: Sequence[HallEntry], game: FinishedGame) -> dict[str, int]:
    return {entry.name: place for place, entry in zip(places(hall), hall)
            if entry.finished == game.finished and game.totals.get(entry.name) == entry.score}


def _player_notices(name: str, total: int, before: Optional[PlayerStats], after: PlayerStats,
                    place: Optional[int]) -> list[Text]:
    notices: list[Text] = []
    if place:
        notices.append(Say("{name} enters the hall of fame at {place} place with {total}").format(
            name=name, place=Later(lambda: ordinal(place)), total=total))
    if before and total > before.best:
        notices.append(Say("{name} sets a new personal best: {total} (the old one was {old})").format(
            name=name, total=total, old=before.best))
    if before and format(before.average, ".1f") != format(after.average, ".1f"):
        way = (Say("{name}'s all-time average goes up from {old} to {new}")
               if after.average > before.average
               else Say("{name}'s all-time average goes down from {old} to {new}"))
        notices.append(way.format(name=name, old=Num(before.average, ".1f"), new=Num(after.average, ".1f")))
    return notices


def ordinal(number: int) -> str:
    """1 -> '1st', 2 -> '2nd', 11 -> '11th'."""
    if 10 <= number % 100 <= 20:
        return _("{number}th").format(number=number)
    suffix = {1: N_("{number}st"), 2: N_("{number}nd"), 3: N_("{number}rd")}
    return _(suffix.get(number % 10, "{number}th")).format(number=number)


# Text for --stats and the title screen

def stats_lines(games: Iterable[FinishedGame], session_games: Iterable[FinishedGame] = (), width: int = 80,
                names: Optional[Container[str]] = None, size: int = HALL_SIZE) -> list[str]:
    """The hall of fame and the player tables (all-time, this session) as plain lines."""
    records, session_records = list(games), list(session_games)
    lines = [_("HALL OF FAME"), ""] + hall_lines(hall_of_fame(records, size))
    lines += left_out_lines(records)
    if records:
        lines += ["", _("PLAYERS, ALL-TIME"), ""] + player_lines(player_stats(records), names)
    if session_records:
        lines += ["", _("PLAYERS, THIS SESSION"), ""] + player_lines(player_stats(session_records),
                                                                    names)
    return _fitted(lines, width)


def left_out_lines(games: Sequence[FinishedGame]) -> list[str]:
    """The games the hall of fame and the tables leave out, counted with why: practice games
    (a race with loaded dice among them), then races."""
    practice = sum(game.practice for game in games)
    races = sum(game.is_race and not game.practice for game in games)
    lines = []
    if practice:
        lines.append(ngettext("{count} practice game (loaded dice) is not counted here.",
                              "{count} practice games (loaded dice) are not counted here.", practice).format(
            count=practice))
    if races:
        lines.append(ngettext("{count} race (its total runs over many rounds) is not counted here.",
                              "{count} races (their totals run over many rounds) are not counted here.",
                              races).format(count=races))
    return [""] + lines if lines else []


def hall_lines(hall: Sequence[HallEntry]) -> list[str]:
    """The hall of fame as a table, one line per place."""
    if not hall:
        return [_("No finished games yet.")]
    marks = ["*" if entry.kind == "computer" else "" for entry in hall]
    name_width = _name_width(entry.name + mark for entry, mark in zip(hall, marks))
    shown = [_cell(entry.name, name_width - len(mark)).rstrip() + mark for entry, mark in zip(hall, marks)]
    score = max(5, len(_("SCORE")))
    lines = [f"{'#':>2}  {_cell(_('NAME'), name_width)}  {_('SCORE'):>{score}}  {_('DATE'):<10}  "
             + _("RULES")]
    for place, who, entry in zip(places(hall), shown, hall):
        lines.append(f"{place:>2}  {_cell(who, name_width)}  {entry.score:>{score}}  {entry.date:<10}  "
                     f"{text(rules_title(entry.rules))}")
    if any(entry.kind == "computer" for entry in hall):
        lines.append(_("* played by the computer"))
    return lines


def player_lines(stats: Mapping[str, PlayerStats], names: Optional[Container[str]] = None) -> list[str]:
    """The player table: most games first; only `names` when given."""
    shown = [s for s in stats.values() if names is None or s.name in names]
    if not shown:
        return [_("No games for these players.")]
    shown.sort(key=lambda s: (-s.games, s.name))
    name_width = _name_width(s.name for s in shown)
    titles = [_(title) for title in PLAYER_COLUMNS]
    widths = [max(len(title), least) for title, least in zip(titles, PLAYER_WIDTHS)]
    lines = [_cell(_("NAME"), name_width) + "".join(f"  {t:>{w}}" for t, w in zip(titles, widths))]
    for s in shown:
        cells = (s.games, s.wins, s.best, number(s.average, ".1f"), s.yahtzees, f"{s.upper_bonus_rate:.0%}")
        lines.append(_cell(s.name, name_width) + "".join(f"  {c:>{w}}" for c, w in zip(cells, widths)))
    return lines


NAME_COLUMN = (4, 12)
PLAYER_COLUMNS = (N_("GAMES"), N_("WINS"), N_("BEST"), N_("AVERAGE"), N_("YAHTZEES"), N_("BONUS"))
PLAYER_WIDTHS = (5, 4, 4, 7, 8, 5)


def _name_width(names: Iterable[str]) -> int:
    low, high = NAME_COLUMN
    return max(low, min(high, max((visible_width(n) for n in names), default=low)))


def _cell(text: str, width: int) -> str:
    """Text cut or padded to exactly `width` terminal cells."""
    return pad(cut_to_cells(text, width), width)


def _fitted(lines: list[str], width: int) -> list[str]:
    return [_cell(line, width).rstrip() if visible_width(line) > width else line for line in lines]
