"""Strategy tables: built once, kept in the caller's folder, checked every time they are read.

A table file is a numpy .npz (never pickle) named after its rule set and objective, with
a key hashed from every field of both. It is written atomically and, when read, trusted
only if its version, key, shape, dtype, checksum and start value all agree; anything else
is rebuilt. A folder that cannot be written just means the table lives in memory.

A table file is opened only if it is a regular file (never through a link, never a FIFO that
would hang), and its size and array header are checked against what the rules need before a
byte of values is read. A bad table is set aside as NAME.bad-YYYYmmdd-HHMMSS, one line goes to
`notify`, and the table is rebuilt. Temp files left by a build that was killed are removed
once they are STALE_SECONDS old.
"""
import contextlib
import datetime
import hashlib
import json
import os
import re
import time
import zipfile
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import IO, Callable, Optional, TypedDict, Union

import numpy as np

from ...model.rules import Rules
from ...model.words import Refusal, Say, Text
from ...saves.atomic import NotAFile, open_file, rename_aside, write_atomically_with
from ...saves.locks import default_lock
from ..exact.momentbuild import solve_with_moments
from ..exact.objective import EXPECTED_SCORE, Objective
from ..exact.progress import Progress
from ..exact.rulearrays import check_tables
from ..exact.solver import TurnSolver
from ..exact.statespace import empty_values, start_value
from ..exact.table import Loader, StrategyTable, table_for
from ..odds.rests import FULL_CARD_KINDS, Rests, has_rests, measured_rests, remember_rests, rest_arrays
from .memo import remembered

FORMAT_VERSION = 1
SHIPPED = Path(__file__).resolve().parent.parent / "shipped"  # tables that come with the package: read, never written
MAX_SCORE = 1575  # thirteen Yahtzees: no expectation can exceed it
MAX_META_BYTES = 64 * 1024
ZIP_OVERHEAD_BYTES = 64 * 1024
STALE_SECONDS = 15 * 60  # far longer than any table build takes
LOCK_POLL_SECONDS = 0.1

Folder = Union[str, Path]
Notify = Callable[[Text], None]  # told from the builder's thread: words each console makes in its language


class BadTable(Refusal):
    """A table file that cannot be used; its words say why."""


class CacheMeta(TypedDict):
    """The facts stored beside a cache file's arrays: its format, and the key of the rules and
    objective they were made for."""

    version: int
    key: str


class TableMeta(CacheMeta):
    """A table's facts: also its values' shape, dtype and checksum, and its start value."""

    shape: list[int]
    dtype: str
    sha256: str
    start: float


