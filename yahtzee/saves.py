"""The saves folder: autosave, preferences and history, written atomically, read with care.

This is the only module that touches the saves folder. It never prints: everything the
player should know becomes a one-line notice, collected in `Saves.notices`.

Damaged files are never deleted. A file that cannot be used is renamed aside as
NAME.bad-YYYYmmdd-HHMMSS. In history.jsonl the good lines are worth keeping, so a file with
some bad lines (a torn last line after a crash included) is copied aside whole, then
rewritten with only its valid records; a file with none is renamed aside.
"""
import datetime
import errno
import json
import os
import stat
import tempfile
import time
import unicodedata
from pathlib import Path

from . import prefs as preferences
from .game import MAX_PLAYERS, STATE_VERSION, BadState, KINDS, Session
from .scoring import FIXED_POINTS, UPPER_BONUS, UPPER_BONUS_THRESHOLD, YAHTZEE_POINTS, Category

FILE_VERSION = 1
AUTOSAVE = "autosave.json"
PREFS = "prefs.json"
HISTORY = "history.jsonl"
LOCK = "autosave.lock"
ENV_SAVES = "YAHTZEE_SAVES"

MAX_STATE_BYTES = 5 * 1024 * 1024
MAX_HISTORY_BYTES = 50 * 1024 * 1024
MAX_RECORD_BYTES = 64 * 1024
MAX_NAME_CHARS = 40
MAX_TEXT_CHARS = 40
DEFAULT_PREFS = preferences.DEFAULTS
BINARY = getattr(os, "O_BINARY", 0)  # Windows would turn b"\n" into b"\r\n" without it
FRESH_LOCK_SECONDS = 5
SUM_BOXES = (Category.THREE_OF_A_KIND, Category.FOUR_OF_A_KIND, Category.CHANCE)
NOTICE_CHARS = 200
REASON_CHARS = 60


class InvalidRecord(ValueError):
    """A history record that does not follow the history.jsonl format."""


class DamagedFile(ValueError):
    """A saves file whose contents cannot be used; the message says why."""


# Choosing the folder

def choose_saves_dir(cli_value, environ, project_dir, windows=None):
    """--saves, else $YAHTZEE_SAVES, else saves/ beside yahtzee.py if writable, else user data."""
    if cli_value:
        return Path(cli_value).expanduser()
    if environ.get(ENV_SAVES):
        return Path(environ[ENV_SAVES]).expanduser()
    beside = Path(project_dir) / "saves"
    if _is_writable_folder(beside) or (not beside.exists() and _is_writable_folder(beside.parent)):
        return beside
    return user_data_dir(environ, os.name == "nt" if windows is None else windows)


def user_data_dir(environ, windows):
    """The per-user data folder: %APPDATA%, $XDG_DATA_HOME or ~/.local/share, + yahtzee."""
    home = Path(environ.get("HOME") or Path.home())
    if windows:
        return Path(environ.get("APPDATA") or home / "AppData" / "Roaming") / "yahtzee"
    xdg = environ.get("XDG_DATA_HOME", "")
    base = Path(xdg) if os.path.isabs(xdg) else home / ".local" / "share"
    return base / "yahtzee"


def _is_writable_folder(path):
    return path.is_dir() and os.access(path, os.W_OK | os.X_OK)


# The history record format

def check_record(record):
    """Raise InvalidRecord unless `record` is a valid history.jsonl game record."""
    _require(isinstance(record, dict), "not an object")
    _require(record.get("version") == FILE_VERSION and _is_int(record.get("version")),
             "unknown version")
    _require(_is_timestamp(record.get("finished")), "'finished' is not an ISO-8601 time")
    _require(_is_text(record.get("rules")), "'rules' is not a rule-set name")
    _require(record.get("seed") is None or _is_int(record.get("seed")), "'seed' is not a number")
    players = record.get("players")
    _require(isinstance(players, list) and 1 <= len(players) <= MAX_PLAYERS, "bad 'players'")
    for player in players:
        check_player_record(player)
    names = [player["name"] for player in players]
    _require(len(set(names)) == len(names), "two players share a name")
    winners = record.get("winners")
    _require(isinstance(winners, list) and winners and all(w in names for w in winners)
             and len(set(winners)) == len(winners), "'winners' are not among the players")


