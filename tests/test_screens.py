"""Screens driven by scripted keystrokes through prompt_toolkit's pipe input."""
import os
import sys
from collections.abc import Collection, Iterator, Sequence
from functools import partial
from typing import Any, Callable, Optional

import pytest
from helpers import KeyScript, there
from keycodes import F8, F9, F10
from test_saves import played_game

from yahtzee.consoles.keymode import KeyConsole
from yahtzee.model.game import Player
from yahtzee.model.scoring import Category
from yahtzee.model.words import YesNo
from yahtzee.present.palette import strip_controls
from yahtzee.saves.store import Saves
from yahtzee.screens.context import Context
from yahtzee.screens.flow import SCREENS, Keeper, run
from yahtzee.screens.lobby import clean_name
from yahtzee.screens.prompts import QuitGame
from yahtzee.screens.steps import Moment, Screen

C = Category
def steps(console: KeyConsole, ctx: Context, screen: Screen, until: Collection[Screen]) -> Optional[Moment]:
    """Run the flow's screens from `screen`, saving as the flow does, until one returns a
    moment on a screen in `until` (or None); returns that moment."""
    keeper = Keeper(ctx)
    moment = Moment(screen)
    while True:
        ctx.moment = moment
        keeper.keep(ctx)
        following = SCREENS[moment.screen](console, ctx)
        if following is None or following.screen in until:
            return following
        moment = following


@pytest.fixture
def run_keys(context: Callable[..., Context]) -> Iterator[Callable[..., tuple[Optional[Moment], Context, KeyScript]]]:
    scripts = []

    def run(screen: Screen, keys: str, table: Optional[Context] = None, faces: Sequence[int] = (),
            players: Sequence[str] = (), until: Collection[Screen] = (),
            **session_options: Any) -> tuple[Optional[Moment], Context, KeyScript]:
        table = table or context(faces, **session_options)
        table.session.players.extend(Player(name) for name in players)
        if players and table.session.game is None:
            table.session.new_game()
        script = KeyScript(keys)
        scripts.append(script)
        until = until or [other for other in Screen if other is not screen]
        return steps(script.console, table, screen, until), table, script

    yield run
    for script in scripts:
        script.close()


# On Windows the reader ends the input as soon as a look for a key finds it ended, the POSIX
# reader at the next read: a script that runs out while the dice tumble ends sooner there.
KEYS_END_WHILE_TUMBLING = pytest.mark.skipif(sys.platform == "win32",
                                             reason="the keys run out while the dice tumble")


def test_typing_stops_at_six_characters_and_duplicates_are_refused(run_keys: Callable) -> None:
    following, table, script = run_keys(Screen.NAMES, "Annabelle\rannabe\rBob\r\r",
                                        until=[Screen.CONFIRM])
    assert following == Moment(Screen.CONFIRM)
    assert [p.name for p in table.session.players] == ["Annabe", "Bob"]
    assert "annabe is already playing: choose another name." in script.messages


@pytest.mark.parametrize("typed, seated", [
    ("名前名前名前\r", "名前名"),
    ("한국어X\r", "한국어"),  # X would be a seventh cell
    ("😀😀😀😀\r", "😀😀😀"),
    ("Zoë\r", "Zoë"),
])
def test_typing_a_name_stops_at_six_terminal_cells_so_the_sheet_stays_aligned(
        run_keys: Callable, typed: str, seated: str) -> None:
    _, table, script = run_keys(Screen.NAMES, typed + "\r", until=[Screen.CONFIRM])
    assert [p.name for p in table.session.players] == [seated]
    assert not script.messages  # typing stopped: nothing was cut
    table.session.players.append(Player("BOB"))
    table.session.new_game()
    from yahtzee.present import render
    from yahtzee.present.palette import visible_width
    sheet = render.sheet_lines(table.session.game)
    assert len({visible_width(line) for line in sheet[1:] if not line.startswith(" ")}) <= 2
    assert visible_width(sheet[0]) == render.sheet_width(table.session.game)


