"""The lobby: the opening banner, the title, the manual, names, confirm, preferences, statistics."""
import textwrap
import unicodedata
from typing import Any, Optional, Union

from .. import prefs as preferences
from .. import render, stats
from ..checks import NAME_CELLS
from ..dice import DUPLICATE_LINE, LoadedDice, is_duplicate, with_duplicate
from ..game import MAX_PLAYERS, Player
from ..language import N_, _, choose, install
from ..match import totals
from ..moods import MOOD_NAMED, UnknownMood, mood_list, mood_named
from ..palette import cut_to_cells, pad, strip_controls, visible_width
from ..session import Session
from .context import Console, Context, Moment, Screen
from .prompts import View, ask, ask_yes_no, confirm_quit, footer_for, page_lines, toggle_hot_key, yes

COMPUTER_MARK = "*"  # a name starting with it seats a computer player
SETTING_KEYS = "1234567890abcdefg"  # V, M and Q stay hot keys

BANNER_NAME = N_("C O M P U T E R     Y A H T Z E E")
BANNER_LINE = N_("five dice, thirteen boxes, one to four players")
BANNER_WORDS = N_("Computer Yahtzee: five dice, thirteen boxes, one to four players.")
BANNER_WIDTH = 62
NO_BREAK = "\u00a0"
EXAMPLE = f"*gambler{NO_BREAK}Zed"  # a computer seat with a name of its own, kept on one line


def banner() -> list[str]:
    """The title banner, its words in the player's language."""
    edge = "      +" + "-" * BANNER_WIDTH + "+"
    def inside(text: str) -> str:
        left = max(0, BANNER_WIDTH - visible_width(text)) // 2
        return "      |" + pad(" " * left + text, BANNER_WIDTH) + "|"
    return ["", edge, inside(""), inside(_(BANNER_NAME)), inside(""), inside(_(BANNER_LINE)), inside(""), edge, ""]


def lobby_ask(console: Console, ctx: Context, question: str, view: View, keys: str = "sp",
              brief: Optional[list[str]] = None) -> str:
    """A lobby Y/N question where S shows the statistics and P (when offered) the preferences."""
    while True:
        token = ask_yes_no(console, ctx, question, view, brief, others=keys)
        brief = []
        if token == "s":
            statistics(console, ctx)
        elif token == "p":
            settings(console, ctx)
        else:
            return token


def opening(console: Console, ctx: Context) -> Moment:
    """The title banner; any key goes on."""
    paint = console.paint
    def view(prompt: str) -> list[str]:
        return [paint("title", line) for line in banner()] + [
            "", f"      {prompt}", "", footer_for(console, ctx)]
    ask(console, ctx, _("Press any key to begin"), view, [_(BANNER_WORDS), footer_for(console, ctx)])
    return Moment(Screen.TITLE)


def title(console: Console, ctx: Context) -> Moment:
    """The hot keys explained; instructions? S shows the statistics, P the preferences."""
    paint = console.paint

    def words(prompt: str) -> list[str]:
        session = ctx.session
        return [
            "  " + _("Hot keys work on every screen; the letter beside each works too"),
            "  " + _("wherever you are not typing a name:"),
            "",
            "    " + _("F8  or V   verify each posting by name      now {state}").format(
                state=render.on_off(session.verify, paint)),
            "    " + _("F9  or M   sound: a bell on every roll      now {state}").format(
                state=render.on_off(session.sound, paint)),
            "    " + _("F10 or Q   quit (asks first; a game in progress is kept for next time)"),
            "",
            "  " + _("S shows the hall of fame and the players' statistics, P the preferences."),
            f"  {prompt}",
        ]

    def view(prompt: str) -> list[str]:
        return [paint("title", line) for line in banner()] + words(prompt)
    if lobby_ask(console, ctx, _("Instructions?"), view, brief=words("")[:-1]) == "y":
        page_manual(console, ctx)
    return Moment(Screen.NAMES)


def statistics(console: Console, ctx: Context) -> None:
    """The hall of fame and player tables from history.jsonl; R resets them after asking."""
    saves = ctx.services.saves
    records = saves.read_history() if saves is not None else []
    lines = stats.stats_lines(records, ctx.session.results)
    while True:
        token = page_lines(console, ctx, lines, _("R reset the statistics"))
        if token != "r" or saves is None:
            return
        question = _("Reset all statistics? The history is set aside, not deleted.")
        def view(prompt: str, shown: list[str] = lines) -> list[str]:
            return shown[:12] + ["", prompt]
        if yes(console, ctx, question, view, []):
            saves.reset_history()
            console.message(_("The statistics start afresh."))
            lines = stats.stats_lines([], ctx.session.results)


