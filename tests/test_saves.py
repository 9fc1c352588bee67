"""The saves folder: atomic writes, damaged files set aside, the lock, history records."""
import errno
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import IO, Any, Callable

import pytest
from helpers import LOCK_ERRNO, NOON, STAMP, clock, texts, there
from hypothesis import given, settings
from hypothesis import strategies as st

from yahtzee.model.dice import LoadedDice, SeededDice
from yahtzee.model.game import Player
from yahtzee.model.outcome import FinishedGame
from yahtzee.model.scoring import Category, is_possible_points, joker_points, score
from yahtzee.model.session import Session
from yahtzee.saves.codec import session_from_dict, session_to_dict
from yahtzee.saves.notices import READ_ONLY
from yahtzee.saves.prefs import DEFAULTS, Prefs
from yahtzee.saves.records import InvalidRecord, check_record, record_of
from yahtzee.saves.store import AUTOSAVE, HISTORY, LOCK, PREFS, Saves
from yahtzee.speech.languages import text

ROOT = Path(__file__).resolve().parent.parent
MB = 1024 * 1024
def play(session: Session, rng: random.Random) -> None:
    """Finish the session's game in play with random legal postings."""
    game = there(session.game)
    while not game.is_over:
        game.roll()
        if rng.random() < 0.5:
            game.toggle(rng.randrange(5))
            game.roll()
        game.post(rng.choice(game.legal_boxes()))


def played_game(
        seed: int = 1, names: tuple[str, ...] = ("ANN", "BOB"),
        finished: str = "2024-05-01T12:00:00+00:00") -> FinishedGame:
    """A real game played with random choices, finished."""
    session = Session([Player(n) for n in names], source=SeededDice(seed))
    session.new_game()
    play(session, random.Random(seed))
    return session.finish_game(finished)


def finished_record(
        seed: int = 1, names: tuple[str, ...] = ("ANN",
        "BOB")) -> dict[str, Any]:
    """The history record of a real game played with random choices."""
    return record_of(played_game(seed, names))


def mid_game_session() -> Session:
    """A session with one finished game and a second one stopped mid-turn."""
    session = Session([Player("ANN"), Player("HAL", "computer")], source=LoadedDice([6] * 7, SeededDice(9)))
    session.new_game()
    play(session, random.Random(3))
    session.finish_game("2024-05-01T11:00:00+00:00")
    session.new_game()
    there(session.game).roll()
    there(session.game).toggle(2)
    session.verify = False
    return session


RESUME = {"screen": "play"}


def files_in(saves_folder: Path) -> list[str]:
    return sorted(p.name for p in saves_folder.iterdir())


def test_a_real_session_round_trips_through_the_autosave(saves: Saves, saves_folder: Path) -> None:
    session = mid_game_session()
    assert saves.save_session(session, {"screen": "posting", "box": "h", "turn": 3, "x": None})
    data = json.loads((saves_folder / AUTOSAVE).read_text())
    assert data["version"] == 2 and data["saved"] == NOON.isoformat()
    loaded, resume = there(saves.load_session())
    assert resume == {"screen": "posting", "box": "h", "turn": 3, "x": None}
    assert session_to_dict(loaded) == session_to_dict(session)
    loaded_game, game = there(loaded.game), there(session.game)
    assert loaded_game.turn == game.turn and loaded_game.roll() == game.roll()
    assert texts(saves.notices) == []


def test_no_autosave_loads_as_none_without_a_notice(saves: Saves) -> None:
    assert saves.load_session() is None and not saves.has_autosave()
    assert texts(saves.notices) == []


def good_autosave() -> dict[str, Any]:
    return {**session_to_dict(mid_game_session()), "saved": "2024-05-01T11:59:00+00:00", "resume": RESUME}


def damaged(change: Callable) -> bytes:
    data = good_autosave()
    change(data)
    return json.dumps(data).encode()