def check_player_record(player):
    """Raise InvalidRecord unless `player` is one valid entry of a record's players."""
    _require(isinstance(player, dict), "a player is not an object")
    _require(is_valid_name(player.get("name")), "a player name is missing or not printable")
    _require(player.get("kind") in KINDS, "a player kind is not human or computer")
    scores = player.get("scores")
    _require(isinstance(scores, dict) and set(scores) == {box.value for box in Category},
             "the scores do not name the 13 boxes")
    for box in Category:
        _require(is_possible_points(box, scores[box.value]), f"{box.value} is out of range")
    upper = sum(scores[box.value] for box in Category if box.is_upper)
    bonus = player.get("upper_bonus")
    _require(_is_int(bonus) and bonus == (UPPER_BONUS if upper >= UPPER_BONUS_THRESHOLD else 0),
             "the upper bonus does not match the upper boxes")
    # Variants add these: FiveOAK's roll bonus, a race's banked columns, Acorn's blanks.
    roll_bonus, banked = player.get("roll_bonus", 0), player.get("banked", 0)
    _require(_is_int(roll_bonus) and roll_bonus >= 0 and roll_bonus % 5 == 0, "the roll bonus is out of range")
    _require(_is_int(banked) and banked >= 0, "the banked race points are out of range")
    blanks = player.get("blanks", [])
    _require(isinstance(blanks, list) and all(isinstance(box, str) and scores.get(box) == 0 for box in blanks),
             "a blanked box that does not hold 0")
    extra = player.get("yahtzee_bonus")
    _require(_is_int(extra) and 0 <= extra <= 100 * (len(Category) - 1) * (1000 if banked else 1)
             and extra % 50 == 0, "the Yahtzee bonus is out of range")
    _require(extra == 0 or banked or scores[Category.YAHTZEE.value] == YAHTZEE_POINTS,
             "a Yahtzee bonus without 50 in the Yahtzee box")
    _require(player.get("total") == sum(scores.values()) + bonus + extra + roll_bonus + banked
             and _is_int(player.get("total")), "the total is not the sum of the boxes and bonuses")


def is_valid_record(record):
    """True when `record` follows the history.jsonl format."""
    try:
        check_record(record)
    except InvalidRecord:
        return False
    return True


def is_valid_name(name):
    """A player name as files may hold it: 1-40 printable characters, not all blank."""
    return (isinstance(name, str) and 0 < len(name) <= MAX_NAME_CHARS
            and name.isprintable() and not name.isspace())


def is_possible_points(box, points):
    """Points that the box can hold in some game (a blanked box included)."""
    if not _is_int(points):
        return False
    if box.is_upper:
        return 0 <= points <= 5 * box.face and points % box.face == 0
    if box in SUM_BOXES:
        return points == 0 or 5 <= points <= 30
    return points in (0, FIXED_POINTS[box])


def _require(condition, reason):
    if not condition:
        raise InvalidRecord(reason)


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _is_text(value):
    return isinstance(value, str) and 0 < len(value) <= MAX_TEXT_CHARS and value.isprintable()


def _is_timestamp(value):
    if not _is_text(value):
        return False
    try:
        datetime.datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


# Locks: one copy of the game at a time owns the autosave

