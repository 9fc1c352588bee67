"""The advice page: every keep and box for the dice, best first, with the keys that do it."""
import textwrap

from .. import render, spoken
from ..language import _, ngettext
from .context import Context, Screen
from .prompts import page_lines


def show_advice(console, ctx: Context) -> None:
    """Page through the advisor's options for the current dice."""
    game = ctx.session.game
    coach = ctx.services.coach
    if coach is None:
        console.message(_("The advisor is not available."))
        return
    options = coach.options(game)
    if options is None:
        console.message(_("No exact advice for these rules: {reason}.").format(reason=coach.unsupported))
        return
    heading = ngettext("ADVICE for {name}: dice {dice}, {count} roll left",
                       "ADVICE for {name}: dice {dice}, {count} rolls left", game.rolls_left).format(
        name=game.current.name, dice=" ".join(map(str, game.turn.dice)), count=game.rolls_left)
    note = textwrap.wrap(coach.note(game.rules), render.SCREEN_WIDTH - 2)
    at_posting = ctx.moment.screen in (Screen.POSTING, Screen.VERIFY) or not game.rolls_left
    if console.plain:  # sentences, not a table, for lines read one by one
        rows = spoken.advice_sentences(options, game.turn, at_posting)
    else:
        rows = render.advice_lines(options, game.turn, at_posting, console.paint)
    page_lines(console, ctx, [heading, *note, ""] + rows)