def test_the_names_list_needs_one_player_and_ends_by_itself_after_four(run_keys: Callable) -> None:
    _, table, script = run_keys(Screen.NAMES, "\rA\rB\rC\rD\r")
    assert [p.name for p in table.session.players] == ["A", "B", "C", "D"]
    assert "At least one player is needed." in script.messages


@pytest.mark.parametrize("typed, stored", [
    ("Ann", "Ann"),
    ("\x1b[31mRed\x1b[0m", "Red"),
    ("Bel\x07l", "Bell"),
    ("\u202eevil", "evil"),
    ("\x1b]0;title\x07Tom", "Tom"),
    ("Zoë", "Zoë"),
    ("  two  words ", "two words"),
    ("\x00\x01\x02", ""),
    ("a\u200bb", "ab"),
])
def test_names_lose_escape_sequences_and_control_characters(typed: str, stored: str) -> None:
    assert clean_name(typed) == stored


def test_first_game_confirm_no_goes_back_to_enter_every_name(run_keys: Callable) -> None:
    following, table, _ = run_keys(Screen.CONFIRM, "n", players=["ANN", "BOB"])
    assert following == Moment(Screen.NAMES) and table.session.players == []


def test_later_game_confirm_no_then_add_players(context: partial, run_keys: Callable) -> None:
    table = context()
    table.session.players.append(Player("ANN"))
    table.session.results.append(played_game(1, names=("ANN",)))
    following, table, _ = run_keys(Screen.CONFIRM, "ny", table=table)
    assert following == Moment(Screen.NAMES) and [p.name for p in table.session.players] == ["ANN"]
    following, table, _ = run_keys(Screen.CONFIRM, "nn", table=table)
    assert following == Moment(Screen.PLAY) and table.session.game.number == 2


def test_a_turn_marks_rolls_and_posts_with_verify(run_keys: Callable, saves: Saves) -> None:
    faces = [2, 3, 2, 6, 1, 3, 3]
    following, table, script = run_keys(Screen.PLAY, " 45rr", faces=faces, players=["ANN"])
    game = table.session.game
    assert following == Moment(Screen.POSTING) and game.turn.dice == (2, 3, 2, 3, 3)
    assert game.turn.rolls == 2
    assert there(saves.load_session())[0].game == game  # every roll and mark is saved at once
    following, table, script = run_keys(Screen.POSTING, "hy", table=table, until=[Screen.PLAY])
    assert following == Moment(Screen.PLAY)
    assert game.players[0].card.boxes == {C.FULL_HOUSE: 25}
    assert "ANN posts 25 in FULL HOUSE." in script.messages


def test_pressing_a_number_twice_locks_the_die_again(run_keys: Callable) -> None:
    following, table, _ = run_keys(Screen.PLAY, " 11r", faces=[1, 2, 3, 4, 5], players=["ANN"])
    assert following == Moment(Screen.POSTING)
    assert table.session.game.turn.rolls == 1


@KEYS_END_WHILE_TUMBLING
def test_the_third_roll_goes_to_posting_by_itself(run_keys: Callable) -> None:
    following, table, _ = run_keys(Screen.PLAY, " 1r1r", faces=[1] * 7, players=["ANN"])
    assert following == Moment(Screen.POSTING) and table.session.game.rolls_left == 0


def test_a_wrong_key_gets_a_one_line_message_and_nothing_changes(run_keys: Callable) -> None:
    _, table, script = run_keys(Screen.PLAY, " x9r", faces=[1, 2, 3, 4, 5], players=["ANN"])
    assert script.messages.count("Keys here: 1-5 mark or lock a die, R rolls the marked dice, ? advice.") == 2
    assert table.session.game.turn.dice == (1, 2, 3, 4, 5)


