"""Asking the player: a key with the hot keys live, Y/N, any key, the quit question, pages."""
from collections.abc import Sequence
from functools import partial
from typing import Callable, Optional

from ..model.words import Later, Say, Text, YesNo
from ..present.keys import Key, letter_as_key
from ..present.look import Asked, Frame, Look, View, framed
from ..present.render import hotkey_footer, on_off
from .context import Context
from .dialog import Console

PAGE_LINES = 19
WATCH_SECONDS = 0.05  # how often a screen that may change is looked at while no key comes
LEAVE_PAGES = ("x", Key.ESCAPE)



class QuitGame(Exception):
    """The player asked to quit: the flow's quit path takes over."""


def footer_for(ctx: Context, look: Look) -> str:
    """The hot-key line painted for a console's look."""
    return hotkey_footer(ctx.session.verify, sound_at(ctx, look), look.paint)


def sound_at(ctx: Context, look: Look) -> bool:
    """Whether the bell rings at the terminal of this look: its seat's own, or the game's."""
    return ctx.session.sound if look.sound is None else look.sound


def state_of(flag: bool) -> Later:
    """ON or OFF, in the reader's language."""
    return Later(lambda: on_off(flag))


def toggle_hot_key(ctx: Context, token: str) -> Say:
    """F8 or F9: flip verify or sound; what to tell the player."""
    session = ctx.session
    if token == Key.VERIFY:
        session.verify = not session.verify
        return Say("Verify is now {state}.").format(state=state_of(session.verify))
    session.sound = not session.sound
    return Say("Sound is now {state}.").format(state=state_of(session.sound))


def ask(console: Console, ctx: Context, prompt: Text, view: View, brief: Optional[Sequence[Text]] = None,
        without_undo: Optional[Text] = None, changed: Optional[Callable[[], bool]] = None) -> str:
    """Draw the screen and read a token; hot keys act here and the same prompt comes back.
    `without_undo` is the question where another terminal's player may take back a posting.
    `changed` (for a screen drawn whole) is asked while no key comes, whether the view has
    something new to show: it is drawn again at once."""
    console.show(Asked(view, prompt, without_undo), brief)
    while True:
        token = console.read_key(prompt) if changed is None else watched_key(console, prompt, view, changed)
        if not hot_key(console, ctx, token, view, prompt, without_undo):
            return token


def watched_key(console: Console, prompt: Text, view: View, changed: Callable[[], bool]) -> str:
    """The next key, the view drawn again whenever `changed()` says it has something new."""
    while True:
        token = console.pause(WATCH_SECONDS)
        if token is not None:
            return token
        if changed():
            console.show(Asked(view, prompt), [])


def hot_key(console: Console, ctx: Context, token: Optional[str], view: View, prompt: Text = "",
            without_undo: Optional[Text] = None) -> bool:
    """Act on F8, F9 or F10 (or their letters) and show `prompt`'s screen again with what
    changed; False for any other token."""
    if token is None:
        return False
    token = letter_as_key(token)
    note: Optional[Say]
    if token in (Key.VERIFY, Key.SOUND):
        note = toggle_hot_key(ctx, token)
    elif token == Key.QUIT:
        confirm_quit(console, ctx, view)
        note = None
    else:
        return False
    console.show(Asked(view, prompt, without_undo), [])
    if note:
        console.remind(note)
    return True


QUIT_GAME = YesNo(Say("Quit the game? Your game is kept for next time. (Y/N)"))  # F10 while a game is kept


def quit_question(ctx: Context) -> YesNo:
    """What F10 asks: a game in progress is kept, and the question says so."""
    if ctx.session.game is not None:
        return QUIT_GAME
    return YesNo(Say("Quit Computer Yahtzee? (Y/N)"))


