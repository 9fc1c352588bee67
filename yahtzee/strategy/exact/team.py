"""Processes that solve a table's levels together: this one and, where the system can fork, a
helper forked from it, both writing into one value table in shared memory.

A level's states depend only on fuller levels, so its batches may be solved by either process;
after each level both wait for the other (a byte each way through a pair of pipes) before the
next. The helper writes nothing but values: its standard streams are the null device, it never
reports progress, and it ends with os._exit (no exit handlers of its parent run, no buffers
are flushed twice). It stops when its parent is gone, killed or failed: the pipe it waits on at
the end of a level then reads as ended, and a byte it sends finds no reader.

Forking is for a process that does nothing else meanwhile (the table's build process, a tool),
never for the game's own process, which has threads and a terminal.
"""
import contextlib
import os
import signal
import sys
from collections.abc import Iterator
from typing import Optional

import numpy as np

from .statespace import STATE_COUNT, empty_values

GO_ON = b"."


class HelperLost(RuntimeError):
    """The helper process stopped before the table was solved."""


class Team:
    """This process's place in a team of `size` that share `values`: it takes every
    size-th batch, from batch `rank` on; `pipes` (read, write) reach the other process."""

    def __init__(self, values: np.ndarray, size: int = 1, rank: int = 0,
                 pipes: Optional[tuple[int, int]] = None) -> None:
        self.values = values
        self.size = size
        self.rank = rank
        self.pipes = pipes

    @property
    def leads(self) -> bool:
        """True in the process that started the team: it alone reports and keeps the table."""
        return self.rank == 0

    def takes(self, batch: int) -> bool:
        """True when this process solves the level's batch number `batch`."""
        return batch % self.size == self.rank

    def level_done(self) -> None:
        """Wait until the other process has solved its batches of the level too."""
        if self.pipes is None:
            return
        reading, writing = self.pipes
        try:
            os.write(writing, GO_ON)
            heard = os.read(reading, 1)
        except BrokenPipeError:
            heard = b""
        if heard != GO_ON:
            raise HelperLost("the other process of the table's build stopped")


def usable_cores() -> int:
    """How many processors this process may run on."""
    if sys.platform == "linux":
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def can_fork() -> bool:
    """True where a process can fork a helper that shares memory with it (POSIX)."""
    return sys.platform != "win32" and hasattr(os, "fork")


@contextlib.contextmanager
def level_team(processes: int, rows: tuple[int, ...] = ()) -> Iterator[Team]:
    """A team of up to two processes sharing one table of `rows` x every state, all zero (one
    process where forking is missing, or not asked for, or this process may run on one
    processor only). In the helper the block runs, and then the helper ends here."""
    if processes < 2 or not can_fork() or usable_cores() < 2:
        yield Team(np.zeros(rows + empty_values().shape))
        return
    yield from _forked_team(rows)


def _forked_team(rows: tuple[int, ...]) -> Iterator[Team]:
    """level_team for two processes: this one leads, a forked helper takes every other batch."""
    if sys.platform == "win32":  # for the type checker: can_fork is False there
        raise OSError("no fork on Windows")
    import mmap
    shape = rows + (STATE_COUNT,)
    memory = mmap.mmap(-1, int(np.prod(shape)) * np.dtype(np.float64).itemsize, flags=mmap.MAP_SHARED)
    values = np.frombuffer(memory, dtype=np.float64).reshape(shape)  # zeros, as empty_values
    to_helper, to_leader = os.pipe(), os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    helper = os.fork()
    if helper == 0:
        status = 1
        try:
            _leave_to_the_leader(to_helper[1], to_leader[0])
            yield Team(values, 2, 1, (to_helper[0], to_leader[1]))
            status = 0
        finally:
            os._exit(status)
    os.close(to_helper[0])
    os.close(to_leader[1])
    try:
        yield Team(values, 2, 0, (to_leader[0], to_helper[1]))
    except BaseException:
        os.kill(helper, signal.SIGKILL)  # its part of a level is of no use now
        raise
    finally:
        os.close(to_leader[0])
        os.close(to_helper[1])
        os.waitpid(helper, 0)


def _leave_to_the_leader(*leaders_ends: int) -> None:
    """In the helper: close the leader's ends of the pipes (so that they read as ended once the
    leader is gone) and the standard streams (the leader's terminal, or the pipe the game reads
    progress from, must not wait for the helper)."""
    for end in leaders_ends:
        os.close(end)
    silent = os.open(os.devnull, os.O_RDWR)
    for stream in range(3):
        os.dup2(silent, stream)
    os.close(silent)
