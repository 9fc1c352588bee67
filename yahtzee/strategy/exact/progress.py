"""A text progress bar for the table build (standard library only)."""
import sys
from typing import Callable, Optional, TextIO

Progress = Callable[[int, int], None]  # told (done, total) as work goes; may raise to stop it


def progress_bar(done: int, total: int, width: int = 40) -> str:
    """'[#########...........]  45%' for `done` of `total`."""
    share = min(max(done / total, 0.0), 1.0) if total else 1.0
    filled = round(share * width)
    return f"[{'#' * filled}{'.' * (width - filled)}] {share:4.0%}"


def text_progress(stream: Optional[TextIO], label: str, width: int = 40) -> Progress:
    """A progress(done, total) callback that redraws one line of `stream` (stderr if None),
    `label` before the bar; work done at once (a table read from the cache) shows nothing."""
    stream = stream or sys.stderr
    shown: list[int] = []

    def report(done: int, total: int) -> None:
        if done >= total and not shown:
            return
        shown.append(done)
        stream.write(f"\r{label} {progress_bar(done, total, width)}")
        if done >= total:
            stream.write("\n")
        stream.flush()

    return report