DAMAGED_AUTOSAVES = {
    "bad JSON": b'{"version": 1, "players": [',
    "truncated": json.dumps(good_autosave()).encode()[:-40],
    "not UTF-8": b'{"version": 1, "name": "\xff\xfe"}',
    "not an object": b"[1, 2, 3]",
    "NaN": damaged(lambda d: d.update(verify=float("nan"))),
    "deeply nested": b"[" * 100_000 + b"]" * 100_000,
    "wrong version": damaged(lambda d: d.update(version=3)),
    "version as true": damaged(lambda d: d.update(version=True)),
    "wrong type": damaged(lambda d: d.update(verify="yes")),
    "players not a list": damaged(lambda d: d.update(players=7)),
    "out-of-range score": damaged(lambda d: d["game"]["players"][0]["boxes"].update(full_house=26)),
    "out-of-range result": damaged(lambda d: d["results"][0]["players"][0]["scores"].update(chance=99)),
    "results not a list": damaged(lambda d: d.update(results=5)),
    "control characters in a name": damaged(lambda d: d["players"][0].update(name="A\x1b[2JB")),
    "right-to-left override in a name": damaged(lambda d: d["players"][0].update(name="AN\u202eN")),
    "hostile long name": damaged(lambda d: d["players"][0].update(name="\x07" * 10_000)),
}


