"""The one flow: moments as values, the one save rule, resuming where the game stood, messages."""
import contextlib
import re
from functools import partial
from pathlib import Path
from typing import Any, Optional

import pytest
from helpers import KeyScript, end_of_keys, there
from keycodes import KEYS

from yahtzee.consoles.keymode import KeyConsole
from yahtzee.consoles.stops import InputClosed
from yahtzee.model.outcome import FinishedGame
from yahtzee.model.scoring import Category
from yahtzee.model.session import Session
from yahtzee.saves.documents import ResumePoint
from yahtzee.saves.store import Saves
from yahtzee.saves.versions import resume_point
from yahtzee.screens.context import Context
from yahtzee.screens.flow import SCREENS, Keeper, run, run_from
from yahtzee.screens.prompts import paginate
from yahtzee.screens.resume import resumed_moment
from yahtzee.screens.steps import Moment, Screen

ROOT = Path(__file__).resolve().parent.parent


def counting(saves: Saves) -> list[Any]:
    """Record every autosave written, as (moment, session) JSON."""
    written: list[Any] = []
    save = saves.save_session

    def recorded(session: Session, resume: ResumePoint) -> bool:
        written.append(resume)
        return save(session, resume)

    saves.save_session = recorded  # type: ignore[method-assign]  # watched: each save counted
    return written


def run_keys(ctx: Context, keys: str) -> KeyScript:
    """Run the whole flow on these keys until they run out; the script that drew it."""
    script = KeyScript(keys)
    try:
        run(script.console, ctx, Keeper(ctx))
    except Exception as error:  # the keys ran out (InputClosed) or a quit
        script.ended = error
    finally:
        script.close()
    return script


def test_every_moment_round_trips_through_its_saved_form() -> None:
    for screen in Screen:
        moment = Moment(screen, Category.FULL_HOUSE if screen is Screen.VERIFY else None)
        assert Moment.from_dict(moment.to_dict()) == moment
    assert Moment.from_dict(resume_point("posting h")) == Moment(Screen.VERIFY, Category.FULL_HOUSE)  # version 1
    assert Moment.from_dict({"screen": "nowhere"}) is None
    assert Moment.from_dict({"screen": "verify"}) is None  # a verify question needs its box


def test_one_posting_writes_the_saved_game_once_and_an_unchanged_step_never(context: partial, saves: Saves) -> None:
    ctx = context([2, 2, 2, 3, 3], ["ANN"])
    ctx.session.new_game()
    written = counting(saves)
    script = KeyScript(" rhy")  # roll, go to posting, full house, yes
    keeper = Keeper(ctx)
    moment: Optional[Moment] = Moment(Screen.PLAY)
    try:
        while moment != Moment(Screen.PLAY) or not there(ctx.session.game).players[0].card.boxes:
            ctx.moment = there(moment)
            keeper.keep(ctx)
            moment = SCREENS[ctx.moment.screen](script.console, ctx)
        ctx.moment = there(moment)
        keeper.keep(ctx)
        keeper.keep(ctx)  # nothing changed: nothing is written
    finally:
        script.close()
    screens = [entry["screen"] for entry in written]
    assert screens == ["play", "play", "posting", "verify", "play"]
    assert there(there(saves.load_session())[0].game).players[0].card.boxes == {Category.FULL_HOUSE: 25}


def test_a_game_resumes_on_the_names_screen_with_the_players_already_seated(context: partial, saves: Saves) -> None:
    ctx = context()
    run_keys(ctx, "\rnANN\r")  # opening, no instructions, ANN; the keys end at "Player 2 name"
    session, moment = there(saves.load_session())
    assert [p.name for p in session.players] == ["ANN"]
    assert resumed_moment(session, Moment.from_dict(moment)) == Moment(Screen.NAMES)


@pytest.mark.parametrize("saved, expected", [
    (Moment(Screen.VERIFY, Category.CHANCE), Moment(Screen.VERIFY, Category.CHANCE)),
    (Moment(Screen.POSTING), Moment(Screen.POSTING)),
    (Moment(Screen.RECAP), Moment(Screen.PLAY)),   # a game in play goes back to it
    (None, Moment(Screen.PLAY)),
])
def test_a_resumed_game_in_play_goes_back_to_its_moment_when_the_state_allows(
        context: partial, saved: Optional[Moment], expected: Moment) -> None:
    ctx = context([1, 2, 3, 4, 5], ["ANN"])
    ctx.session.new_game().roll()
    assert resumed_moment(ctx.session, saved) == expected


def test_the_quit_question_says_the_game_is_kept_only_while_one_is_in_progress(context: partial) -> None:
    script = run_keys(context(), "\rq")
    assert "Quit Computer Yahtzee? (Y/N)" in "\n".join(script.screens[-1])
    assert "kept" not in "\n".join(script.screens[-1]).split("Quit Computer")[1]
    ctx = context([1, 2, 3, 4, 5], ["ANN"])
    ctx.session.new_game()
    script = KeyScript("q")
    try:
        ctx.moment = Moment(Screen.PLAY)
        with pytest.raises(InputClosed):
            SCREENS[Screen.PLAY](script.console, ctx)
    finally:
        script.close()
    assert script.screens[-1][-1] == "Quit the game? Your game is kept for next time. (Y/N)"


