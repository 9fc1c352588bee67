"""What a turn's screens show and say: the play screen's lines, the prompts of the dice and
posting steps, the verify question, a posting's note, and plain mode's briefs."""
from collections.abc import Sequence
from typing import Optional

from .. import render, spoken
from ..game import Game, Posting
from ..language import N_, _
from ..match import SINGLE_GAME, totals
from ..render import KEY_OF_BOX
from ..scoring import BEST_POINTS, Category
from ..session import Session
from .context import Console, Context, game_in_play
from .prompts import View

COLUMN_NOTES = {("upper",): N_(" The upper column is banked and cleared."),
                ("lower",): N_(" The lower column is banked and cleared."),
                ("upper", "lower"): N_(" The upper and lower column is banked and cleared.")}


def dice_prompt(game: Game, hold: bool, plain: bool = False) -> str:
    """The dice step's keys: which number keys mark, and what R does (in plain mode, B
    reads the sheet)."""
    rolls = _("Roll {roll} of {rolls}").format(roll=game.turn.rolls,
                                              rolls=game.turn.rolls + game.rolls_left)
    sheet = sheet_key(plain)
    if hold:
        return _("{rolls}: 1-5 hold dice, R rolls the others, ? advice").format(rolls=rolls) + sheet
    return _("{rolls}: 1-5 mark dice, R rolls, ? advice").format(rolls=rolls) + sheet


def sheet_key(plain: bool) -> str:
    """Plain mode's B key on a prompt (key mode shows the sheet all the time)."""
    return _(", B sheet") if plain else ""


def dice_keys_note(hold: bool, plain: bool) -> str:
    """The dice step's keys in a sentence, for a key that does nothing there."""
    note = (_("Keys here: 1-5 hold or free a die, R rolls the others, ? advice.") if hold
            else _("Keys here: 1-5 mark or lock a die, R rolls the marked dice, ? advice."))
    return note + (_(" B reads the sheet.") if plain else "")


def rolls_note(game: Game) -> str:
    """What the current player rolled: 'ANN rolls 3 5 2 2 6'."""
    return _("{name} rolls {dice}").format(name=game.current.name,
                                           dice=" ".join(map(str, game.turn.dice)))


def posting_prompt(game: Game, legal: Sequence[Category], plain: bool = False) -> str:
    """What the posting step's keys are, and what an extra Yahtzee offers (in plain mode,
    B reads the sheet)."""
    keys = " ".join(KEY_OF_BOX[box] for box in legal)
    back = _(", R dice") if game.rolls_left > 0 else ""
    back += sheet_key(plain)
    bonus = game.rules.extra_yahtzee_bonus
    if game.must_blank:
        text = _("YAHTZEE +{bonus}: blank which box? {keys}{back}, ? advice")
    elif game.can_take_extra_turn:
        text = _("Post where? {keys} (Y: +{bonus}, roll again){back}, ? advice")
    else:
        text = _("Post where? {keys}{back}, ? advice")
    return text.format(bonus=bonus, keys=keys, back=back)


def posting_question(game: Game, box: Category) -> str:
    """The verify question for a posting, in the words of what it does."""
    preview = game.preview(box)
    if preview.extra_turn:
        return _("Take {bonus} and another turn?").format(bonus=preview.bonus)
    if preview.blank:
        return _("Blank {box} for the {bonus} bonus?").format(box=box.title, bonus=preview.bonus)
    return _("Post {points} in {box}?").format(points=preview.points, box=box.title)


def posting_brief(game: Game, legal: Sequence[Category]) -> list[str]:
    """The open boxes and what each would score, for plain mode."""
    boxes = ", ".join(f"{KEY_OF_BOX[b]} {spoken.spoken_label(b)} {game.points_for(b)}" for b in legal)
    return [_("{name} has {dice}; boxes: {boxes}").format(
        name=game.current.name, dice=" ".join(map(str, game.turn.dice)), boxes=boxes)]


