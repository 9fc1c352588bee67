"""What a turn's screens show and say: the play screen's lines, the prompts of the dice and
posting steps, the verify question, a posting's note, and plain mode's briefs."""
from collections.abc import Sequence
from typing import Optional

from ..model.game import Game, PostingResult
from ..model.match import SINGLE_GAME, totals
from ..model.scoring import BEST_POINTS, Category
from ..model.session import Session
from ..model.words import N_, Say, Text, joined
from ..present import render
from ..present.look import Frame, Look, View
from ..present.render import KEY_OF_BOX
from ..present.spoken import spoken_label
from .context import Context, game_in_play
from .prompts import sound_at

COLUMN_NOTES = {("upper",): N_(" The upper column is banked and cleared."),
                ("lower",): N_(" The lower column is banked and cleared."),
                ("upper", "lower"): N_(" The upper and lower column is banked and cleared.")}


def dice_prompt(game: Game, hold: bool, plain: bool = False) -> Text:
    """The dice step's keys: which number keys mark, and what R does (in plain mode, B
    reads the sheet)."""
    rolls = Say("Roll {roll} of {rolls}").format(roll=game.turn.rolls,
                                              rolls=game.turn.rolls + game.rolls_left)
    sheet = sheet_key(plain)
    if hold:
        return Say("{rolls}: 1-5 hold dice, R rolls the others, ? advice").format(rolls=rolls) + sheet
    return Say("{rolls}: 1-5 mark dice, R rolls, ? advice").format(rolls=rolls) + sheet


def sheet_key(plain: bool) -> Text:
    """Plain mode's B key on a prompt (key mode shows the sheet all the time)."""
    return Say(", B sheet") if plain else ""


def dice_keys_note(hold: bool, plain: bool) -> Text:
    """The dice step's keys in a sentence, for a key that does nothing there."""
    note = (Say("Keys here: 1-5 hold or free a die, R rolls the others, ? advice.") if hold
            else Say("Keys here: 1-5 mark or lock a die, R rolls the marked dice, ? advice."))
    return note + (Say(" B reads the sheet.") if plain else "")


def rolls_note(game: Game) -> Text:
    """What the current player rolled: 'ANN rolls 3 5 2 2 6'."""
    return Say("{name} rolls {dice}").format(name=game.current.name,
                                           dice=" ".join(map(str, game.turn.dice)))


def posting_prompt(game: Game, legal: Sequence[Category], plain: bool = False) -> Text:
    """The posting step's question and its keys."""
    question = Say("YAHTZEE +{bonus}: blank which box? {keys}") if game.must_blank else Say("Post where? {keys}")
    return question.format(bonus=game.rules.extra_yahtzee_bonus, keys=posting_keys(game, legal, plain))


def posting_keys(game: Game, legal: Sequence[Category], plain: bool = False) -> Text:
    """What the posting step's keys are, and what an extra Yahtzee offers (in plain mode,
    B reads the sheet)."""
    keys = " ".join(KEY_OF_BOX[box] for box in legal)
    back = joined([Say(", R dice") if game.rolls_left > 0 else "", sheet_key(plain)])
    text = (Say("{keys} (Y: +{bonus}, roll again){back}, ? advice") if game.can_take_extra_turn and not game.must_blank
            else Say("{keys}{back}, ? advice"))
    return text.format(bonus=game.rules.extra_yahtzee_bonus, keys=keys, back=back)


def posting_question(game: Game, box: Category) -> Text:
    """The verify question for a posting, in the words of what it does."""
    preview = game.preview(box)
    if preview.extra_turn:
        return Say("Take {bonus} and another turn?").format(bonus=preview.bonus)
    if preview.blank:
        return Say("Blank {box} for the {bonus} bonus?").format(box=box.title, bonus=preview.bonus)
    return Say("Post {points} in {box}?").format(points=preview.points, box=box.title)


def posting_brief(game: Game, legal: Sequence[Category]) -> list[Text]:
    """The open boxes and what each would score, for plain mode."""
    boxes = joined((joined([KEY_OF_BOX[b], spoken_label(b), str(game.points_for(b))], " ") for b in legal), ", ")
    return [Say("{name} has {dice}; boxes: {boxes}").format(
        name=game.current.name, dice=" ".join(map(str, game.turn.dice)), boxes=boxes)]