def page_manual(console: Console, ctx: Context) -> None:
    """Show YAHTZEE.DOC a page at a time."""
    lines = ctx.services.manual or [_("The manual YAHTZEE.DOC was not found beside the game.")]
    page_lines(console, ctx, lines)


def clean_name(text: str) -> str:
    """A name as stored: control sequences and control or format characters removed."""
    shown = strip_controls(text)
    return " ".join("".join(ch for ch in shown if not unicodedata.category(ch).startswith("C")).split())


def computer_seat(text: str, players: list[Player]) -> Union[Player, str]:
    """'*', '*gambler' or '*gambler Zed': a computer Player, or why not as a message."""
    word, _space, rest = text[1:].partition(" ")
    try:
        mood = mood_named(word or "thinker")
    except UnknownMood:
        return _("Computer players: {moods} (a name may follow).").format(moods=mood_list())
    base = cut_to_cells(clean_name(rest) or MOOD_NAMED[mood].seat_name, NAME_CELLS).rstrip()
    name, number = base, 1
    while name_problem(name, players):
        number += 1
        name = cut_to_cells(base, NAME_CELLS - len(str(number))) + str(number)
    return Player(name, "computer", mood=mood)


def name_problem(name: str, players: list[Player]) -> str:
    """Why a cleaned name cannot be seated ('' when it can)."""
    if any(p.name.casefold() == name.casefold() for p in players):
        return _("{name} is already playing: choose another name.").format(name=name)
    return ""


def names_view(console: Console, ctx: Context) -> View:
    """The names screen's lines for a prompt."""
    def view(prompt: str) -> list[str]:
        seated = [f"    {i}. {p.name}" for i, p in enumerate(ctx.session.players, start=1)]
        question = [f"  {prompt}", ""] if prompt.endswith("(Y/N)") else []
        return ([console.paint("title", "  " + _("PLAYERS")), ""] + seated + [""] + question +
                ["  " + _("Up to four players; names up to six characters."),
                 *wrapped_whole(_("A name starting with * seats a computer player: {moods}; "
                                  "a name may follow ({example}).").format(moods=mood_list(), example=EXAMPLE)),
                 "  " + _("Press Enter on an empty name when everyone is in."), "",
                 footer_for(console, ctx)])
    return view


def wrapped_whole(text: str) -> list[str]:
    """The names help wrapped at 72 columns, indented, the example never broken (its space
    does not break until the lines are made)."""
    lines = textwrap.wrap(text, 72, initial_indent="  ", subsequent_indent="  ")
    return [line.replace(NO_BREAK, " ") for line in lines]


def names(console: Console, ctx: Context) -> Moment:
    """One name of at most six characters; an empty name (or the fourth) ends the list."""
    players = ctx.session.players
    if len(players) >= MAX_PLAYERS:
        return Moment(Screen.CONFIRM)
    view = names_view(console, ctx)
    typed = ""
    while True:
        prompt = _("Player {number} name: ").format(number=len(players) + 1)
        console.show(view(prompt), [])
        hot, text = console.read_text(prompt, typed, limit=NAME_CELLS, unlimited=COMPUTER_MARK)
        typed = text if hot else ""
        if hot in ("F8", "F9"):
            console.remind(toggle_hot_key(ctx, hot))
        elif hot == "F10":
            confirm_quit(console, ctx, view)
        else:
            following = seat(console, ctx, text)
            if following is not None:
                return following


def seat(console: Console, ctx: Context, text: str) -> Optional[Moment]:
    """Seat the player typed; where to go next, or None to ask again."""
    players = ctx.session.players
    if text.strip().startswith(COMPUTER_MARK):
        seated = computer_seat(text.strip(), players)
        if isinstance(seated, str):
            console.remind(seated)
            return None
        players.append(seated)
        ctx.prepare_tables()  # its table is built while the others type their names
        console.message(_("{name} takes a seat: a computer player, {mood}.").format(
            name=seated.name, mood=seated.mood))
        return Moment(Screen.NAMES)
    name = clean_name(text)
    if not name:
        if players and not text.strip():
            return Moment(Screen.CONFIRM)
        console.remind(_("That name has no printable letters: type another.") if text.strip()
                        else _("At least one player is needed."))
        return None
    short = cut_to_cells(name, NAME_CELLS).rstrip()
    if short != name:
        console.message(_("Names are at most six characters: this one is {name}.").format(name=short))
    problem = name_problem(short, players)
    if problem:
        console.remind(problem)
        return None
    players.append(Player(short))
    ctx.prepare_tables()  # with someone to beat, what win chances need is readied meanwhile
    return Moment(Screen.NAMES)


