"""Match types: single game, challenge of N games, race to a target, first to a total."""
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yahtzee.dice import SeededDice
from yahtzee.game import BadState, Player, Session
from yahtzee.match import (
    SINGLE_GAME,
    BadMatch,
    Challenge,
    FirstTo,
    Race,
    is_over,
    match_from_dict,
    match_to_dict,
    parse_match,
    standings_lines,
    winners,
)


def record(**totals):
    """A history record with just what matches read: the players' totals and winners."""
    best = max(totals.values())
    return {"players": [{"name": name, "total": total} for name, total in totals.items()],
            "winners": [name for name, total in totals.items() if total == best]}


GAMES = [record(ANN=250, BOB=230), record(ANN=180, BOB=216), record(ANN=240, BOB=190)]


def test_a_single_game_is_over_with_its_record():
    assert not is_over(SINGLE_GAME, [])
    assert is_over(SINGLE_GAME, GAMES[1:2]) and winners(SINGLE_GAME, GAMES[1:2]) == ["BOB"]
    assert standings_lines(SINGLE_GAME, GAMES[:1]) == []


def test_a_challenge_is_won_on_the_total_of_its_games():
    challenge = Challenge(3)
    assert not is_over(challenge, GAMES[:2]) and winners(challenge, GAMES[:2]) == []
    lines = standings_lines(challenge, GAMES[:2])
    assert lines == ["Challenge: after game 2 of 3, BOB leads ANN by 16", "ANN 430, BOB 446; 1 game to go"]
    assert is_over(challenge, GAMES) and winners(challenge, GAMES) == ["ANN"]
    assert standings_lines(challenge, GAMES) == ["Challenge of 3 games: ANN wins by 34", "ANN 670, BOB 636"]
    assert standings_lines(challenge, []) == ["Challenge of 3 games: none played yet"]


def test_a_challenge_can_end_level():
    games = [record(ANN=200, BOB=210), record(ANN=210, BOB=200)]
    assert winners(Challenge(2), games) == ["ANN", "BOB"]
    assert standings_lines(Challenge(2), games)[0] == "Challenge of 2 games: ANN and BOB share the win on 410"
    assert standings_lines(Challenge(3), games)[0] == "Challenge: after game 2 of 3, ANN and BOB are level on 410"


def test_first_to_a_total_counts_whole_games():
    first = FirstTo(600)
    assert not is_over(first, GAMES[:2])
    assert standings_lines(first, GAMES[:2]) == ["First to 600: after 2 games, BOB leads ANN by 16",
                                                 "ANN 430, BOB 446; 154 more needed"]
    assert is_over(first, GAMES) and winners(first, GAMES) == ["ANN"]
    assert standings_lines(first, GAMES)[0] == "First to 600: ANN wins by 34 after 3 games"


def test_a_race_is_one_game_whose_end_the_game_decides():
    race = Race(500)
    assert race.race_target == 500 and SINGLE_GAME.race_target is None
    assert not is_over(race, []) and is_over(race, GAMES[:1]) and winners(race, GAMES[:1]) == ["ANN"]
    assert standings_lines(race, GAMES[:1]) == ["Race to 500: ANN wins by 20", "ANN 250, BOB 230"]


def test_a_race_in_play_says_who_leads_and_what_is_left():
    session = Session([Player("ANN"), Player("BOB")], source=SeededDice(3), match=Race(60))
    game = session.new_game()
    assert game.race_target == 60
    assert session.standings_lines() == ["Race to 60: ANN and BOB are level on 0",
                                         "ANN 0, BOB 0; ANN and BOB need 60 more"]
    game.roll()
    game.post(game.legal_boxes()[-1])
    total = game.players[0].card.total
    assert session.standings_lines()[1].startswith(f"ANN {total}, BOB 0;")
    while not game.is_over:
        game.roll()
        game.post(game.legal_boxes()[-1])
        assert session.match_is_over == game.is_over
    assert game.round > 1 and game.seat == 0
    assert max(p.card.total for p in game.players) >= 60
    session.finish_game("2026-11-30T10:00:00")
    assert session.match_is_over and session.match_winners() == session.results[0]["winners"]


def test_a_session_plays_a_challenge_to_its_end_then_starts_another():
    session = Session([Player("ANN"), Player("BOB")], source=SeededDice(8), match=Challenge(2))
    for number in (1, 2):
        game = session.new_game()
        while not game.is_over:
            game.roll()
            game.post(game.legal_boxes()[0])
        session.finish_game(f"2026-11-30T10:0{number}:00")
        assert session.match_is_over == (number == 2)
    totals = {name: sum(p["total"] for r in session.results for p in r["players"] if p["name"] == name)
              for name in ("ANN", "BOB")}
    best = max(totals.values())
    assert session.match_winners() == [name for name, total in totals.items() if total == best]
    restored = Session.from_dict(json.loads(json.dumps(session.to_dict())))
    assert restored == session and restored.match_is_over
    session.new_game()                                  # the decided challenge gives way to a new one
    assert session.match_start == 2 and session.match_records == [] and not session.match_is_over


def test_start_match_counts_only_the_games_after_it():
    session = Session([Player("ANN")], results=[dict(GAMES[0])])
    session.start_match(Challenge(2))
    assert session.match_records == [] and session.match_start == 1


@given(st.one_of(st.just(SINGLE_GAME), st.builds(Challenge, st.integers(1, 100)),
                 st.builds(Race, st.integers(1, 100_000)), st.builds(FirstTo, st.integers(1, 1_000_000))),
       st.integers(0, 3))
def test_matches_round_trip_through_the_session(match, start):
    session = Session([Player("ANN")], results=[dict(g) for g in GAMES], match=match, match_start=start)
    assert match_from_dict(json.loads(json.dumps(match_to_dict(match)))) == match
    assert Session.from_dict(json.loads(json.dumps(session.to_dict()))) == session


@pytest.mark.parametrize("data", [
    {"kind": "tournament"}, {"kind": "challenge", "games": 0}, {"kind": "challenge", "games": "3"},
    {"kind": "race", "target": -1}, {"kind": "race"}, {"kind": "first_to", "target": True}, ["race", 5], None,
])
def test_bad_matches_are_refused(data):
    with pytest.raises(BadMatch):
        match_from_dict(data)
    session = Session([Player("ANN")]).to_dict()
    session["match"] = data
    with pytest.raises(BadState):
        Session.from_dict(session)


def test_a_bad_match_start_is_refused():
    session = Session([Player("ANN")], results=[dict(GAMES[0])]).to_dict()
    for start in (-1, 2, "0", None):
        session["match_start"] = start
        with pytest.raises(BadState):
            Session.from_dict(json.loads(json.dumps(session)))


@pytest.mark.parametrize("text, match", [
    ("single", SINGLE_GAME), ("challenge 3", Challenge(3)), ("race:500", Race(500)),
    ("first-to 1000", FirstTo(1000)), ("RACE 20", Race(20)),
])
def test_parse_match(text, match):
    assert parse_match(text) == match


@pytest.mark.parametrize("text", ["", "league 3", "challenge", "race x", "challenge 0", "race 5 6"])
def test_parse_match_refuses_with_a_reason(text):
    with pytest.raises(BadMatch):
        parse_match(text)
