"""The end of a game and of a session: the final sheet with the winner and notices, the recap."""
from typing import Optional

from .. import render
from ..dice import DUPLICATE_LINE, is_duplicate
from ..game import Game
from ..match import SINGLE_GAME
from .context import Context, Moment, Screen
from .lobby import lobby_ask, statistics
from .prompts import any_key, footer_for


def winner_line(record: dict) -> str:
    """Who won the game, or who shared the win."""
    totals = {p["name"]: p["total"] for p in record["players"]}
    winners = record["winners"]
    best = totals[winners[0]]
    if len(record["players"]) == 1:
        return f"{winners[0]} finishes with {best} points."
    if len(winners) == 1:
        return f"{winners[0]} wins with {best} points!"
    return f"{' and '.join(winners)} share the win with {best} points each!"


def match_lines(session) -> list:
    """Where a match stands (nothing for single games)."""
    return [] if session.match == SINGLE_GAME else session.standings_lines()


def end_of_game(console, ctx: Context) -> Optional[Moment]:
    """The final sheet, the winner and the notices; another game? Y goes through the recap."""
    session = ctx.session
    record = session.results[-1]
    announce = [winner_line(record), *ctx.passing.notices, *match_lines(session)]
    pages = render.end_lines(Game.from_record(record), announce, console.paint,
                             room=render.SCREEN_HEIGHT - 3)
    for page in pages[:-1]:
        any_key(console, ctx, "More notices: press any key",
                lambda prompt, page=page: page + ["", prompt], [])
    view = lambda prompt: pages[-1] + ["", prompt]
    another = lobby_ask(console, ctx, "Another game?", view, keys="s", brief=announce)
    ctx.passing.notices = []
    if another == "y":
        return Moment(Screen.RECAP_THEN_CONFIRM)
    return Moment(Screen.RECAP) if len(session.results) >= 2 else None


def show_recap(console, ctx: Context, prompt: str) -> None:
    """Every game of the session, each player's aggregate and wins, the rules, the match;
    S shows the statistics."""
    session = ctx.session
    losses = session.losses if ctx.pref("advisor") else None
    lines = render.recap_lines(session.results, console.paint, losses)
    lines += ["", f"Rules: {session.rules.describe()}",
              *([DUPLICATE_LINE] if is_duplicate(session.source) else []), *match_lines(session)]
    prompt = f"{prompt} (S statistics)"
    view = lambda prompt: lines + ["", prompt, footer_for(console, ctx)]
    while any_key(console, ctx, prompt, view) == "s":
        statistics(console, ctx)


def recap(console, ctx: Context) -> None:
    """The recap as the session ends."""
    show_recap(console, ctx, "Press any key to finish")


def recap_then_confirm(console, ctx: Context) -> Moment:
    """The recap between games, then the confirm screen."""
    show_recap(console, ctx, "Press any key for the next game")
    return Moment(Screen.CONFIRM)