class FlockLock:
    """An flock on the lock file; the OS lets go when the process dies."""

    def __init__(self, path):
        self.path = Path(path)
        self._fd = None

    def acquire(self):
        """True if the lock is ours now; OSError if the file cannot be opened."""
        import fcntl
        if self._fd is not None:
            return True
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | BINARY, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        self._fd = fd
        _write_pid(fd)
        return True

    def release(self):
        """Let go of the lock (the file stays; removing it would race with other copies)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


class MsvcrtLock(FlockLock):
    """Windows: a byte-range lock on the lock file, also dropped when the process dies."""

    def acquire(self):
        """True if the lock is ours now; OSError if the file cannot be opened."""
        import msvcrt
        if self._fd is not None:
            return True
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | BINARY, 0o644)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError as error:
            os.close(fd)
            if error.errno in (errno.EACCES, errno.EDEADLK):
                return False
            raise
        self._fd = fd
        return True


class PidFileLock:
    """Where no OS lock exists: a file holding the owner's pid, taken over once it is dead."""

    def __init__(self, path):
        self.path = Path(path)
        self._held = False

    def acquire(self):
        """True if the lock is ours now; OSError if the file cannot be written."""
        if self._held:
            return True
        for _ in range(2):
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | BINARY, 0o644)
            except FileExistsError:
                if self._is_owned():
                    return False
                self.path.unlink(missing_ok=True)
                continue
            _write_pid(fd)
            os.close(fd)
            self._held = True
            return True
        return False

    def _is_owned(self):
        """A live pid is in the file, or it was created so recently that the pid may follow."""
        pid = _read_pid(self.path)
        if pid is not None:
            return _pid_is_alive(pid)
        try:
            return time.time() - self.path.stat().st_mtime < FRESH_LOCK_SECONDS
        except FileNotFoundError:
            return False

    def release(self):
        """Remove our pid file."""
        if self._held:
            self._held = False
            self.path.unlink(missing_ok=True)


def default_lock(path):
    """The best lock this platform offers for `path`."""
    try:
        import fcntl  # noqa: F401
        return FlockLock(path)
    except ImportError:
        pass
    try:
        import msvcrt  # noqa: F401
        return MsvcrtLock(path)
    except ImportError:
        return PidFileLock(path)


def _write_pid(fd):
    """Note the owner's pid in the lock file: for people looking, and for PidFileLock."""
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        os.lseek(fd, 0, os.SEEK_SET)
    except OSError:
        pass  # the lock itself is held; the pid is only a courtesy


def _read_pid(path):
    try:
        text = path.read_text(encoding="ascii", errors="replace")[:20].strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def _pid_is_alive(pid):
    if not pid or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True


# The saves folder

def local_now():
    """The current local time, timezone-aware."""
    return datetime.datetime.now(datetime.timezone.utc).astimezone()