def test_a_posting_stays_said_under_the_next_players_turn_until_that_player_rolls(context: partial) -> None:
    ctx = context([2, 2, 2, 3, 3, 1, 1, 1, 1, 2], ["ANN", "BOB"], verify=False)
    ctx.session.new_game()
    script = KeyScript(" rh")
    drawn = []
    forget = script.console.forget_messages

    def forgotten() -> None:
        drawn.append("forgotten")
        forget()
    script.console.forget_messages = forgotten  # type: ignore[method-assign]  # watched: each forgetting noted
    try:
        ctx.moment = Moment(Screen.PLAY)
        run_steps(script.console, ctx, Moment(Screen.PLAY))
    finally:
        script.close()
    assert "ANN posts 25 in FULL HOUSE." in script.messages
    assert script.screens[-1][-1] == "BOB: press any key to roll, U takes back the last posting"
    assert [script.console.words(said) for said, _question in script.console.messages] == [
        "ANN posts 25 in FULL HOUSE."]


def run_steps(console: KeyConsole, ctx: Context, moment: Moment) -> None:
    """The flow's steps from `moment`, without the resume offer, until the keys run out."""
    with contextlib.suppress(InputClosed):
        run_from(console, ctx, Keeper(ctx), moment)


def test_pages_break_at_a_blank_line_never_inside_a_paragraph() -> None:
    text = [f"paragraph {p} line {n}" for p in range(6) for n in range(5)]
    lines = []
    for p in range(6):
        lines += [f"paragraph {p} line {n}" for n in range(5)] + [""]
    pages = paginate(lines, 12)
    assert all(len(page) <= 12 for page in pages)
    assert [line for page in pages for line in page if line] == text
    for page in pages:
        assert page[0].endswith("line 0") and page[-1] in ("", "paragraph 5 line 4")


def test_no_page_of_the_manual_ends_on_a_heading() -> None:
    lines = (ROOT / "YAHTZEE.DOC").read_text(encoding="utf-8").splitlines()
    heading = re.compile(r"^(\d+\. )?[A-Z][A-Z0-9 ,:'()-]+$|^\S.*:$")
    assert sum(bool(heading.match(line)) for line in lines) > 10
    for page in paginate(lines)[:-1]:
        last = [line for line in page if line.strip()][-1]
        assert not heading.match(last), page


def test_a_heading_goes_to_the_next_page_with_its_paragraph() -> None:
    lines = [f"line {n}" for n in range(8)] + ["", "HEADING", "", "text 1", "text 2", "text 3", "text 4"]
    pages = paginate(lines, 12)
    assert pages[0][-1] == "" and pages[1][0] == "HEADING"


def test_a_page_of_one_long_paragraph_still_breaks_at_the_page_size() -> None:
    pages = paginate([f"line {n}" for n in range(30)], 12)
    assert [len(page) for page in pages] == [12, 12, 6]


def test_escape_leaves_the_manual_as_x_does(context: partial) -> None:
    import threading
    ctx = context()
    ctx.services.manual = [f"manual line {n}" for n in range(60)]
    script = KeyScript("\ry" + KEYS["Esc"], more_to_come=True)
    def type_the_rest() -> None:
        script.pipe.send_text("ANN\r")
        end_of_keys(script.pipe)
    later = threading.Timer(0.8, type_the_rest)
    later.start()
    try:
        with pytest.raises(InputClosed):
            run(script.console, ctx, Keeper(ctx))
    finally:
        later.join()
        script.close()
    pages = [screen for screen in script.screens if screen[-2].startswith("Page ")]
    assert len(pages) == 1 and pages[0][-2].startswith("Page 1 of 4")
    assert [p.name for p in ctx.session.players] == ["ANN"]  # Esc left the manual for the names


def test_s_shows_the_statistics_at_every_lobby_question_with_this_sessions_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from test_plain import START, interleave, play_plain, turn
    boxes = ["1", "2", "3", "4", "5", "6", "t", "f", "h", "s", "l", "y", "c"]
    lines, faces = interleave([turn([2, 2, 2, 3, 3], box) for box in boxes])
    script = (START[:1] + ["s", "x", "n", "ANN", "", "s", "x", "y"] + lines +
              ["s", "", "", "", "x", "y", "s", "x", "", "n"])
    code, out, records = play_plain(tmp_path, monkeypatch, script, faces)
    assert code == 0 and len(records) == 1
    assert out.count("HALL OF FAME") == 4  # title, confirm, another game, recap
    assert "PLAYERS, THIS SESSION" in out.split("Another game?")[1]
    assert "Another game? (Y/N) or R review> " in out and "Press any key for the next game (S statistics)" in out


def test_a_game_that_could_not_join_the_history_says_so_at_its_end(context: partial, saves: Saves) -> None:
    ctx = context([2, 2, 2, 3, 3] * 13, ["ANN"], verify=False)
    game = ctx.session.new_game()
    for box in list(Category)[:-1]:
        game.roll()
        game.post(box)
    game.roll()

    def disk_full(game: FinishedGame) -> bool:
        saves.history_problem = "this game was not added to the history: the disk is full"
        return False

    saves.append_history = disk_full  # type: ignore[method-assign]  # a full disk, for this test
    script = KeyScript("cn")  # CHANCE, the last box; no other game
    try:
        ctx.moment = Moment(Screen.POSTING)
        run_steps(script.console, ctx, Moment(Screen.POSTING))
    finally:
        script.close()
    beside_the_sheet = " ".join(" ".join(row[22:].split()) for row in script.screens[-1])
    assert "This game was not added to the history: the disk is full." in beside_the_sheet
