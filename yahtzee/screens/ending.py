"""The end of a game and of a session: the final sheet with the winner and notices, the recap."""
from functools import partial
from typing import Optional

from ..coach.replay import CannotReview, mean_lost
from ..model.dice import DUPLICATE_LINE, is_duplicate
from ..model.match import SINGLE_GAME, result_phrase
from ..model.session import Session
from ..model.words import N_, Later, Say, Sentence, Text
from ..present import render, spoken
from ..present.look import Look, View, framed
from ..present.verdicts import review_lines
from .context import Context
from .dialog import Console
from .lobby import statistics
from .prompts import any_key, ask, footer_for, page_lines, page_view
from .steps import Moment, Screen
from .waiting import wait_screen

ANOTHER_GAME = N_("Another game? (Y/N) or R review")


def match_lines(session: Session) -> list[Text]:
    """Where a match stands (nothing for single games)."""
    return [] if session.match == SINGLE_GAME else session.standings_lines()


def end_of_game(console: Console, ctx: Context) -> Optional[Moment]:
    """The final sheet, the winner and the notices; another game? Y goes through the recap."""
    session = ctx.session
    finished = session.results[-1]
    announce = [result_phrase(finished.totals), *ctx.passing.notices, *match_lines(session)]
    final = finished.game()
    def pages(look: Look) -> list[list[str]]:
        return render.end_lines(final, announce, look.paint, room=render.SCREEN_HEIGHT - 3)
    for number in range(len(console.drawn(lambda look: [""] * len(pages(look)))) - 1):
        any_key(console, ctx, Say("More notices: press any key"), page_view(ctx, pages, number), [])
    view = page_view(ctx, pages, -1)
    brief = [*announce, Later(lambda: "\n".join(spoken.sheet_sentences(final)))]
    another = another_game(console, ctx, view, brief)
    ctx.passing.notices = []
    if another == "y":
        return Moment(Screen.RECAP_THEN_CONFIRM)
    return Moment(Screen.RECAP) if len(session.results) >= 2 else None


def another_game(console: Console, ctx: Context, view: View, brief: list[Text]) -> str:
    """Another game? 'y' or 'n'; R shows the review of the game, S the statistics."""
    while True:
        token = ask(console, ctx, Say(ANOTHER_GAME), view, brief)
        brief = []
        if token in ("y", "n"):
            return token
        if token == "r":
            show_review(console, ctx, view)
        elif token == "s":
            statistics(console, ctx)
        else:
            console.remind(Say("Please answer Y or N (R shows the review, S the statistics)."))


def show_review(console: Console, ctx: Context, view: View) -> None:
    """The review of the game just finished (the strategy waited for on `view`, where Esc goes
    back): paged in key mode, printed in plain mode."""
    strategy = ctx.services.strategy
    try:
        if strategy is None:
            raise CannotReview(Say("the review needs the strategy engine, which is not here"))
        finished = ctx.session.results[-1]
        if not wait_screen(console, ctx, view, strategy.reviewer.waiting(finished), way_back=True):
            return
        review = strategy.reviewer.review(finished)
    except CannotReview as refusal:
        console.remind(Sentence(refusal.said))
        return
    def lines(look: Look) -> list[str]:
        return review_lines(review, fit=not console.look.in_lines)
    if console.look.in_lines:
        console.show(lines, None)
    else:
        page_lines(console, ctx, lines)


def show_recap(console: Console, ctx: Context, prompt: Text) -> None:
    """Every game of the session, each player's aggregate and wins, the rules, the match;
    S shows the statistics."""
    session = ctx.session
    judged = given_away(ctx) if ctx.settings.prefs.advisor else None  # the 1987 game never judged its players
    below = ["", Say("Rules: {rules}").format(rules=session.rules.describe()),
             *([Say(DUPLICATE_LINE)] if is_duplicate(session.source) else []), *match_lines(session)]
    question = Say("{prompt} (S statistics)").format(prompt=prompt)
    view = framed(lambda look: [*render.recap_lines(session.results, look.paint, *(judged or (None, None))),
                                *map(look.words, below), ""], partial(footer_for, ctx))
    while any_key(console, ctx, question, view) == "s":
        statistics(console, ctx)


def given_away(ctx: Context) -> Optional[tuple[dict[str, float], dict[str, float]]]:
    """Each human's expected points given away over the session's games, and apart from them
    the mean win % given away per decision made ranking advice by the chance to win, from each
    game's review (None when a game cannot be judged)."""
    strategy = ctx.services.strategy
    if strategy is None:
        return None
    points: dict[str, float] = {}
    win_costs: dict[str, list[float]] = {}
    try:
        for game in ctx.session.results:
            review = strategy.reviewer.review(game)
            for name in (player.name for player in game.players if player.is_human):
                points[name] = round(points.get(name, 0.0) + review.totals[name], 3)
                win_costs.setdefault(name, []).extend(
                    d.win_cost for d in review.decisions if d.player == name and d.win_cost is not None)
    except CannotReview:
        return None
    return points, {name: mean_lost(costs) for name, costs in win_costs.items() if costs}


def recap(console: Console, ctx: Context) -> None:
    """The recap as the session ends."""
    show_recap(console, ctx, Say("Press any key to finish"))


def recap_then_confirm(console: Console, ctx: Context) -> Moment:
    """The recap between games, then the confirm screen."""
    show_recap(console, ctx, Say("Press any key for the next game"))
    return Moment(Screen.CONFIRM)
