"""The lobby: the opening banner, the title, the manual, names, confirm, preferences, statistics."""
import textwrap
import unicodedata
from collections.abc import Sequence
from functools import partial
from typing import Optional, Union

from ..model.checks import NAME_CELLS
from ..model.dice import DUPLICATE_LINE, LoadedDice, is_duplicate
from ..model.game import MAX_PLAYERS, Player
from ..model.match import totals
from ..model.moods import MOOD_NAMED, UnknownMood, mood_list, mood_named
from ..model.outcome import FinishedGame
from ..model.words import N_, Later, Say, Text
from ..present import render, stats
from ..present.keys import Key
from ..present.look import Asked, Frame, Look, View, framed, heading
from ..present.palette import cut_to_cells, pad, strip_controls, visible_width
from ..saves.prefs import GAME_SETTINGS, PREFERENCES, Preference
from ..speech.locales import choose
from .context import Context
from .dialog import Console
from .prompts import ask, ask_yes_no, confirm_quit, footer_for, page_lines, sound_at, toggle_hot_key, yes
from .steps import Moment, Screen

COMPUTER_MARK = "*"  # a name starting with it seats a computer player
SETTING_KEYS = "1234567890abcdefg"  # V, M and Q stay hot keys

BANNER_NAME = N_("C O M P U T E R     Y A H T Z E E")
BANNER_LINE = N_("five dice, thirteen boxes, one to four players")
BANNER_WORDS = N_("Computer Yahtzee: five dice, thirteen boxes, one to four players.")
BANNER_WIDTH = 62
NO_BREAK = "\u00a0"
EXAMPLE = f"*gambler{NO_BREAK}Zed"  # a computer seat with a name of its own, kept on one line


def banner(look: Look) -> list[str]:
    """The title banner, painted, its words in the reader's language."""
    edge = "      +" + "-" * BANNER_WIDTH + "+"
    def inside(said: Text) -> str:
        text = look.words(said)
        left = max(0, BANNER_WIDTH - visible_width(text)) // 2
        return "      |" + pad(" " * left + text, BANNER_WIDTH) + "|"
    lines = ["", edge, inside(""), inside(Say(BANNER_NAME)), inside(""), inside(Say(BANNER_LINE)), inside(""), edge, ""]
    return [look.paint("title", line) for line in lines]


def lobby_ask(console: Console, ctx: Context, question: Text, view: View, keys: str = "sp",
              brief: Optional[Sequence[Text]] = None) -> str:
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
    view = framed(lambda look: [*banner(look), ""], partial(footer_for, ctx), indent="      ", spaced=True)
    ask(console, ctx, Say("Press any key to begin"), view, [Say(BANNER_WORDS), Later(lambda: footer_for(ctx, Look()))])
    return Moment(Screen.TITLE)


def title(console: Console, ctx: Context) -> Moment:
    """The hot keys explained; instructions? S shows the statistics, P the preferences."""
    def words(look: Look) -> list[str]:
        session = ctx.session
        return [
            "  " + look.words(Say("Hot keys work on every screen; the letter beside each works too")),
            "  " + look.words(Say("wherever you are not typing a name:")),
            "",
            "    " + look.words(Say("F8  or V   verify each posting by name      now {state}").format(
                state=Later(lambda: render.on_off(session.verify, look.paint)))),
            "    " + look.words(Say("F9  or M   sound: a bell on every roll      now {state}").format(
                state=Later(lambda: render.on_off(sound_at(ctx, look), look.paint)))),
            "    " + look.words(Say("F10 or Q   quit (asks first; a game in progress is kept for next time)")),
            "",
            *(["  " + look.words(Say("S shows the hall of fame and the players' statistics, P the preferences."))]
              if look.host else []),
        ]

    view = framed(lambda look: [*banner(look), *words(look)], indent="  ")
    brief = [Later(lambda: "\n".join(words(Look())))]
    if lobby_ask(console, ctx, Say("Instructions?"), view, brief=brief) == "y":
        page_manual(console, ctx)
    return Moment(Screen.NAMES)


def statistics(console: Console, ctx: Context) -> None:
    """The hall of fame and player tables from history.jsonl; R resets them after asking
    (where the history is this saves folder's own)."""
    saves = ctx.services.saves
    records = saves.read_history() if saves is not None else []
    while True:
        def lines(look: Look, records: list[FinishedGame] = records) -> list[str]:
            return stats.stats_lines(records, ctx.session.results)
        if saves is None or not saves.owns_history:
            page_lines(console, ctx, lines)
            return
        token = page_lines(console, ctx, lines, Say("R reset the statistics"), "r")
        if token != "r":
            return
        question = Say("Reset all statistics? The history is set aside, not deleted.")
        def top(look: Look, shown: Frame = lines) -> list[str]:
            return [*shown(look)[:12], ""]
        if yes(console, ctx, question, framed(top), []):
            saves.reset_history()
            console.message(Say("The statistics start afresh."))
            records = []


