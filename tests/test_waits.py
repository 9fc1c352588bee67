"""Every wait is a screen: while the strategy engine prepares what a step needs, the hot keys
act at once, Esc leaves a wait that has a way back, no key is kept for a later question, and
the advice page shows before the win chances exist, filling them in when they come."""
import dataclasses
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable, Optional

import pytest
from helpers import KeyScript, plain_console, printed, table_context, there

from yahtzee.coach.services import StrategyServices
from yahtzee.coach.tablekeeper import TableKeeper
from yahtzee.model.game import Game
from yahtzee.screens.advice import show_advice
from yahtzee.screens.context import Context
from yahtzee.screens.playscreen import play_view
from yahtzee.screens.prompts import QuitGame
from yahtzee.screens.steps import Moment, Screen
from yahtzee.screens.waiting import READ_SECONDS, wait_screen
from yahtzee.strategy.storage.builder import Waiting


class HeldWork(Waiting):
    """Work the test holds, in the place of the game's Waiting (whose own state it never sets
    up): never done until released (by the test, or once `done()` has been asked
    `release_after` times), half way along meanwhile."""

    def __init__(self, release_after: Optional[int] = None, on_release: Optional[Callable] = None,
                 working: bool = False) -> None:
        self.working = working  # worked out (a build, a measure), not read from a file
        self.released = threading.Event()
        self.asked = 0
        self.release_after = release_after
        self.on_release = on_release

    def done(self) -> bool:
        self.asked += 1
        if self.release_after is not None and self.asked >= self.release_after and not self.released.is_set():
            if self.on_release:
                self.on_release()
            self.released.set()
        return self.released.is_set()

    def settle(self, seconds: float) -> bool:
        return self.released.wait(seconds) or self.done()

    def share(self) -> float:
        return 0.5

    def working_out(self) -> bool:
        return self.working


@pytest.fixture
def waiting_turn() -> tuple[Context, Callable]:
    """ANN's first roll in a two-player game, with its play screen."""
    ctx = table_context([6, 6, 2, 5, 1], ["ANN", "BOB"])
    ctx.session.new_game()
    there(ctx.session.game).roll()
    ctx.moment = Moment(Screen.PLAY)
    return ctx, play_view(ctx)


def test_a_hot_key_acts_during_the_wait_and_esc_leaves_it(waiting_turn: tuple[Context, Callable]) -> None:
    ctx, view = waiting_turn
    script = KeyScript("m\x1b", more_to_come=True)
    work = HeldWork()
    try:
        assert not wait_screen(script.console, ctx, view, work, way_back=True)
    finally:
        script.close()
    assert not work.released.is_set()  # it was left, not waited out
    assert ctx.session.sound is False and "Sound is now OFF." in script.messages
    assert any("Working out the best strategy (only once)" in line for line in script.screens[0])


def test_the_quit_question_is_asked_during_the_wait(waiting_turn: tuple[Context, Callable]) -> None:
    ctx, view = waiting_turn
    script = KeyScript("qy", more_to_come=True)
    try:
        with pytest.raises(QuitGame):
            wait_screen(script.console, ctx, view, HeldWork(), way_back=False)
    finally:
        script.close()
    assert any("Quit the game?" in line for screen in script.screens for line in screen)


def waited_out(ctx: Context, view: Callable, keys: str) -> tuple[KeyScript, list[Any]]:
    """A wait without a way back, done half a second after `keys` were typed: its script and
    the keys still waiting after it."""
    script = KeyScript(keys, more_to_come=True)
    work = HeldWork()
    threading.Timer(0.5, work.released.set).start()
    try:
        assert wait_screen(script.console, ctx, view, work, way_back=False)
        return script, script.console.typed_ahead()
    finally:
        script.close()


def test_a_key_during_the_wait_is_spent_there_and_answers_nothing_later(waiting_turn: tuple[Context, Callable]) -> None:
    script, left = waited_out(*waiting_turn, "5")
    assert left == [] and "While the strategy is worked out, F8, F9 and F10 work." in script.messages


