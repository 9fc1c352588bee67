"""The advice page: every keep and box for the dice, best first, with the keys that do it."""
import textwrap
from collections.abc import Sequence
from dataclasses import replace
from typing import Optional, cast

from ..coach.tablekeeper import NoTable
from ..model.choices import Option
from ..model.game import Turn
from ..model.words import Later, Say, Text
from ..present import render, spoken
from ..present.look import Frame, Look
from .context import Context, game_in_play
from .dialog import Console
from .prompts import page_lines
from .steps import Screen


def show_advice(console: Console, ctx: Context) -> None:
    """Page through the advisor's options for the current dice; in a game with others, W
    ranks them by the chance to win instead of the expected score, and back."""
    game = game_in_play(ctx.session)
    strategy = ctx.services.strategy
    if strategy is None:
        console.remind(Say("The advisor is not available."))
        return
    strategy.coach.make_ready(game)
    options = strategy.coach.options(game)
    if isinstance(options, NoTable):
        console.remind(Say("No exact advice for these rules: {reason}.").format(reason=options.reason))
        return
    chances = strategy.coach.win_chances(game, options)
    heading = Say.plurals("ADVICE for {name}: dice {dice}, {count} roll left",
                          "ADVICE for {name}: dice {dice}, {count} rolls left", game.rolls_left).format(
        name=game.current.name, dice=" ".join(map(str, game.turn.dice)), count=game.rolls_left)
    at_posting = ctx.moment.screen in (Screen.POSTING, Screen.VERIFY) or not game.rolls_left
    while True:
        rankers = ctx.session.win_rankers
        by_win = chances is not None and game.current.name in rankers
        ranked = ranked_options(options, chances, by_win)
        ranking: Text = ""
        if chances is not None:
            ranking = Say("Ranked by the chance to win.") if by_win else Say("Ranked by the expected final score.")
        lines = advice_page(console.plain, heading, Later(lambda: strategy.tables.note(game.rules)), ranking,
                            ranked, game.turn, at_posting)
        if chances is None:
            page_lines(console, ctx, lines)
            return
        toggle = Say("W ranks by expected score") if by_win else Say("W ranks by win %")
        if page_lines(console, ctx, lines, toggle, "w") != "w":
            return
        if by_win:
            rankers.discard(game.current.name)
        else:
            rankers.add(game.current.name)


def advice_page(plain: bool, heading: Text, note: Text, ranking: Text,
                ranked: list[tuple[Option, Optional[float]]], turn: Turn, at_posting: bool) -> Frame:
    """The advice page as a console draws it: a table, or sentences where lines are read one by one."""
    def lines(look: Look) -> list[str]:
        rows = (spoken.advice_sentences(ranked, turn, at_posting) if plain
                else render.advice_lines(ranked, turn, at_posting, look.paint))
        wrapped = textwrap.wrap(look.words(note), render.SCREEN_WIDTH - 2)
        return [look.words(heading), *wrapped, *([look.words(ranking)] if ranking else []), "", *rows]
    return lines


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