class Saves:
    """The saves folder: every method keeps the game going and leaves notices for the player."""

    def __init__(self, folder, now=local_now, notify=None, lock_factory=default_lock):
        self.folder = Path(folder)
        self.now = now
        self.notices = []
        self.notify = notify
        self._lock = lock_factory(self.folder / LOCK)
        self._lock_state = None  # None (not tried), "held", "busy" or "error"
        self._saving_off = False

    # Notices

    def take_notices(self):
        """The notices gathered so far, forgetting them."""
        notices, self.notices = self.notices, []
        return notices

    def _notice(self, text):
        line = _one_line(text, NOTICE_CHARS)
        self.notices.append(line)
        if self.notify:
            self.notify(line)

    def _write_failed(self, error):
        if not self._saving_off:
            self._saving_off = True
            self._notice(f"saving is off: {describe_os_error(error)}")

    def timestamp(self):
        """The clock's time as ISO-8601, for a record's 'finished'."""
        return self.now().isoformat(timespec="seconds")

    # The lock

    def acquire_lock(self):
        """True if this copy may write the autosave; else one notice says why not."""
        if self._lock_state == "held":
            return True
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            held = self._lock.acquire()
        except OSError as error:
            self._lock_state = "error"
            self._write_failed(error)
            return False
        if not held and self._lock_state != "busy":
            self._notice("another copy of the game is using the saved game; this game will not be autosaved")
        self._lock_state = "held" if held else "busy"
        return held

    def release_lock(self):
        """Let another copy have the autosave."""
        if self._lock_state == "held":
            self._lock.release()
        self._lock_state = None

    @property
    def has_lock(self):
        """This copy owns the autosave."""
        return self._lock_state == "held"

    def close(self):
        """Release the lock; the object may not write the autosave afterwards."""
        self.release_lock()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def _may_touch_autosave(self):
        if self._lock_state == "busy":
            return False
        return self.acquire_lock()

    # autosave.json

    def has_autosave(self):
        """A saved game is waiting in the folder."""
        return (self.folder / AUTOSAVE).exists()

    def save_session(self, session, resume=None):
        """Write the session as autosave.json; False if it was not saved."""
        if not self._may_touch_autosave():
            return False
        session.screen = (resume or {}).get("screen", "") + (
            " " + resume["box"] if (resume or {}).get("box") else "")
        data = {**session.to_dict(), "saved": self.timestamp()}
        return self._write_json(AUTOSAVE, data)

    def load_session(self):
        """The saved Session, or None when there is none or it could not be used."""
        data = self._read_json(AUTOSAVE, MAX_STATE_BYTES)
        if data is None:
            return None
        try:
            session = session_from_save(data)
            screen, _, box = session.screen.partition(" ")
            return session, ({"screen": screen, **({"box": box} if box else {})} if screen else {})
        except DamagedFile as error:
            self._set_aside(self.folder / AUTOSAVE, str(error))
            return None

    def set_aside_autosave(self):
        """Keep the saved game the player chose not to resume as autosave.json.old-<time>."""
        if not self._may_touch_autosave():
            return None
        return self._rename_aside(self.folder / AUTOSAVE, "old")

    def remove_autosave(self):
        """Remove the autosave of a session that ended normally; False if it could not be."""
        if not self._may_touch_autosave():
            return False
        try:
            (self.folder / AUTOSAVE).unlink(missing_ok=True)
        except OSError as error:
            self._write_failed(error)
            return False
        return True

    # prefs.json

    def load_prefs(self):
        """The preferences: defaults, overridden by the file's known keys of the right type."""
        prefs = dict(DEFAULT_PREFS)
        data = self._read_json(PREFS, MAX_STATE_BYTES)
        if data is None:
            return prefs
        try:
            prefs.update(prefs_from_save(data))
        except DamagedFile as error:
            self._set_aside(self.folder / PREFS, str(error))
        return prefs

    def save_prefs(self, prefs):
        """Write the preferences to prefs.json; False if they were not saved."""
        return self._write_json(PREFS, {**DEFAULT_PREFS, **prefs, "version": FILE_VERSION})

    # history.jsonl

    def append_history(self, record):
        """Add one finished game to history.jsonl; False if it was not added."""
        try:
            check_record(record)
        except InvalidRecord as error:
            self._notice(f"this game was not added to the history: {error}")
            return False
        line = json.dumps(record, ensure_ascii=True, allow_nan=False).encode("ascii") + b"\n"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            _append_line(self.folder / HISTORY, line)
        except OSError as error:
            self._write_failed(error)
            return False
        return True

    def read_history(self):
        """The valid records of history.jsonl, oldest first; bad lines are skipped and kept aside."""
        path = self.folder / HISTORY
        try:
            before = _regular_file_size(path, MAX_HISTORY_BYTES)
            if before is None:
                return []
            with open(path, "rb") as file:
                records, good_lines, bad = _scan_history(file)
        except DamagedFile as error:
            self._set_aside(path, str(error))
            return []
        except OSError as error:
            self._notice(f"{HISTORY} could not be read: {describe_os_error(error)}")
            return []
        if bad:
            self._keep_damaged_history(path, before, good_lines, bad)
        return records

    def reset_history(self):
        """Start the statistics afresh: history.jsonl is kept as history.jsonl.reset-<time>."""
        return self._rename_aside(self.folder / HISTORY, "reset")

    def _keep_damaged_history(self, path, size_read, good_lines, bad):
        if not good_lines:
            self._set_aside(path, f"{bad} damaged line{'s' * (bad != 1)}")
            return
        copy = self._free_name(path, "bad")
        try:
            if path.stat().st_size != size_read:
                return  # another copy appended meanwhile; leave the file for next time
            _copy_file(path, copy)
            self._write_bytes(path, b"".join(good_lines))
        except OSError as error:
            self._notice(f"{HISTORY}: {bad} damaged line(s) skipped; it could not be repaired "
                         f"({describe_os_error(error)})")
            return
        self._notice(f"{HISTORY}: {bad} damaged line{'s' * (bad != 1)} skipped; "
                     f"the old file was kept as {copy.name}")

    # Files

    def _read_json(self, name, limit):
        """The JSON data of a file (None if absent); a damaged file is set aside."""
        path = self.folder / name
        try:
            if _regular_file_size(path, limit) is None:
                return None
            with open(path, "rb") as file:
                raw = file.read(limit + 1)
            if len(raw) > limit:
                raise DamagedFile(f"larger than {limit // (1024 * 1024)} MB")
            return parse_json(raw)
        except DamagedFile as error:
            self._set_aside(path, str(error))
        except OSError as error:
            self._notice(f"{name} could not be read: {describe_os_error(error)}")
        return None

    def _write_json(self, name, data):
        try:
            text = json.dumps(data, ensure_ascii=True, allow_nan=False, indent=1)
        except (TypeError, ValueError) as error:
            self._notice(f"{name} was not saved: {error}")
            return False
        try:
            self._write_bytes(self.folder / name, text.encode("ascii") + b"\n")
        except OSError as error:
            self._write_failed(error)
            return False
        return True

    def _write_bytes(self, path, data):
        """Replace `path` with `data` atomically: the old file stays whole if anything fails."""
        self.folder.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=self.folder)
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(data)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temp, path)
        except BaseException:
            _remove_quietly(temp)
            raise
        _fsync_folder(self.folder)

    def _set_aside(self, path, reason):
        """Rename a damaged file to NAME.bad-<time> and tell the player in one line."""
        kept = self._rename_aside(path, "bad")
        if kept:
            reason = _one_line(reason, REASON_CHARS)
            self._notice(f"{path.name} could not be used ({reason}); it was kept as {kept.name}")

    def _rename_aside(self, path, label):
        """Rename `path` to NAME.<label>-<time> (unique); the new Path, or None."""
        if not os.path.lexists(path):
            return None
        target = self._free_name(path, label)
        try:
            os.rename(path, target)
        except OSError as error:
            self._notice(f"{path.name} could not be set aside: {describe_os_error(error)}")
            return None
        _fsync_folder(self.folder)
        return target

    def _free_name(self, path, label):
        stem = f"{path.name}.{label}-{self.now().strftime('%Y%m%d-%H%M%S')}"
        target, number = path.with_name(stem), 1
        while os.path.lexists(target):
            number += 1
            target = path.with_name(f"{stem}-{number}")
        return target


