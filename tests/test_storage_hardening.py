"""The saves folder refuses links, FIFOs and folders in a file's place, names the file when
saving stops, keeps every notice within 80 columns and resumes from a read-only folder."""
import json
import os
import shutil
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from helpers import LOCK_ERRNO, STAMP, SYMLINKS, clock, texts, there
from test_saves import RESUME, files_in, mid_game_session, played_game, run_unprivileged

from yahtzee.saves.notices import NOTICES, READ_ONLY, fit_notice
from yahtzee.saves.prefs import Prefs
from yahtzee.saves.store import AUTOSAVE, HISTORY, LOCK, PREFS, Saves
from yahtzee.speech.languages import text

PRECIOUS = b"someone else's file\n"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A file outside the saves folder that links will point at."""
    path = tmp_path / "precious.txt"
    path.write_bytes(PRECIOUS)
    return path


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "saves"
    path.mkdir()
    return path


@pytest.mark.wine_lacks(reason=SYMLINKS)
def test_a_linked_lock_file_is_refused_and_its_target_left_alone(folder: Path, outside: Path) -> None:
    (folder / LOCK).symlink_to(outside)
    saves = Saves(folder, now=clock)
    assert not saves.acquire_lock()
    assert not saves.save_session(mid_game_session(), RESUME)
    assert outside.read_bytes() == PRECIOUS and os.path.islink(folder / LOCK)
    assert texts(saves.notices) == ["saving is off: autosave.lock: a link, not a file"]


@pytest.mark.wine_lacks(reason=SYMLINKS)
@pytest.mark.parametrize("name", [AUTOSAVE, PREFS, HISTORY])
def test_a_linked_saves_file_is_set_aside_never_read_or_written_through(folder: Path, outside: Path, name: str) -> None:
    (folder / name).symlink_to(outside)
    saves = Saves(folder, now=clock)
    assert saves.load_session() is None and saves.load_prefs().verify is True
    assert saves.read_history() == []
    assert outside.read_bytes() == PRECIOUS
    assert files_in(folder) == [f"{name}.bad-{STAMP}"]
    assert os.path.islink(folder / f"{name}.bad-{STAMP}")
    assert texts(saves.notices) == [f"damaged {name} kept as {name}.bad-{STAMP}: a link, not a file"]


@pytest.mark.wine_lacks(reason=SYMLINKS)
@pytest.mark.parametrize("name", [AUTOSAVE, PREFS, HISTORY])
def test_writing_never_goes_through_a_link(folder: Path, outside: Path, name: str) -> None:
    saves = Saves(folder, now=clock)
    (folder / name).symlink_to(outside)
    assert not saves.save_session(mid_game_session(), RESUME) or name != AUTOSAVE
    assert not saves.save_prefs(Prefs(verify=False)) or name != PREFS
    assert not saves.append_history(played_game(1)) or name != HISTORY
    assert outside.read_bytes() == PRECIOUS and os.path.islink(folder / name)
    assert texts(saves.notices) == [f"saving is off: {name}: a link, not a file"]


@pytest.mark.posix(reason="a FIFO (os.mkfifo)")
def test_a_fifo_named_history_neither_hangs_reading_nor_appending(folder: Path) -> None:
    if sys.platform == "win32":  # for the type checker: POSIX only (never run on Windows)
        pytest.skip("POSIX only")
    os.mkfifo(folder / HISTORY)
    saves = Saves(folder, now=clock)
    assert not saves.append_history(played_game(1))
    assert text(saves.history_problem) == "this game was not added to the history: not a regular file"
    assert saves.read_history() == []
    assert files_in(folder) == [f"{HISTORY}.bad-{STAMP}"]
    assert saves.append_history(played_game(1)) and saves.read_history() == [played_game(1)]


def test_a_folder_in_place_of_the_autosave_names_the_file_when_saving_stops(folder: Path) -> None:
    (folder / AUTOSAVE).mkdir()
    saves = Saves(folder, now=clock)
    assert not saves.save_session(mid_game_session(), RESUME)
    assert texts(saves.notices) == ["saving is off: autosave.json: a folder, not a file"]


LONG_FIELDS: dict[str, Any] = {"name": "history.jsonl", "kept": "history.jsonl.reset-20240501-120000-99",
                               "count": 10 ** 8, "detail": "a reason " * 30 + "\x1b[2J\n", "size": 50}


@pytest.mark.parametrize("template", NOTICES)
def test_every_notice_says_its_whole_reason_and_kept_name_on_one_safe_line(template: str) -> None:
    notice = text(fit_notice(template, **LONG_FIELDS))
    assert notice.isprintable() and "..." not in notice  # one line the console wraps, nothing cut
    if "{detail}" in template:
        assert ("a reason " * 30).strip() in notice
    if "{kept}" in template:
        assert "history.jsonl.reset-20240501-120000-99" in notice


def test_only_a_runaway_reason_is_cut() -> None:
    assert len(text(fit_notice(NOTICES[0], name="x", detail="y" * 100_000))) < 1000


def test_text_from_a_file_deep_in_a_notices_words_is_shown_safe() -> None:
    from yahtzee.model.words import Say, joined
    from yahtzee.saves.notices import SET_ASIDE
    hostile = "\x1b[2J\u202eevil" + "z" * 100_000
    reason = joined(("'moves': ", Say("{box} is out of range").format(box=hostile)))
    notice = text(fit_notice(SET_ASIDE, name="history.jsonl", kept="history.jsonl.bad-1", detail=reason))
    assert notice.isprintable() and "\x1b" not in notice and "\u202e" not in notice and len(notice) < 1000


@pytest.mark.wine_lacks(reason=LOCK_ERRNO)
def test_the_notices_met_in_play_fit_80_columns(folder: Path, outside: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    saves = Saves(folder, now=clock)
    (folder / AUTOSAVE).write_text(json.dumps({"version": 2, "players": "x" * 300}))
    saves.load_session()
    (folder / HISTORY).symlink_to(outside)
    saves.append_history(played_game(1))
    saves.append_history(replace(played_game(1), finished="never"))
    other = Saves(folder, now=clock)
    assert saves.acquire_lock() and not other.acquire_lock()
    lines = texts(saves.notices) + texts(other.notices) + [text(saves.history_problem)]
    assert len(lines) == 4 and all(line.isprintable() and not line.endswith("...") for line in lines)


@pytest.mark.posix(reason="a folder made read-only by its mode bits (chmod, geteuid)")
def test_a_read_only_folder_still_offers_its_saved_game() -> None:
    folder = Path(tempfile.mkdtemp(prefix="yahtzee-read-only-"))
    try:
        with Saves(folder, now=clock) as saves:
            assert saves.save_session(mid_game_session(), RESUME)
        (folder / LOCK).unlink()
        (folder / AUTOSAVE).chmod(0o644)  # the player's own file, readable by the unprivileged child
        folder.chmod(0o555)

        def start_in_it() -> Any:
            saves = Saves(folder, now=clock)
            locked = saves.acquire_lock()
            session, resume = there(saves.load_session())
            return {"locked": locked, "read_only": saves.read_only, "resume": resume,
                    "players": [p.name for p in session.players],
                    "saved": saves.save_session(session, resume), "notices": texts(saves.notices)}
        outcome = run_unprivileged(start_in_it)
    finally:
        folder.chmod(0o755)
        files = files_in(folder)
        shutil.rmtree(folder)
    assert outcome == {"locked": True, "read_only": True, "resume": RESUME, "players": ["ANN", "HAL"],
                       "saved": False, "notices": [READ_ONLY]}
    assert files == [AUTOSAVE]


def test_a_writable_folder_is_not_read_only(folder: Path) -> None:
    saves = Saves(folder, now=clock)
    assert saves.acquire_lock() and not saves.read_only
