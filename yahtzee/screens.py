"""The PC-SIG screens: each takes the console and the table and returns the next screen."""
import re
import textwrap
import unicodedata
from dataclasses import dataclass, field

from . import prefs as preferences
from . import render, stats
from .game import MAX_PLAYERS, Game, IllegalMove, Player
from .match import SINGLE_GAME, parse_match
from .rules import rules_named
from .render import hotkey_footer
from .scoring import Category, is_yahtzee

BOX_KEYS = {"1": Category.ONES, "2": Category.TWOS, "3": Category.THREES,
            "4": Category.FOURS, "5": Category.FIVES, "6": Category.SIXES,
            "t": Category.THREE_OF_A_KIND, "f": Category.FOUR_OF_A_KIND,
            "h": Category.FULL_HOUSE, "s": Category.SMALL_STRAIGHT,
            "l": Category.LARGE_STRAIGHT, "y": Category.YAHTZEE, "c": Category.CHANCE}
KEY_OF_BOX = {box: key.upper() for key, box in BOX_KEYS.items()}
ALIASES = {"v": "F8", "m": "F9", "q": "F10"}
NAME_LENGTH = 6
PAGE_LINES = 19
YAHTZEE_BELLS = 3
_ESCAPES = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)?|[@-Z\\-_])")


class QuitGame(Exception):
    """The player asked to quit, or the input ended: the quit path takes over."""


@dataclass
class Table:
    """Everything the screens share: the session, the clock, the saves and the manual."""

    session: object
    clock: object
    saves: object = None
    manual: list = field(default_factory=list)
    prefs: dict = field(default_factory=dict)
    # Dice options given on this command line (ignored when a saved game resumes).
    dice_options: bool = False
    coach: object = None
    notices: list = field(default_factory=list)
    # The last posting's cost against perfect play, taken back if the posting is.
    last_cost: tuple = None
    # Game settings given on the command line for this run only (--rules, --match).
    run_settings: dict = field(default_factory=dict)
    # The screen the session stands at ('posting h'), saved as the autosave's resume point.
    screen: str = ""

    def checkpoint(self):
        """Save the session as it stands (after every roll, posting, toggle and screen)."""
        if self.saves is not None and self.session.players:
            self.saves.save_session(self.session, resume_point(self.screen))

    def pref(self, key):
        """A preference's value (its default when unset)."""
        return self.prefs.get(key, preferences.DEFAULTS[key])

    def remember_prefs(self):
        """Keep the preferences, verify and sound among them, for the next run."""
        self.prefs.update(verify=self.session.verify, sound=self.session.sound)
        if self.saves is not None:
            self.saves.save_prefs(self.prefs)

    def now(self):
        """The current time as ISO-8601 text."""
        return self.clock().isoformat(timespec="seconds")


# ---------------------------------------------------------------- input helpers

def toggle_hot_key(console, table, token):
    """F8 or F9: flip verify or sound and say so."""
    session = table.session
    if token == "F8":
        session.verify = not session.verify
        word, state = "Verify", session.verify
    else:
        session.sound = not session.sound
        word, state = "Sound", session.sound
    table.remember_prefs()
    table.checkpoint()
    return f"{word} is now {'ON' if state else 'OFF'}."


def ask(console, table, prompt, view, brief=None):
    """Draw the screen and read a token; hot keys act here and the same prompt comes back."""
    console.show(view(prompt), brief)
    while True:
        token = console.read_key(prompt)
        token = ALIASES.get(token, token)
        if token in ("F8", "F9"):
            note = toggle_hot_key(console, table, token)
        elif token == "F10":
            confirm_quit(console, table, view)
            note = "Play on."
        else:
            return token
        if not console.plain:
            console.show(view(prompt))
        console.message(note)