def total_note(game: Game, name: str) -> str:
    """A player's total after a posting, in words."""
    total = next(p.card.total for p in game.players if p.name == name)
    return _("{name}'s total is now {total}.").format(name=name, total=total)


def posting_note(result: Posting) -> str:
    """What a posting did, in one line."""
    if result.extra_turn:
        return _("{name} takes {bonus} for the extra YAHTZEE and another turn!").format(
            name=result.player, bonus=result.bonus)
    if result.blank:
        note = _("{name} blanks {box}.").format(name=result.player, box=result.box.title)
    else:
        note = _("{name} posts {points} in {box}.").format(name=result.player, points=result.points,
                                                          box=result.box.title)
    if result.bonus:
        note += _(" YAHTZEE bonus +{points}!").format(points=result.bonus)
    if result.roll_bonus:
        note += _(" Roll bonus +{points}.").format(points=result.roll_bonus)
    if result.reset:
        note += _(COLUMN_NOTES[tuple(result.reset)])
    return note


def play_view(console: Console, ctx: Context, keys: Optional[dict[Category, str]] = None,
              dice: Optional[tuple[int, ...]] = None) -> View:
    """The play screen's lines for a status prompt (showing `dice` while they tumble)."""
    session = ctx.session
    return lambda prompt: render.play_lines(
        game_in_play(session), session.verify, session.sound, prompt, console.paint, console.unicode,
        keys, hints(ctx) if dice is None else None, match_view(console, session),
        par=ctx.pref("par"), dice=dice)


def match_view(console: Console, session: Session) -> list[str]:
    """In a match, what it is and each player's match total so far (this game included)."""
    if session.match == SINGLE_GAME:
        return []
    points = totals(session.match_scores)
    for player in game_in_play(session).players:
        points[player.name] = points.get(player.name, 0) + player.card.total
    return render.match_lines(capital(session.match.describe()), points, console.paint)


def hints(ctx: Context) -> Optional[dict[Category, tuple[int, bool]]]:
    """What the dice would score in each open box, when the hints preference is on."""
    game = game_in_play(ctx.session)
    if not (ctx.pref("hints") and game.turn.has_rolled and not game.current.is_computer):
        return None
    threshold = ctx.pref("hint_threshold") / 100
    shown = {}
    for box in game.legal_boxes():
        points = game.points_for(box)
        shown[box] = (points, points > 0 and points >= threshold * BEST_POINTS[box])
    return shown


def turn_brief(ctx: Context) -> list[str]:
    """Plain mode's view of a turn: the dice line, and the hints when they are on."""
    shown = hints(ctx)
    extra = [] if not shown else [_("hints: {boxes}").format(boxes=", ".join(
        f"{KEY_OF_BOX[box]} {spoken.spoken_label(box)} {points}{'*' if high else ''}"
        for box, (points, high) in shown.items()))]
    return dice_brief(game_in_play(ctx.session), ctx.pref("marking") == "hold") + extra


def dice_brief(game: Game, hold: bool = False) -> list[str]:
    """The dice on one line, for plain mode: 'ANN roll 2 of 3: 3 5 2 2 6   marked: die 1 (3),
    die 3 (2)', each marked die by its place and its face (in hold marking the held dice:
    'held: die 2 (5)')."""
    picked = [_("die {place} ({face})").format(place=place, face=face)
              for place, (face, marked) in enumerate(zip(game.turn.dice, game.turn.marked), start=1) if marked != hold]
    dice = " ".join(str(d) for d in game.turn.dice)
    text = _("{heading}: {dice}   held: {dice_picked}") if hold \
        else _("{heading}: {dice}   marked: {dice_picked}")
    return [text.format(heading=render.turn_heading(game), dice=dice, dice_picked=", ".join(picked) or _("none"))]


def capital(text: str) -> str:
    """The first letter made a capital, the rest as it is (German nouns keep theirs)."""
    return text[:1].upper() + text[1:]
