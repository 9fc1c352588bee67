"""The model's JSON: every malformed document is one DamagedSave; our own errors stay errors."""
import json
from pathlib import Path
from typing import Any, Callable, Optional, Union

import pytest
from helpers import STAMP, clock, texts, there
from test_saves import RESUME, files_in, mid_game_session

from yahtzee.model.session import Session
from yahtzee.saves import codec
from yahtzee.saves.codec import DamagedSave, session_from_dict, session_to_dict
from yahtzee.saves.store import AUTOSAVE, Saves


def good() -> dict[str, Any]:
    return json.loads(json.dumps(session_to_dict(mid_game_session())))


def changed(change: Callable) -> dict[str, Any]:
    data = good()
    change(data)
    return data


def game(data: dict[str, Any]) -> dict[str, Any]:
    return data["game"]


MALFORMED = {
    "a list": [],
    "a number": 7,
    "null": None,
    "no version": changed(lambda d: d.pop("version")),
    "version as text": changed(lambda d: d.update(version="2")),
    "no players": changed(lambda d: d.pop("players")),
    "players an object": changed(lambda d: d.update(players={})),
    "a player a list": changed(lambda d: d["players"].__setitem__(0, ["ANN"])),
    "a player name a number": changed(lambda d: d["players"][0].update(name=5)),
    "a kind a list": changed(lambda d: d["players"][0].update(kind=["human"])),
    "a mood an object": changed(lambda d: d["players"][1].update(mood={})),
    "a stand-in as text": changed(lambda d: game(d)["players"][0].update(stand_in="yes")),
    "a computer stood in for": changed(lambda d: game(d)["players"][1].update(stand_in=True)),
    "no results": changed(lambda d: d.pop("results")),
    "a result a string": changed(lambda d: d["results"].append("game")),
    "no game key": changed(lambda d: d.pop("game")),
    "game a list": changed(lambda d: d.update(game=[1])),
    "game version missing": changed(lambda d: game(d).pop("version")),
    "rules a string": changed(lambda d: game(d).update(rules="hasbro")),
    "rules name a list": changed(lambda d: game(d)["rules"].update(name=["hasbro"])),
    "roll bonus a number": changed(lambda d: game(d)["rules"].update(roll_bonus=5)),
    "boxes a list": changed(lambda d: game(d)["players"][0].update(boxes=[])),
    "an unknown box": changed(lambda d: game(d)["players"][0]["boxes"].update(bonus=0)),
    "a box holds text": changed(lambda d: game(d)["players"][0]["boxes"].update(ones="1")),
    "a box out of range": changed(lambda d: game(d)["players"][0]["boxes"].update(ones=7)),
    "blanks a list of lists": changed(lambda d: game(d)["players"][0].update(blanks=[["ones"]])),
    "blanks an object": changed(lambda d: game(d)["players"][0].update(blanks={})),
    "turn missing": changed(lambda d: game(d).pop("turn")),
    "turn a list": changed(lambda d: game(d).update(turn=[])),
    "dice a string": changed(lambda d: game(d)["turn"].update(dice="12345")),
    "four dice": changed(lambda d: game(d)["turn"].update(dice=[1, 2, 3, 4])),
    "marks as numbers": changed(lambda d: game(d)["turn"].update(marked=[0, 1, 0, 0, 0])),
    "rolls as text": changed(lambda d: game(d)["turn"].update(rolls="1")),
    "seat out of range": changed(lambda d: game(d).update(seat=9)),
    "seat missing": changed(lambda d: game(d).pop("seat")),
    "round as a float": changed(lambda d: game(d).update(round=1.0)),
    "race target too high": changed(lambda d: game(d).update(race_target=10**9)),
    "undo a list": changed(lambda d: game(d).update(undo=[1])),
    "dice source a string": changed(lambda d: d.update(dice="seeded")),
    "verify as text": changed(lambda d: d.update(verify="yes")),
    "match kind a list": changed(lambda d: d.update(match={"kind": ["race"]})),
    "match games as text": changed(lambda d: d.update(match={"kind": "challenge", "games": "3"})),
    "match start beyond the results": changed(lambda d: d.update(match_start=5)),
    "losses a list": changed(lambda d: d.update(losses=[1])),
    "a loss as text": changed(lambda d: d.update(losses={"ANN": "1"})),
}


@pytest.mark.parametrize("data", MALFORMED.values(), ids=MALFORMED.keys())
def test_every_malformed_document_is_one_damaged_save(data: Any) -> None:
    with pytest.raises(DamagedSave):
        session_from_dict(data)


@pytest.mark.parametrize("data", list(MALFORMED.values())[3:], ids=list(MALFORMED)[3:])
def test_a_malformed_autosave_is_set_aside_with_one_line(tmp_path: Path, data: dict[str, Any]) -> None:
    (tmp_path / AUTOSAVE).write_text(json.dumps({**data, "saved": "x", "resume": {}}))
    saves = Saves(tmp_path, now=clock)
    assert saves.load_session() is None
    assert files_in(tmp_path) == [f"{AUTOSAVE}.bad-{STAMP}"] and len(texts(saves.notices)) == 1