# Reading and checking file contents

def parse_json(raw):
    """JSON data from bytes; DamagedFile if they are not strict UTF-8 JSON."""
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant)
    except UnicodeDecodeError:
        raise DamagedFile("not UTF-8 text") from None
    except (ValueError, RecursionError) as error:
        raise DamagedFile(f"not valid JSON: {error.__class__.__name__}") from None


def session_from_save(data):
    """The Session an autosave holds; DamagedFile says what is wrong."""
    if not isinstance(data, dict):
        raise DamagedFile("not a saved game")
    if not _is_int(data.get("version")) or data["version"] != STATE_VERSION:
        raise DamagedFile("it comes from another version of the game")
    results = data.get("results")
    if not isinstance(results, list):
        raise DamagedFile("the finished games are missing")
    for record in results:
        if not is_valid_record(record):
            raise DamagedFile("a finished game in it is not valid")
    try:
        return Session.from_dict({key: value for key, value in data.items() if key != "saved"})
    except BadState as error:
        raise DamagedFile(str(error)) from None


def prefs_from_save(data):
    """The preferences a prefs.json holds; DamagedFile if a known key has the wrong type."""
    if not isinstance(data, dict) or not _is_int(data.get("version")) or data["version"] != FILE_VERSION:
        raise DamagedFile("unknown version")
    for key in DEFAULT_PREFS:
        if key in data and not preferences.is_allowed(key, data[key]):
            raise DamagedFile(f"'{key}' holds {str(data[key])[:20]!r}, not one of its choices")
    # Unknown keys are kept so that a later version's preferences survive this one.
    return {key: value for key, value in data.items() if key != "version"}


