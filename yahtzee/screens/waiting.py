"""A wait is a screen: while the strategy engine prepares what a step needs, its progress
stands under the screen, the hot keys act at once and Esc goes back where there is a way back."""
import time
from typing import Callable, Optional

from ..consoles.stops import StopRequested
from ..model.words import Say, Text
from ..present.look import Asked, View
from ..strategy.exact.progress import progress_bar
from ..strategy.storage.builder import Waiting
from .context import Context
from .dialog import Console
from .prompts import LEAVE_PAGES, hot_key

# A table read from its file (the one that comes with the game, or the cache) is ready within
# this: nothing is worked out, so nothing is said of it (where keys are read, unless one comes).
READ_SECONDS = 0.5
POLL_SECONDS = 0.05  # the longest a key waits to be answered, half for the work, half for the key
BAR_WIDTH = 30
SAID_STEP, DRAWN_STEP = 25, 2  # percent between progress lines said one by one, and drawn


def progress_note(share: float, plain: bool) -> Say:
    """The progress line of a wait: a bar where the screen is drawn, a percentage where lines are said."""
    shown = f"{share:.0%}" if plain else share_bar(share)
    return Say("Working out the best strategy (only once): {done}").format(done=shown)


def share_bar(share: float) -> str:
    """A progress bar for a share of the work (0 to 1) and its percentage."""
    return progress_bar(round(1000 * share), 1000, BAR_WIDTH)


def progress_step(share: float, plain: bool) -> int:
    """Which step of its progress a wait is at: the line changes only when this does."""
    return int(100 * share) // (SAID_STEP if plain else DRAWN_STEP)


def wait_screen(console: Console, ctx: Context, view: View, waiting: Optional[Waiting],
                way_back: bool = False, clock: Callable[[], float] = time.monotonic) -> bool:
    """Stay on `view` until the work is done, its progress shown; hot keys act, and with
    `way_back` Esc (or X) leaves the wait. Whether the work is done (False: the player left)."""
    if waiting is None or waiting.done():
        return True
    if console.reads_lines and waiting.settle(READ_SECONDS):
        return True  # read from the cache, not worked out: nothing to tell (no key is read meanwhile)
    prompt = (Say("Working out the best strategy (only once). Esc goes back.") if way_back
              else Say("Working out the best strategy (only once)."))
    announced = console.reads_lines  # plain mode's protocol answers questions only: shown its progress alone
    quiet_until = clock() + READ_SECONDS
    shown = -1
    while not waiting.settle(POLL_SECONDS / 2):
        if console.stop:
            raise StopRequested(console.stop)
        if not announced and (waiting.working_out() or clock() >= quiet_until):
            announced = announce(console, view, prompt)
        share = waiting.share()
        if announced and progress_step(share, console.look.in_lines) != shown:
            shown = progress_step(share, console.look.in_lines)
            console.status(progress_note(share, console.look.in_lines))
        token = None if console.reads_lines else console.pause(POLL_SECONDS / 2)
        if token is not None and not announced:
            announced = announce(console, view, prompt)  # a key while it was quiet: the wait is a screen at once
        if token is None or hot_key(console, ctx, token, view, prompt):
            shown = -1 if token is not None else shown  # the screen was drawn again, without its progress
            continue
        if way_back and token in LEAVE_PAGES:  # the keys that leave a page leave a wait
            return False
        console.remind(wait_keys(way_back))
        shown = -1
    return True


def announce(console: Console, view: View, prompt: Text) -> bool:
    """Show the wait's screen: the strategy is being worked out."""
    console.show(Asked(view, prompt), [prompt])
    return True


def wait_keys(way_back: bool) -> Text:
    """What works while the strategy is worked out."""
    if way_back:
        return Say("While the strategy is worked out, Esc goes back and F8, F9 and F10 work.")
    return Say("While the strategy is worked out, F8, F9 and F10 work.")
