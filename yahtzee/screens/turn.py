"""A turn: roll, mark and reroll, post (with the verify question), a computer's turn, undo
(what each step shows and says is yahtzee.screens.playscreen)."""
import random
from typing import Optional

from ..coach.replay import COSTLY
from ..consoles.tumble import SPEEDS, tumbling_dice
from ..model.choices import Post
from ..model.game import Game, Turn
from ..model.illegal import IllegalMove
from ..model.scoring import Category, is_yahtzee
from ..model.words import Num, Painted, Say, Sentence, Text
from ..present import spoken
from ..present.look import Frame, View
from ..present.palette import REVERSE
from ..present.render import BOX_KEYS, KEY_OF_BOX
from .advice import show_advice
from .context import Context, game_in_play
from .dialog import Console
from .playscreen import (
    dice_keys_note,
    dice_prompt,
    play_view,
    posting_brief,
    posting_keys,
    posting_note,
    posting_prompt,
    posting_question,
    rolls_note,
    total_note,
    turn_brief,
)
from .prompts import ask, hot_key, yes
from .steps import Moment, Screen
from .waiting import wait_screen

YAHTZEE_BELLS = 3
YAHTZEE_BLINKS = 3
BLINK_SECONDS = 0.15  # each half of a blink
TUMBLE_FACES = random.Random()  # the tumbling faces' own source: never the game's dice


def play(console: Console, ctx: Context) -> Moment:
    """One step of a turn: the first roll, or a mark, a reroll, advice; R alone goes to posting."""
    game = game_in_play(ctx.session)
    if game.current.is_computer:
        return computer_step(console, ctx)
    view = play_view(ctx)
    if not game.turn.has_rolled:
        return first_roll(console, ctx, view)
    if game.rolls_left == 0:
        return Moment(Screen.POSTING)
    hold = ctx.settings.prefs.marking == "hold"
    brief = turn_brief(ctx) + greeted(ctx)
    while True:
        token = ask(console, ctx, dice_prompt(game, hold, console.look.in_lines), view, brief)
        digits = token.replace(" ", "")
        if digits and all(ch in "12345" for ch in digits):
            for ch in digits:
                game.toggle(int(ch) - 1)
            return Moment(Screen.PLAY)
        if token == "r" and any(game.turn.marked):
            cost = choice_cost(console, ctx, view)
            roll_dice(console, ctx)
            tell_cost(console, cost, posting=False)
            return Moment(Screen.PLAY)
        if token == "r":
            return Moment(Screen.POSTING)
        if token == "?":
            show_advice(console, ctx, view)
            brief = turn_brief(ctx)
            continue
        brief = []
        if token == "b" and console.look.in_lines:
            read_sheet(console, game)
            continue
        console.remind(dice_keys_note(hold, console.look.in_lines))


def first_roll(console: Console, ctx: Context, view: View) -> Moment:
    """Any key rolls the turn's first dice (U takes back the last posting while it may)."""
    game = game_in_play(ctx.session)
    name = game.current.name
    plain = Say("{name}: press any key to roll").format(name=name)
    prompt = Say("{name}: press any key to roll, U takes back the last posting").format(name=name)
    if ctx.services.strategy is not None:
        ctx.services.strategy.coach.prepare_turn(game)  # the advice page's win chances, while the player looks
    token = ask(console, ctx, prompt if game.can_undo else plain, view, [spoken.turn_sentence(game)],
                without_undo=plain if game.can_undo else None)
    if token == "u" and game.can_undo:
        return take_back(console, ctx)
    console.forget_messages()  # the last turn's messages are done with
    roll_dice(console, ctx)
    return Moment(Screen.PLAY)


def read_sheet(console: Console, game: Game) -> None:
    """B in plain mode: the whole score sheet, a sentence a player."""
    for line in spoken.sheet_sentences(game):
        console.message(line)


def take_back(console: Console, ctx: Context) -> Moment:
    """Undo the last posting: its player is back at posting with the same dice."""
    game = game_in_play(ctx.session)
    game.undo()
    player = game.current.name
    console.message(Say("{name}'s last posting is taken back.").format(name=player))
    return Moment(Screen.POSTING)


def choice_cost(console: Console, ctx: Context, view: View,
                box: Optional[Category] = None) -> Optional[tuple[float, bool]]:
    """What the current human's choice (the marked reroll, or posting in `box`) gives away, for
    its cost note, and whether in win % (a player who ranks advice by the chance to win, once
    the chances are known) rather than expected points; None when cost notes are off or the
    player went on without waiting for the strategy (on `view`). The recap counts every choice
    from the game's review."""
    strategy = ctx.services.strategy
    if strategy is None or not ctx.settings.prefs.advisor:
        return None
    game, coach = game_in_play(ctx.session), strategy.coach
    if not wait_screen(console, ctx, view, strategy.tables.waiting(game.rules), way_back=True):
        return None
    by_win = game.current.name in ctx.session.win_rankers and coach.chances_waiting(game) is None
    lost = coach.win_cost(game, box, ctx.session.match_stand()) if by_win else None
    if lost is not None:
        return lost, True
    return (coach.cost_of_reroll(game) if box is None else coach.cost_of_post(game, box)), False