def test_esc_does_not_leave_a_wait_without_a_way_back(waiting_turn: tuple[Context, Callable]) -> None:
    script, left = waited_out(*waiting_turn, "\x1b")
    assert left == [] and "While the strategy is worked out, F8, F9 and F10 work." in script.messages


def test_a_table_read_within_the_quiet_moment_is_never_said_to_be_worked_out(
        waiting_turn: tuple[Context, Callable]) -> None:
    ctx, view = waiting_turn
    script = KeyScript("", more_to_come=True)
    work = HeldWork()
    threading.Timer(READ_SECONDS / 4, work.released.set).start()  # as a table read from its file
    try:
        assert wait_screen(script.console, ctx, view, work)
    finally:
        script.close()
    assert not any("Working out" in line for screen in script.screens for line in screen)


def test_a_wait_past_the_quiet_moment_is_a_screen_with_its_progress(waiting_turn: tuple[Context, Callable]) -> None:
    ctx, view = waiting_turn
    script = KeyScript("", more_to_come=True)
    work = HeldWork()
    threading.Timer(READ_SECONDS + 0.3, work.released.set).start()  # longer than a read from a file
    try:
        assert wait_screen(script.console, ctx, view, work)
    finally:
        script.close()
    assert any("Working out the best strategy (only once)." in line for line in script.screens[-1])
    assert "Working out the best strategy (only once): [" in script.output.text()


def test_a_table_being_worked_out_is_said_so_at_once(waiting_turn: tuple[Context, Callable]) -> None:
    ctx, view = waiting_turn
    script = KeyScript("", more_to_come=True)
    work = HeldWork(working=True)
    threading.Timer(0.3, work.released.set).start()
    try:
        assert wait_screen(script.console, ctx, view, work, clock=lambda: 0.0)  # no time passes: the work tells
    finally:
        script.close()
    assert any("Working out the best strategy (only once)." in line for line in script.screens[0])


def test_a_key_in_the_quiet_moment_shows_the_wait_at_once_and_is_answered_there(
        waiting_turn: tuple[Context, Callable]) -> None:
    ctx, view = waiting_turn
    script = KeyScript("m", more_to_come=True)
    work = HeldWork()
    clock = [0.0]  # the quiet moment never ends by itself here: only the key ends it
    threading.Timer(0.5, work.released.set).start()
    try:
        assert wait_screen(script.console, ctx, view, work, clock=lambda: clock[0])
    finally:
        script.close()
    assert ctx.session.sound is False and "Sound is now OFF." in script.messages
    assert any("Working out the best strategy (only once)." in line for line in script.screens[0])


def test_plain_mode_reads_nothing_during_the_wait_and_tells_its_progress(
        waiting_turn: tuple[Context, Callable]) -> None:
    ctx, view = waiting_turn
    console = plain_console(["q"])
    work = HeldWork()
    threading.Timer(READ_SECONDS + 0.3, work.released.set).start()  # longer than a read from the cache
    assert wait_screen(console, ctx, view, work)
    said = printed(console)
    assert "Working out the best strategy (only once): 50%" in said
    assert console.read_key("next") == "q"  # the line is left for the question it answers


@pytest.fixture
def advised(shared_table_cache: Path) -> Iterator[tuple[Context, StrategyServices]]:
    """ANN's first roll against BOB with the advisor, its strategy closed after the test."""
    strategy = StrategyServices.over(TableKeeper(shared_table_cache))
    ctx = table_context([6, 6, 2, 5, 1], ["ANN", "BOB"], strategy=strategy)
    ctx.session.new_game()
    there(ctx.session.game).roll()
    ctx.moment = Moment(Screen.PLAY)
    yield ctx, strategy
    strategy.close()


