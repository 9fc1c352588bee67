"""Files written so that a crash never leaves half of one, and opened so that a link, a FIFO,
a device or a folder standing where a file belongs is refused, never followed or waited on.

Every file the game keeps (saves and strategy tables) goes through open_file.
"""
import contextlib
import datetime
import errno
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import BinaryIO, Callable, Optional, Union

from ..model.words import Say, Text, source_text

BINARY = getattr(os, "O_BINARY", 0)  # Windows would turn b"\n" into b"\r\n" without it
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # a FIFO then opens (or fails) at once instead of waiting
# What open() says about a link under O_NOFOLLOW (ELOOP; EMLINK on FreeBSD) or a FIFO with no reader.
_NOT_A_FILE_ERRORS = {errno.ELOOP, errno.EMLINK, errno.ENXIO, errno.EISDIR}
StrPath = Union[str, os.PathLike[str]]
NOT_A_FILE = Say("not a regular file")


class NotAFile(OSError):
    """Something other than a regular file stands where the game keeps one; `said` says what."""

    def __init__(self, path: StrPath, what: Optional[Text] = None) -> None:
        self.said = what or NOT_A_FILE
        super().__init__(None, source_text(self.said), str(path))


def open_file(path: StrPath, flags: int, mode: int = 0o644) -> int:
    """os.open without following a link; NotAFile unless it is a regular file."""
    if not NOFOLLOW:
        refuse_odd_entry(path)  # no O_NOFOLLOW here: look first (a small race, no better way)
    try:
        fd = os.open(path, flags | NOFOLLOW | NONBLOCK | BINARY, mode)
    except OSError as error:
        if error.errno in _NOT_A_FILE_ERRORS:
            raise NotAFile(path, _what_stands_at(path)) from None
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotAFile(path, _what_stands_at(path))
        if NONBLOCK and sys.platform != "win32":  # Windows opens no file non-blocking
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def refuse_odd_entry(path: StrPath) -> None:
    """NotAFile if something other than a regular file (or nothing) is at `path`."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISREG(info.st_mode):
        raise NotAFile(path, _what_stands_at(path))


def _what_stands_at(path: StrPath) -> Say:
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return NOT_A_FILE
    if stat.S_ISLNK(mode):
        return Say("a link, not a file")
    if stat.S_ISDIR(mode):
        return Say("a folder, not a file")
    return NOT_A_FILE


def open_for_reading(path: StrPath, limit: int,
                     too_large: Callable[[int], Exception]) -> Optional[tuple[BinaryIO, int]]:
    """(binary file, size) of a regular file of at most `limit` bytes, or None if absent;
    `too_large(size)` is raised beyond the limit, before anything is read."""
    try:
        fd = open_file(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    size = os.fstat(fd).st_size
    if size > limit:
        os.close(fd)
        raise too_large(size)
    return os.fdopen(fd, "rb"), size


def write_atomically(path: StrPath, data: bytes) -> None:
    """Replace `path` with `data`: a temp file in the same folder, flushed, synced, renamed
    over it, the folder synced; the old file stays whole if anything fails."""
    write_atomically_with(path, lambda file: file.write(data))


def write_atomically_with(path: StrPath, write: Callable[[BinaryIO], object]) -> None:
    """Replace `path` with what `write` writes into a file, as write_atomically does; the temp
    file is named '.NAME.*.tmp'."""
    path = Path(path)
    folder = path.parent
    refuse_odd_entry(path)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        try:
            opened = os.fdopen(fd, "wb")
        except BaseException:
            os.close(fd)  # else it stays open: leaked, and on Windows the temp file cannot be removed
            raise
        with opened as file:
            write(file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temp, path)
    except BaseException:
        remove_quietly(temp)
        raise
    fsync_folder(folder)


def append_line(path: StrPath, line: bytes) -> None:
    """Append one line, on a line of its own, flushed to disk; a failure leaves no partial line."""
    fd = open_file(path, os.O_RDWR | os.O_APPEND | os.O_CREAT)
    try:
        start = os.fstat(fd).st_size
        if start and not _ends_with_newline(fd, start):
            line = b"\n" + line  # the last line was torn by a crash: start afresh
        try:
            _write_all(fd, line)
            os.fsync(fd)
        except OSError:
            _truncate_own_tail(fd, start, len(line))
            raise
    finally:
        os.close(fd)


def _ends_with_newline(fd: int, size: int) -> bool:
    if sys.platform != "win32":
        return os.pread(fd, 1, size - 1) == b"\n"
    os.lseek(fd, size - 1, os.SEEK_SET)
    return os.read(fd, 1) == b"\n"


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _truncate_own_tail(fd: int, start: int, length: int) -> None:
    """Cut back what this append wrote, unless another copy appended too."""
    try:
        if start < os.fstat(fd).st_size <= start + length:
            os.ftruncate(fd, start)
    except OSError:
        pass  # the reader skips a torn line anyway


def copy_file(source: StrPath, target: StrPath) -> None:
    """Copy a regular file to a new file (never over an existing one), synced."""
    reader = os.fdopen(open_file(source, os.O_RDONLY), "rb")
    with reader, os.fdopen(open_file(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL), "wb") as writer:
        while chunk := reader.read(1024 * 1024):
            writer.write(chunk)
        writer.flush()
        os.fsync(writer.fileno())


def aside_name(path: StrPath, label: str, now: datetime.datetime) -> Path:
    """NAME.<label>-YYYYmmdd-HHMMSS beside `path`, numbered -2, -3 ... if taken."""
    path = Path(path)
    stem = f"{path.name}.{label}-{now.strftime('%Y%m%d-%H%M%S')}"
    target, number = path.with_name(stem), 1
    while os.path.lexists(target):
        number += 1
        target = path.with_name(f"{stem}-{number}")
    return target


def rename_aside(path: StrPath, label: str, now: datetime.datetime) -> Optional[Path]:
    """Rename `path` (whatever it is; a link is renamed, not followed) to NAME.<label>-<time>;
    the new Path, or None if nothing is there. OSError if the rename fails."""
    if not os.path.lexists(path):
        return None
    target = aside_name(path, label, now)
    os.rename(path, target)
    fsync_folder(Path(path).parent)
    return target


def fsync_folder(folder: StrPath) -> None:
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


def remove_quietly(path: StrPath) -> None:
    """Remove a file if it can be."""
    with contextlib.suppress(OSError):
        os.unlink(path)
