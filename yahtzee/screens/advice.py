"""The advice page: every keep and box for the dice, best first, with the keys that do it."""
import textwrap
from collections.abc import Sequence
from dataclasses import replace
from typing import Optional, cast

from .. import render, spoken
from ..choices import Option
from ..language import _, ngettext
from ..tablekeeper import NoTable
from .context import Console, Context, Screen, game_in_play
from .prompts import page_lines


def show_advice(console: Console, ctx: Context) -> None:
    """Page through the advisor's options for the current dice; in a game with others, W
    ranks them by the chance to win instead of the expected score, and back."""
    game = game_in_play(ctx.session)
    strategy = ctx.services.strategy
    if strategy is None:
        console.remind(_("The advisor is not available."))
        return
    strategy.coach.make_ready(game)
    options = strategy.coach.options(game)
    if isinstance(options, NoTable):
        console.remind(_("No exact advice for these rules: {reason}.").format(reason=options.reason))
        return
    chances = strategy.coach.win_chances(game, options)
    heading = ngettext("ADVICE for {name}: dice {dice}, {count} roll left",
                       "ADVICE for {name}: dice {dice}, {count} rolls left", game.rolls_left).format(
        name=game.current.name, dice=" ".join(map(str, game.turn.dice)), count=game.rolls_left)
    note = textwrap.wrap(strategy.tables.note(game.rules), render.SCREEN_WIDTH - 2)
    at_posting = ctx.moment.screen in (Screen.POSTING, Screen.VERIFY) or not game.rolls_left
    while True:
        rankers = ctx.session.win_rankers
        by_win = chances is not None and game.current.name in rankers
        ranked = ranked_options(options, chances, by_win)
        if console.plain:  # sentences, not a table, for lines read one by one
            rows = spoken.advice_sentences(ranked, game.turn, at_posting)
        else:
            rows = render.advice_lines(ranked, game.turn, at_posting, console.paint)
        if chances is None:
            page_lines(console, ctx, [heading, *note, ""] + rows)
            return
        ranking = _("Ranked by the chance to win.") if by_win else _("Ranked by the expected final score.")
        toggle = _("W ranks by expected score") if by_win else _("W ranks by win %")
        if page_lines(console, ctx, [heading, *note, ranking, ""] + rows, toggle) != "w":
            return
        if by_win:
            rankers.discard(game.current.name)
        else:
            rankers.add(game.current.name)


def ranked_options(options: Sequence[Option], chances: Optional[Sequence[float]],
                   by_win: bool) -> list[tuple[Option, Optional[float]]]:
    """(option, chance or None) pairs, best first by the chance to win or the expected
    score; the first is marked best."""
    pairs = list(zip(options, chances if chances is not None else [None] * len(options)))
    if by_win:
        pairs.sort(key=lambda pair: (-cast(float, pair[1]), -pair[0].value))
    else:
        pairs.sort(key=lambda pair: -pair[0].value)
    return [(replace(option, best=number == 0), chance) for number, (option, chance) in enumerate(pairs)]
