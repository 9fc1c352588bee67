"""The saves folder: autosave, preferences and history, written atomically, read with care.

This is the only code that touches the saves folder. It never prints: everything the
player should know becomes a notice (saves.notices: words, said where they are shown),
collected in `Saves.notices`, which whoever shows them takes (the flow's Keeper, after each save).

Damaged files are never deleted. A file that cannot be used is renamed aside as
NAME.bad-YYYYmmdd-HHMMSS. In history.jsonl the good lines are worth keeping, so a file with
some bad lines (a torn last line after a crash included) is copied aside whole, then
rewritten with only its valid records; a file with none is renamed aside.
"""
import datetime
import enum
import errno
import json
import os
from pathlib import Path
from typing import Any, Callable, Optional

from ..model.outcome import FinishedGame
from ..model.session import Session
from ..model.words import Field, Say, Text
from . import atomic, documents
from .atomic import StrPath
from .documents import ResumePoint
from .folder import is_writable_folder
from .locks import FlockLock, default_lock
from .notices import (
    BUSY,
    HISTORY_NOT_REPAIRED,
    HISTORY_REPAIRED,
    HISTORY_TOO_LARGE,
    NOT_IN_HISTORY,
    NOT_READ,
    NOT_SAVED,
    NOT_SET_ASIDE,
    READ_ONLY,
    SAVING_OFF,
    SET_ASIDE,
    describe_os_error,
    fit_notice,
)
from .prefs import DEFAULTS, Prefs
from .records import InvalidRecord
from .shapes import JSONObject
from .strict import DamagedSave

AUTOSAVE = "autosave.json"
PREFS = "prefs.json"
HISTORY = "history.jsonl"
LOCK = "autosave.lock"
MAX_STATE_BYTES = 5 * 1024 * 1024
MAX_HISTORY_BYTES = 50 * 1024 * 1024
_NO_WRITE_ERRNOS = (errno.EACCES, errno.EPERM, errno.EROFS)


def local_now() -> datetime.datetime:
    """The current local time, timezone-aware."""
    return datetime.datetime.now(datetime.timezone.utc).astimezone()


class LockState(enum.Enum):
    """Where this copy stands with the lock on the saved game."""

    NOT_TRIED = enum.auto()
    HELD = enum.auto()  # this copy holds it
    BUSY = enum.auto()  # another copy holds it
    UNLOCKED = enum.auto()  # a read-only folder without a lock file: nobody can hold one
    ERROR = enum.auto()  # the lock file could not be made