def confirm_quit(console, table, view):
    """F10: ask, then quit through the one quit path."""
    question = "Quit the game? Your game is kept for next time. (Y/N)"
    console.show(view(question), [])
    while True:
        token = console.read_key(question)
        if token in ("y", "F10"):
            raise QuitGame()
        if token == "n":
            return
        console.message("Please answer Y or N.")


def ask_yes_no(console, table, question, view, brief=None):
    """A Y/N question; any other key gets a one-line reminder."""
    prompt = f"{question} (Y/N)"
    while True:
        token = ask(console, table, prompt, view, brief)
        if token in ("y", "n"):
            return token == "y"
        console.message("Please answer Y or N.")
        brief = []


def any_key(console, table, prompt, view, brief=None):
    """Wait for one key (or line); hot keys still act."""
    ask(console, table, prompt, view, brief)


def sentence(text):
    """A message as a sentence: capital first (a file name keeps its own), full stop last."""
    if text.split(" ", 1)[0].isalpha():
        text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


# ---------------------------------------------------------------- names

def clean_name(text):
    """A name as stored: escape sequences and control or format characters removed."""
    text = _ESCAPES.sub("", text)
    text = "".join(ch for ch in text if not unicodedata.category(ch).startswith("C"))
    return " ".join(text.split())


COMPUTER_NAMES = {"thinker": "Brainy", "norisk": "Steady", "gambler": "Lucky",
                  "yclover": "Yazzy", "nowhere": "Dither"}


def computer_seat(text, players):
    """'*', '*gambler' or '*gambler Zed': a computer Player, or why not as a message."""
    from .strategy.moods import MOODS, UnknownMood, mood_named
    word, _, rest = text[1:].partition(" ")
    try:
        mood = mood_named(word or "thinker")
    except UnknownMood:
        return f"Computer players: {', '.join('*' + mood for mood in MOODS)} (a name may follow)."
    base = (clean_name(rest) or COMPUTER_NAMES[mood])[:NAME_LENGTH].rstrip()
    name, number = base, 1
    while name_problem(name, players):
        number += 1
        name = base[:NAME_LENGTH - len(str(number))] + str(number)
    return Player(name, "computer", mood=mood)


def name_problem(name, players):
    """Why a cleaned name cannot be seated ('' when it can)."""
    if any(p.name.casefold() == name.casefold() for p in players):
        return f"{name} is already playing: choose another name."
    return ""


# ---------------------------------------------------------------- screens

BANNER = [
    "",
    "      +--------------------------------------------------------------+",
    "      |                                                              |",
    "      |          C O M P U T E R     Y A H T Z E E                   |",
    "      |                                                              |",
    "      |     five dice, thirteen boxes, one to four players           |",
    "      |                                                              |",
    "      +--------------------------------------------------------------+",
    "",
]


def opening(console, table):
    """The title banner; any key goes on."""
    paint = console.paint
    view = lambda prompt: [paint("title", line) for line in BANNER] + [
        "", f"      {prompt}", "", footer_for(console, table)]
    any_key(console, table, "Press any key to begin", view)
    return title


def footer_for(console, table):
    """The hot-key line painted for this console."""
    return hotkey_footer(table.session.verify, table.session.sound, console.paint)


def title(console, table):
    """The hot keys explained; instructions? S shows the statistics first."""
    paint = console.paint

    def view(prompt):
        session = table.session
        return [paint("title", line) for line in BANNER] + [
            "  Hot keys work on every screen; the letter beside each works too",
            "  wherever you are not typing a name:",
            "",
            f"    F8  or V   verify each posting by name      now {render.on_off(session.verify, paint)}",
            f"    F9  or M   sound: a bell on every roll      now {render.on_off(session.sound, paint)}",
            "    F10 or Q   quit (asks first; the game is kept for next time)",
            "",
            "  S shows the hall of fame and the players' statistics, P the preferences.",
            f"  {prompt}",
        ]

    prompt = "Instructions? (Y/N)"
    brief = None
    while True:
        token = ask(console, table, prompt, view, brief)
        if token == "s":
            statistics(console, table)
        elif token == "p":
            settings(console, table)
        elif token in ("y", "n"):
            break
        else:
            console.message("Please answer Y or N (S statistics, P preferences).")
        brief = []
    if token == "y":
        page_manual(console, table)
    return names