def test_verify_off_posts_at_once_but_confirms_a_lower_zero(context: partial, run_keys: Callable) -> None:
    table = _rolled_table(context, [1, 2, 3, 4, 6], verify=False)
    _, table, script = run_keys(Screen.POSTING, "hn6", table=table, until=[Screen.PLAY])
    assert table.session.game.players[0].card.boxes == {C.SIXES: 6}
    assert any("Post 0 in FULL HOUSE? (Y/N)" in s[-1] for s in script.screens)


def _rolled_table(context: partial, faces: list[int], **options: Any) -> Context:
    table = context(faces, **options)
    table.session.players.append(Player("ANN"))
    table.session.new_game()
    table.session.game.roll()
    return table


def test_posting_refuses_a_filled_box_and_a_joker_out_of_place(context: partial, run_keys: Callable) -> None:
    table = _rolled_table(context, [4] * 15, verify=False)
    game = table.session.game
    there(game).post(C.YAHTZEE)
    there(game).roll()
    following, table, script = run_keys(Screen.POSTING, "yc4", table=table)
    assert "YAHTZEE is already filled." in script.messages
    assert "A Joker must go in FOURS while it is open." in script.messages
    assert there(game).players[0].card.boxes[C.FOURS] == 20
    assert there(game).players[0].card.yahtzee_bonus == 100
    assert "ANN posts 20 in FOURS. YAHTZEE bonus +100!" in script.messages


def test_posting_shows_keys_only_beside_legal_boxes(context: partial, run_keys: Callable) -> None:
    table = _rolled_table(context, [4] * 10)
    there(table.session.game).post(C.YAHTZEE)
    there(table.session.game).roll()
    _, _, script = run_keys(Screen.POSTING, "4y", table=table)
    first = script.screens[0]
    assert first[4].startswith("4 Fours") and first[1].startswith("  Ones")
    assert first[-1] == "Post where? 4, R dice, ? advice"


def test_r_at_posting_goes_back_to_the_dice_while_rolls_are_left(context: partial, run_keys: Callable) -> None:
    table = _rolled_table(context, [1, 2, 3, 4, 5])
    following, _, _ = run_keys(Screen.POSTING, "r", table=table)
    assert following == Moment(Screen.PLAY)


@pytest.mark.parametrize("keys, verify, sound", [
    (F8, False, True), ("v", False, True), (F9, True, False), ("m", True, False),
    (F8 + F8, True, True), ("vm", False, False),
])
def test_hot_keys_and_their_aliases_toggle_and_show(run_keys: Callable, keys: str, verify: bool, sound: bool) -> None:
    _, table, script = run_keys(Screen.TITLE, keys + "n")
    assert (table.session.verify, table.session.sound) == (verify, sound)
    last = "\n".join(script.screens[-1])
    assert f"now {'ON' if verify else 'OFF'}" in last.split("F8  or V")[1].splitlines()[0]


def test_f10_asks_and_n_plays_on(run_keys: Callable) -> None:
    following, _, script = run_keys(Screen.TITLE, F10 + "nn")
    assert following == Moment(Screen.NAMES)
    assert any("Quit Computer Yahtzee? (Y/N)" in line for line in script.screens[1])


@pytest.mark.parametrize("keys", [F10 + "y", "qy", "\x03y", F10 + F10])
def test_f10_its_alias_and_ctrl_c_quit_after_asking(run_keys: Callable, keys: str) -> None:
    with pytest.raises(QuitGame):
        run_keys(Screen.TITLE, keys)


def test_hot_keys_work_while_typing_a_name(run_keys: Callable) -> None:
    _, table, _ = run_keys(Screen.NAMES, "Vi" + F8 + "c\r\r")
    assert table.session.verify is False
    assert [p.name for p in table.session.players] == ["Vic"]


def test_a_too_small_terminal_ignores_keys_but_f10() -> None:
    script = KeyScript("1rx" + F10 + "2")
    script.console.terminal_size = lambda: os.terminal_size((60, 20))
    try:
        assert script.console.read_key("Roll 1 of 3") == "F10"
        assert script.console.read_key(YesNo("Quit the game? (Y/N)")) == "2"
    finally:
        script.close()