def total_note(game: Game, name: str) -> Text:
    """A player's total after a posting, in words."""
    total = next(p.card.total for p in game.players if p.name == name)
    return Say("{name}'s total is now {total}.").format(name=name, total=total)


def posting_note(result: PostingResult) -> Text:
    """What a posting did, in one line."""
    if result.extra_turn:
        return Say("{name} takes {bonus} for the extra YAHTZEE and another turn!").format(
            name=result.player, bonus=result.bonus)
    note: Text
    if result.blank:
        note = Say("{name} blanks {box}.").format(name=result.player, box=result.box.title)
    else:
        note = Say("{name} posts {points} in {box}.").format(name=result.player, points=result.points,
                                                          box=result.box.title)
    if result.bonus:
        note += Say(" YAHTZEE bonus +{points}!").format(points=result.bonus)
    if result.roll_bonus:
        note += Say(" Roll bonus +{points}.").format(points=result.roll_bonus)
    if result.reset:
        note += Say(COLUMN_NOTES[tuple(result.reset)])
    return note


def play_view(ctx: Context, keys: Optional[dict[Category, str]] = None,
              dice: Optional[tuple[int, ...]] = None) -> View:
    """The play screen for a status prompt (showing `dice` while they tumble), drawn by each
    console in its look."""
    session = ctx.session
    shown_hints = hints(ctx) if dice is None else None
    def view(prompt: Text) -> Frame:
        return lambda look: render.play_lines(
            game_in_play(session), session.verify, sound_at(ctx, look), prompt, look.paint, look.unicode,
            keys, shown_hints, match_view(session, look), par=ctx.settings.prefs.par, dice=dice)
    return view


def match_view(session: Session, look: Look) -> list[str]:
    """In a match, what it is and each player's match total so far (this game included)."""
    if session.match == SINGLE_GAME:
        return []
    points = totals(session.match_scores)
    for player in game_in_play(session).players:
        points[player.name] = points.get(player.name, 0) + player.card.total
    return render.match_lines(session.match.describe(), points, look.paint)


def hints(ctx: Context) -> Optional[dict[Category, tuple[int, bool]]]:
    """What the dice would score in each open box, when the hints preference is on."""
    game = game_in_play(ctx.session)
    if not (ctx.settings.prefs.hints and game.turn.has_rolled and not game.current.is_computer):
        return None
    threshold = ctx.settings.prefs.hint_threshold / 100
    shown = {}
    for box in game.legal_boxes():
        points = game.points_for(box)
        shown[box] = (points, points > 0 and points >= threshold * BEST_POINTS[box])
    return shown


def turn_brief(ctx: Context) -> list[Text]:
    """Plain mode's view of a turn: the dice line, and the hints when they are on."""
    shown = hints(ctx)
    extra: list[Text] = [] if not shown else [Say("hints: {boxes}").format(boxes=joined(
        (joined([KEY_OF_BOX[box], spoken_label(box), f"{points}{'*' if high else ''}"], " ")
         for box, (points, high) in shown.items()), ", "))]
    return dice_brief(game_in_play(ctx.session), ctx.settings.prefs.marking == "hold") + extra


def dice_brief(game: Game, hold: bool = False) -> list[Text]:
    """The dice on one line, for plain mode: 'ANN roll 2 of 3: 3 5 2 2 6   marked: die 1 (3),
    die 3 (2)', each marked die by its place and its face (in hold marking the held dice:
    'held: die 2 (5)')."""
    picked = [Say("die {place} ({face})").format(place=place, face=face)
              for place, (face, marked) in enumerate(zip(game.turn.dice, game.turn.marked), start=1) if marked != hold]
    dice = " ".join(str(d) for d in game.turn.dice)
    text = Say("{heading}: {dice}   held: {dice_picked}") if hold \
        else Say("{heading}: {dice}   marked: {dice_picked}")
    chosen = joined(picked, ", ") if picked else Say("none")
    return [text.format(heading=render.turn_heading(game), dice=dice, dice_picked=chosen)]