def statistics(console, table):
    """The hall of fame and player tables from history.jsonl; R resets them after asking."""
    records = table.saves.read_history() if table.saves is not None else []
    lines = stats.stats_lines(records, table.session.results)
    while True:
        token = page_lines(console, table, lines, "R reset the statistics")
        if token != "r":
            return
        question = "Reset all statistics? The history is set aside, not deleted."
        view = lambda prompt: lines[:PAGE_LINES] + ["", prompt]
        if ask_yes_no(console, table, question, view, []):
            table.saves.reset_history()
            console.message("The statistics start afresh.")
            lines = stats.stats_lines([], table.session.results)


def page_manual(console, table):
    """Show YAHTZEE.DOC a page at a time."""
    lines = table.manual or ["The manual YAHTZEE.DOC was not found beside the game."]
    page_lines(console, table, lines)


def page_lines(console, table, lines, extra=""):
    """Page through lines: Enter next, B back, X done; returns the key that ended it."""
    pages = [lines[start:start + PAGE_LINES] for start in range(0, len(lines), PAGE_LINES)] or [[]]
    keys = f"Enter next, B back, X done{', ' + extra if extra else ''}"
    number = 0
    while 0 <= number < len(pages):
        prompt = f"Page {number + 1} of {len(pages)}: {keys}"
        view = lambda prompt, page=pages[number]: page + ["", prompt, footer_for(console, table)]
        token = ask(console, table, prompt, view, pages[number])
        if token == "x" or (extra and token == extra[0].lower()):
            return token
        number = max(0, number - 1) if token == "b" else number + 1
    return "enter"


def names(console, table):
    """Up to four names of at most six characters; an empty name ends the list."""
    players = table.session.players

    def view(prompt):
        seated = [f"    {i}. {p.name}" for i, p in enumerate(players, start=1)]
        question = [f"  {prompt}", ""] if prompt.endswith("(Y/N)") else []
        return ([console.paint("title", "  PLAYERS"), ""] + seated + [""] + question +
                ["  Up to four players; names up to six characters.",
                 "  A name starting with * seats a computer player: *thinker, *norisk,",
                 "  *gambler, *yclover or *nowhere, a name may follow (*gambler Zed).",
                 "  Press Enter on an empty name when everyone is in.", "",
                 footer_for(console, table)])

    typed = ""
    while len(players) < MAX_PLAYERS:
        prompt = f"Player {len(players) + 1} name: "
        console.show(view(prompt), [])
        hot, text = console.read_text(prompt, typed)
        typed = text if hot else ""
        if hot in ("F8", "F9"):
            console.message(toggle_hot_key(console, table, hot))
            continue
        if hot == "F10":
            confirm_quit(console, table, view)
            continue
        if text.strip().startswith("*"):
            seated = computer_seat(text.strip(), players)
            if isinstance(seated, str):
                console.message(seated)
            else:
                players.append(seated)
                console.message(f"{seated.name} takes a seat: a computer player, {seated.mood}.")
                table.checkpoint()
            continue
        name = clean_name(text)
        if not name:
            if text.strip():
                console.message("That name has no printable letters: type another.")
            elif players:
                break
            else:
                console.message("At least one player is needed.")
            continue
        if len(name) > NAME_LENGTH:
            name = name[:NAME_LENGTH].rstrip()
            console.message(f"Names are at most six characters: this one is {name}.")
        problem = name_problem(name, players)
        if problem:
            console.message(problem)
            continue
        players.append(Player(name))
        table.checkpoint()
    return confirm