@pytest.mark.parametrize("content", DAMAGED_AUTOSAVES.values(), ids=DAMAGED_AUTOSAVES.keys())
def test_a_damaged_autosave_is_set_aside_with_one_notice(saves: Saves, saves_folder: Path, content: bytes,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    saves_folder.mkdir()
    (saves_folder / AUTOSAVE).write_bytes(content)
    assert saves.load_session() is None
    assert files_in(saves_folder) == [f"{AUTOSAVE}.bad-{STAMP}"]
    assert (saves_folder / f"{AUTOSAVE}.bad-{STAMP}").read_bytes() == content
    [notice] = texts(saves.notices)
    assert AUTOSAVE in notice and f"bad-{STAMP}" in notice
    assert notice.isprintable() and len(notice) <= 200
    assert capsys.readouterr() == ("", "")


def test_an_oversized_autosave_is_set_aside_without_being_read(saves: Saves, saves_folder: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    saves_folder.mkdir()
    with open(saves_folder / AUTOSAVE, "wb") as file:
        file.truncate(50 * MB)
    opened = []
    monkeypatch.setattr(os, "fdopen", lambda *a, **k: opened.append(a))
    assert saves.load_session() is None
    assert opened == []
    assert files_in(saves_folder) == [f"{AUTOSAVE}.bad-{STAMP}"]
    assert (saves_folder / f"{AUTOSAVE}.bad-{STAMP}").stat().st_size == 50 * MB
    [notice] = texts(saves.notices)
    assert "larger than 5 MB" in notice


def test_something_not_a_file_in_place_of_the_autosave_is_set_aside(saves: Saves, saves_folder: Path) -> None:
    (saves_folder / AUTOSAVE).mkdir(parents=True)
    assert saves.load_session() is None
    assert files_in(saves_folder) == [f"{AUTOSAVE}.bad-{STAMP}"]
    assert len(texts(saves.notices)) == 1


def test_setting_aside_never_overwrites_an_earlier_copy(saves: Saves, saves_folder: Path) -> None:
    saves_folder.mkdir()
    for attempt in range(3):
        (saves_folder / AUTOSAVE).write_text(f"damaged {attempt}")
        assert saves.load_session() is None
    assert files_in(saves_folder) == [f"{AUTOSAVE}.bad-{STAMP}", f"{AUTOSAVE}.bad-{STAMP}-2",
                                f"{AUTOSAVE}.bad-{STAMP}-3"]
    assert (saves_folder / f"{AUTOSAVE}.bad-{STAMP}-3").read_text() == "damaged 2"
    assert len(texts(saves.notices)) == 3


def test_declining_to_resume_keeps_the_old_autosave_aside(saves: Saves, saves_folder: Path) -> None:
    session = mid_game_session()
    saves.save_session(session, RESUME)
    kept = saves.set_aside_autosave()
    assert there(kept).name == f"{AUTOSAVE}.old-{STAMP}"
    assert not saves.has_autosave()
    assert session_to_dict(session_from_dict(json.loads(there(kept).read_text()))) == session_to_dict(session)
    assert saves.set_aside_autosave() is None


def test_a_finished_session_removes_its_autosave(saves: Saves, saves_folder: Path) -> None:
    saves.save_session(mid_game_session(), RESUME)
    assert saves.remove_autosave() and not saves.has_autosave()
    assert saves.remove_autosave()
    assert texts(saves.notices) == []


# Failing writes: the game goes on, the old file stays whole

def raise_error(code: int) -> Callable:
    def fail(*args: Any, **kwargs: Any) -> None:
        raise OSError(code, os.strerror(code))
    return fail


@pytest.mark.parametrize("target, code, reason", [
    ("replace", errno.EACCES, "no permission"),
    ("replace", errno.EROFS, "read-only"),
    ("fsync", errno.ENOSPC, "the disk is full"),
    ("fdopen", errno.ENOSPC, "the disk is full"),
])
def test_a_failing_write_warns_once_and_keeps_the_old_file(saves: Saves, saves_folder: Path,
                                                           monkeypatch: pytest.MonkeyPatch, target: str, code: int,
                                                           reason: str) -> None:
    assert saves.save_prefs(Prefs(verify=False))
    before = (saves_folder / PREFS).read_bytes()
    monkeypatch.setattr(os, target, raise_error(code))
    assert not saves.save_prefs(Prefs(verify=True))
    assert not saves.save_session(mid_game_session(), RESUME)
    [notice] = texts(saves.notices)
    assert notice.startswith("saving is off: prefs.json: ") and reason in notice
    monkeypatch.undo()
    assert (saves_folder / PREFS).read_bytes() == before
    assert files_in(saves_folder) == [LOCK, PREFS]
    assert saves.save_prefs(Prefs(verify=True)) and saves.load_prefs().verify is True
    assert len(texts(saves.notices)) == 1


class HalfWriter:
    """A file that takes half of what is written, then finds the disk full."""

    def __init__(self, file: IO[Any]) -> None:
        self.file = file

    def write(self, data: bytes) -> None:
        self.file.write(data[:len(data) // 2])
        self.file.flush()
        raise OSError(errno.ENOSPC, "No space left on device")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.file, name)

    def __enter__(self) -> "HalfWriter":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.file.close()


def test_a_write_that_fails_halfway_keeps_the_old_autosave(saves: Saves, saves_folder: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    first = mid_game_session()
    saves.save_session(first, RESUME)
    before = (saves_folder / AUTOSAVE).read_bytes()
    real_fdopen = os.fdopen
    monkeypatch.setattr(os, "fdopen", lambda *a, **k: HalfWriter(real_fdopen(*a, **k)))
    there(first.game).toggle(4)
    assert not saves.save_session(first, RESUME)
    monkeypatch.undo()
    assert (saves_folder / AUTOSAVE).read_bytes() == before
    assert files_in(saves_folder) == [AUTOSAVE, LOCK]
    assert texts(saves.notices) == ["saving is off: autosave.json: the disk is full"]


def test_a_history_append_that_fails_halfway_leaves_the_file_as_it_was(saves: Saves, saves_folder: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    saves.append_history(played_game(1))
    before = (saves_folder / HISTORY).read_bytes()
    real_write = os.write

    def half_then_full(fd: Any, data: Any) -> None:
        real_write(fd, bytes(data[:len(data) // 2]))
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "write", half_then_full)
    assert not saves.append_history(played_game(2))
    monkeypatch.undo()
    assert (saves_folder / HISTORY).read_bytes() == before
    assert saves.read_history() == [played_game(1)]
    assert texts(saves.notices) == ["saving is off: history.jsonl: the disk is full"]


def test_a_full_disk_stops_history_appends_with_one_warning_and_a_line_for_each_game(
        saves: Saves, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "write", raise_error(errno.ENOSPC))
    assert not saves.append_history(played_game(1))
    assert text(saves.history_problem) == "this game was not added to the history: the disk is full"
    assert not saves.append_history(played_game(2))
    assert text(saves.history_problem) == "this game was not added to the history: the disk is full"
    assert texts(saves.notices) == ["saving is off: history.jsonl: the disk is full"]
    monkeypatch.undo()
    assert saves.append_history(played_game(3)) and text(saves.history_problem) == ""


def run_unprivileged(
        action: Callable) -> dict[str, Any]:
    """Run `action` as an ordinary user (forked and dropped from root when need be)."""
    if sys.platform == "win32":  # for the type checker: POSIX only (never run on Windows)
        pytest.skip("POSIX only")
    if os.geteuid() != 0:
        return action()
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never return into pytest
        status = 1
        try:
            os.close(reader)
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            os.write(writer, json.dumps(action()).encode())
            status = 0
        finally:
            os._exit(status)
    os.close(writer)
    with os.fdopen(reader, "rb") as pipe:
        output = pipe.read()
    _, status = os.waitpid(pid, 0)
    assert status == 0, "the unprivileged child failed"
    return json.loads(output)


@pytest.mark.posix(reason="a folder made read-only by its mode bits (chmod, geteuid)")
def test_a_read_only_folder_lets_play_go_on_with_one_warning() -> None:
    folder = Path(tempfile.mkdtemp(prefix="yahtzee-read-only-"))
    try:
        (folder / PREFS).write_text('{"version": 1, "verify": false, "sound": true}')
        history = finished_record(4)
        (folder / HISTORY).write_text(json.dumps(history) + "\n")
        folder.chmod(0o555)

        def play_in_it() -> Any:
            saves = Saves(folder, now=clock)
            return {"prefs": saves.load_prefs() == Prefs(verify=False), "saved": saves.save_prefs(Prefs()),
                    "autosaved": saves.save_session(mid_game_session(), RESUME),
                    "appended": saves.append_history(played_game(5)),
                    "history": [record_of(game) for game in saves.read_history()], "notices": texts(saves.notices)}
        outcome = run_unprivileged(play_in_it)
    finally:
        folder.chmod(0o755)
        files = files_in(folder)
        prefs = (folder / PREFS).read_text()
        shutil.rmtree(folder)
    assert outcome["prefs"] is True
    assert not outcome["saved"] and not outcome["autosaved"]
    assert outcome["history"] == [history]
    assert outcome["notices"] == [READ_ONLY]
    assert prefs == '{"version": 1, "verify": false, "sound": true}'
    assert files == [HISTORY, PREFS]


# prefs.json

def test_prefs_default_then_round_trip_keeping_unknown_keys(saves: Saves, saves_folder: Path) -> None:
    assert saves.load_prefs() == DEFAULTS
    assert saves.save_prefs(Prefs(verify=False))
    assert saves.load_prefs() == Prefs(verify=False)
    assert json.loads((saves_folder / PREFS).read_text())["version"] == 1
    later = json.loads((saves_folder / PREFS).read_text())
    (saves_folder / PREFS).write_text(json.dumps({**later, "later_option": [1, 2]}))
    assert saves.save_prefs(replace(saves.load_prefs(), hints=True))
    assert json.loads((saves_folder / PREFS).read_text()) == {**later, "hints": True, "later_option": [1, 2]}
    assert saves.load_prefs() == Prefs(verify=False, hints=True)
    assert texts(saves.notices) == []


@pytest.mark.parametrize("content", [
    b"{not json", b'{"version": 1, "verify": "off"}', b'{"version": 1, "sound": 0}',
    b'{"verify": false}', b'{"version": 9, "verify": false}', b'"just a string"',
    b'{"version": 1, "verify": false, "sound": tr',
])
def test_damaged_prefs_fall_back_to_the_defaults_with_one_notice(
        saves: Saves, saves_folder: Path, content: bytes) -> None:
    saves_folder.mkdir()
    (saves_folder / PREFS).write_bytes(content)
    assert saves.load_prefs() == DEFAULTS
    assert files_in(saves_folder) == [f"{PREFS}.bad-{STAMP}"]
    assert (saves_folder / f"{PREFS}.bad-{STAMP}").read_bytes() == content
    assert len(texts(saves.notices)) == 1 and PREFS in texts(saves.notices)[0]


# The history record format

def test_records_of_real_games_are_valid() -> None:
    for seed in range(20):
        check_record(finished_record(seed, names=("ANN", "Bob", "Zoë", "HAL")[:seed % 4 + 1]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=5, max_size=5), st.sampled_from(list(Category)))
def test_every_score_the_dice_can_make_is_a_possible_box_value(dice: Any, box: Category) -> None:
    assert is_possible_points(box, score(box, dice))
    assert is_possible_points(box, joker_points(box, [dice[0]] * 5))


def mutated(change: Callable) -> dict[str, Any]:
    record = finished_record(7)
    change(record)
    return record


def first_player(**fields: Any) -> Callable:
    return lambda r: r["players"][0].update(fields)


def first_scores(**boxes: Any) -> Callable:
    return lambda r: r["players"][0]["scores"].update(boxes)


INVALID_RECORDS = {
    "not an object": lambda r: r.clear(),
    "version 3": lambda r: r.update(version=3),
    "version true": lambda r: r.update(version=True),
    "finished not a time": lambda r: r.update(finished="yesterday"),
    "rules not text": lambda r: r.update(rules=3),
    "seed as text": lambda r: r.update(seed="42"),
    "no players": lambda r: r.update(players=[]),
    "five players": lambda r: r.update(players=r["players"] * 3),
    "shared name": lambda r: r["players"][1].update(name=r["players"][0]["name"]),
    "name with ESC": first_player(name="A\x1bB"),
    "name with BEL": first_player(name="\x07"),
    "name with bidi override": first_player(name="\u202eNNA"),
    "blank name": first_player(name="   "),
    "very long name": first_player(name="A" * 41),
    "kind robot": first_player(kind="robot"),
    "a missing box": lambda r: r["players"][0]["scores"].pop("chance"),
    "an unknown box": first_scores(bonus=0),
    "threes 4": first_scores(threes=4),
    "sixes 36": first_scores(sixes=36),
    "full house 26": first_scores(full_house=26),
    "chance 31": first_scores(chance=31),
    "yahtzee -50": first_scores(yahtzee=-50),
    "score as float": first_scores(ones=1.0),
    "score as bool": first_scores(ones=True),
    "upper bonus 36": first_player(upper_bonus=36),
    "yahtzee bonus 75": first_player(yahtzee_bonus=75),
    "total off by one": lambda r: r["players"][0].update(total=r["players"][0]["total"] + 1),
    "a stranger wins": lambda r: r.update(winners=["NOBODY"]),
    "nobody wins": lambda r: r.update(winners=[]),
}


@pytest.mark.parametrize("change", INVALID_RECORDS.values(), ids=INVALID_RECORDS.keys())
def test_invalid_records_are_refused(change: Callable) -> None:
    record = mutated(change)
    with pytest.raises(InvalidRecord):
        check_record(record)


def test_tolerated_record_variations() -> None:
    record = finished_record(7)
    record.update(seed=None, note="kept")
    record["players"][0]["name"] = "Zoë 二"
    record["winners"] = [record["players"][0]["name"]]
    check_record(record)


# history.jsonl

def test_history_appends_and_reads_back_in_order(saves: Saves) -> None:
    records = [played_game(seed) for seed in range(3)]
    for record in records:
        assert saves.append_history(record)
    assert saves.read_history() == records
    assert texts(saves.notices) == []


def test_an_invalid_record_is_not_appended(saves: Saves, saves_folder: Path) -> None:
    game = played_game(7)
    renamed = replace(game.players[0], name="A\x1bB")
    assert not saves.append_history(replace(game, players=(renamed, *game.players[1:])))
    assert not (saves_folder / HISTORY).exists()
    assert text(saves.history_problem).startswith("this game was not added to the history: a player name")


def test_a_torn_last_line_loses_only_that_game(saves: Saves, saves_folder: Path) -> None:
    first, second, third = (played_game(seed) for seed in (1, 2, 3))
    saves.append_history(first)
    saves.append_history(second)
    with open(saves_folder / HISTORY, "ab") as file:
        file.write(json.dumps(record_of(third)).encode()[:57])  # a crash in the middle of an append
    assert saves.read_history() == [first, second]
    assert len(texts(saves.notices)) == 1


def test_an_append_after_a_torn_line_starts_a_new_line(saves: Saves, saves_folder: Path) -> None:
    first, second = played_game(1), played_game(2)
    saves.append_history(first)
    with open(saves_folder / HISTORY, "ab") as file:
        file.write(b'{"version": 1, "finis')
    assert saves.append_history(second)
    assert saves.read_history() == [first, second]


def test_bad_lines_are_skipped_kept_aside_once_and_the_file_repaired(saves: Saves, saves_folder: Path) -> None:
    good = [played_game(seed) for seed in range(3)]
    bad_lines = [b"not json", json.dumps(mutated(first_scores(chance=99))).encode(),
                 json.dumps(mutated(first_player(name="\x1b]0;owned\x07"))).encode(),
                 b"[" * 70_000, json.dumps(mutated(lambda r: r.update(version=3))).encode()]
    good_lines = [json.dumps(record_of(game)).encode() for game in good]
    content = b"\n".join([good_lines[0], *bad_lines[:3], good_lines[1], *bad_lines[3:], good_lines[2]]) + b"\n"
    saves_folder.mkdir()
    (saves_folder / HISTORY).write_bytes(content)
    assert saves.read_history() == good
    [notice] = texts(saves.notices)
    assert "5 damaged line(s)" in notice and f".bad-{STAMP}" in notice
    assert (saves_folder / f"{HISTORY}.bad-{STAMP}").read_bytes() == content
    assert saves.read_history() == good
    assert len(texts(saves.notices)) == 1
    assert files_in(saves_folder) == [HISTORY, f"{HISTORY}.bad-{STAMP}"]


@pytest.mark.parametrize("content", [
    b"\x00\x01\x02garbage\xff", b'{"version": 1}\n', b"[1, 2]\n{}\n", b'{"version": 1, "finished": "2024',
])
def test_a_history_with_no_valid_line_is_set_aside(saves: Saves, saves_folder: Path, content: bytes) -> None:
    saves_folder.mkdir()
    (saves_folder / HISTORY).write_bytes(content)
    assert saves.read_history() == []
    assert files_in(saves_folder) == [f"{HISTORY}.bad-{STAMP}"]
    assert (saves_folder / f"{HISTORY}.bad-{STAMP}").read_bytes() == content
    assert len(texts(saves.notices)) == 1


def test_an_oversized_history_is_set_aside_as_too_large_without_being_read(saves: Saves, saves_folder: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    saves_folder.mkdir()
    with open(saves_folder / HISTORY, "wb") as file:
        file.write(json.dumps(finished_record(1)).encode() + b"\n")
        file.truncate(50 * MB + 1)
    opened = []
    monkeypatch.setattr(os, "fdopen", lambda *a, **k: opened.append(a))
    assert saves.read_history() == []
    assert opened == []
    assert files_in(saves_folder) == [f"{HISTORY}.large-{STAMP}"]
    assert texts(saves.notices) == [f"{HISTORY} over 50 MB, kept as {HISTORY}.large-{STAMP}: new statistics"]


def test_a_history_of_fifty_megabytes_is_still_read(saves: Saves, saves_folder: Path) -> None:
    record = played_game(1)
    saves_folder.mkdir()
    with open(saves_folder / HISTORY, "wb") as file:
        file.write(json.dumps(record_of(record)).encode() + b"\n")
        file.write(b" " * (50 * MB - file.tell() - 1) + b"\n")
    assert saves.read_history() == [record]
    assert texts(saves.notices) == []


def test_resetting_the_statistics_keeps_the_old_history(saves: Saves, saves_folder: Path) -> None:
    saves.append_history(played_game(1))
    kept = saves.reset_history()
    assert there(kept).name == f"{HISTORY}.reset-{STAMP}"
    assert saves.read_history() == [] and texts(saves.notices) == []
    assert json.loads(there(kept).read_text()) == finished_record(1)


# The lock: one copy of the game owns the autosave

@pytest.mark.wine_lacks(reason=LOCK_ERRNO)
def test_a_second_copy_is_refused_the_autosave_until_the_first_lets_go(saves_folder: Path) -> None:
    first, second = Saves(saves_folder, now=clock), Saves(saves_folder, now=clock)
    session = mid_game_session()
    assert first.acquire_lock() and first.save_session(session, RESUME)
    before = (saves_folder / AUTOSAVE).read_bytes()
    assert not second.acquire_lock()
    other = Session([Player("EVE")], source=SeededDice(5))
    assert not second.save_session(other, RESUME)
    assert second.set_aside_autosave() is None and not second.remove_autosave()
    assert (saves_folder / AUTOSAVE).read_bytes() == before
    assert len(texts(second.notices)) == 1 and "another copy" in texts(second.notices)[0]
    assert session_to_dict(there(second.load_session())[0]) == session_to_dict(session)
    first.close()
    assert second.acquire_lock() and second.save_session(other, RESUME)
    assert texts(first.notices) == [] and len(texts(second.notices)) == 1
    second.close()


HOLD_THE_LOCK = """
import sys, time
from yahtzee.saves.store import Saves
saves = Saves(sys.argv[1])
print("locked" if saves.acquire_lock() else "refused", flush=True)
time.sleep(60)
"""


@pytest.mark.posix(reason="SIGKILL")
def test_a_copy_killed_outright_does_not_leave_the_lock_stuck(saves_folder: Path) -> None:
    if sys.platform == "win32":  # for the type checker: POSIX only (never run on Windows)
        pytest.skip("POSIX only")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-c", HOLD_THE_LOCK, str(saves_folder)], cwd=ROOT, env=env,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert there(child.stdout).readline().strip() == "locked"
        assert not Saves(saves_folder, now=clock).acquire_lock()
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
    finally:
        child.kill()
        there(child.stdout).close()
    with Saves(saves_folder, now=clock) as after:
        assert after.acquire_lock() and texts(after.notices) == []


# Notices

def test_notices_are_gathered_until_taken(saves_folder: Path) -> None:
    saves = Saves(saves_folder, now=clock)
    saves_folder.mkdir()
    (saves_folder / PREFS).write_text("{")
    saves.load_prefs()
    heard = list(texts(saves.notices))
    assert len(heard) == 1
    assert texts(saves.take_notices()) == heard and texts(saves.notices) == []


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8)


def paths_in(data: Any, prefix: Any = ()) -> Iterator[Any]:
    """Every path to a value inside nested JSON data."""
    yield prefix
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        yield from paths_in(value, prefix + (key,))


GOOD_AUTOSAVE = good_autosave()
AUTOSAVE_PATHS = list(paths_in(GOOD_AUTOSAVE))[1:]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(AUTOSAVE_PATHS), JSON_VALUES)
def test_any_one_changed_value_in_an_autosave_never_escapes_as_an_error(path: tuple[Any, ...], value: Any) -> None:
    data = json.loads(json.dumps(GOOD_AUTOSAVE))
    place = data
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = value
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / AUTOSAVE).write_text(json.dumps(data))
        saves = Saves(folder, now=clock)
        loaded = saves.load_session()
        if loaded is None:
            assert files_in(Path(folder)) == [f"{AUTOSAVE}.bad-{STAMP}"] and len(texts(saves.notices)) == 1
        else:
            session = loaded[0]
            saved = session_to_dict(session)
            assert texts(saves.notices) == [] and session_to_dict(session_from_dict(saved)) == saved