def tell_cost(console: Console, cost: Optional[tuple[float, bool]], posting: bool) -> None:
    """Say what a reroll or posting cost when it was not the best, in the measure it was judged by."""
    if cost is None or cost[0] < COSTLY:
        return
    points, by_win = Num(cost[0], ".1f"), cost[1]
    if posting:
        said = (Say("That posting cost {points} win % against the choice likeliest to win.") if by_win
                else Say("That posting cost {points} points against perfect play."))
    else:
        said = (Say("That reroll cost {points} win % against the choice likeliest to win.") if by_win
                else Say("That reroll cost {points} points against perfect play."))
    console.message(said.format(points=points))


def computer_step(console: Console, ctx: Context) -> Moment:
    """One step of a computer's turn, each shown a moment; a key only hurries it (keys typed
    during it never answer what follows). Where keys are read (not plain mode's protocol of
    lines) a human's posting just made may be taken back before the computer starts."""
    game = game_in_play(ctx.session)
    name = game.current.name
    view = play_view(ctx)
    pause = ctx.settings.prefs.computer_delay
    if not game.turn.has_rolled:
        if game.can_undo and not console.reads_lines:
            prompt = Say("{name} plays next: press any key to start, U takes back the last posting").format(name=name)
            plain = Say("{name} plays next: press any key to start").format(name=name)
            if ask(console, ctx, prompt, view, [], plain) == "u":  # a screen reader says the prompt alone
                return take_back(console, ctx)
        console.forget_messages()
        whose = spoken.turn_sentence(game)
        roll_dice(console, ctx)
        show_step(console, ctx, view, rolls_note(game), pause, [whose, rolls_note(game), *greeted(ctx)])
        return Moment(Screen.PLAY)
    strategy = ctx.services.strategy
    assert strategy is not None
    if not any(game.turn.marked):  # else its keep was chosen and marked before the game was saved
        wait_screen(console, ctx, view, strategy.opponents.waiting(game))
        action = strategy.opponents.action(game)
        if isinstance(action, Post):
            return computer_posts(console, ctx, view, action.box, pause)
        set_marked(game, action.marked)
    kept = [str(d) for d, marked in zip(game.turn.dice, game.turn.marked) if not marked]
    keeps = (Say("{name} keeps {dice} and rolls again") if kept
             else Say("{name} keeps nothing and rolls again"))
    show_step(console, ctx, view, keeps.format(name=name, dice=" ".join(kept)), pause)
    roll_dice(console, ctx)
    show_step(console, ctx, view, rolls_note(game), pause, [rolls_note(game), *greeted(ctx)])
    return Moment(Screen.PLAY)


def computer_posts(console: Console, ctx: Context, view: View, box: Category, pause: float) -> Moment:
    """The computer posts, and the sheet with its posting stands a moment; the keys pressed
    during its turn only hurried it, but the hot keys among them act now."""
    game = game_in_play(ctx.session)
    moment = post_and_tell(console, ctx, view, box)
    if not game.is_over:
        show_step(console, ctx, view, "", pause, [])  # the sheet with the posting on it
    for token in console.typed_ahead():
        hot_key(console, ctx, token, view)
    return moment


def show_step(console: Console, ctx: Context, view: View, what: Text, pause: float,
              brief: Optional[list[Text]] = None) -> None:
    """Show one step of a computer's turn (plain mode says `brief`, by default `what`) and let
    it stand a moment: a key cuts the moment short, a hot key still acts."""
    console.show(view(what), [what] if brief is None else brief)
    hot_key(console, ctx, console.pause(pause), view, what)


def roll_dice(console: Console, ctx: Context) -> None:
    """Roll, then let the rolled dice tumble a moment (the dice are already decided); set
    the marks for the next roll; ring, and show a Yahtzee in bold under the screen."""
    game = game_in_play(ctx.session)
    before = game.turn
    game.roll()
    tumble(console, ctx, [die for die, marked in enumerate(before.marked)
                          if marked or not before.has_rolled])
    set_marks(ctx, before)
    yahtzee = is_yahtzee(game.turn.dice)
    if ctx.session.sound:
        console.bell(YAHTZEE_BELLS if yahtzee else 1)
    if yahtzee and console.look.in_lines:
        ctx.passing.greeting = [Painted("yahtzee", Say("YAHTZEE!"))]  # said after the dice it greets
    elif yahtzee:
        flash_yahtzee(console, ctx)


def greeted(ctx: Context) -> list[Text]:
    """What greets the last roll, said once, after its dice (where a screen is told in lines)."""
    greeting, ctx.passing.greeting = ctx.passing.greeting, []
    return greeting