def table_key(rules: Rules, objective: Objective) -> str:
    """A hash of every field of the rules and the objective, and the file format (the values'
    own, never a saved form of them: a change to the save format renames no table)."""
    text = json.dumps({"format": FORMAT_VERSION, "rules": asdict(rules), "objective": asdict(objective)},
                      sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def table_file_name(rules: Rules, objective: Objective) -> str:
    """strategy-<rules>-<objective>-<key>.npz, with only safe characters."""
    safe = lambda name: re.sub(r"[^A-Za-z0-9_]+", "_", name)[:24]  # noqa: E731
    return f"strategy-{safe(rules.name)}-{safe(objective.name)}-{table_key(rules, objective)}.npz"


def checksum(values: np.ndarray) -> str:
    """The sha256 of a value array's bytes."""
    return hashlib.sha256(np.ascontiguousarray(values).tobytes()).hexdigest()


def build_table(rules: Rules, objective: Objective = EXPECTED_SCORE, progress: Optional[Progress] = None,
                processes: int = 1, moments: bool = False) -> StrategyTable:
    """Solve a table in memory, once the solver's arrays agree with the rules (UnsupportedRules
    if they do not); `processes` 2 forks a helper (TurnSolver.solve: never in the game's process);
    with `moments`, those of its rests in the same pass (momentbuild), kept on the table."""
    engine = TurnSolver(rules, objective)
    check_tables(engine.tables, rules)
    values, found = solve_with_moments(engine, progress, processes=processes) if moments else \
        (engine.solve(progress, processes=processes), None)
    return StrategyTable(rules, objective, values, engine, moments=found)


def table_meta(rules: Rules, objective: Objective, values: np.ndarray) -> TableMeta:
    """The facts stored beside a table, checked when it is read back."""
    return {"version": FORMAT_VERSION, "key": table_key(rules, objective), "shape": list(values.shape),
            "dtype": str(values.dtype), "sha256": checksum(values), "start": start_value(values)}


def save_table(table: StrategyTable, folder: Folder) -> bool:
    """Write the table into `folder` atomically; False (and no file) if the folder refuses."""
    path = Path(folder) / table_file_name(table.rules, table.objective)
    return save_arrays(path, table_meta(table.rules, table.objective, table.values), values=table.values)


def save_arrays(path: Folder, meta: CacheMeta, **arrays: np.ndarray) -> bool:
    """Write arrays and their meta into an .npz at `path` atomically; False (and no file) if
    the folder refuses."""
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        write_atomically_with(path, lambda file: np.savez(file, allow_pickle=False, **arrays,
                                                          meta=np.array(json.dumps(meta))))
        return True
    except OSError:
        return False


def checked_table(rules: Rules, objective: Objective, folder: Folder) -> Optional[StrategyTable]:
    """The table stored in `folder`, None if there is none; BadTable if it cannot be used."""
    path = Path(folder) / table_file_name(rules, objective)
    try:
        fd = open_file(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    except NotAFile as error:
        raise BadTable(error.said) from None
    except OSError as error:
        raise BadTable(error.strerror or Say("unreadable")) from None
    with os.fdopen(fd, "rb") as file:
        values, meta = _read_npz(file, os.fstat(file.fileno()).st_size)
    if not is_sound(values, meta, rules, objective):
        raise BadTable(Say("it does not match these rules"))
    return StrategyTable(rules, objective, values)


def _read_npz(file: IO[bytes], size: int) -> tuple[np.ndarray, object]:
    """(values, meta) of a table file, every size checked before anything large is read."""
    expected = empty_values()
    if size > expected.nbytes + MAX_META_BYTES + ZIP_OVERHEAD_BYTES:
        raise BadTable(Say("it is larger than a table"))
    try:
        with zipfile.ZipFile(file) as archive:
            values = _read_array(archive, "values.npy", expected.shape, np.dtype(np.float64))
            meta = json.loads(str(_read_array(archive, "meta.npy", (), None)[()]))
    except BadTable:
        raise
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:
        raise BadTable(Say("it is not a table file ({error})").format(error=error.__class__.__name__)) from None
    return values, meta


def _read_array(archive: zipfile.ZipFile, name: str, shape: tuple[int, ...],
                dtype: Optional[np.dtype]) -> np.ndarray:
    """One array of the archive, its header checked first: `shape`, and `dtype` unless None
    (then a short text)."""
    info = archive.getinfo(name)
    with archive.open(info) as member:
        version = np.lib.format.read_magic(member)
        read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        found_shape, fortran, found_dtype = read_header(member)
        if found_shape != shape or fortran or found_dtype.hasobject:
            raise BadTable(Say("its header does not describe a table"))
        if dtype is not None and found_dtype != dtype:
            raise BadTable(Say("its header does not describe a table"))
        count = int(np.prod(shape, dtype=np.int64)) * found_dtype.itemsize
        if dtype is None and count > MAX_META_BYTES:
            raise BadTable(Say("its description is too long"))
        data = member.read(count + 1)
    if len(data) != count:
        raise BadTable(Say("its values are cut short"))
    return np.frombuffer(data, dtype=found_dtype).reshape(shape).copy()


def set_aside_bad_table(rules: Rules, objective: Objective, folder: Folder, reason: Text,
                        notify: Optional[Notify] = None) -> None:
    """Rename a bad table file to NAME.bad-<time> and say so in one line."""
    path = Path(folder) / table_file_name(rules, objective)
    try:
        kept = rename_aside(path, "bad", datetime.datetime.now())
    except OSError:
        kept = None
    if notify:
        where: Text = Say("old file kept as {name}").format(name=kept.name[len(path.name):]) if kept else reason
        notify(Say("a damaged strategy table is rebuilt ({where})").format(where=where))


def remove_stale_temps(folder: Folder, now: Optional[float] = None) -> None:
    """Remove the temp files of table builds that were killed (older than STALE_SECONDS)."""
    now = time.time() if now is None else now
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if entry.name.lstrip(".").startswith(("strategy-", "rests-")) and entry.name.endswith(".tmp"):
            try:
                if now - entry.stat(follow_symlinks=False).st_mtime > STALE_SECONDS:
                    os.unlink(entry.path)
            except OSError:
                pass  # another copy removed it, or it cannot be; it is only clutter


def is_sound(values: np.ndarray, meta: object, rules: Rules, objective: Objective) -> bool:
    """True when a table read from disk is exactly the one these rules would build."""
    expected_shape = empty_values().shape
    if not isinstance(meta, dict) or meta.get("version") != FORMAT_VERSION:
        return False
    if meta.get("key") != table_key(rules, objective) or values.shape != expected_shape:
        return False
    if values.dtype != np.float64 or meta.get("shape") != list(expected_shape) or meta.get("dtype") != "float64":
        return False
    if meta.get("sha256") != checksum(values) or not np.isfinite(values).all():
        return False
    start = start_value(values)
    return meta.get("start") == start and 0 < start < MAX_SCORE * 2


def load_table(rules: Rules, objective: Objective = EXPECTED_SCORE, cache_dir: Optional[Folder] = None,
               progress: Optional[Progress] = None, notify: Optional[Notify] = None, processes: int = 1,
               moments: bool = False) -> StrategyTable:
    """The table from `cache_dir` if it is sound there, else built (and stored when possible) as
    build_table builds; for rules not solved exactly, the nearest exact table planning for them
    (table_for). `notify(line)` hears of a bad table set aside; its rests are readied apart."""
    return table_for(rules, objective, lambda exact, _: exact_table(exact, objective, cache_dir, progress, notify,
                                                                   processes, moments))


def exact_table(rules: Rules, objective: Objective, cache_dir: Optional[Folder], progress: Optional[Progress],
                notify: Optional[Notify], processes: int, moments: bool = False) -> StrategyTable:
    """load_table for rules the solver solves exactly."""
    table = shipped_table(rules, objective)
    if table is not None:
        if progress:
            progress(1, 1)
        return table
    if cache_dir is None:
        return build_table(rules, objective, progress, processes, moments)
    remove_stale_temps(cache_dir)
    table = cached_table(rules, objective, cache_dir, notify)
    if table is None:
        with build_lock(rules, objective, cache_dir, progress):
            # Another copy of the game may have built it while this one waited.
            table = cached_table(rules, objective, cache_dir, notify)
            if table is None:
                table = build_table(rules, objective, progress, processes, moments)
                save_table(table, cache_dir)
                return table
    if progress:
        progress(1, 1)
    return table


def shipped_folder() -> Optional[Path]:
    """Where the tables that come with the package are read: the package's own folder, or the
    one YAHTZEE_SHIPPED names (empty: none, as if the package brought no tables)."""
    chosen = os.environ.get("YAHTZEE_SHIPPED")
    if chosen is None:
        return SHIPPED
    return Path(chosen) if chosen else None


def shipped_table(rules: Rules, objective: Objective) -> Optional[StrategyTable]:
    """The table that came with the package for these rules, or None (none, or not sound)."""
    folder = shipped_folder()
    try:
        return None if folder is None else checked_table(rules, objective, folder)
    except BadTable:
        return None


def rests_file_name(table: StrategyTable) -> str:
    """rests-<rules>-<key>.npz: the measured rests that go with a table of expected score."""
    return "rests" + table_file_name(table.rules, table.objective)[len("strategy"):]


def ready_rests(table: StrategyTable, cache_dir: Optional[Folder] = None,
                progress: Optional[Progress] = None, processes: int = 1) -> None:
    """Make the measured rests of an expected-score table ready (rests.measured_rests): read from the
    cache beside the table, or measured (or taken from memory) and kept there (a file that does not
    read back whole is measured again and replaced); measured by one copy of the game at a time, under
    the table's lock (`progress` as for build_lock, then as the measuring goes; `processes` too)."""
    if table.objective != EXPECTED_SCORE or not table.exact:
        return
    path = None if cache_dir is None else Path(cache_dir) / rests_file_name(table)
    folder = shipped_folder()
    shipped = None if folder is None else folder / rests_file_name(table)
    if has_rests(table) and (path is None or path.exists() or (shipped is not None and shipped.exists())):
        return
    kept = None if shipped is None else read_rests(table, shipped)
    if kept is not None:
        remember_rests(table, kept)
        return
    if path is None:
        remember_rests(table, measured_rests(table, progress, processes))
        return
    kept = read_rests(table, path)
    if kept is None:
        with build_lock(table.rules, table.objective, path.parent, progress):
            # Another copy of the game may have measured them while this one waited.
            kept = read_rests(table, path)
            if kept is None:
                kept = measured_rests(table, progress, processes)
                save_rests(table, kept, path)
    remember_rests(table, kept)


def save_rests(table: StrategyTable, rests: Rests, path: Path) -> bool:
    """Write a table's rests at `path` atomically; False (and no file) if the folder refuses."""
    return save_arrays(path, {"version": FORMAT_VERSION, "key": table_key(table.rules, table.objective)},
                       **{name: getattr(rests, name) for name in rest_arrays()})


def rests_on_hand(table: StrategyTable, cache_dir: Folder) -> bool:
    """The table's rests need no measuring: in memory, come with the package, or kept in the
    cache (or none are needed: see ready_rests)."""
    if table.objective != EXPECTED_SCORE or not table.exact or has_rests(table):
        return True
    folders = [folder for folder in (shipped_folder(), Path(cache_dir)) if folder is not None]
    return any((folder / rests_file_name(table)).exists() for folder in folders)


def read_rests(table: StrategyTable, path: Path) -> Optional[Rests]:
    """The rests kept at `path` for this table, or None when missing or not sound."""
    try:
        fd = open_file(path, os.O_RDONLY)
    except OSError:
        return None
    expected = rest_arrays()
    with os.fdopen(fd, "rb") as file:
        if os.fstat(file.fileno()).st_size > sum(dtype.itemsize * int(np.prod(shape)) for shape, dtype in
                                                 expected.values()) + MAX_META_BYTES + ZIP_OVERHEAD_BYTES:
            return None
        try:
            with zipfile.ZipFile(file) as archive:
                arrays = {name: _read_array(archive, name + ".npy", shape, dtype)
                          for name, (shape, dtype) in expected.items()}
                meta = json.loads(str(_read_array(archive, "meta.npy", (), None)[()]))
        except (BadTable, OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
            return None
    sound = isinstance(meta, dict) and meta.get("version") == FORMAT_VERSION and \
        meta.get("key") == table_key(table.rules, table.objective) and \
        all(np.isfinite(array).all() for array in arrays.values()) and \
        np.allclose(arrays["shapes"][FULL_CARD_KINDS:].sum(axis=1), 1.0) and (arrays["shapes"] >= 0).all()
    return Rests(**arrays) if sound else None


def cached_table(rules: Rules, objective: Objective, cache_dir: Folder,
                 notify: Optional[Notify] = None) -> Optional[StrategyTable]:
    """The sound table in the cache, or None (a bad one is set aside, with a line to `notify`)."""
    try:
        return checked_table(rules, objective, cache_dir)
    except BadTable as error:
        set_aside_bad_table(rules, objective, cache_dir, error.said, notify)
        return None


@contextlib.contextmanager
def build_lock(rules: Rules, objective: Objective, cache_dir: Folder,
               progress: Optional[Progress] = None) -> Iterator[None]:
    """One build of a table at a time across every copy of the game sharing the cache; while
    waiting, `progress(0, 1)` is told (and may raise to stop waiting). A cache that cannot
    hold the lock builds without it."""
    lock = default_lock(Path(cache_dir) / (table_file_name(rules, objective) + ".lock"))
    try:
        Path(cache_dir).mkdir(parents=True, exist_ok=True)
        while not lock.acquire():
            if progress:
                progress(0, 1)
            time.sleep(LOCK_POLL_SECONDS)
    except OSError:
        pass  # a read-only or odd cache folder: build anyway, it just will not be kept
    try:
        yield
    finally:
        lock.release()


def table_loader(cache_dir: Optional[Folder] = None, progress: Optional[Progress] = None,
                 notify: Optional[Notify] = None) -> Loader:
    """A loader(rules, objective=EXPECTED_SCORE) of the tables this process holds (memo): one not
    held yet is read from `cache_dir` or built into it; `notify(line)` hears of a bad table set
    aside and rebuilt."""
    def loader(rules: Rules, objective: Objective = EXPECTED_SCORE) -> StrategyTable:
        return remembered(rules, objective, lambda: table_for(rules, objective, lambda exact, _: exact_table(
            exact, objective, cache_dir, progress, notify, 1) if exact == rules else loader(exact, objective)))

    return loader