def confirm(console, table):
    """Show the players; ready to play? A first game's N re-enters every name; P preferences."""
    session = table.session

    def view(prompt):
        seated = [f"    {i}. {p.name}{'  (computer, ' + p.mood + ')' if p.is_computer else ''}"
                  for i, p in enumerate(session.players, start=1)]
        return ([console.paint("title", "  PLAYERS"), ""] + seated +
                ["", f"  Rules: {session.rules.describe()}   Match: {session.match.describe()}",
                 "  P changes them and the other preferences.", f"  {prompt}", "",
                 footer_for(console, table)])

    while True:
        token = ask(console, table, "Ready to play? (Y/N)", view)
        if token == "p":
            settings(console, table)
        elif token in ("y", "n"):
            break
        else:
            console.message("Please answer Y or N (P preferences).")
    if token == "y":
        return start_game(table)
    if not session.results:
        session.players.clear()
        return names
    if ask_yes_no(console, table, "Add players?", view, []):
        if len(session.players) < MAX_PLAYERS:
            return names
        console.message("Four players are seated: there is no room for more.")
    return start_game(table)


def settings(console, table):
    """The preferences, remembered between runs: a number changes one, X is done."""
    choices = [p for p in preferences.PREFERENCES if p.key not in ("verify", "sound")]

    def view(prompt):
        rows = [f"  {i}  {p.label:<46} {p.shown(table.pref(p.key))}"
                for i, p in enumerate(choices, start=1)]
        return ([console.paint("title", "  PREFERENCES"), ""] + rows +
                ["", f"  {prompt}", "", footer_for(console, table)])

    prompt = f"1-{len(choices)} change a setting, X done"
    brief = None
    while True:
        token = ask(console, table, prompt, view, brief)
        if token in ("x", "enter"):
            return
        if token.isdigit() and 1 <= int(token) <= len(choices):
            choice = choices[int(token) - 1]
            set_pref(table, choice.key, choice.after(table.pref(choice.key)))
            console.message(f"{choice.label}: {choice.shown(table.pref(choice.key))}.")
        else:
            console.message(f"Keys here: {prompt}.")
        brief = []


def set_pref(table, key, value):
    """Change one preference, verify and sound included, and keep it for the next run."""
    table.prefs[key] = value
    if key in ("verify", "sound"):
        setattr(table.session, key, value)
    if key in preferences.GAME_SETTINGS:
        table.run_settings.pop(key, None)  # a choice made now outranks the command line's
        apply_game_settings(table.session, {**table.prefs, **table.run_settings})
    table.remember_prefs()
    table.checkpoint()


def game_settings(prefs):
    """The rules (with their options) and the match the preferences choose."""
    rules = rules_named(prefs.get("rules", "hasbro")).with_options(
        rolls=prefs.get("rolls", 3), bank=prefs.get("bank", 0))
    return rules, parse_match(prefs.get("match", "single"))


def apply_game_settings(session, prefs):
    """Play the chosen rules and match from the next game on."""
    session.rules, match = game_settings(prefs)
    if match != session.match:
        session.start_match(match)


def start_game(table):
    """Begin the next game and go to the play screen."""
    table.session.new_game()
    return play


def play_view(console, table, keys=None):
    """The play screen's lines for a status prompt."""
    session = table.session
    match = "" if session.match == SINGLE_GAME else session.match.describe().capitalize()
    return lambda prompt: render.play_lines(session.game, session.verify, session.sound, prompt,
                                            console.paint, console.unicode, keys, hints(table),
                                            match)


def hints(table):
    """What the dice would score in each open box, when the hints preference is on."""
    game = table.session.game
    if not (table.pref("hints") and game.turn.has_rolled and not game.current.is_computer):
        return None
    threshold = table.pref("hint_threshold") / 100
    shown = {}
    for box in game.legal_boxes():
        points = game.points_for(box)
        shown[box] = (points, points > 0 and points >= threshold * render.BEST_POINTS[box])
    return shown