def confirm_quit(console: Console, ctx: Context, view: View) -> None:
    """F10: ask, then quit through the flow's one quit path (N plays on)."""
    question = quit_question(ctx)
    console.forget_messages()  # they answered another question
    console.show(Asked(view, question), [])
    while True:
        token = console.read_key(question)
        if token in ("y", Key.QUIT):
            raise QuitGame()
        if token in ("n", Key.ESCAPE):
            return
        console.remind(Say("Please answer Y or N."))


def ask_yes_no(console: Console, ctx: Context, question: Text, view: View, brief: Optional[Sequence[Text]] = None,
               others: str = "") -> str:
    """A Y/N question: 'y' or 'n', or one of the `others` keys; any other key gets a reminder."""
    prompt = YesNo(Say("{question} (Y/N)").format(question=question))
    while True:
        token = ask(console, ctx, prompt, view, brief)
        if token in ("y", "n") or (len(token) == 1 and token in others):
            return token
        console.remind(Say("Please answer Y or N."))
        brief = []


def yes(console: Console, ctx: Context, question: Text, view: View, brief: Optional[Sequence[Text]] = None) -> bool:
    """A Y/N question answered Y."""
    return ask_yes_no(console, ctx, question, view, brief) == "y"


def any_key(console: Console, ctx: Context, prompt: Text, view: View, brief: Optional[Sequence[Text]] = None) -> str:
    """Wait for one key (or line); hot keys still act. Returns the key."""
    return ask(console, ctx, prompt, view, brief)


def page_view(ctx: Context, pages: Callable[[Look], list[list[str]]], number: int) -> View:
    """Page `number` of the pages as a console draws them (-1 the last), its question and the
    hot keys under it."""
    def page(look: Look) -> list[str]:
        drawn = pages(look)
        return [*drawn[min(number, len(drawn) - 1)], ""]
    return framed(page, partial(footer_for, ctx))


def paginate(lines: list[str], size: int = PAGE_LINES) -> list[list[str]]:
    """Lines cut into pages of at most `size`, each break at a blank line where one is near."""
    pages, start = [], 0
    while start < len(lines):
        end = min(start + size, len(lines))
        if end < len(lines) and (lines[end].strip() or heading_before(lines, end, start)):
            blanks = [i for i in range(start + size // 2, end)
                      if not lines[i].strip() and not heading_before(lines, i, start)]
            end = blanks[-1] + 1 if blanks else end
        pages.append(lines[start:end])
        start = end
        while start < len(lines) and not lines[start].strip() and pages[-1]:
            start += 1  # a page never starts with a blank line
    return pages or [[]]


def heading_before(lines: list[str], blank: int, start: int) -> bool:
    """Whether the line before a blank one heads what follows: a paragraph of one line (a
    heading) or a line that ends with a colon. A page never ends on it."""
    before = lines[blank - 1].strip() if blank - 1 >= start else ""
    return bool(before) and (before.endswith(":") or blank - 2 < start or not lines[blank - 2].strip())


def page_lines(console: Console, ctx: Context, lines: Frame, extra: Text = "", extra_key: str = "",
               changed: Optional[Callable[[], bool]] = None) -> str:
    """Page through lines (drawn by each console in its look): Enter next, B back, X or Esc
    done (and `extra` named by its `extra_key`); returns the key that ended it. `changed` as
    in ask: the lines are drawn again in place when it says they changed."""
    console.forget_messages()  # a page is a subject of its own
    keys = Say("Enter next, B back, X done") + (Say(", {extra}").format(extra=extra) if extra else "")
    number = 0
    while 0 <= number < len(pages := paginate(console.drawn(lines))):
        prompt = Say("Page {page} of {pages}: {keys}").format(page=number + 1, pages=len(pages), keys=keys)
        view = page_view(ctx, lambda look: paginate(lines(look)), number)
        token = ask(console, ctx, prompt, view, pages[number], changed=changed)
        if token in LEAVE_PAGES or (extra_key and token == extra_key):
            return "x" if token == Key.ESCAPE else token
        number = max(0, number - 1) if token == "b" else number + 1
    return Key.ENTER
