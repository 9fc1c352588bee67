"""The one flow: runs the screens by the moments they return, and is the one place that saves."""
import contextlib
import json
from typing import Callable, Optional, Union

from .. import stats
from ..game_json import session_to_dict
from ..language import _
from ..stops import SeatChanged
from .context import IN_GAME, Console, Context, Moment, Screen
from .ending import end_of_game, recap, recap_then_confirm
from .lobby import confirm, names, opening, title
from .prompts import sentence
from .resume import resume
from .turn import play, posting, verify

SCREENS: dict[Screen, Callable[[Console, Context], Optional[Moment]]] = {
    Screen.OPENING: opening, Screen.TITLE: title, Screen.NAMES: names, Screen.CONFIRM: confirm,
    Screen.PLAY: play, Screen.POSTING: posting, Screen.VERIFY: verify,
    Screen.END_OF_GAME: end_of_game, Screen.RECAP: recap,
    Screen.RECAP_THEN_CONFIRM: recap_then_confirm,
}


class Keeper:
    """Writes the saved game and the preferences when, and only when, they changed."""

    def __init__(self, ctx: Context) -> None:
        self.saves = ctx.services.saves
        self.saved_state: Optional[str] = None
        self.saved_prefs = ctx.prefs_to_keep()

    def keep(self, ctx: Context) -> bool:
        """Save what changed since the last save; whether the game is saved now."""
        if self.saves is None:
            return False
        prefs = ctx.prefs_to_keep()
        if prefs != self.saved_prefs:
            self.saves.save_prefs(prefs)
            self.saved_prefs = prefs
        if not ctx.session.players:
            if self.saved_state is not None:
                self.saves.remove_autosave()  # every name was taken back
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
    run_from(console, ctx, keeper, resume(console, ctx))


def run_from(console: Console, ctx: Context, keeper: Keeper, moment: Optional[Moment]) -> None:
    """Run screens from `moment` until one returns None, saving after each step."""
    ctx.moment = moment or ctx.moment
    while moment is not None:
        if subject(moment) != subject(ctx.moment):
            console.forget_messages()
        ctx.moment = moment
        keeper.keep(ctx)
        if moment.screen is Screen.END_OF_GAME:
            file_finished_game(ctx)
        with contextlib.suppress(SeatChanged):  # else the same moment again, for whoever has the seat now
            moment = SCREENS[moment.screen](console, ctx)
    keeper.keep(ctx)


def file_finished_game(ctx: Context) -> None:
    """File the last finished game in history.jsonl once, gathering the end-of-game notices
    (after the save that holds it, so a crash here never files it twice)."""
    saves = ctx.services.saves
    finished = len(ctx.session.results)
    if saves is None or ctx.passing.filed == finished:
        return
    resumed = ctx.passing.filed is None  # a resumed game may have been filed before it stopped
    ctx.passing.filed = finished
    record = ctx.session.results[-1]
    earlier = saves.read_history()
    if resumed and record in earlier:
        return
    if saves.append_history(record):
        ctx.passing.notices = [sentence(n) for n in stats.game_notices(earlier, record)]
    else:
        ctx.passing.notices = [sentence(saves.history_problem)]


def finish(ctx: Context) -> None:
    """The session ended normally: nothing is left to resume."""
    if ctx.services.saves is not None:
        ctx.services.saves.remove_autosave()


def keep_for_later(console: Console, ctx: Context, keeper: Keeper, quiet: bool = False) -> None:
    """The one quit path: save the session as it stands so the next start can resume it."""
    saved = keeper.keep(ctx)
    if not quiet:
        in_game = saved and ctx.session.game is not None
        console.message(_("The game is saved: start again to resume it.") if in_game else _("Goodbye."))