def turn_brief(table):
    """Plain mode's view of a turn: the dice line, and the hints when they are on."""
    shown = hints(table)
    extra = [] if not shown else ["hints: " + ", ".join(
        f"{KEY_OF_BOX[box]} {render.LABELS[box]} {points}{'*' if high else ''}"
        for box, (points, high) in shown.items())]
    return dice_brief(table.session.game, table.pref("marking") == "hold") + extra


def dice_brief(game, hold=False):
    """The dice on one line, for plain mode: 'ANN roll 2 of 3: 3 5 2 2 6   marked: 1 3'
    (in hold marking the held dice: 'held: 2 4 5')."""
    picked = [i for i, m in enumerate(game.turn.marked, start=1) if m != hold]
    dice = " ".join(str(d) for d in game.turn.dice)
    return [f"{render.turn_heading(game)}: {dice}   {'held' if hold else 'marked'}: "
            f"{' '.join(map(str, picked)) or 'none'}"]


def roll_dice(console, table):
    """Roll, save, and ring: one bell, a pattern for a Yahtzee."""
    game = table.session.game
    game.roll()
    if table.pref("marking") == "hold" and not game.current.is_computer and game.rolls_left:
        for die in range(5):
            game.toggle(die)  # holding picks the dice to keep: the rest roll
    table.checkpoint()
    if table.session.sound:
        console.bell(YAHTZEE_BELLS if is_yahtzee(game.turn.dice) else 1)


def play(console, table):
    """A turn's rolling: any key rolls first, 1-5 mark dice, R rolls them or goes to posting."""
    game = table.session.game
    if game.current.is_computer:
        return computer_turn(console, table)
    view = play_view(console, table)
    if not game.turn.has_rolled:
        undo = ", U takes back the last posting" if game.can_undo else ""
        token = ask(console, table, f"{game.current.name}: press any key to roll{undo}", view)
        if token == "u" and game.can_undo:
            return take_back(console, table)
        roll_dice(console, table)
    brief = turn_brief(table)
    hold = table.pref("marking") == "hold"
    while game.rolls_left > 0:
        token = ask(console, table, dice_prompt(game, hold), view, brief)
        digits = token.replace(" ", "")
        if digits and all(ch in "12345" for ch in digits):
            for ch in digits:
                game.toggle(int(ch) - 1)
            table.checkpoint()
        elif token == "r" and any(game.turn.marked):
            cost = choice_cost(table, lambda coach: coach.cost_of_reroll(game))
            roll_dice(console, table)
            tell_cost(console, cost, "That reroll")
        elif token == "r":
            break
        elif token == "?":
            show_advice(console, table)
        else:
            console.message("Keys here: 1-5 hold or free a die, R rolls the others, ? advice." if hold
                            else "Keys here: 1-5 mark or lock a die, R rolls the marked dice, ? advice.")
            brief = []
            continue
        brief = turn_brief(table)
    return posting


def dice_prompt(game, hold):
    """The dice step's keys: which number keys mark, and what R does."""
    rolls = f"Roll {game.turn.rolls} of {game.turn.rolls + game.rolls_left}"
    if hold:
        return f"{rolls}: 1-5 hold dice, R rolls the others, ? advice"
    return f"{rolls}: 1-5 mark dice, R rolls, ? advice"


def take_back(console, table):
    """Undo the last posting: its player is back at posting with the same dice."""
    session = table.session
    session.game.undo()
    player = session.game.current.name
    if table.last_cost and table.last_cost[0] == player:
        session.losses[player] = round(session.losses.get(player, 0.0) - table.last_cost[1], 3)
    table.last_cost = None
    console.message(f"{player}'s last posting is taken back.")
    return posting


def choice_cost(table, measure):
    """What the current human's choice gives away against perfect play, added to their losses
    (None when the advisor is off or cannot judge these rules)."""
    if table.coach is None or not table.pref("advisor"):
        return None
    cost = measure(table.coach)
    losses = table.session.losses
    name = table.session.game.current.name
    losses[name] = round(losses.get(name, 0.0) + cost, 3)
    return cost