def _scan_history(file):
    """(records, their raw lines, count of bad lines) of an open history file."""
    records, good_lines, bad = [], [], 0
    for raw in _bounded_lines(file, MAX_RECORD_BYTES):
        if not raw.strip():
            continue
        try:
            record = parse_json(raw)
            check_record(record)
        except (DamagedFile, InvalidRecord):
            bad += 1
            continue
        records.append(record)
        good_lines.append(raw.rstrip(b"\r\n") + b"\n")
    return records, good_lines, bad


def _bounded_lines(file, limit):
    """The lines of a binary file; an overlong line comes back cut, so it fails to parse."""
    while True:
        line = file.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith(b"\n"):
            while (rest := file.readline(limit)) and not rest.endswith(b"\n"):
                pass
            line = line[:limit]
        yield line


def _regular_file_size(path, limit):
    """The size of a regular file no larger than `limit`; None if absent; DamagedFile else."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(info.st_mode):
        raise DamagedFile("it is not a regular file")
    if info.st_size > limit:
        raise DamagedFile(f"larger than {limit // (1024 * 1024)} MB")
    return info.st_size


def _refuse_constant(name):
    raise ValueError(f"{name} is not a number")


# Writing helpers

def _append_line(path, line):
    """Append one line, on a line of its own, flushed to disk; a failure leaves no partial line."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | BINARY, 0o644)
    try:
        start = os.fstat(fd).st_size
        if start and not _ends_with_newline(path):
            line = b"\n" + line  # the last line was torn by a crash: start afresh
        try:
            _write_all(fd, line)
            os.fsync(fd)
        except OSError:
            _truncate_own_tail(fd, start, len(line))
            raise
    finally:
        os.close(fd)


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _truncate_own_tail(fd, start, length):
    """Cut back what this append wrote, unless another copy appended too."""
    try:
        if start < os.fstat(fd).st_size <= start + length:
            os.ftruncate(fd, start)
    except OSError:
        pass  # the reader skips a torn line anyway


def _ends_with_newline(path):
    with open(path, "rb") as file:
        file.seek(-1, os.SEEK_END)
        return file.read(1) == b"\n"


def _copy_file(source, target):
    with open(source, "rb") as reader, open(target, "xb") as writer:
        while chunk := reader.read(1024 * 1024):
            writer.write(chunk)
        writer.flush()
        os.fsync(writer.fileno())


def _fsync_folder(folder):
    """Make a rename durable where the platform allows opening a folder."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse to sync a folder; the rename itself is done
    finally:
        os.close(fd)


def _remove_quietly(path):
    try:
        os.unlink(path)
    except OSError:
        pass


# Words for the player

_ERRNO_WORDS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EROFS: "the saves folder is on a read-only disk",
    errno.EACCES: "no permission to write in the saves folder",
    errno.EPERM: "no permission to write in the saves folder",
    errno.ENOTDIR: "the saves folder is not a folder",
    errno.EEXIST: "the saves folder is not a folder",
}


def describe_os_error(error):
    """A short reason a player understands for an OSError."""
    return _ERRNO_WORDS.get(error.errno) or error.strerror or error.__class__.__name__


def _one_line(text, limit):
    """Text safe to show: control characters replaced, cut to `limit` characters."""
    clean = "".join(c if c.isprintable() and unicodedata.category(c) != "Cf" else "?" for c in text)
    return clean if len(clean) <= limit else clean[:limit - 3] + "..."

