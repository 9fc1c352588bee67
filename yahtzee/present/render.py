"""Pure rendering: game state in, lines of text out (painted through a palette function)."""
from collections.abc import Iterable, Mapping, Sequence
from typing import Optional, Union

from ..model.choices import Option, OptionKind
from ..model.game import Game, Turn
from ..model.outcome import FinishedGame
from ..model.scorecard import Scorecard
from ..model.scoring import LOWER, SHEET_LABELS, UPPER, Category
from ..model.words import Say, Text
from ..speech.languages import N_, _, ngettext, number, text
from .palette import Paint, no_colour, pad, visible_width, wrapped

SCREEN_WIDTH = 80
SCREEN_HEIGHT = 24
LABEL_WIDTH = 13
COLUMN_WIDTH = 7
MIDDLE_WIDTH = 8

BOX_KEYS = {"1": Category.ONES, "2": Category.TWOS, "3": Category.THREES,
            "4": Category.FOURS, "5": Category.FIVES, "6": Category.SIXES,
            "t": Category.THREE_OF_A_KIND, "f": Category.FOUR_OF_A_KIND,
            "h": Category.FULL_HOUSE, "s": Category.SMALL_STRAIGHT,
            "l": Category.LARGE_STRAIGHT, "y": Category.YAHTZEE, "c": Category.CHANCE}
KEY_OF_BOX = {box: key.upper() for key, box in BOX_KEYS.items()}

PIPS = {
    0: ("   ", "   ", "   "),
    1: ("   ", " o ", "   "),
    2: ("o  ", "   ", "  o"),
    3: ("o  ", " o ", "  o"),
    4: ("o o", "   ", "o o"),
    5: ("o o", " o ", "o o"),
    6: ("o o", "o o", "o o"),
}
UNICODE_DIE = {"top": "┌───┐", "side": "│", "bottom": "└───┘", "pip": "●"}
ASCII_DIE = {"top": "+---+", "side": "|", "bottom": "+---+", "pip": "o"}
UNICODE_TEST = "┌─┐│└┘●"