def tell_cost(console, cost, what):
    """Say what a choice cost when it was not the best."""
    if cost is not None and cost >= 0.05:
        console.message(f"{what} cost {cost:.1f} points against perfect play.")


def show_advice(console, table):
    """Every keep and legal box for these dice with its expected final score, best first."""
    game = table.session.game
    if table.coach is None:
        console.message("The advisor is not available.")
        return
    options = table.coach.options(game)
    if options is None:
        console.message(f"No exact advice for these rules: {table.coach.unsupported}.")
        return
    heading = (f"ADVICE for {game.current.name}: dice {' '.join(map(str, game.turn.dice))}, "
               f"{game.rolls_left} roll{'s' if game.rolls_left != 1 else ''} left")
    note = textwrap.wrap(table.coach.note(game.rules), render.SCREEN_WIDTH - 2)
    page_lines(console, table, [heading, *note, ""] + render.advice_lines(options, console.paint))


def computer_turn(console, table):
    """A computer player's turn, shown step by step with the preferred pause; no input."""
    game = table.session.game
    name = game.current.name
    brain = table.coach.player(game.current.mood or "thinker", game.rules)
    view = play_view(console, table)
    pause = table.pref("computer_delay")
    if not game.turn.has_rolled:  # a resumed game may stand after the computer's roll
        roll_dice(console, table)
    while True:
        step(console, view, f"{name} rolls {' '.join(map(str, game.turn.dice))}", pause)
        action = brain.next_action(game)
        if not hasattr(action, "marked"):
            return post_score(console, table, action.box)
        for die, marked in enumerate(action.marked):
            if marked:
                game.toggle(die)
        kept = [str(d) for d, marked in zip(game.turn.dice, game.turn.marked) if not marked]
        step(console, view, f"{name} keeps {' '.join(kept) or 'nothing'} and rolls again", pause)
        roll_dice(console, table)


def step(console, view, what, pause):
    """Show one step of a computer's turn and let it stand a moment."""
    console.show(view(what), [what])
    console.pause(pause)


def posting_prompt(game, legal):
    """What the posting step's keys are, and what an extra Yahtzee offers."""
    keys = " ".join(KEY_OF_BOX[box] for box in legal)
    back = ", R dice" if game.rolls_left > 0 else ""
    bonus = game.rules.extra_yahtzee_bonus
    if game.must_blank:
        return f"YAHTZEE +{bonus}: blank which box? {keys}{back}, ? advice"
    if game.can_take_extra_turn:
        return f"Post where? {keys} (Y: +{bonus}, roll again){back}, ? advice"
    return f"Post where? {keys}{back}, ? advice"


def posting_question(game, box):
    """The verify question for a posting, in the words of what it does."""
    preview = game.preview(box)
    if preview.extra_turn:
        return f"Take {preview.bonus} and another turn?"
    if preview.blank:
        return f"Blank {box.title} for the {preview.bonus} bonus?"
    return f"Post {preview.points} in {box.title}?"


def posting_brief(game, legal):
    """The open boxes and what each would score, for plain mode."""
    return [f"{game.current.name} has {' '.join(map(str, game.turn.dice))}; boxes: " +
            ", ".join(f"{KEY_OF_BOX[b]} {render.LABELS[b]} {game.points_for(b)}" for b in legal)]