class Saves:
    """The saves folder: every method keeps the game going and leaves notices for the player.

    `read_only` is True once the folder turned out not to be writable: a saved game can
    still be loaded and resumed, but nothing will be kept. After append_history returns
    False, `history_problem` is the one line to show at the end of that game."""

    def __init__(self, folder: StrPath, now: Callable[[], datetime.datetime] = local_now,
                 lock_factory: Callable[[Path], FlockLock] = default_lock, history: Optional[StrPath] = None) -> None:
        self.folder = Path(folder)
        # The finished games: this folder's own, or a file others keep too (a server's tables
        # share their server's), whose statistics are not this folder's to reset.
        self.history = Path(history) if history is not None else self.folder / HISTORY
        self.owns_history = history is None
        self.now = now
        self.notices: list[Text] = []
        self.read_only = False
        self.history_problem: Text = ""
        self._lock = lock_factory(self.folder / LOCK)
        self._lock_state = LockState.NOT_TRIED
        self._saving_off = False

    # Notices

    def take_notices(self) -> list[Text]:
        """The notices gathered so far, forgetting them."""
        notices, self.notices = self.notices, []
        return notices

    def _notice(self, template: str, **fields: Field) -> None:
        line = fit_notice(template, **fields)
        self.notices.append(line)

    def _write_failed(self, name: str, error: OSError) -> None:
        """Saving stops being attempted noisily: one notice for the session."""
        if error.errno in _NO_WRITE_ERRNOS and not is_writable_folder(self.folder):
            self.read_only = True
        if not self._saving_off:
            self._saving_off = True
            if self.read_only:
                self._notice(READ_ONLY)
            else:
                self._notice(SAVING_OFF, name=name, detail=describe_os_error(error))

    def timestamp(self) -> str:
        """The clock's time as ISO-8601, for a record's 'finished'."""
        return self.now().isoformat(timespec="seconds")

    # The lock

    def acquire_lock(self) -> bool:
        """True if no other copy uses the autosave, so this one may resume and write it (in a
        read-only folder it may resume it only); else one notice says why not."""
        if self._lock_state in (LockState.HELD, LockState.UNLOCKED):
            return True
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            held = self._lock.acquire()
        except OSError as error:
            if error.errno not in _NO_WRITE_ERRNOS:
                self._lock_state = LockState.ERROR
                self._write_failed(LOCK, error)
                return False
            read_only_held = self._acquire_read_only(error)
            if read_only_held is None:
                return True
            held = read_only_held
        if not held and self._lock_state is not LockState.BUSY:
            self._notice(BUSY)
        self._lock_state = LockState.HELD if held else LockState.BUSY
        return held

    def _acquire_read_only(self, error: OSError) -> Optional[bool]:
        """A folder the player cannot write: lock an existing lock file for reading (None: no
        lock file, so no other copy can hold one either)."""
        if not is_writable_folder(self.folder):
            self._write_failed(LOCK, error)
        try:
            return self._lock.acquire(read_only=True)
        except OSError:
            self._lock_state = LockState.UNLOCKED
            return None

    def release_lock(self) -> None:
        """Let another copy have the autosave."""
        if self._lock_state is LockState.HELD:
            self._lock.release()
        self._lock_state = LockState.NOT_TRIED

    def close(self) -> None:
        """Release the lock; the object may not write the autosave afterwards."""
        self.release_lock()

    def __enter__(self) -> "Saves":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _may_touch_autosave(self) -> bool:
        if self._lock_state is LockState.BUSY:
            return False
        return self.acquire_lock() and not self.read_only

    # autosave.json

    def has_autosave(self) -> bool:
        """A saved game is waiting in the folder."""
        return os.path.lexists(self.folder / AUTOSAVE)

    def save_session(self, session: Session, resume: ResumePoint) -> bool:
        """Write the session and the flow's resume point (a small JSON object, see
        documents.is_resume_point) as autosave.json; False if it was not saved."""
        data = documents.autosave_to_dict(session, resume, self.timestamp())
        if not self._may_touch_autosave():
            return False
        return self._write_json(AUTOSAVE, data)

    def load_session(self) -> Optional[tuple[Session, ResumePoint]]:
        """(session, resume point) of the saved game, or None when there is none or it could
        not be used (then set aside, with a notice)."""
        data = self._read_json(AUTOSAVE, MAX_STATE_BYTES)
        if data is None:
            return None
        try:
            return documents.autosave_from_dict(data)
        except DamagedSave as error:
            self._set_aside(self.folder / AUTOSAVE, error.said)
            return None

    def set_aside_autosave(self, label: str = "old") -> Optional[Path]:
        """Keep the saved game aside as autosave.json.<label>-<time>: "old" for one the player
        chose not to resume, "kept" for one the game failed to resume through a fault of its own."""
        if not self._may_touch_autosave():
            return None
        return self._rename_aside(self.folder / AUTOSAVE, label)

    def remove_autosave(self) -> bool:
        """Remove the autosave of a session that ended normally; False if it could not be."""
        if not self._may_touch_autosave():
            return False
        try:
            (self.folder / AUTOSAVE).unlink(missing_ok=True)
        except OSError as error:
            self._write_failed(AUTOSAVE, error)
            return False
        return True

    # prefs.json

    def load_prefs(self) -> Prefs:
        """The preferences: prefs.json's, or the defaults when it is missing or damaged."""
        data = self._read_json(PREFS, MAX_STATE_BYTES)
        if data is None:
            return DEFAULTS
        try:
            return documents.prefs_from_save(data)
        except DamagedSave as error:
            self._set_aside(self.folder / PREFS, error.said)
        return DEFAULTS

    def save_prefs(self, prefs: Prefs) -> bool:
        """Write the preferences to prefs.json; False if they were not saved."""
        return self._write_json(PREFS, documents.prefs_to_dict(prefs))

    # history.jsonl

    def append_history(self, game: FinishedGame) -> bool:
        """Add one finished game to history.jsonl; False if it was not added, and then
        `history_problem` is the line to show at the end of that game."""
        self.history_problem = ""
        try:
            line = documents.history_line(game)
        except InvalidRecord as error:
            self.history_problem = fit_notice(NOT_IN_HISTORY, detail=error.said)
            return False
        try:
            self.history.parent.mkdir(parents=True, exist_ok=True)
            atomic.append_line(self.history, line)
        except OSError as error:
            self._write_failed(HISTORY, error)
            self.history_problem = fit_notice(NOT_IN_HISTORY, detail=describe_os_error(error))
            return False
        return True

    def read_history(self) -> list[FinishedGame]:
        """The finished games of history.jsonl, oldest first; bad lines are skipped and kept aside."""
        path = self.history
        try:
            opened = atomic.open_for_reading(path, MAX_HISTORY_BYTES, HistoryTooLarge)
            if opened is None:
                return []
            file, size = opened
            with file:
                records, good_lines, bad = documents.scan_history(file)
        except HistoryTooLarge:  # whole and valid, most likely: not damaged, only too long to read
            kept = self._rename_aside(path, "large")
            if kept:
                self._notice(HISTORY_TOO_LARGE, name=HISTORY, size=MAX_HISTORY_BYTES // (1024 * 1024),
                             kept=kept.name)
            return []
        except DamagedSave as error:
            self._set_aside(path, error.said)
            return []
        except OSError as error:
            self._unreadable(path, error)
            return []
        if bad:
            self._keep_damaged_history(path, size, good_lines, bad)
        return records

    def reset_history(self) -> Optional[Path]:
        """Start the statistics afresh: history.jsonl is kept as history.jsonl.reset-<time>."""
        return self._rename_aside(self.history, "reset")

    def _keep_damaged_history(self, path: Path, size_read: int, good_lines: list[bytes], bad: int) -> None:
        if not good_lines:
            self._set_aside(path, Say.plurals("{count} damaged line", "{count} damaged lines", bad).format(count=bad))
            return
        copy = atomic.aside_name(path, "bad", self.now())
        try:
            if os.lstat(path).st_size != size_read:
                return  # another copy appended meanwhile; leave the file for next time
            atomic.copy_file(path, copy)
            atomic.write_atomically(path, b"".join(good_lines))
        except OSError as error:
            self._notice(HISTORY_NOT_REPAIRED, name=HISTORY, count=bad, detail=describe_os_error(error))
            return
        self._notice(HISTORY_REPAIRED, name=HISTORY, count=bad, kept=copy.name)

    # Files

    def _read_json(self, name: str, limit: int) -> Any:
        """The JSON data of a file (None if absent); a damaged file is set aside."""
        path = self.folder / name
        try:
            opened = atomic.open_for_reading(path, limit, _too_large(limit))
            if opened is None:
                return None
            file, _ = opened
            with file:
                raw = file.read(limit + 1)
            if len(raw) > limit:
                raise _too_large(limit)(len(raw))
            return documents.parse_json(raw)
        except DamagedSave as error:
            self._set_aside(path, error.said)
        except OSError as error:
            self._unreadable(path, error)
        return None

    def _unreadable(self, path: Path, error: OSError) -> None:
        """A file that cannot be read: set aside if it is no file at all, else a notice."""
        if isinstance(error, atomic.NotAFile):
            self._set_aside(path, describe_os_error(error))
        else:
            self._notice(NOT_READ, name=path.name, detail=describe_os_error(error))

    def _write_json(self, name: str, data: JSONObject) -> bool:
        try:
            # no indent: an indented dump is written by the pure-Python encoder, much slower
            text = json.dumps(data, ensure_ascii=True, allow_nan=False)
        except (TypeError, ValueError) as error:
            self._notice(NOT_SAVED, name=name, detail=str(error))
            return False
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            atomic.write_atomically(self.folder / name, text.encode("ascii") + b"\n")
        except OSError as error:
            self._write_failed(name, error)
            return False
        return True

    def _set_aside(self, path: Path, reason: Text) -> None:
        """Rename a damaged file to NAME.bad-<time> and tell the player in one line."""
        kept = self._rename_aside(path, "bad")
        if kept:
            self._notice(SET_ASIDE, name=path.name, kept=kept.name, detail=reason)

    def _rename_aside(self, path: Path, label: str) -> Optional[Path]:
        """Rename `path` to NAME.<label>-<time> (unique); the new Path, or None."""
        try:
            return atomic.rename_aside(path, label, self.now())
        except OSError as error:
            self._notice(NOT_SET_ASIDE, name=path.name, detail=describe_os_error(error))
            return None


class HistoryTooLarge(DamagedSave):
    """The history is over MAX_HISTORY_BYTES."""

    def __init__(self, size: int):
        super().__init__(f"{size} bytes")


def _too_large(limit: int) -> Callable[[int], DamagedSave]:
    """The fault of a file over `limit` bytes, made from its size."""
    return lambda size: DamagedSave(Say("larger than {size} MB").format(size=limit // (1024 * 1024)))
