"""Match types: single game, challenge of N games, race to a target, first to a total."""
import json
from typing import Any, Optional, Union

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_saves import played_game

from yahtzee.model.dice import SeededDice
from yahtzee.model.game import Player
from yahtzee.model.match import SINGLE_GAME, BadMatch, Challenge, FirstTo, Race, SingleGame, parse_match
from yahtzee.model.outcome import FinishedGame, PlayerResult
from yahtzee.model.rules import HASBRO
from yahtzee.model.session import Session
from yahtzee.model.words import Joined, Say
from yahtzee.saves.codec import match_from_dict, match_to_dict, session_from_dict, session_to_dict
from yahtzee.saves.strict import DamagedSave
from yahtzee.speech.languages import text


def texts(said: list[Union[Any, Say, str, Joined]]) -> list[Union[Any, str]]:
    """Words as the English reader reads them."""
    return [text(line) for line in said]


def record(**totals: Any) -> FinishedGame:
    """A finished game of which matches read only the players' totals and the winners."""
    best = max(totals.values())
    return FinishedGame("2026-11-30T10:00:00", HASBRO,
                        tuple(PlayerResult(name, "human", (0,) * 13, 0, 0, total) for name, total in totals.items()),
                        tuple(name for name, total in totals.items() if total == best))


# Each finished game's scores, as matches read them, and as the session files them.
GAMES = [{"ANN": 250, "BOB": 230}, {"ANN": 180, "BOB": 216}, {"ANN": 240, "BOB": 190}]
RECORDS = [record(**scores) for scores in GAMES]
# Real games, whose records the saved session checks.
PLAYED = [played_game(seed) for seed in range(3)]


def test_a_single_game_is_over_with_its_record() -> None:
    assert not SINGLE_GAME.is_over([])
    assert SINGLE_GAME.is_over(GAMES[1:2]) and SINGLE_GAME.winners(GAMES[1:2]) == ["BOB"]
    assert texts(SINGLE_GAME.standings_lines(GAMES[:1])) == []


def test_a_challenge_is_won_on_the_total_of_its_games() -> None:
    challenge = Challenge(3)
    assert not challenge.is_over(GAMES[:2]) and challenge.winners(GAMES[:2]) == []
    lines = texts(challenge.standings_lines(GAMES[:2]))
    assert lines == ["Challenge: after game 2 of 3, BOB leads ANN by 16", "ANN 430, BOB 446; 1 game to go"]
    assert challenge.is_over(GAMES) and challenge.winners(GAMES) == ["ANN"]
    assert texts(challenge.standings_lines(GAMES)) == ["Challenge of 3 games: ANN wins by 34", "ANN 670, BOB 636"]
    assert texts(challenge.standings_lines([])) == ["Challenge of 3 games: none played yet"]


def test_a_challenge_can_end_level() -> None:
    games = [{"ANN": 200, "BOB": 210}, {"ANN": 210, "BOB": 200}]
    assert Challenge(2).winners(games) == ["ANN", "BOB"]
    assert texts(Challenge(2).standings_lines(games))[0] == "Challenge of 2 games: ANN and BOB share the win on 410"
    assert texts(Challenge(3).standings_lines(games))[0] == "Challenge: after game 2 of 3, ANN and BOB are level on 410"


def test_first_to_a_total_counts_whole_games() -> None:
    first = FirstTo(600)
    assert not first.is_over(GAMES[:2])
    assert texts(first.standings_lines(GAMES[:2])) == ["First to 600: after 2 games, BOB leads ANN by 16",
                                                 "ANN 430, BOB 446; 154 more needed"]
    assert first.is_over(GAMES) and first.winners(GAMES) == ["ANN"]
    assert texts(first.standings_lines(GAMES))[0] == "First to 600: ANN wins by 34 after 3 games"


def test_a_race_is_one_game_whose_end_the_game_decides() -> None:
    race = Race(500)
    assert race.race_target == 500 and SINGLE_GAME.race_target is None
    assert not race.is_over([]) and race.is_over(GAMES[:1]) and race.winners(GAMES[:1]) == ["ANN"]
    assert texts(race.standings_lines(GAMES[:1])) == ["Race to 500: ANN wins by 20", "ANN 250, BOB 230"]