def posting(console, table):
    """Choose the box; verify ON confirms by name, OFF confirms only a lower-box zero."""
    session = table.session
    game = session.game
    if not game.turn.has_rolled:
        return play
    legal = game.legal_boxes()
    view = play_view(console, table, {box: KEY_OF_BOX[box] for box in legal})
    prompt = posting_prompt(game, legal)
    brief = posting_brief(game, legal)
    pending = table.screen.partition(" ")[2]  # a saved moment at the verify question
    table.screen = "posting"
    while True:
        token = pending or ask(console, table, prompt, view, brief)
        pending = ""
        brief = []
        if token == "r" and game.rolls_left > 0:
            return play
        if token == "?":
            show_advice(console, table)
            continue
        box = BOX_KEYS.get(token)
        if box is None:
            console.message(f"Keys here: {prompt.split('? ', 1)[1]}.")
            continue
        try:
            game.check_posting(box)
        except IllegalMove as refusal:
            console.message(sentence(str(refusal)))
            continue
        preview = game.preview(box)
        lower_zero = preview.points == 0 and not box.is_upper and not preview.extra_turn
        if session.verify or (lower_zero and not preview.blank):
            table.screen = f"posting {token}"
            table.checkpoint()
            answer = ask_yes_no(console, table, posting_question(game, box), view, [])
            table.screen = "posting"
            if not answer:
                table.checkpoint()
                continue
        cost = choice_cost(table, lambda coach: coach.cost_of_post(game, box))
        table.last_cost = (game.current.name, cost) if cost is not None else None
        following = post_score(console, table, box)
        tell_cost(console, cost, "That posting")
        return following


def post_score(console, table, box):
    """Post, say what it scored, save, and go to the next turn or the end of the game."""
    session = table.session
    game = session.game
    result = game.post(box)
    console.message(posting_note(result))
    if result.bonus and session.sound:
        console.bell(YAHTZEE_BELLS)
    return finish_game(table) if game.is_over else play


def posting_note(result):
    """What a posting did, in one line."""
    if result.extra_turn:
        return f"{result.player} takes {result.bonus} for the extra YAHTZEE and another turn!"
    if result.blank:
        note = f"{result.player} blanks {result.box.title}."
    else:
        note = f"{result.player} posts {result.points} in {result.box.title}."
    if result.bonus:
        note += f" YAHTZEE bonus +{result.bonus}!"
    if result.roll_bonus:
        note += f" Roll bonus +{result.roll_bonus}."
    if result.reset:
        note += f" The {' and '.join(result.reset)} column is banked and cleared."
    return note


def finish_game(table):
    """File the finished game in the session, then in history.jsonl; gather the notices."""
    session = table.session
    record = session.finish_game(table.now())
    table.screen = "end_of_game"
    table.checkpoint()  # before the history, so a crash here never files the game twice
    if table.saves is not None:
        earlier = table.saves.read_history()
        if table.saves.append_history(record):
            table.notices = [sentence(n) for n in stats.game_notices(earlier, record)]
    return end_of_game


def winner_line(record):
    """Who won the game, or who shared the win."""
    totals = {p["name"]: p["total"] for p in record["players"]}
    winners = record["winners"]
    best = totals[winners[0]]
    if len(record["players"]) == 1:
        return f"{winners[0]} finishes with {best} points."
    if len(winners) == 1:
        return f"{winners[0]} wins with {best} points!"
    return f"{' and '.join(winners)} share the win with {best} points each!"


def end_of_game(console, table):
    """The final sheet and the winner; another game? Y goes through the recap to confirm."""
    session = table.session
    record = session.results[-1]
    announce = [winner_line(record)] + table.notices + match_lines(session)
    sheet = render.final_sheet_lines(Game.from_record(record), console.paint,
                                     room=render.SCREEN_HEIGHT - 3 - len(announce))
    view = lambda prompt: sheet + [""] + [console.paint("good", announce[0])] + announce[1:] + [prompt]
    another = ask_yes_no(console, table, "Another game?", view, announce)
    table.notices = []
    if another:
        return recap_then_confirm
    return recap if len(session.results) >= 2 else None


def match_lines(session):
    """Where a match stands (nothing for single games)."""
    return [] if session.match == SINGLE_GAME else session.standings_lines()


