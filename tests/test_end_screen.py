"""The end of a four-player game at an 80x24 key console: every box of every player stays on
screen beside the winner and the notices."""
from pathlib import Path

import pytest
from helpers import DealtDice, clock, key_turn, play_keys

from yahtzee.model.game import Player
from yahtzee.model.scoring import SHEET_LABELS as LABELS
from yahtzee.model.scoring import Category
from yahtzee.model.session import Session
from yahtzee.saves.store import Saves

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
NAMES = ["ANN", "BOB", "CY", "DEE"]
BOXES = ["1", "2", "3", "4", "5", "6", "t", "f", "h", "s", "l", "y", "c"]


def earlier_games(folder: Path, count: int = 2) -> None:
    """A history in which all four have played before, so the game ends with many notices."""
    saves = Saves(folder, now=clock)
    for number in range(count):
        session = Session([Player(name) for name in NAMES], source=DealtDice([1, 1, 1, 2, 2] * 52))
        game = session.new_game()
        for box in list(Category):
            for _ in NAMES:
                game.roll()
                game.post(box)
        saves.append_history(session.finish_game(f"2026-01-0{number + 1}T12:00:00+00:00"))
    saves.close()


def test_a_four_player_end_screen_shows_every_box_of_every_player_and_all_notices(tmp_path: Path) -> None:
    earlier_games(tmp_path / "saves")
    keys = "xn" + "".join(name + "\r" for name in NAMES) + "y"
    keys += "".join(key_turn(box) for box in BOXES for _ in NAMES) + " " * 8 + "n"
    script = play_keys(tmp_path / "saves", keys, [2, 2, 2, 3, 3] * 52, dice=DealtDice)
    screens = [seen for seen in script.seen if "More notices: press any key" in seen]
    screens.append(next(seen for seen in script.seen if "Another game? (Y/N)" in seen))
    assert len(screens) > 1
    for screen in screens:
        rows = screen.splitlines()
        labels = [row[:13].strip() for row in rows]
        assert all(LABELS[box] in labels for box in Category), screen
        assert "GRAND TOTAL" in labels and "Upper bonus" in labels
        assert rows[0].split()[:4] == NAMES, screen
    shown = " ".join(" ".join(row[42:].split()) for screen in screens for row in screen.splitlines())
    for name in NAMES:
        assert f"{name} sets a new personal best" in shown
        assert f"{name}'s all-time average goes up" in shown
    assert "share the win" in shown


def test_a_challenges_standing_on_the_end_screen_never_leaves_its_margin_alone_on_a_row() -> None:
    from yahtzee.model.match import Challenge
    from yahtzee.present.render import end_lines
    from yahtzee.speech.languages import text
    session = Session([Player("ANN"), Player("Brainy", "computer")], source=DealtDice([1, 1, 1, 2, 2] * 30))
    game = session.new_game()
    for box in list(Category):
        for _ in range(2):
            game.roll()
            game.post(box)
    standing = Challenge(3).standings_lines([{"ANN": 35, "Brainy": 244}])
    assert text(standing[0]).endswith("Brainy leads ANN by 209")
    (page,) = end_lines(game, ["Brainy wins with 244 points!", *standing])
    notes = [row[29:] for row in page if row[29:]]
    assert notes == ["Brainy wins with 244 points!", "Challenge: after game 1 of 3,", "Brainy leads ANN by 209",
                     "ANN 35, Brainy 244; 2 games to go"]