def can_draw_unicode(encoding: Optional[str]) -> bool:
    """True when the output encoding can show the Unicode dice."""
    try:
        UNICODE_TEST.encode(encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _row(label: str, cells: Iterable[str], key: Optional[str] = None, paint: Paint = no_colour,
         role: Optional[str] = None) -> str:
    """A sheet row: a box is keyed and indented, a total starts at the margin."""
    text = pad(label if key is None else key + " " + label, LABEL_WIDTH)
    body = "".join(right_aligned(cell, COLUMN_WIDTH) for cell in cells)
    return text + (paint(role, body) if role else body)


def _header(game: Game, paint: Paint) -> str:
    """The players' names over their columns, the current player marked."""
    cells = []
    for seat, player in enumerate(game.players):
        current = seat == game.seat and not game.is_over
        name = right_aligned(">" * current + player.name, COLUMN_WIDTH)
        cells.append(paint("current", name) if current else name)
    return " " * LABEL_WIDTH + "".join(cells)


def right_aligned(text: str, width: int) -> str:
    """Text pushed right within `width` terminal cells."""
    return " " * max(0, width - visible_width(text)) + text


def _box_cell(card: Scorecard, box: Category, hint: Optional[tuple[int, bool]] = None, paint: Paint = no_colour) -> str:
    if card.is_blank(box):
        return "-"
    if box in card.boxes:
        return str(card.boxes[box])
    if hint is None:
        return ""
    points, high = hint
    # The star hangs in the last column, so that every hint's brackets line up.
    return paint("high", f"({points})*") if high else paint("hint", f"({points})") + " "


def sheet_lines(game: Game, paint: Paint = no_colour, keys: Optional[Mapping[Category, str]] = None,
                hints: Optional[Mapping[Category, tuple[int, bool]]] = None, par: bool = False) -> list[str]:
    """The scoresheet: a column per player, 20 lines (a par row and a race's banked row
    more); `keys` labels the open boxes to post in, `hints` ({box: (points, high)}) shows in
    the current player's open boxes what they would score."""
    keys = keys or {}
    hints = hints or {}
    cards = [player.card for player in game.players]

    def box_row(box: Category) -> str:
        key = paint("key", keys[box]) if box in keys else " "
        cells = [_box_cell(card, box, hints.get(box) if seat == game.seat else None, paint)
                 for seat, card in enumerate(cards)]
        return _row(_(SHEET_LABELS[box]), cells, key)

    def total_row(label: str, values: Iterable[Union[int, str]]) -> str:
        return _row(label, [str(v) for v in values], paint=paint, role="total")

    bonus_label = _("Bonuses") if game.rules.roll_bonus else _("YAHTZEE bonus")
    return [
        _header(game, paint),
        *[box_row(box) for box in UPPER],
        total_row(_("Upper sum"), [c.upper_sum for c in cards]),
        total_row(_("Upper bonus"), [upper_bonus_cell(c) for c in cards]),
        *([total_row(_("Par"), [par_cell(c) for c in cards])] if par else []),
        total_row(_("Upper total"), [c.upper_total for c in cards]),
        *[box_row(box) for box in LOWER],
        total_row(_("Lower total"), [c.lower_total for c in cards]),
        total_row(bonus_label, [c.yahtzee_bonus + c.roll_bonus for c in cards]),
        *([total_row(_("Banked"), [c.banked for c in cards])] if game.race_target else []),
        total_row(_("GRAND TOTAL"), [c.total for c in cards]),
    ]


def upper_bonus_cell(card: Scorecard) -> str:
    """The upper bonus once won, 0 once out of reach, blank while it is still open."""
    decided = card.par is None and any(box.is_upper for box in card.boxes)
    return str(card.upper_bonus) if decided or card.upper_bonus else ""


def par_cell(card: Scorecard) -> str:
    """How far over or under par (three of each face) the upper boxes stand, while it matters."""
    par = card.par
    if par is None or not any(box.is_upper for box in card.boxes):
        return ""
    return f"{par:+d}" if par else _("par")


def on_off(flag: bool, paint: Paint = no_colour) -> str:
    """ON in green or OFF in red."""
    return paint("on", _("ON")) if flag else paint("off", _("OFF"))


def hotkey_lines(verify: bool, sound: bool, paint: Paint = no_colour) -> list[str]:
    """The middle column: the hot keys, their letter aliases and their state."""
    return ["F8/V", _("Verify"), on_off(verify, paint), "",
            "F9/M", _("Sound"), on_off(sound, paint), "",
            "F10/Q", _("Quit")]


def hotkey_footer(verify: bool, sound: bool, paint: Paint = no_colour) -> str:
    """The hot keys on one line, for the screens without a scoresheet."""
    return _("F8/V verify {verify}   F9/M sound {sound}   F10/Q quit").format(
        verify=on_off(verify, paint), sound=on_off(sound, paint))


def die_lines(face: int, glyphs: Mapping[str, str]) -> list[str]:
    """One die as five lines of five characters."""
    side = glyphs["side"]
    return [glyphs["top"],
            *[side + row.replace("o", glyphs["pip"]) + side for row in PIPS[face]],
            glyphs["bottom"]]


def dice_lines(turn: Turn, paint: Paint = no_colour, unicode: bool = True,
               dice: Optional[Sequence[int]] = None) -> list[str]:
    """The five dice side by side (the turn's, or `dice` while they tumble), their numbers
    under them: [n] red to reroll, n green kept."""
    glyphs = UNICODE_DIE if unicode else ASCII_DIE
    drawn = [die_lines(face, glyphs) for face in (turn.dice if dice is None else dice)]
    rows = [" ".join(die[row] for die in drawn) for row in range(5)]
    numbers = []
    for place, marked in enumerate(turn.marked, start=1):
        if not turn.has_rolled:
            numbers.append(f"  {place}  ")
        elif marked:
            numbers.append(paint("marked", f" [{place}] "))
        else:
            numbers.append(paint("locked", f"  {place}  "))
    return rows + [" ".join(numbers)]


def turn_heading(game: Game) -> Say:
    """Whose turn, which roll: 'ANN  roll 2 of 3'."""
    if game.is_over:
        return Say("Game over")
    rolls = game.turn.rolls
    if not rolls:
        return Say("{name}  to roll").format(name=game.current.name)
    return Say("{name}  roll {roll} of {rolls}").format(name=game.current.name, roll=rolls,
                                                       rolls=rolls + game.rolls_left)


def side_by_side(*columns: tuple[Sequence[str], int]) -> list[str]:
    """Join columns of (lines, width) into rows, padding each column to its width."""
    height = max(len(lines) for lines, _ in columns)
    return ["".join(pad(lines[row] if row < len(lines) else "", width) for lines, width in columns)
            .rstrip() for row in range(height)]


def play_lines(game: Game, verify: bool, sound: bool, status: Text, paint: Paint = no_colour, unicode: bool = True,
               keys: Optional[Mapping[Category, str]] = None,
               hints: Optional[Mapping[Category, tuple[int, bool]]] = None, match: Sequence[str] = (),
               par: bool = False, dice: Optional[Sequence[int]] = None) -> list[str]:
    """The play screen: sheet left, hot keys middle, dice right (`dice` while they tumble;
    the match's lines under them), the status line below."""
    sheet = sheet_lines(game, paint, keys, hints, par)
    middle = ["", ""] + hotkey_lines(verify, sound, paint)
    right = [paint("title", text(turn_heading(game))), ""] + dice_lines(game.turn, paint, unicode, dice)
    right += ["", *match] if match else []
    return side_by_side((sheet, sheet_width(game) + 1), (middle, MIDDLE_WIDTH), (right, 0)) + [text(status)]


def match_lines(describe: Text, points: Mapping[str, int], paint: Paint = no_colour) -> list[str]:
    """Under the dice in a match: what it is, then each player's match total so far."""
    return [capital(text(describe)), paint("total", _("Match totals")),
            *[f"  {pad(name, COLUMN_WIDTH)}{right_aligned(str(total), 6)}"
              for name, total in points.items()]]


def sheet_width(game: Game) -> int:
    """The columns the scoresheet takes."""
    return LABEL_WIDTH + COLUMN_WIDTH * len(game.players)


def end_lines(game: Game, announce: Iterable[Text], paint: Paint = no_colour,
              room: int = SCREEN_HEIGHT - 2) -> list[list[str]]:
    """The end of a game: the whole final sheet, the winner and the notices beside it.
    Returns pages of lines; notices that do not fit `room` rows go to the next page."""
    sheet = sheet_lines(game, paint)
    left = sheet_width(game) + 2
    notes: list[str] = []
    for place, said in enumerate(announce):
        rows = wrapped(text(said), SCREEN_WIDTH - left - 1) if text(said) else [""]
        notes += [paint("good", row) if place == 0 else row for row in rows]
    height = max(len(sheet), room)
    chunks = [notes[start:start + height] for start in range(0, len(notes), height)] or [[]]
    return [side_by_side((sheet, left), (chunk, 0)) for chunk in chunks]


def capital(words: str) -> str:
    """The first letter made a capital, the rest as it is (German nouns keep theirs)."""
    return words[:1].upper() + words[1:]


def too_small_lines(columns: int, lines: int) -> list[str]:
    """What a terminal smaller than 80x24 shows instead of a broken screen."""
    return [_("The terminal is {size}; Computer Yahtzee needs {needed}.").format(
                size=f"{columns}x{lines}", needed=f"{SCREEN_WIDTH}x{SCREEN_HEIGHT}"),
            _("Enlarge the window (F10 or Q quits).")]


ADVICE_COLUMNS = "{mark}  {choice:<40} {keys:<18} {value:>8}"
WIN_COLUMN = " {chance:>6}"


def advice_row(mark: str, choice: str, reroll: str, keys: str, value: str) -> str:
    """One row of the advice table; a long choice (a box has no reroll) takes the reroll's room."""
    return ADVICE_COLUMNS.format(mark=mark, choice=f"{choice:<22} {reroll}".rstrip(), keys=keys, value=value)


def advice_lines(ranked: Sequence[tuple[Option, Optional[float]]], turn: Turn, at_posting: bool = False,
                 paint: Paint = no_colour) -> list[str]:
    """The advisor's (option, chance to win or None) pairs in their order: the choice, the
    dice it rerolls by face, the keys that do it, the final score it expects and, in a game
    with others, its chance to win."""
    with_chances = any(chance is not None for _option, chance in ranked)
    heading = advice_row(" ", _("choice"), _("reroll"), _("keys"), _("expects"))
    lines = [heading + (WIN_COLUMN.format(chance=_("win %")) if with_chances else "")]
    for option, chance in ranked:
        text = advice_row("*" if option.best else " ", choice_text(option), reroll_text(option, turn),
                          advice_keys(option, turn, at_posting), number(option.value, ".2f"))
        if with_chances:
            assert chance is not None  # the advisor gives every option a chance or none
            text += WIN_COLUMN.format(chance=percent(chance))
        lines.append(paint("good", text) if option.best else text)
    return lines


def percent(chance: float) -> str:
    """A chance as a player reads it: '48.3%', '<0.1%' and '>99.9%' near the ends."""
    if 0 < chance < 0.0005:
        return "<" + number(0.001, ".1%")
    if 0.9995 <= chance < 1:
        return ">" + number(0.999, ".1%")
    return number(chance, ".1%")


def choice_text(option: Option, short: bool = False) -> str:
    """An advisor's choice in the player's language: 'keep 4 4', 'reroll all', 'TWOS 6 +35
    upper bonus', 'blank ONES +100 YAHTZEE bonus', 'extra turn +50' (short: '+35 bonus')."""
    if option.kind is OptionKind.KEEP:
        return _("keep {dice}").format(dice=" ".join(map(str, option.kept))) if option.kept else _("reroll all")
    if option.extra_turn:
        return _("extra turn {points}").format(points=f"+{option.yahtzee_bonus}")
    assert option.box is not None  # a box option always names its box
    head = (_("blank {box}").format(box=text(option.box.title)) if option.blank
            else f"{text(option.box.title)} {option.points}")
    return " ".join([head, *bonus_words(option, short)])


def bonus_words(option: Option, short: bool = False) -> list[str]:
    """The bonuses a posting completes or earns, each as '+35 upper bonus' (short: '+35 bonus')."""
    bonuses = ((option.upper_bonus, N_("+{points} upper bonus")),
               (option.yahtzee_bonus, N_("+{points} YAHTZEE bonus")),
               (option.roll_bonus, N_("+{points} roll bonus")))
    return [_(N_("+{points} bonus") if short else words).format(points=points)
            for points, words in bonuses if points]


def reroll_text(option: Option, turn: Turn) -> str:
    """The faces a keep rerolls, in die order ('reroll 6 3'); blank for a box."""
    if option.kind != "keep":
        return ""
    faces = [str(face) for face, again in zip(turn.dice, option.reroll) if again]
    return _("reroll {faces}").format(faces=" ".join(faces)) if faces else ""


def advice_keys(option: Option, turn: Turn, at_posting: bool) -> str:
    """The keys that make this choice from where the player stands ('press 2 4 R')."""
    if option.kind == "keep":
        toggles = [str(die) for die, (now, wanted) in enumerate(zip(turn.marked, option.reroll), 1)
                   if bool(now) != bool(wanted)]
        return _("press {keys}").format(keys=" ".join(toggles + ["R"]))
    box_key = KEY_OF_BOX[option.box or Category.YAHTZEE]
    if at_posting:
        return _("press {keys}").format(keys=box_key)
    unmark = [str(die) for die, marked in enumerate(turn.marked, 1) if marked]
    return _("press {keys}").format(keys=" ".join(unmark + ["R", box_key]))


RECAP_GAMES = 10
RECAP_LABEL = 11


def recap_lines(results: Sequence[FinishedGame], paint: Paint = no_colour,
                losses: Optional[Mapping[str, float]] = None,
                win_losses: Optional[Mapping[str, float]] = None) -> list[str]:
    """The session so far: every game's scores and winner (the last ten listed), then totals
    and games won over all of them, and (with cost notes on) the points given away, and apart
    from them the mean win % given away per decision made ranking advice by the chance to win."""
    names: list[str] = []
    for game in results:
        names += [name for name in game.totals if name not in names]

    def row(label: str, cells: Iterable[str]) -> str:
        return pad(label, RECAP_LABEL) + "".join(right_aligned(cell, COLUMN_WIDTH) for cell in cells)

    lines = [paint("title", _("RECAP")), "", row(_("Game"), names) + "   " + _("Winner")]
    totals = dict.fromkeys(names, 0)
    wins = dict.fromkeys(names, 0)
    for game_number, game in enumerate(results, start=1):
        scores, winners = game.totals, game.winners
        for name, total in scores.items():
            totals[name] += total
        for name in winners:
            wins[name] += 1
        if game_number > len(results) - RECAP_GAMES:
            cells = [str(scores[n]) if n in scores else "-" for n in names]
            lines.append(row(str(game_number), cells) + f"   {', '.join(winners)}")
    if len(results) > RECAP_GAMES:
        earlier = len(results) - RECAP_GAMES
        lines.insert(3, ngettext("({count} earlier game counts in the totals)",
                                 "({count} earlier games count in the totals)",
                                 earlier).format(count=earlier))
    lines += ["", paint("total", row(_("Total"), [str(totals[n]) for n in names])),
              row(_("Won"), [str(wins[n]) for n in names])]
    if losses is not None:
        lines += [row(_("Given away"), [number(losses[n], ".1f") if n in losses else "-" for n in names]),
                  " " * RECAP_LABEL + _("(expected points given away against perfect play)")]
    if losses is not None and win_losses:
        lines += [row(_("Win % lost"), [number(win_losses[n], ".1f") if n in win_losses else "-" for n in names]),
                  " " * RECAP_LABEL + _("(mean win % given away per choice made ranking advice by it, W)")]
    return lines