def test_the_advice_page_shows_before_the_chances_and_fills_them_in(advised: tuple[Context, StrategyServices]) -> None:
    ctx, strategy = advised
    script = KeyScript("", more_to_come=True)
    held = HeldWork(release_after=20, on_release=lambda: script.pipe.send_text("x"))
    strategy.coach.chances_waiting = lambda game: held  # type: ignore[method-assign]  # held work
    try:
        show_advice(script.console, ctx, play_view(ctx))
    finally:
        script.close()
    pages = [screen for screen in script.screens if screen[0].startswith("ADVICE for ANN")]
    first, filled = pages[0], pages[-1]
    assert first[1].startswith("Win % is being worked out: [")
    assert not first[3].endswith("win %") and not any(line.endswith("%") for line in first[4:12])
    assert filled[1] == "Ranked by the expected final score." and filled[3].endswith("win %")
    assert sum(line.endswith("%") for line in filled[4:]) > 10
    assert [line.split()[1:3] for line in first[4:12]] == [line.split()[1:3] for line in filled[4:12]]


def test_a_computer_waits_for_its_table_with_the_hot_keys_live(waiting_turn: tuple[Context, Callable]) -> None:
    from yahtzee.screens.turn import computer_step
    ctx, view = waiting_turn
    there(ctx.session.game).players[0].kind, there(ctx.session.game).players[0].mood = "computer", "norisk"
    script = KeyScript("v", more_to_come=True)
    held = HeldWork()

    class Opponents:
        acted_after_release = None

        def waiting(self, game: Game) -> Any:
            return held

        def action(self, game: Game) -> None:
            Opponents.acted_after_release = held.released.is_set() and ctx.session.verify is False
            raise QuitGame()  # enough: the computer decides only now

    class Strategy:
        opponents = Opponents()

    ctx.services = dataclasses.replace(ctx.services, strategy=Strategy())  # type: ignore[arg-type]  # (its opponents only)
    threading.Timer(0.5, held.released.set).start()
    try:
        with pytest.raises(QuitGame):
            computer_step(script.console, ctx)
    finally:
        script.close()
    assert "Verify is now OFF." in script.messages and Opponents.acted_after_release


def test_read_line_by_line_the_advice_waits_for_its_chances_and_says_them(
        advised: tuple[Context, StrategyServices]) -> None:
    ctx, strategy = advised
    console = plain_console(["x"])
    held = HeldWork()
    strategy.coach.chances_waiting = lambda game: held  # type: ignore[method-assign]  # held work
    threading.Timer(READ_SECONDS + 0.3, held.released.set).start()
    show_advice(console, ctx, play_view(ctx))
    said = printed(console)
    assert said.index("Working out the best strategy (only once): 50%") < said.index("ADVICE for ANN")
    assert "Ranked by the expected final score." in said and said.count("win chance") > 10


def test_a_stop_signal_ends_the_wait_at_once(waiting_turn: tuple[Context, Callable]) -> None:
    from yahtzee.consoles.stops import StopRequested
    ctx, view = waiting_turn
    console = plain_console([])
    console.request_stop(15)
    with pytest.raises(StopRequested):
        wait_screen(console, ctx, view, HeldWork())


def test_the_reviews_wait_is_left_with_esc_and_shows_no_review(advised: tuple[Context, StrategyServices]) -> None:
    from yahtzee.model.outcome import FinishedGame
    from yahtzee.present.look import framed
    from yahtzee.screens.ending import show_review
    ctx, strategy = advised
    ctx.session.results.append(FinishedGame.of(there(ctx.session.game), "2026-12-05T10:00:00+00:00"))
    strategy.reviewer.waiting = lambda game: HeldWork()  # type: ignore[method-assign]  # held work
    script = KeyScript("\x1b", more_to_come=True)
    try:
        show_review(script.console, ctx, framed(lambda look: []))
    finally:
        script.close()
    assert not any(line.startswith("Review of the game") for screen in script.screens for line in screen)
    assert any("Esc goes back" in line for line in script.screens[0])


def test_read_line_by_line_a_table_read_from_the_cache_is_not_said_to_be_worked_out(
        waiting_turn: tuple[Context, Callable]) -> None:
    ctx, view = waiting_turn
    console = plain_console(["q"])
    work = HeldWork()
    threading.Timer(READ_SECONDS / 5, work.released.set).start()
    assert wait_screen(console, ctx, view, work)
    assert printed(console) == "" and console.read_key("next") == "q"
