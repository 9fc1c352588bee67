"""A text progress bar for the table build (standard library only)."""
import sys

from ..language import _


def progress_bar(done, total, width=40):
    """'[#########...........]  45%' for `done` of `total`."""
    share = min(max(done / total, 0.0), 1.0) if total else 1.0
    filled = round(share * width)
    return f"[{'#' * filled}{'.' * (width - filled)}] {share:4.0%}"


def text_progress(stream=None, label=None, width=40):
    """A progress(done, total) callback that redraws one line of `stream` (stderr by default);
    work done at once (a table read from the cache) shows nothing."""
    stream = stream or sys.stderr
    label = label or _("Working out the best strategy")
    shown = []

    def report(done, total):
        if done >= total and not shown:
            return
        shown.append(done)
        stream.write(f"\r{label} {progress_bar(done, total, width)}")
        if done >= total:
            stream.write("\n")
        stream.flush()

    return report
