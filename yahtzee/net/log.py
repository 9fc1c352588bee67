"""The table's log in the data folder: time, address, name and what happened at every login
and every seat, as sshd's auth log keeps them. It never grows past LOG_BYTES a file, three
files kept; the same event from one address again and again is one line with its count."""
import datetime
import logging
import logging.handlers
from pathlib import Path
from typing import Callable, Optional

from ..present.palette import strip_controls

LOG_FILE = "table.log"
LOG_BYTES = 1024 * 1024
LOG_FILES = 3  # the file written and two before it
MAX_NAME_CHARS = 40  # of a login name as the log keeps it


def clean(name: str) -> str:
    """A login name as a log line may hold it: no control sequence, no control character, short."""
    shown = "".join(char if char.isprintable() else "?" for char in strip_controls(name))
    return (shown[:MAX_NAME_CHARS] or "-").replace(" ", "_")


class TableLog:
    """Lines of what happened at the table, written to a rotating file (or nowhere)."""

    def __init__(self, folder: Optional[Path],
                 clock: Callable[[], datetime.datetime] = lambda: datetime.datetime.now().astimezone()) -> None:
        self.clock = clock
        self.logger = logging.getLogger(f"yahtzee.table.{id(self)}")
        self.logger.propagate = False
        self.logger.setLevel(logging.INFO)
        self.handler: Optional[logging.Handler] = None
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
            self.handler = logging.handlers.RotatingFileHandler(
                folder / LOG_FILE, maxBytes=LOG_BYTES, backupCount=LOG_FILES - 1, encoding="utf-8")
            self.logger.addHandler(self.handler)
        self._last: Optional[tuple[str, str, str]] = None
        self._repeated = 0

    def record(self, address: str, name: str, what: str) -> None:
        """One event; the same as the last from the same address is counted, not written again."""
        event = (address, clean(name), what)
        if event == self._last:
            self._repeated += 1
            return
        self._flush_repeats()
        self._last = event
        self._write(*event)

    def close(self) -> None:
        """The last repeats written, the file closed."""
        self._flush_repeats()
        if self.handler is not None:
            self.logger.removeHandler(self.handler)
            self.handler.close()

    def _flush_repeats(self) -> None:
        if self._repeated and self._last is not None:
            address, name, what = self._last
            self._write(address, name, f"{what} (and {self._repeated} times more)")
        self._repeated = 0

    def _write(self, address: str, name: str, what: str) -> None:
        self.logger.info("%s %s %s %s", self.clock().isoformat(timespec="seconds"), address, name, what)
