"""Every message is on screen with the key that caused it and goes with its question: what
the terminal shows each time the game waits for a key, in-process with scripted keys."""
from collections.abc import Iterator, Sequence
from functools import partial
from typing import Callable, Optional

import pytest
from helpers import KeyScript, there
from keycodes import F8, F9

from yahtzee.consoles.stops import InputClosed
from yahtzee.model.game import Player
from yahtzee.model.scoring import Category
from yahtzee.screens.context import Context
from yahtzee.screens.flow import SCREENS, Keeper
from yahtzee.screens.steps import Moment, Screen


@pytest.fixture
def run_keys(context: Callable[..., Context]) -> Iterator[Callable[..., KeyScript]]:
    """Run the flow's screens from one screen with scripted keys until they run out; the
    script, whose `seen` holds the terminal at every wait for a key (the last: after them)."""
    scripts: list[KeyScript] = []

    def run(screen: Screen, keys: str, players: Sequence[str] = (), faces: Sequence[int] = (),
            finished: bool = False) -> KeyScript:
        ctx = context(faces, players)
        if players:
            ctx.session.new_game()
        if finished:
            for box in Category:
                for _player in players:
                    there(ctx.session.game).roll()
                    there(ctx.session.game).post(box)
            ctx.session.finish_game(ctx.now())
        script = KeyScript(keys)
        scripts.append(script)
        keeper, moment = Keeper(ctx), Moment(screen)
        next_moment: Optional[Moment] = moment
        with pytest.raises(InputClosed):
            while next_moment is not None:
                ctx.moment = moment = next_moment
                keeper.keep(ctx)
                next_moment = SCREENS[moment.screen](script.console, ctx)
        return script

    yield run
    for script in scripts:
        script.close()


def test_every_names_screen_message_is_shown_with_the_key_that_caused_it(run_keys: Callable) -> None:
    script = run_keys(Screen.NAMES, "\rANN\rann\r" + F8 + F9 + "BOB\r\r")
    first, empty, second, duplicate, verify, sound, third, confirm = script.seen
    assert "Player 1 name:" in first and "F8/V verify ON   F9/M sound ON   F10/Q quit" in first
    assert "At least one player is needed." in empty
    assert "Player 2 name:" in second and "At least one player" not in second
    assert "ann is already playing: choose another name." in duplicate
    assert "Verify is now OFF." in verify and "F8/V verify OFF" in verify
    assert "Sound is now OFF." in sound and "Verify is now OFF." in sound
    assert "Player 3 name:" in third and "Ready to play? (Y/N)" in confirm
    assert not any(note in third for note in ("already playing", "Verify is now", "Sound is now"))


def test_a_hot_keys_note_goes_when_the_next_question_is_asked(run_keys: Callable) -> None:
    script = run_keys(Screen.PLAY, " r" + F8 + F8 + "3", players=["ANN", "BOB"],
                      faces=[3, 3, 1, 2, 5])
    at_posting, after_f8, after_f8_again, question = script.seen[-4:]
    assert "Post where?" in at_posting
    assert "Verify is now OFF." in after_f8 and "Verify is now ON." in after_f8_again
    assert "Post 6 in THREES? (Y/N)" in question and "Verify is now" not in question


def test_a_reminder_at_the_end_of_a_game_stays_off_the_statistics_page(run_keys: Callable) -> None:
    script = run_keys(Screen.END_OF_GAME, "zs", players=["ANN"], faces=[1, 1, 1, 2, 2] * 13, finished=True)
    reminder = "Please answer Y or N (R shows the review, S the statistics)."
    asked, reminded, page = script.seen[-3:]
    assert "Another game? (Y/N)" in asked and reminder not in asked
    assert reminder in reminded
    assert "HALL OF FAME" in page and reminder not in page


def test_a_player_added_to_a_match_under_way_is_told_it_starts_at_0(context: partial) -> None:
    from yahtzee.model.match import parse_match
    from yahtzee.screens.lobby import start_game
    ctx = context([1, 1, 1, 2, 2] * 13)
    ctx.session.start_match(parse_match("challenge 3"))
    ctx.session.players.append(Player("ANN"))
    game = ctx.session.new_game()
    for box in Category:
        game.roll()
        game.post(box)
    ctx.session.finish_game(ctx.now())
    ctx.session.players.append(Player("BOB"))
    script = KeyScript("")
    try:
        assert start_game(script.console, ctx) == Moment(Screen.PLAY)
    finally:
        script.close()
    assert script.messages == ["BOB joins the match with 0 points: the others have played 1 of its games."]


def test_the_same_reminder_again_is_not_stacked(run_keys: Callable) -> None:
    script = run_keys(Screen.NAMES, "ANN\r\rzzz")
    assert script.seen[-1].count("Please answer Y or N.") == 1