def page_manual(console: Console, ctx: Context) -> None:
    """Show YAHTZEE.DOC a page at a time."""
    manual = ctx.services.manual
    page_lines(console, ctx, lambda look: manual or [
        look.words(Say("The manual YAHTZEE.DOC was not found beside the game."))])


def clean_name(text: str) -> str:
    """A name as stored: control sequences and control or format characters removed."""
    shown = strip_controls(text)
    return " ".join("".join(ch for ch in shown if not unicodedata.category(ch).startswith("C")).split())


def computer_seat(text: str, players: list[Player]) -> Union[Player, Say]:
    """'*', '*gambler' or '*gambler Zed': a computer Player, or why not as a message."""
    word, _space, rest = text[1:].partition(" ")
    try:
        mood = mood_named(word or "thinker")
    except UnknownMood:
        return Say("Computer players: {moods} (a name may follow).").format(moods=mood_list())
    base = cut_to_cells(computer_name(text) or MOOD_NAMED[mood].seat_name, NAME_CELLS).rstrip()
    name, number = base, 1
    while name_problem(name, players):
        number += 1
        name = cut_to_cells(base, NAME_CELLS - len(str(number))) + str(number)
    return Player(name, "computer", mood=mood)


def computer_name(text: str) -> str:
    """The name typed after a computer player's mood ('*gambler Zed': Zed), cleaned; '' for none."""
    return clean_name(text[1:].partition(" ")[2])


def name_problem(name: str, players: list[Player]) -> Text:
    """Why a cleaned name cannot be seated ('' when it can)."""
    if any(p.name.casefold() == name.casefold() for p in players):
        return Say("{name} is already playing: choose another name.").format(name=name)
    return ""


def names_view(ctx: Context, typed_at: Text) -> View:
    """The names screen for a prompt: a question (or, at a table, another terminal's own line)
    stands under the names; the name asked for at `typed_at` is typed on a line of its own."""
    def view(prompt: Text) -> Frame:
        def frame(look: Look) -> list[str]:
            seated = [f"    {i}. {p.name}" for i, p in enumerate(ctx.session.players, start=1)]
            question = [] if prompt == typed_at else [f"  {look.words(prompt)}", ""]
            return [heading(look, Say("PLAYERS")), "", *seated, "", *question,
                    "  " + look.words(Say("Up to four players; names up to six characters.")),
                    *wrapped_whole(look.words(Say("A name starting with * seats a computer player: {moods}; "
                                                  "a name may follow ({example}).").format(
                        moods=mood_list(), example=EXAMPLE))),
                    "  " + look.words(Say("Press Enter on an empty name when everyone is in.")), "",
                    footer_for(ctx, look)]
        return frame
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
    prompt = Say("Player {number} name: ").format(number=len(players) + 1)
    view = names_view(ctx, prompt)
    typed = ""
    while True:
        console.show(Asked(view, prompt), [])
        hot, text = console.read_text(prompt, typed, limit=NAME_CELLS, unlimited=COMPUTER_MARK)
        typed = text if hot else ""
        if hot in (Key.VERIFY, Key.SOUND):
            console.remind(toggle_hot_key(ctx, hot))
        elif hot == Key.QUIT:
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
        if isinstance(seated, Say):
            console.remind(seated)
            return None
        players.append(seated)
        ctx.prepare_tables()  # its table is built while the others type their names
        typed = computer_name(text.strip())
        if cut_to_cells(typed, NAME_CELLS).rstrip() != typed:
            console.message(Say("Names are at most six characters: this one is {name}.").format(name=seated.name))
        console.message(Say("{name} takes a seat: a computer player, {mood}.").format(
            name=seated.name, mood=seated.mood))
        return Moment(Screen.NAMES)
    name = clean_name(text)
    if not name:
        if players and not text.strip():
            return Moment(Screen.CONFIRM)
        console.remind(Say("That name has no printable letters: type another.") if text.strip()
                        else Say("At least one player is needed."))
        return None
    short = cut_to_cells(name, NAME_CELLS).rstrip()
    if short != name:
        console.message(Say("Names are at most six characters: this one is {name}.").format(name=short))
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

    def words(look: Look) -> list[str]:
        seated = [f"    {i}. {p.name}" + (look.words(Say("  (computer, {mood})").format(mood=p.mood))
                                           if p.is_computer else "")
                  for i, p in enumerate(session.players, start=1)]
        return [heading(look, Say("PLAYERS")), "", *seated, "",
                "  " + look.words(Say("Rules: {rules}   Match: {match}").format(
                    rules=session.rules.describe(), match=session.match.describe())),
                *("  " + look.words(line) for line in dice_lines(ctx)),
                *(["  " + look.words(Say("P changes them and the other preferences, S shows the statistics."))]
                  if look.host else [])]

    view = framed(words, partial(footer_for, ctx), indent="  ", spaced=True)
    brief = [Later(lambda: "\n".join(words(Look())))]
    if lobby_ask(console, ctx, Say("Ready to play?"), view, brief=brief) == "y":
        return start_game(console, ctx)
    if not session.results:
        session.players.clear()
        return Moment(Screen.NAMES)
    if ask_yes_no(console, ctx, Say("Add players?"), view, []) == "y":
        if len(session.players) < MAX_PLAYERS:
            return Moment(Screen.NAMES)
        console.message(Say("Four players are seated: there is no room for more."))
    return start_game(console, ctx)