def confirm(console: Console, ctx: Context) -> Moment:
    """Show the players; ready to play? A first game's N re-enters every name."""
    session = ctx.session

    def words() -> list[str]:
        seated = [f"    {i}. {p.name}" + (_("  (computer, {mood})").format(mood=p.mood)
                                           if p.is_computer else "")
                  for i, p in enumerate(session.players, start=1)]
        return ([console.paint("title", "  " + _("PLAYERS")), ""] + seated +
                ["", "  " + _("Rules: {rules}   Match: {match}").format(
                    rules=session.rules.describe(), match=session.match.describe()),
                 *dice_lines(ctx),
                 "  " + _("P changes them and the other preferences, S shows the statistics.")])

    def view(prompt: str) -> list[str]:
        return [*words(), f"  {prompt}", "", footer_for(console, ctx)]
    if lobby_ask(console, ctx, _("Ready to play?"), view, brief=words()) == "y":
        return start_game(console, ctx)
    if not session.results:
        session.players.clear()
        return Moment(Screen.NAMES)
    if ask_yes_no(console, ctx, _("Add players?"), view, []) == "y":
        if len(session.players) < MAX_PLAYERS:
            return Moment(Screen.NAMES)
        console.message(_("Four players are seated: there is no room for more."))
    return start_game(console, ctx)


def dice_lines(ctx: Context) -> list[str]:
    """The confirm screen's word on duplicate dice: on, or asked for but loaded from a file."""
    source = ctx.session.source
    if is_duplicate(source):
        return ["  " + _(DUPLICATE_LINE)]
    if ctx.pref("duplicate") and isinstance(source, LoadedDice):
        return ["  " + _("Dice: loaded from the dice file, so not duplicate")]
    return []


def settings(console: Console, ctx: Context) -> None:
    """The preferences, remembered between runs: a number changes one, X is done."""
    choices = [p for p in preferences.PREFERENCES if p.key not in ("verify", "sound")]

    def view(prompt: str) -> list[str]:
        rows = [f"  {key.upper():>2}  {pad(_(p.label), 46)} {p.shown(ctx.pref(p.key))}"
                for key, p in zip(SETTING_KEYS, choices)]
        return ([console.paint("title", "  " + _("PREFERENCES")), ""] + rows +
                ["", f"  {prompt}", "", footer_for(console, ctx)])

    keys = SETTING_KEYS[:len(choices)]
    prompt = _("{keys} change a setting, X done").format(keys=keys_text(keys))
    brief: Optional[list[str]] = None
    while True:
        token = ask(console, ctx, prompt, view, brief)
        brief = []
        if token in ("x", "enter", "escape"):
            return
        if len(token) == 1 and token in keys:
            choice = choices[keys.index(token)]
            set_pref(ctx, choice.key, choice.after(ctx.pref(choice.key)))
            console.remind(f"{_(choice.label)}: {choice.shown(ctx.pref(choice.key))}.")
        else:
            console.remind(_("Keys here: {keys}.").format(keys=prompt))


def keys_text(keys: str) -> str:
    """The settings keys as the prompt names them: '1-9, 0, A-D'."""
    digits, letters = keys[:10], keys[10:].upper()
    parts = [f"{digits[0]}-{digits[:9][-1]}", *digits[9:]]
    if letters:
        parts.append(letters if len(letters) == 1 else f"{letters[0]}-{letters[-1]}")
    return ", ".join(parts)


def set_pref(ctx: Context, key: str, value: Any) -> None:
    """Change one preference, verify and sound included (the flow keeps it for the next run)."""
    ctx.settings.prefs[key] = value
    if key in ("verify", "sound"):
        setattr(ctx.session, key, value)
    if key in preferences.GAME_SETTINGS:
        ctx.settings.run_settings.pop(key, None)  # a choice made now outranks the command line's
        apply_game_settings(ctx.session, {**ctx.settings.prefs, **ctx.settings.run_settings})
        ctx.prepare_tables()
    if key == "language":
        install(choose(None, value))  # a choice made now outranks --lang, as for the rules


def apply_game_settings(session: Session, prefs: dict[str, Any]) -> None:
    """Play the chosen rules and match from the next game on."""
    session.rules, match = preferences.game_settings(prefs)
    session.source = with_duplicate(session.source, prefs.get("duplicate", False))
    if match != session.match:
        session.start_match(match)


def start_game(console: Console, ctx: Context) -> Moment:
    """Begin the next game and go to the play screen; a player who joins a match under way
    is told that it counts from 0 for them."""
    session = ctx.session
    played = totals(session.match_scores) if not session.match_is_over else {}
    session.new_game()
    for player in session.players:
        if played and player.name not in played:
            console.message(_("{name} joins the match with 0 points: the others have played {count} of its games.")
                            .format(name=player.name, count=len(session.match_scores)))
    return Moment(Screen.PLAY)