def show_recap(console, table, prompt):
    """Every game of the session, then each player's aggregate and wins, the rules, the match."""
    session = table.session
    losses = session.losses if table.pref("advisor") else None
    lines = render.recap_lines(session.results, console.paint, losses)
    lines += ["", f"Rules: {session.rules.describe()}", *match_lines(session)]
    any_key(console, table, prompt, lambda prompt: lines + ["", prompt, footer_for(console, table)])


def recap(console, table):
    """The recap as the session ends."""
    show_recap(console, table, "Press any key to finish")


def recap_then_confirm(console, table):
    """The recap between games, then the confirm screen."""
    show_recap(console, table, "Press any key for the next game")
    return confirm


def resume(console, table):
    """Offer the saved game before the opening screen: Y goes back to its very moment."""
    saves = table.saves
    if saves is None or not saves.acquire_lock() or not saves.has_autosave():
        return opening
    loaded = saves.load_session()
    if loaded is None or not loaded[0].players:
        return opening
    saved, resume = loaded
    summary = saved_game_summary(saved)
    view = lambda prompt: [console.paint("title", "  A SAVED GAME IS WAITING"), ""] + [
        f"    {line}" for line in summary] + ["", f"  {prompt}", "", footer_for(console, table)]
    if not ask_yes_no(console, table, "Resume the saved game?", view, summary):
        saves.set_aside_autosave()
        return opening
    table.session, table.screen = saved, screen_of(resume)
    file_missing_result(table)
    if table.dice_options:
        console.message("The saved game keeps its own dice: --seed and --dice-file are ignored.")
    return resume_screen(saved, table.screen)


def file_missing_result(table):
    """A game saved as finished but stopped before reaching history.jsonl is filed now."""
    results = table.session.results
    if (table.screen == "end_of_game" and results
            and results[-1] not in table.saves.read_history()):
        table.saves.append_history(results[-1])


def saved_game_summary(session):
    """What the saved game is, in a line or two."""
    names = ", ".join(p.name for p in session.players)
    game = session.game
    if game is None:
        return [f"Players: {names}", f"Games finished: {len(session.results)}"]
    scores = ", ".join(f"{p.name} {p.card.total}" for p in game.players)
    return [f"Game {game.number}, round {game.round} of 13: {game.current.name} to play",
            f"Scores: {scores}"]


def resume_point(screen):
    """The autosave's resume point for a screen name: 'posting h' -> {'screen': 'posting', 'box': 'h'}."""
    name, _, box = screen.partition(" ")
    return {"screen": name, "box": box} if box else {"screen": name} if name else {}


def screen_of(resume):
    """The screen name a resume point stands for (resume_point read back)."""
    return " ".join(value for value in (resume.get("screen"), resume.get("box")) if isinstance(value, str) and value)


def resume_screen(session, name):
    """The screen a saved session stands at, checked against the state it saved."""
    if session.game is not None:
        at_posting = name.partition(" ")[0] == "posting" and session.game.turn.has_rolled
        return posting if at_posting else play
    if session.results and name in ("end_of_game", "recap", "recap_then_confirm"):
        return SCREENS[name]
    return confirm if session.players else opening


SCREENS = {screen.__name__: screen for screen in
           (opening, title, names, confirm, play, posting, end_of_game, recap, recap_then_confirm)}


def run(console, table, screen=resume):
    """Show screens one after another until one returns None; each step is saved."""
    while screen is not None:
        if table.screen.partition(" ")[0] != screen.__name__:
            table.screen = screen.__name__  # (a resumed "posting h" keeps its box)
        table.checkpoint()
        screen = screen(console, table)


def keep_for_later(console, table, quiet=False):
    """The one quit path: save the session as it stands so the next start can resume it."""
    saved = (table.saves is not None and table.session.players
             and table.saves.save_session(table.session, resume_point(table.screen)))
    if not quiet:
        console.message("The game is saved: start again to resume it." if saved else "Goodbye.")
