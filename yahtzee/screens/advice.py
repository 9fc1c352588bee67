"""The advice page: every keep and box for the dice, best first, with the keys that do it."""
import textwrap
from collections.abc import Sequence
from dataclasses import replace
from typing import Optional, cast

from ..coach.tablekeeper import NoTable
from ..coach.tips import Coach
from ..model.choices import Option
from ..model.game import Game, Turn
from ..model.match import MatchStand
from ..model.words import Later, Say, Text
from ..present import render, spoken
from ..present.look import Frame, Look, View
from ..strategy.storage.builder import Waiting
from .context import Context, game_in_play
from .dialog import Console
from .prompts import page_lines
from .steps import Screen
from .waiting import progress_step, share_bar, wait_screen


def show_advice(console: Console, ctx: Context, view: View) -> None:
    """Page through the advisor's options for the current dice (the strategy waited for on
    `view`, where Esc goes back); in a game with others each option's chance to win, filled
    in where it is drawn once worked out, and W ranks by it instead of the expected score, and back."""
    game = game_in_play(ctx.session)
    strategy = ctx.services.strategy
    if strategy is None:
        console.remind(Say("The advisor is not available."))
        return
    if not wait_screen(console, ctx, view, strategy.tables.waiting(game.rules), way_back=True):
        return
    options = strategy.coach.options(game)
    if isinstance(options, NoTable):
        console.remind(Say("No exact advice for these rules: {reason}.").format(reason=options.reason))
        return
    chances = AdviceChances(strategy.coach, game, options, strategy.coach.chances_waiting(game),
                            ctx.session.match_stand(), ctx.session.match.kind == "first_to")
    if console.look.in_lines:  # read line by line, the page is said once, with its chances
        if not wait_screen(console, ctx, view, chances.waiting, way_back=True):
            return
        chances.changed()
    page_advice(console, ctx, advice_frame(console, ctx, options, chances), chances)


def page_advice(console: Console, ctx: Context, page: Frame, chances: "AdviceChances") -> None:
    """Page through the advice; where chances are shown, W ranks by them and back."""
    name, rankers = game_in_play(ctx.session).current.name, ctx.session.win_rankers
    while True:
        if not chances.shown:
            page_lines(console, ctx, page)
            return
        by_win = name in rankers  # the player's choice, kept while the chances are worked out
        toggle = Say("W ranks by expected score") if by_win else Say("W ranks by win %")
        # Said line by line, the page came once its chances did; drawn whole, it is watched until they come.
        watched = chances.changed if chances.waiting is not None and not console.look.in_lines else None
        if page_lines(console, ctx, page, toggle, "w", changed=watched) != "w":
            return
        if by_win:
            rankers.discard(name)
        else:
            rankers.add(name)


def advice_frame(console: Console, ctx: Context, options: list[Option], chances: "AdviceChances") -> Frame:
    """The advice page as it stands when drawn: ranked as the player chose, with the chances
    known by then."""
    game, strategy = game_in_play(ctx.session), ctx.services.strategy
    assert strategy is not None  # the advice was worked out with it
    heading = Say.plurals("ADVICE for {name}: dice {dice}, {count} roll left",
                          "ADVICE for {name}: dice {dice}, {count} rolls left", game.rolls_left).format(
        name=game.current.name, dice=" ".join(map(str, game.turn.dice)), count=game.rolls_left)
    at_posting = ctx.moment.screen in (Screen.POSTING, Screen.VERIFY) or not game.rolls_left
    note = Later(lambda: strategy.tables.note(game.rules))

    def page(look: Look) -> list[str]:
        by_win = chances.known is not None and game.current.name in ctx.session.win_rankers
        ranked = ranked_options(options, chances.known, by_win)
        return advice_page(look.in_lines, heading, note, chances.ranking(by_win), ranked, game.turn, at_posting)(look)
    return page


class AdviceChances:
    """Each option's chance to win as the advice page knows it: worked out, being worked out
    (with its progress), or not shown at all."""

    def __init__(self, coach: Coach, game: Game, options: list[Option], waiting: Optional[Waiting],
                 stand: Optional[MatchStand], game_of_a_match: bool) -> None:
        self.coach, self.game, self.options, self.waiting = coach, game, options, waiting
        self.stand = stand  # a challenge's: the chances are the match's
        self.game_of_a_match = game_of_a_match  # a match to a target: the chances are this game's alone
        self.known: Optional[list[float]] = None
        self.shown = True
        self.step = -1
        if waiting is None:
            self.known = coach.win_chances(game, options, stand)
            self.shown = self.known is not None

    def changed(self) -> bool:
        """Whether the page has something new to show: the chances, or their progress."""
        if self.known is not None or self.waiting is None:
            return False
        if self.waiting.done():
            self.known, self.waiting = self.coach.win_chances(self.game, self.options, self.stand), None
            return True
        step = progress_step(self.waiting.share(), plain=False)
        self.step, moved = step, step != self.step
        return moved

    def ranking(self, by_win: bool) -> Text:
        """The line above the options: how they are ranked, or how far the chances are."""
        if self.waiting is not None:
            return Say("Win % is being worked out: {done}").format(done=share_bar(self.waiting.share()))
        if self.known is None:
            return ""
        ranked = Say("Ranked by the chance to win.") if by_win else Say("Ranked by the expected final score.")
        if self.stand is not None:
            return ranked + " " + Say("Win % is the chance to win the match.")
        return ranked + " " + Say("Win % is this game's, not the match's.") if self.game_of_a_match else ranked


def advice_page(plain: bool, heading: Text, note: Text, ranking: Text,
                ranked: list[tuple[Option, Optional[float]]], turn: Turn, at_posting: bool) -> Frame:
    """The advice page as a console draws it: a table, or sentences where lines are read one by one."""
    def lines(look: Look) -> list[str]:
        rows = (spoken.advice_sentences(ranked, turn, at_posting) if plain
                else render.advice_lines(ranked, turn, at_posting, look.paint))
        width = render.SCREEN_WIDTH - 2
        above = [line for said in (note, ranking) for line in textwrap.wrap(look.words(said), width)]
        return [look.words(heading), *above, "", *rows]
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