def test_an_error_in_the_games_own_code_is_not_reported_as_a_damaged_file(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    saves = Saves(tmp_path, now=clock)
    assert saves.save_session(mid_game_session(), RESUME)

    def broken(*args: Any, **kwargs: Any) -> None:
        raise TypeError("a bug in the scorecard")
    monkeypatch.setattr(codec, "Scorecard", broken)
    with pytest.raises(TypeError, match="a bug in the scorecard"):
        saves.load_session()
    assert files_in(tmp_path) == [AUTOSAVE, "autosave.lock"] and texts(saves.notices) == []


def test_the_model_no_longer_holds_a_screen() -> None:
    assert "screen" not in session_to_dict(mid_game_session()) and not hasattr(Session([]), "screen")


def old_autosave(screen: Optional[Union[int, str]]) -> str:
    data = {**good(), "version": 1, "screen": screen, "saved": "2024-05-01T11:59:00+00:00"}
    return json.dumps(data)


@pytest.mark.parametrize("screen, resume", [
    ("posting h", {"screen": "verify", "box": "full_house"}), ("play", {"screen": "play"}), ("", {}),
])
def test_an_old_autosave_with_a_screen_loads_with_its_resume_point(
        tmp_path: Path, screen: str, resume: dict[str, str]) -> None:
    (tmp_path / AUTOSAVE).write_text(old_autosave(screen))
    session, loaded = there(Saves(tmp_path, now=clock).load_session())
    assert loaded == resume and session_to_dict(session) == session_to_dict(mid_game_session())


@pytest.mark.parametrize("screen", [5, None, "x" * 41, "a\x1bb"])
def test_an_old_autosave_with_a_bad_screen_is_damaged(tmp_path: Path, screen: Optional[Union[int, str]]) -> None:
    (tmp_path / AUTOSAVE).write_text(old_autosave(screen))
    saves = Saves(tmp_path, now=clock)
    assert saves.load_session() is None and len(texts(saves.notices)) == 1


BAD_RESUME_POINTS: dict[str, Any] = {
    "missing": None, "a list": ["posting"], "a string": "posting",
    "nine entries": {f"k{n}": n for n in range(9)}, "a long key": {"k" * 21: 1},
    "a long value": {"screen": "x" * 41}, "a float": {"turn": 1.5}, "a bool": {"verify": True},
    "a list value": {"box": ["h"]}, "an object value": {"box": {}},
}


@pytest.mark.parametrize("resume", BAD_RESUME_POINTS.values(), ids=BAD_RESUME_POINTS.keys())
def test_a_malformed_resume_point_is_damage_and_is_refused_when_saving(tmp_path: Path, resume: Any) -> None:
    data = {**good(), "saved": "x"}
    if resume is not None:
        data["resume"] = resume
    (tmp_path / AUTOSAVE).write_text(json.dumps(data))
    saves = Saves(tmp_path, now=clock)
    assert saves.load_session() is None and len(texts(saves.notices)) == 1
    with pytest.raises(ValueError):
        saves.save_session(mid_game_session(), resume)


def test_the_largest_resume_point_round_trips(tmp_path: Path) -> None:
    resume = {f"key{n}".ljust(20, "k"): ("v" * 40 if n % 3 == 0 else n if n % 3 == 1 else None) for n in range(8)}
    saves = Saves(tmp_path, now=clock)
    assert saves.save_session(mid_game_session(), resume)
    assert there(saves.load_session())[1] == resume


def test_each_humans_choice_to_rank_advice_by_the_chance_to_win_is_kept_with_the_game() -> None:
    session = mid_game_session()
    session.win_rankers = {session.players[0].name}
    restored = session_from_dict(json.loads(json.dumps(session_to_dict(session))))
    assert restored.win_rankers == {session.players[0].name}
    data = session_to_dict(session)
    del data["win_rankers"]  # a save from before: every human ranks by the expected score
    assert session_from_dict(data).win_rankers == set()
    data["win_rankers"] = ["\x1b[2J"]
    with pytest.raises(DamagedSave):
        session_from_dict(data)


def test_a_turn_played_in_an_away_persons_place_is_kept_with_the_game_and_is_theirs_again_after() -> None:
    session = mid_game_session()
    game = there(session.game)
    assert game.current.name == "ANN" and not game.stand_in("HAL")  # not HAL's turn (nor a person's)
    assert game.stand_in("ANN") and game.current.is_computer and game.current.kind == "human"
    restored = there(session_from_dict(json.loads(json.dumps(session_to_dict(session)))).game)
    assert restored.current.stand_in and restored.current.is_computer  # resumed, the computer plays on
    assert not any(player.stand_in for player in session.players)  # a game's player's, not the session's seat
    game.post(game.legal_boxes()[0])
    assert game.current.name == "HAL" and not game.players[0].stand_in and not game.players[0].is_computer
