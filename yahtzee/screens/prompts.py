"""Asking the player: a key with the hot keys live, Y/N, any key, the quit question, pages."""
from typing import Callable, Optional

from ..language import _
from ..render import hotkey_footer, on_off
from .context import Console, Context

ALIASES = {"v": "F8", "m": "F9", "q": "F10"}
PAGE_LINES = 19
LEAVE_PAGES = ("x", "escape")

View = Callable[[str], list[str]]


class QuitGame(Exception):
    """The player asked to quit: the flow's quit path takes over."""


def footer_for(console: Console, ctx: Context) -> str:
    """The hot-key line painted for this console."""
    return hotkey_footer(ctx.session.verify, ctx.session.sound, console.paint)


def toggle_hot_key(ctx: Context, token: str) -> str:
    """F8 or F9: flip verify or sound; what to tell the player."""
    session = ctx.session
    if token == "F8":
        session.verify = not session.verify
        return _("Verify is now {state}.").format(state=on_off(session.verify))
    session.sound = not session.sound
    return _("Sound is now {state}.").format(state=on_off(session.sound))


def ask(console: Console, ctx: Context, prompt: str, view: View, brief: Optional[list[str]] = None) -> str:
    """Draw the screen and read a token; hot keys act here and the same prompt comes back."""
    console.show(view(prompt), brief)
    while True:
        token = console.read_key(prompt)
        if not hot_key(console, ctx, token, view, prompt):
            return token


def hot_key(console: Console, ctx: Context, token: Optional[str], view: View, prompt: str = "") -> bool:
    """Act on F8, F9 or F10 (or their letters) and show `prompt`'s screen again with what
    changed; False for any other token."""
    if token is None:
        return False
    token = ALIASES.get(token, token)
    note: Optional[str]
    if token in ("F8", "F9"):
        note = toggle_hot_key(ctx, token)
    elif token == "F10":
        confirm_quit(console, ctx, view)
        note = None
    else:
        return False
    console.show(view(prompt), [])
    if note:
        console.remind(note)
    return True


def quit_question(ctx: Context) -> str:
    """What F10 asks: a game in progress is kept, and the question says so."""
    if ctx.session.game is not None:
        return _("Quit the game? Your game is kept for next time. (Y/N)")
    return _("Quit Computer Yahtzee? (Y/N)")


def confirm_quit(console: Console, ctx: Context, view: View) -> None:
    """F10: ask, then quit through the flow's one quit path (N plays on)."""
    question = quit_question(ctx)
    console.forget_messages()  # they answered another question
    console.show(view(question), [])
    while True:
        token = console.read_key(question)
        if token in ("y", "F10"):
            raise QuitGame()
        if token in ("n", "escape"):
            return
        console.remind(_("Please answer Y or N."))


def ask_yes_no(console: Console, ctx: Context, question: str, view: View, brief: Optional[list[str]] = None,
               others: str = "") -> str:
    """A Y/N question: 'y' or 'n', or one of the `others` keys; any other key gets a reminder."""
    prompt = _("{question} (Y/N)").format(question=question)
    while True:
        token = ask(console, ctx, prompt, view, brief)
        if token in ("y", "n") or (len(token) == 1 and token in others):
            return token
        console.remind(_("Please answer Y or N."))
        brief = []


def yes(console: Console, ctx: Context, question: str, view: View, brief: Optional[list[str]] = None) -> bool:
    """A Y/N question answered Y."""
    return ask_yes_no(console, ctx, question, view, brief) == "y"


def any_key(console: Console, ctx: Context, prompt: str, view: View, brief: Optional[list[str]] = None) -> str:
    """Wait for one key (or line); hot keys still act. Returns the key."""
    return ask(console, ctx, prompt, view, brief)


def sentence(text: str) -> str:
    """A message as a sentence: capital first (a file name keeps its own), full stop last."""
    if text.split(" ", 1)[0].isalpha():
        text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


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


def page_lines(console: Console, ctx: Context, lines: list[str], extra: str = "") -> str:
    """Page through lines: Enter next, B back, X or Esc done; returns the key that ended it."""
    console.forget_messages()  # a page is a subject of its own
    pages = paginate(lines)
    keys = _("Enter next, B back, X done") + (", " + extra if extra else "")
    number = 0
    while 0 <= number < len(pages):
        prompt = _("Page {page} of {pages}: {keys}").format(page=number + 1, pages=len(pages), keys=keys)
        def view(prompt: str, page: list[str] = pages[number]) -> list[str]:
            return page + ["", prompt, footer_for(console, ctx)]
        token = ask(console, ctx, prompt, view, pages[number])
        if token in LEAVE_PAGES or (extra and token == extra[0].lower()):
            return "x" if token == "escape" else token
        number = max(0, number - 1) if token == "b" else number + 1
    return "enter"