def test_a_race_in_play_says_who_leads_and_what_is_left() -> None:
    session = Session([Player("ANN"), Player("BOB")], source=SeededDice(3), match=Race(60))
    game = session.new_game()
    assert game.race_target == 60
    assert texts(session.standings_lines()) == ["Race to 60: ANN and BOB are level on 0",
                                         "ANN 0, BOB 0; ANN and BOB need 60 more"]
    game.roll()
    game.post(game.legal_boxes()[-1])
    total = game.players[0].card.total
    assert texts(session.standings_lines())[1].startswith(f"ANN {total}, BOB 0;")
    while not game.is_over:
        game.roll()
        game.post(game.legal_boxes()[-1])
        assert session.match_is_over == game.is_over
    assert game.round > 1 and game.seat == 0
    assert max(p.card.total for p in game.players) >= 60
    session.finish_game("2026-11-30T10:00:00")
    assert session.match_is_over and session.match.winners(session.match_scores) == list(session.results[0].winners)


def test_a_session_plays_a_challenge_to_its_end_then_starts_another() -> None:
    session = Session([Player("ANN"), Player("BOB")], source=SeededDice(8), match=Challenge(2))
    for number in (1, 2):
        game = session.new_game()
        while not game.is_over:
            game.roll()
            game.post(game.legal_boxes()[0])
        session.finish_game(f"2026-11-30T10:0{number}:00")
        assert session.match_is_over == (number == 2)
    totals = {name: sum(p.total for r in session.results for p in r.players if p.name == name)
              for name in ("ANN", "BOB")}
    best = max(totals.values())
    assert session.match.winners(session.match_scores) == [name for name, total in totals.items() if total == best]
    restored = session_from_dict(json.loads(json.dumps(session_to_dict(session))))
    assert restored == session and restored.match_is_over
    session.new_game()                                  # the decided challenge gives way to a new one
    assert session.match_start == 2 and session.match_scores == [] and not session.match_is_over


def test_start_match_counts_only_the_games_after_it() -> None:
    session = Session([Player("ANN")], results=[RECORDS[0]])
    session.start_match(Challenge(2))
    assert session.match_scores == [] and session.match_start == 1


@given(st.one_of(st.just(SINGLE_GAME), st.builds(Challenge, st.integers(1, 100)),
                 st.builds(Race, st.integers(1, 100_000)), st.builds(FirstTo, st.integers(1, 1_000_000))),
       st.integers(0, 3))
def test_matches_round_trip_through_the_session(match: Any, start: Any) -> None:
    session = Session([Player("ANN")], results=PLAYED, match=match, match_start=start)
    assert match_from_dict(json.loads(json.dumps(match_to_dict(match)))) == match
    assert session_from_dict(json.loads(json.dumps(session_to_dict(session)))) == session


@pytest.mark.parametrize("data", [
    {"kind": "tournament"}, {"kind": "challenge", "games": 0}, {"kind": "challenge", "games": "3"},
    {"kind": "race", "target": -1}, {"kind": "race"}, {"kind": "first_to", "target": True}, ["race", 5], None,
])
def test_bad_matches_are_refused(
        data: Optional[Any]) -> None:
    with pytest.raises(BadMatch):
        match_from_dict(data)
    session = session_to_dict(Session([Player("ANN")]))
    session["match"] = data
    with pytest.raises(DamagedSave):
        session_from_dict(session)


def test_a_bad_match_start_is_refused() -> None:
    session = session_to_dict(Session([Player("ANN")], results=PLAYED[:1]))
    for start in (-1, 2, "0", None):
        session["match_start"] = start
        with pytest.raises(DamagedSave):
            session_from_dict(json.loads(json.dumps(session)))


@pytest.mark.parametrize("text, match", [
    ("single", SINGLE_GAME), ("challenge 3", Challenge(3)), ("race:500", Race(500)),
    ("first-to 1000", FirstTo(1000)), ("RACE 20", Race(20)),
])
def test_parse_match(text: str, match: Union[Challenge, SingleGame, FirstTo, Race]) -> None:
    assert parse_match(text) == match


@pytest.mark.parametrize("text", ["", "league 3", "challenge", "race x", "challenge 0", "race 5 6"])
def test_parse_match_refuses_with_a_reason(text: str) -> None:
    with pytest.raises(BadMatch):
        parse_match(text)


def test_the_saved_game_summary_counts_the_rounds_only_when_they_are_thirteen() -> None:
    from yahtzee.screens.resume import saved_game_summary
    race = Session([Player("ANN")], source=SeededDice(3), match=Race(400))
    game = race.new_game()
    game.round = 20  # a race runs past thirteen rounds
    assert texts(saved_game_summary(race))[0] == "Game 1, round 20: ANN to play"
    single = Session([Player("ANN")], source=SeededDice(3))
    single.new_game()
    assert texts(saved_game_summary(single))[0] == "Game 1, round 1 of 13: ANN to play"
