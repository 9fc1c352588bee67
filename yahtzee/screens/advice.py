"""The advice page: every keep and box for the dice, best first, with the keys that do it."""
import textwrap

from .. import render, spoken
from .context import Context, Screen
from .prompts import page_lines


def show_advice(console, ctx: Context) -> None:
    """Page through the advisor's options for the current dice."""
    game = ctx.session.game
    coach = ctx.services.coach
    if coach is None:
        console.message("The advisor is not available.")
        return
    options = coach.options(game)
    if options is None:
        console.message(f"No exact advice for these rules: {coach.unsupported}.")
        return
    heading = (f"ADVICE for {game.current.name}: dice {' '.join(map(str, game.turn.dice))}, "
               f"{game.rolls_left} roll{'s' if game.rolls_left != 1 else ''} left")
    note = textwrap.wrap(coach.note(game.rules), render.SCREEN_WIDTH - 2)
    at_posting = ctx.moment.screen in (Screen.POSTING, Screen.VERIFY) or not game.rolls_left
    if console.plain:  # sentences, not a table, for lines read one by one
        rows = spoken.advice_sentences(options, game.turn, at_posting)
    else:
        rows = render.advice_lines(options, game.turn, at_posting, console.paint)
    page_lines(console, ctx, [heading, *note, ""] + rows)
