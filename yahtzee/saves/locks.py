"""One copy of the game at a time owns the autosave: an OS lock on autosave.lock, which the
OS lets go of when the process dies (flock where fcntl exists, msvcrt byte locks on Windows;
every CPython platform has one of the two)."""
import errno
import os
import sys
from typing import Optional

from .atomic import StrPath, open_file


class FlockLock:
    """An flock on the lock file. The file holds nothing and is never removed: removing it
    would race with other copies."""

    def __init__(self, path: StrPath) -> None:
        self.path = path
        self._fd: Optional[int] = None

    def acquire(self, read_only: bool = False) -> bool:
        """True if the lock is ours now, False if another copy holds it; OSError if the file
        cannot be opened. `read_only`: lock an existing file opened for reading only (a
        folder the player cannot write)."""
        if self._fd is not None:
            return True
        fd = open_file(self.path, os.O_RDONLY if read_only else os.O_RDWR | os.O_CREAT)
        try:
            held = self._try_lock(fd)
        except BaseException:
            os.close(fd)
            raise
        if not held:
            os.close(fd)
            return False
        self._fd = fd
        return True

    def _try_lock(self, fd: int) -> bool:
        if sys.platform != "win32":  # the POSIX side; MsvcrtLock is Windows'
            import fcntl
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return False
        return True

    def release(self) -> None:
        """Let go of the lock."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


class MsvcrtLock(FlockLock):
    """Windows: a byte-range lock on the lock file, also dropped when the process dies."""

    def _try_lock(self, fd: int) -> bool:
        if sys.platform == "win32":
            import msvcrt
            try:
                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            except OSError as error:
                if error.errno in (errno.EACCES, errno.EDEADLK):
                    return False
                raise
        return True


def default_lock(path: StrPath) -> FlockLock:
    """The lock this platform offers for `path`."""
    return MsvcrtLock(path) if sys.platform == "win32" else FlockLock(path)
