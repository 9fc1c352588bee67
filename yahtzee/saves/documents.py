"""What the saves files hold: JSON read strictly, the autosave document with its resume point,
the preferences, the lines of history.jsonl. DamagedSave says what is wrong with a file."""
import json
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, BinaryIO, NoReturn, Union

from ..model.checks import is_int
from ..model.outcome import FinishedGame
from ..model.session import Session
from ..model.words import Say
from . import prefs as preferences
from .codec import session_from_dict, session_to_dict
from .records import InvalidRecord, check_record, finished_game, record_of
from .shapes import JSONObject
from .strict import DamagedSave
from .versions import current_form

if TYPE_CHECKING:  # Python 3.10 on; the game runs on 3.9 too
    from typing import TypeGuard

PREFS_VERSION = 1
MAX_RECORD_BYTES = 64 * 1024
# The resume point: a small JSON object that only the screens' flow reads.
ResumePoint = Mapping[str, Union[str, int, None]]
MAX_RESUME_ENTRIES = 8
MAX_RESUME_KEY_CHARS = 20
MAX_RESUME_TEXT_CHARS = 40


def parse_json(raw: bytes) -> Any:
    """JSON data from bytes; DamagedSave if they are not strict UTF-8 JSON."""
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant)
    except UnicodeDecodeError:
        raise DamagedSave(Say("not UTF-8 text")) from None
    except json.JSONDecodeError as error:
        raise DamagedSave(Say("not valid JSON at line {line}, column {column}").format(
            line=error.lineno, column=error.colno)) from None
    except RecursionError:
        raise DamagedSave(Say("not valid JSON: nested too deep")) from None
    except ValueError as error:  # NaN or Infinity, which JSON has no place for
        raise DamagedSave(Say("not valid JSON: {error}").format(error=str(error))) from None


def _refuse_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a number")


# autosave.json

def autosave_to_dict(session: Session, resume: ResumePoint, saved: str) -> JSONObject:
    """The autosave document: the session, when it was saved and where the flow resumes."""
    if not is_resume_point(resume):
        raise ValueError(f"not a resume point: {resume!r}")
    return {**session_to_dict(session), "saved": saved, "resume": dict(resume)}


def autosave_from_dict(data: dict[str, Any]) -> tuple[Session, ResumePoint]:
    """(session, resume point) of an autosave, this version's or an older one's; DamagedSave."""
    session = session_from_dict(data)
    resume = current_form(data).get("resume")  # an earlier version's, in this version's form
    if not is_resume_point(resume):
        raise DamagedSave(Say("the resume point is damaged"))
    return session, resume


def is_resume_point(resume: object) -> "TypeGuard[ResumePoint]":
    """A JSON object of at most 8 entries: short string keys; short strings, ints or null."""
    return (isinstance(resume, dict) and len(resume) <= MAX_RESUME_ENTRIES
            and all(isinstance(key, str) and len(key) <= MAX_RESUME_KEY_CHARS
                    and (value is None or is_int(value)
                         or isinstance(value, str) and len(value) <= MAX_RESUME_TEXT_CHARS)
                    for key, value in resume.items()))


# prefs.json

def prefs_to_dict(prefs: preferences.Prefs) -> JSONObject:
    """The preferences document: every preference, what a later version keeps there, and the version."""
    return {**{p.key: p.of(prefs) for p in preferences.PREFERENCES}, **dict(prefs.unknown), "version": PREFS_VERSION}


def prefs_from_save(data: object) -> preferences.Prefs:
    """The preferences a prefs.json holds, the defaults for those it lacks (an older file's);
    DamagedSave if the version is not this one or a preference holds none of its choices."""
    if not isinstance(data, dict) or not is_int(data.get("version")) or data["version"] != PREFS_VERSION:
        raise DamagedSave(Say("unknown version"))
    known = {key: data[key] for key in preferences.BY_KEY if key in data}
    for key, value in known.items():
        if not preferences.BY_KEY[key].allows(value):
            raise DamagedSave(Say("'{key}' holds {value}, not one of its choices").format(
                key=key, value=repr(str(value)[:20])))
    # Unknown keys are kept so that a later version's preferences survive this one.
    unknown = tuple((key, value) for key, value in data.items() if key not in known and key != "version")
    return replace(preferences.DEFAULTS, **known, unknown=unknown)


# history.jsonl

def history_line(game: FinishedGame) -> bytes:
    """A finished game as one line of history.jsonl, checked; InvalidRecord if it is not valid."""
    record = record_of(game)
    check_record(record)
    return json.dumps(record, ensure_ascii=True, allow_nan=False).encode("ascii") + b"\n"


def scan_history(file: BinaryIO) -> tuple[list[FinishedGame], list[bytes], int]:
    """(finished games, their raw lines, count of bad lines) of an open history file."""
    records, good_lines, bad = [], [], 0
    for raw in bounded_lines(file, MAX_RECORD_BYTES):
        if not raw.strip():
            continue
        try:
            game = finished_game(parse_json(raw))
        except (DamagedSave, InvalidRecord):
            bad += 1
            continue
        records.append(game)
        good_lines.append(raw.rstrip(b"\r\n") + b"\n")
    return records, good_lines, bad


def bounded_lines(file: BinaryIO, limit: int) -> Iterator[bytes]:
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
