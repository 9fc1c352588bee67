"""The saved game offered before the opening screen, and the moment it goes back to."""
from functools import partial
from typing import Optional

from ..consoles.stops import SeatChanged
from ..model.game import ROUNDS, Game
from ..model.session import Session
from ..model.words import Say, Text
from ..present.look import View, framed, heading
from .context import Context
from .dialog import Console
from .prompts import footer_for, yes
from .steps import Moment, Screen

AFTER_A_GAME = (Screen.END_OF_GAME, Screen.RECAP, Screen.RECAP_THEN_CONFIRM)


def resume(console: Console, ctx: Context) -> Moment:
    """Offer the saved game: Y goes back to its very moment, N sets it aside."""
    saves = ctx.services.saves
    if saves is None or not saves.acquire_lock() or not saves.has_autosave():
        return Moment(Screen.OPENING)
    loaded = saves.load_session()
    if loaded is None or not loaded[0].players:
        return Moment(Screen.OPENING)
    saved, moment_data = loaded
    summary = saved_game_summary(saved)
    view = framed(lambda look: [heading(look, Say("A SAVED GAME IS WAITING")), "",
                                *(f"    {look.words(line)}" for line in summary), ""],
                  partial(footer_for, ctx), indent="  ", spaced=True)
    if ctx.hosted_by is not None:  # a server's table: its host plays at this terminal whoever hosted it before
        saved.seats.seat_host(ctx.hosted_by, {player.name.casefold() for player in saved.players
                                              if not player.is_computer})
    ctx.offered = saved  # friends who come meanwhile prove its seats, as after it is resumed
    try:
        resumed = resume_asked(console, ctx, view, summary)
        if resumed:
            ctx.session = saved
        else:
            ctx.session.seats.carry_removals(saved.seats)  # whom the host removed meanwhile stays removed
    finally:
        ctx.offered = None  # only now: a friend at the door meanwhile is held to the seats that follow
    if not resumed:
        saves.set_aside_autosave()
        ctx.set_aside = True
        return Moment(Screen.OPENING)
    ctx.prepare_tables()
    if ctx.settings.dice_options:
        console.message(Say("The saved game keeps its own dice: --seed and --dice-file are ignored."))
    return resumed_moment(saved, Moment.from_dict(moment_data))


def resume_asked(console: Console, ctx: Context, view: View, summary: list[Text]) -> bool:
    """Whether the host resumes the saved game; asked again if a seat changed hands meanwhile
    (the host removed someone from the table)."""
    while True:
        try:
            return yes(console, ctx, Say("Resume the saved game?"), view, summary)
        except SeatChanged:
            continue


def saved_game_summary(session: Session) -> list[Text]:
    """What the saved game is, in a line or two."""
    names = ", ".join(p.name for p in session.players)
    game = session.game
    if not isinstance(game, Game):
        return [Say("Players: {names}").format(names=names),
                Say("Games finished: {count}").format(count=len(session.results))]
    scores = ", ".join(f"{p.name} {p.card.total}" for p in game.players)
    where = (Say("Game {game}, round {round}: {name} to play") if game.race_target is not None
             else Say("Game {game}, round {round} of {rounds}: {name} to play"))
    return [where.format(game=game.number, round=game.round, rounds=ROUNDS, name=game.current.name),
            Say("Scores: {scores}").format(scores=scores)]


def resumed_moment(session: Session, saved: Optional[Moment]) -> Moment:
    """The moment a saved session goes back to, checked against the state it saved."""
    game = session.game
    if isinstance(game, Game):
        if saved is not None and saved.screen in (Screen.POSTING, Screen.VERIFY) \
                and game.turn.has_rolled:
            return saved
        return Moment(Screen.PLAY)
    if saved is not None and saved.screen in AFTER_A_GAME and session.results:
        return saved
    if saved is not None and saved.screen is Screen.NAMES:
        return saved
    if session.players:
        return Moment(Screen.CONFIRM)
    return Moment(Screen.OPENING)
