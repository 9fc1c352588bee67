"""The one flow: runs the screens by the moments they return, and is the one place that saves."""
import json
from typing import Callable, Optional, Union

from ..consoles.stops import InputClosed, SeatChanged
from ..model.game import Game
from ..model.session import Session
from ..model.words import Say, Sentence
from ..present import stats
from ..saves.codec import session_to_dict
from ..saves.store import AUTOSAVE
from .context import Context
from .dialog import Console
from .ending import end_of_game, recap, recap_then_confirm
from .lobby import confirm, names, opening, title
from .prompts import QuitGame
from .resume import resume
from .steps import IN_GAME, Moment, Screen
from .turn import play, posting, verify

SCREENS: dict[Screen, Callable[[Console, Context], Optional[Moment]]] = {
    Screen.OPENING: opening, Screen.TITLE: title, Screen.NAMES: names, Screen.CONFIRM: confirm,
    Screen.PLAY: play, Screen.POSTING: posting, Screen.VERIFY: verify,
    Screen.END_OF_GAME: end_of_game, Screen.RECAP: recap,
    Screen.RECAP_THEN_CONFIRM: recap_then_confirm,
}


class Keeper:
    """Writes the saved game and the preferences when, and only when, they changed; `tell`
    hears each line the saves folder has to say (a file set aside, saving off), as it keeps."""

    def __init__(self, ctx: Context, tell: Optional[Callable[[Sentence], None]] = None) -> None:
        self.saves = ctx.services.saves
        self.tell = tell
        self.saved_state: Optional[str] = None
        self.saved_prefs = ctx.prefs_to_keep()

    def keep(self, ctx: Context) -> bool:
        """Save what changed since the last save; whether the game is saved now."""
        if self.saves is None:
            return False
        try:
            return self._keep(ctx)
        finally:
            self.tell_notices()

    def tell_notices(self) -> None:
        """Say what the saves folder has gathered to say since it was last asked."""
        if self.tell is not None and self.saves is not None:
            for notice in self.saves.take_notices():
                self.tell(Sentence(notice))

    def _keep(self, ctx: Context) -> bool:
        """Save what changed since the last save; whether the game is saved now."""
        assert self.saves is not None  # keep() looked
        prefs = ctx.prefs_to_keep()
        if prefs != self.saved_prefs:
            self.saves.save_prefs(prefs)
            self.saved_prefs = prefs
        session_over = ctx.moment.screen is Screen.RECAP  # its games are filed: nothing is left to resume
        if session_over or not ctx.session.players:
            if session_over or self.saved_state is not None:  # else every name was taken back
                self.saves.remove_autosave()
                self.saved_state = None
            return False
        state = json.dumps([session_to_dict(ctx.session), ctx.moment.to_dict()], sort_keys=True)
        if state != self.saved_state and self.saves.save_session(ctx.session, ctx.moment.to_dict()):
            self.saved_state = state
        return self.saved_state == state


def subject(moment: Moment) -> Union[str, Screen]:
    """What the messages under a screen speak of: the game in play, or the screen."""
    return "game" if moment.screen in IN_GAME else moment.screen


def run(console: Console, ctx: Context, keeper: Keeper) -> None:
    """Offer the saved game, then run the screens from where it stood (or the opening)."""
    fresh = ctx.session
    try:
        moment: Optional[Moment] = resume(console, ctx)
        if ctx.session is not fresh and moment is not None:
            moment = saved_turn(console, ctx, keeper, moment)
    except (QuitGame, InputClosed):
        raise
    except Exception as fault:  # a fault of the game's own: the file was read whole
        moment = resume_failed(console, ctx, keeper, fresh, fault)
    run_from(console, ctx, keeper, moment)


def run_from(console: Console, ctx: Context, keeper: Keeper, moment: Optional[Moment]) -> None:
    """Run screens from `moment` until one returns None, saving after each step."""
    ctx.moment = moment or ctx.moment
    while moment is not None:
        moment = step(console, ctx, keeper, moment)
    keeper.keep(ctx)


def saved_turn(console: Console, ctx: Context, keeper: Keeper, moment: Moment) -> Optional[Moment]:
    """Run a resumed game to the end of the turn it was saved in (outside a game, its one
    saved moment): the part of the game that shows the save can go on."""
    saved_in = turn_of(ctx.session)
    after = step(console, ctx, keeper, moment)
    while after is not None and saved_in is not None and turn_of(ctx.session) == saved_in:
        after = step(console, ctx, keeper, after)
    return after


def turn_of(session: Session) -> Optional[tuple[int, int, int, int]]:
    """Which turn the session's game is at (game, round, seat, extra turns), None out of play."""
    game = session.game
    if not isinstance(game, Game) or game.is_over:
        return None
    return game.number, game.round, game.seat, game.turn.extra


def step(console: Console, ctx: Context, keeper: Keeper, moment: Moment) -> Optional[Moment]:
    """Save, then run `moment`'s screen once; the moment it goes to."""
    if subject(moment) != subject(ctx.moment):
        console.forget_messages()
    ctx.moment = moment
    keeper.keep(ctx)
    if moment.screen is Screen.END_OF_GAME:
        file_finished_game(ctx)
        keeper.tell_notices()  # under the final sheet, as the history was read and written
    try:
        return SCREENS[moment.screen](console, ctx)
    except SeatChanged:  # the same moment again, for whoever has the seat now
        return moment


def resume_failed(console: Console, ctx: Context, keeper: Keeper, fresh: Session, fault: Exception) -> Moment:
    """The saved game could not go on through a fault of the game's own (its file was read
    whole): the file is kept aside as it was, said in one line, and a new game begins."""
    saves = ctx.services.saves
    kept = saves.set_aside_autosave("kept") if saves is not None else None
    ctx.session, ctx.moment = fresh, Moment(Screen.OPENING)
    keeper.saved_state = None
    console.forget_messages()
    console.message(Say("The saved game could not be resumed, through a fault in the game ({fault}), not in its "
                      "file: the file is kept as {name}.").format(
        fault=f"{type(fault).__name__}: {fault}", name=kept.name if kept else AUTOSAVE))
    return Moment(Screen.OPENING)


def file_finished_game(ctx: Context) -> None:
    """File the last finished game in history.jsonl once, gathering the end-of-game notices
    (after the save that holds it, so a crash here never files it twice)."""
    saves = ctx.services.saves
    finished = len(ctx.session.results)
    if saves is None or ctx.passing.filed == finished:
        return
    resumed = ctx.passing.filed is None  # a resumed game may have been filed before it stopped
    ctx.passing.filed = finished
    last = ctx.session.results[-1]
    earlier = saves.read_history()
    if resumed and last in earlier:
        return
    if saves.append_history(last):
        ctx.passing.notices = [Sentence(n) for n in stats.game_notices(earlier, last)]
    else:
        ctx.passing.notices = [Sentence(saves.history_problem)]


def finish(ctx: Context) -> None:
    """The session ended normally: nothing is left to resume."""
    if ctx.services.saves is not None:
        ctx.services.saves.remove_autosave()


def keep_for_later(console: Console, ctx: Context, keeper: Keeper, quiet: bool = False) -> None:
    """The one quit path: save the session as it stands so the next start can resume it."""
    saved = keeper.keep(ctx)
    if not quiet:
        in_game = saved and ctx.session.game is not None
        console.farewell(Say("The game is saved: start again to resume it.") if in_game else Say("Goodbye."))
