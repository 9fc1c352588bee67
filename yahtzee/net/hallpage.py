"""The hall's pages: the server's tables, one a line (number, host, rules, players, watchers,
whether its game is under way, or saved to be taken up), and its statistics, drawn for each
terminal in its own look and language."""
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Optional

from ..consoles.keymode import KeyConsole
from ..model.outcome import FinishedGame
from ..model.words import Say, Text
from ..present.keys import Key
from ..present.look import Asked, Frame, Look, View, framed, heading
from ..present.palette import cut_to_cells, pad
from ..present.stats import stats_lines
from ..screens.prompts import paginate

NUMBER, HOST, RULES, PLAYERS, WATCHERS = 3, 10, 21, 25, 10  # the columns' widths, in cells
PAGE_ROWS = 14  # tables listed on an 80x24 page; the others are joined by their number


@dataclass(frozen=True)
class Listed:
    """A table as the hall lists it."""

    number: int
    host: str
    rules: Text
    players: tuple[str, ...]
    watching: int
    under_way: bool
    saved: bool = False  # nobody plays it now: one of its players may take it up
    private: bool = False  # joined only with its code
    match: Optional[Text] = None  # its match, where it plays one (not a single game)
    free: Optional[int] = None  # seats still free, while it waits for its game


def hall_view(tables: Sequence[Listed]) -> View:
    """The page of the server's tables, with the question under it."""
    def body(look: Look) -> list[str]:
        lines = [heading(look, Say("TABLES ON THIS SERVER")), ""]
        if not tables:
            return [*lines, "  " + look.words(Say("No table yet: N starts one, and you host it.")), ""]
        header = row(look, "#", Say("Host"), Say("Rules"), Say("Players"), Say("Watchers"), Say("State"))
        rows, shown = page_rows(look, tables)
        if len(tables) > shown:
            rows.append("  " + look.words(Say("and {count} more, numbered up to {last}: type a table's number to "
                                              "join it.").format(count=len(tables) - shown,
                                                                 last=tables[-1].number)))
        if any(table.private for table in tables):
            rows.append("  " + look.words(Say("* private: joined with the code its host gives.")))
        return [*lines, look.paint("total", header), *rows, ""]
    return framed(body, indent="  ")


def page_rows(look: Look, tables: Sequence[Listed]) -> tuple[list[str], int]:
    """The lines of the tables that fit a page (a table that plays a match takes a second line,
    its match under its rules), and how many tables they are."""
    rows: list[str] = []
    for shown, table in enumerate(tables):
        lines = [table_row(look, table)]
        if table.match is not None:
            lines.append(" " * (2 + NUMBER + HOST) + look.words(table.match))
        if len(rows) + len(lines) > PAGE_ROWS:
            return rows, shown
        rows += lines
    return rows, len(tables)


def table_row(look: Look, table: Listed) -> str:
    """One table's line."""
    players: Text = " ".join(table.players) or "-"
    if table.free:
        players = Say("{players}, {count} free").format(players=players, count=table.free)
    state = Say("saved") if table.saved else Say("playing") if table.under_way else Say("waiting")
    number = f"{table.number}*" if table.private else str(table.number)
    return row(look, number, table.host, table.rules, players, str(table.watching or "-"), state)


def row(look: Look, number: Text, host: Text, rules: Text, players: Text, watchers: Text, state: Text) -> str:
    """A line of the list, each column cut to its width."""
    cells = [(number, NUMBER), (host, HOST), (rules, RULES), (players, PLAYERS), (watchers, WATCHERS)]
    return "  " + "".join(pad(cut_to_cells(look.words(said), width - 1), width) for said, width in cells) \
        + look.words(state)


def show_statistics(console: KeyConsole, records: list[FinishedGame]) -> None:
    """The server's hall of fame and players' statistics, over every table, a page at a time
    in the terminal's language (Enter next, B back, X done)."""
    pages = paginate(console.drawn(lambda look: stats_lines(records)))
    number = 0
    while 0 <= number < len(pages):
        page = pages[number]
        prompt = Say("Page {page} of {pages}: {keys}").format(page=number + 1, pages=len(pages),
                                                              keys=Say("Enter next, B back, X done"))
        console.show(Asked(framed(lines_frame(page)), prompt))
        token = console.read_key(prompt)
        if token in ("x", Key.ESCAPE, Key.QUIT):
            return
        number = max(0, number - 1) if token == "b" else number + 1


def lines_frame(lines: list[str]) -> Frame:
    """Lines drawn as they are (a page of the statistics), a blank line under them."""
    return lambda look: [*lines, ""]