def dice_lines(ctx: Context) -> list[Say]:
    """The confirm screen's word on duplicate dice: on, or asked for but loaded from a file."""
    source = ctx.session.source
    if is_duplicate(source):
        return [Say(DUPLICATE_LINE)]
    if ctx.settings.prefs.duplicate and isinstance(source, LoadedDice):
        return [Say("Dice: loaded from the dice file, so not duplicate")]
    return []


def settings(console: Console, ctx: Context) -> None:
    """The preferences, remembered between runs: a number changes one, X is done."""
    choices = [p for p in PREFERENCES if p.key not in ("verify", "sound")]

    def lines(look: Look) -> list[str]:
        prefs = ctx.settings.prefs
        return [heading(look, Say("PREFERENCES")), "",
                *(f"  {key.upper():>2}  {pad(look.words(Say(p.label)), 46)} {look.words(p.shown(p.of(prefs)))}"
                  for key, p in zip(SETTING_KEYS, choices)), ""]

    view = framed(lines, partial(footer_for, ctx), indent="  ", spaced=True)
    keys = SETTING_KEYS[:len(choices)]
    prompt = Say("{keys} change a setting, X done").format(keys=keys_text(keys))
    brief: Optional[list[Text]] = None
    while True:
        token = ask(console, ctx, prompt, view, brief)
        brief = []
        if token in ("x", Key.ENTER, Key.ESCAPE):
            return
        if len(token) == 1 and token in keys:
            choice = choices[keys.index(token)]
            change_pref(ctx, choice)
            if choice.key == "language":  # a choice made now outranks --lang, as for the rules
                console.speak(choose(None, ctx.settings.prefs.language))
            console.remind(Say("{setting}: {value}.").format(setting=Say(choice.label),
                                                             value=choice.shown(choice.of(ctx.settings.prefs))))
        else:
            console.remind(Say("Keys here: {keys}.").format(keys=prompt))


def keys_text(keys: str) -> str:
    """The settings keys as the prompt names them: '1-9, 0, A-D'."""
    digits, letters = keys[:10], keys[10:].upper()
    parts = [f"{digits[0]}-{digits[:9][-1]}", *digits[9:]]
    if letters:
        parts.append(letters if len(letters) == 1 else f"{letters[0]}-{letters[-1]}")
    return ", ".join(parts)


def change_pref(ctx: Context, preference: Preference) -> None:
    """Set one of the settings screen's preferences to its next choice (the flow keeps it for
    the next run); a game setting is played from the next game on."""
    settings = ctx.settings
    settings.prefs = preference.cycled(settings.prefs)
    if preference.key in GAME_SETTINGS:
        # A choice made now outranks the command line's.
        settings.run_settings = settings.run_settings.without(preference.key)
        ctx.apply_game_settings()
        ctx.prepare_tables()


def start_game(console: Console, ctx: Context) -> Moment:
    """Begin the next game and go to the play screen; a player who joins a match under way
    is told that it counts from 0 for them."""
    session = ctx.session
    played = totals(session.match_scores) if not session.match_is_over else {}
    session.new_game()
    for player in session.players:
        if played and player.name not in played:
            console.message(Say("{name} joins the match with 0 points: the others have played {count} of its games.")
                            .format(name=player.name, count=len(session.match_scores)))
    return Moment(Screen.PLAY)