def flash_yahtzee(console: Console, ctx: Context) -> None:
    """A Yahtzee: blinked in reverse video a few times under the screen where the console
    flashes (any key cuts it short), then left there in its colour; said once where not."""
    word = Say("YAHTZEE!")
    screen = play_view(ctx)("")
    if not console.look.flashes:
        console.message(Painted("yahtzee", word))
        return
    def blink(frame: int) -> Frame:
        shown = REVERSE + word if frame % 2 == 0 else word
        return lambda look: [*screen(look), look.paint("yahtzee", look.words(shown))]
    console.animate((blink(frame) for frame in range(2 * YAHTZEE_BLINKS)), BLINK_SECONDS)
    console.message(Painted("yahtzee", word))


def tumble(console: Console, ctx: Context, rolled: list[int]) -> None:
    """In key mode, the rolled dice tumble at the preferred speed; any key cuts it short
    and is left to act on the settled dice."""
    frames, seconds = SPEEDS[ctx.settings.prefs.dice_roll]
    if console.look.in_lines or not frames:
        return
    game = game_in_play(ctx.session)
    status = Say("{name} rolls...").format(name=game.current.name)
    console.animate((play_view(ctx, dice=dice)(status) for dice in tumbling_dice(
        game.turn.dice, rolled, frames, TUMBLE_FACES)), seconds)


def set_marks(ctx: Context, before: Turn) -> None:
    """A human's dice after a roll: all locked (in hold marking all to roll, as holding picks
    the dice to keep), or with the keep-marks preference marked as they were for this roll."""
    game = game_in_play(ctx.session)
    if game.current.is_computer or not game.rolls_left:
        return
    if ctx.settings.prefs.keep_marks and before.has_rolled:
        set_marked(game, before.marked)
    else:
        set_marked(game, (ctx.settings.prefs.marking == "hold",) * len(before.marked))


def set_marked(game: Game, wanted: tuple[bool, ...]) -> None:
    """Mark for the reroll exactly the `wanted` dice (toggling only those that differ)."""
    for die, (now, want) in enumerate(zip(game.turn.marked, wanted)):
        if now != want:
            game.toggle(die)


def posting(console: Console, ctx: Context) -> Moment:
    """Choose the box; verify ON confirms by name, OFF confirms only a lower-box zero."""
    game = game_in_play(ctx.session)
    if not game.turn.has_rolled:
        return Moment(Screen.PLAY)
    legal = game.legal_boxes()
    view = play_view(ctx, {box: KEY_OF_BOX[box] for box in legal})
    prompt = posting_prompt(game, legal, console.look.in_lines)
    brief = posting_brief(game, legal) + greeted(ctx)
    while True:
        token = ask(console, ctx, prompt, view, brief)
        brief = []
        if token == "r" and game.rolls_left > 0:
            return Moment(Screen.PLAY)
        if token == "?":
            show_advice(console, ctx, view)
            continue
        if token == "b" and console.look.in_lines:
            read_sheet(console, game)
            continue
        box = BOX_KEYS.get(token)
        if box is None:
            console.remind(Say("Keys here: {keys}.").format(keys=posting_keys(game, legal, console.look.in_lines)))
            continue
        try:
            game.check_posting(box)
        except IllegalMove as refusal:
            console.remind(Sentence(refusal.said))
            continue
        preview = game.preview(box)
        lower_zero = preview.points == 0 and not box.is_upper and not preview.extra_turn
        if ctx.session.verify or (lower_zero and not preview.blank):
            return Moment(Screen.VERIFY, box)
        return post_and_tell(console, ctx, view, box)


def verify(console: Console, ctx: Context) -> Moment:
    """The verify question for the box chosen: Y posts, N goes back to choosing."""
    game = game_in_play(ctx.session)
    box = ctx.moment.box
    if box is None:
        return Moment(Screen.POSTING)
    try:
        game.check_posting(box)
    except IllegalMove:
        return Moment(Screen.POSTING)
    view = play_view(ctx, {b: KEY_OF_BOX[b] for b in game.legal_boxes()})
    if not yes(console, ctx, posting_question(game, box), view, []):
        return Moment(Screen.POSTING)
    return post_and_tell(console, ctx, view, box)


def post_and_tell(console: Console, ctx: Context, view: View, box: Category) -> Moment:
    """Post, say what it scored (and what it cost), then the next turn or the end of the game."""
    session = ctx.session
    game = game_in_play(session)
    human = not game.current.is_computer
    cost = choice_cost(console, ctx, view, box) if human else None
    result = game.post(box)
    console.message(posting_note(result))
    tell_cost(console, cost, posting=True)
    if console.look.in_lines:  # key mode shows the new total on the sheet
        console.message(total_note(game, result.player))
    if result.bonus and session.sound:
        console.bell(YAHTZEE_BELLS)
    if not game.is_over:
        return Moment(Screen.PLAY)
    session.finish_game(ctx.now())
    return Moment(Screen.END_OF_GAME)