def test_a_whole_session_of_screens_ends_with_the_recap(context: partial, saves: Saves) -> None:
    # Every roll is five sixes: YAHTZEE, then jokers in sixes, the lower boxes, forced zeros.
    turns = ["y", "6", "t", "f", "h", "s", "l", "c", "1", "2", "3", "4", "5"]
    game = "".join(f" r{key}y" for key in turns)
    keys = "\r" + "n" + "ANN\r\r" + "y" + game + "y" + "\r" + "y" + game + "n" + "\r"
    script = KeyScript(keys)
    table = context([6] * 5 * 13 * 2)
    try:
        run(script.console, table, Keeper(table))
    finally:
        script.close()
    upper, lower, bonus = 30, 50 + 30 + 30 + 25 + 30 + 40 + 30, 12 * 100
    history = saves.read_history()
    assert [game.players[0].total for game in history] == [upper + lower + bonus] * 2
    assert history[0].players[0].points_in(Category.ONES) == 0
    recap = "\n".join(script.screens[-1])
    assert "RECAP" in recap and recap.count("1465") == 2 and "2930" in recap


def test_a_computer_seat_is_typed_in_full_though_names_stop_at_six(run_keys: Callable) -> None:
    _, table, script = run_keys(Screen.NAMES, "*gambler Zed\r\r", until=[Screen.CONFIRM])
    (seated,) = table.session.players
    assert (seated.name, seated.mood) == ("Zed", "gambler")


@KEYS_END_WHILE_TUMBLING
def test_a_yahtzee_shows_on_screen_not_only_as_a_bell(run_keys: Callable) -> None:
    _, table, script = run_keys(Screen.PLAY, " ", faces=[4] * 5, players=["ANN"], sound=False,
                                until=[Screen.PLAY])
    assert "YAHTZEE!" in script.messages
    _, table, script = run_keys(Screen.PLAY, " ", faces=[4, 4, 4, 4, 5], players=["BOB"], sound=False,
                                until=[Screen.PLAY])
    assert "YAHTZEE!" not in script.messages


@pytest.mark.parametrize("flashes, blinks", [(True, 3), (False, 0)])
def test_a_yahtzee_blinks_in_reverse_video_where_the_console_flashes(
        context: partial, flashes: bool, blinks: int) -> None:
    from yahtzee.present.palette import REVERSE, painter
    table = context([4] * 5, sound=False)
    table.session.players.append(Player("ANN"))
    table.session.new_game()
    script = KeyScript(" ", more_to_come=True)  # no key waits after it: nothing cuts the blinks short
    script.console.paint, script.console.flashes = painter("classic"), flashes
    try:
        steps(script.console, table, Screen.PLAY, [Screen.PLAY])
    finally:
        script.close()
    written = "".join(script.output.written)
    assert written.count(REVERSE + "YAHTZEE!") == blinks
    assert [strip_controls(message) for message in script.messages] == ["YAHTZEE!"]


@pytest.mark.parametrize("code", ["en", "de"])
def test_the_title_banner_is_centred_in_its_frame(code: str) -> None:
    from yahtzee.present.look import Look
    from yahtzee.screens.lobby import banner
    from yahtzee.speech import languages as language
    with language.speaking(code):
        lines = banner(Look())
    for line in (line for line in lines if line.strip().startswith("|") and line.strip("| ")):
        inside = line.strip()[1:-1]
        left, right = len(inside) - len(inside.lstrip()), len(inside) - len(inside.rstrip())
        assert abs(left - right) <= 1, (code, line)


@pytest.mark.parametrize("code", ["en", "de"])
def test_the_names_help_keeps_its_example_on_one_line(run_keys: Callable, code: str) -> None:
    from yahtzee.speech import languages as language
    language.use(code)
    try:
        _, _, script = run_keys(Screen.NAMES, "ANN\r\r", until=[Screen.CONFIRM])
    finally:
        language.use("en")
    assert any("(*gambler Zed)" in line for line in script.screens[0]), script.screens[0]
