"""A debug switch for the table's memory: with YAHTZEE_TRACE_MEMORY set to a file, the host
traces its Python allocations and writes the bytes still live there every second (after a
collection), for bench/net_attack.py to read, and beside it (FILE.top) every ten seconds the
lines whose live bytes grew most since the first look. Off, it costs nothing."""
import gc
import os
import threading
import tracemalloc
from collections.abc import Mapping
from pathlib import Path

TRACE_SWITCH = "YAHTZEE_TRACE_MEMORY"
TRACE_SECONDS = 1.0
TOP_EVERY = 10  # looks between two lists of the lines that grew most
TOP_LINES = 25


def trace_memory_if_asked(environment: Mapping[str, str]) -> None:
    """Start tracing, and a thread writing the live bytes, when the switch is set."""
    where = environment.get(TRACE_SWITCH)
    if not where:
        return
    tracemalloc.start()
    threading.Thread(target=write_live_bytes, args=(Path(where),), name="memory-trace", daemon=True).start()


def write_live_bytes(path: Path) -> None:
    """Every TRACE_SECONDS: the Python bytes live now, as one number in `path` (replaced whole)."""
    stop, first, looks = threading.Event(), tracemalloc.take_snapshot(), 0
    while not stop.wait(TRACE_SECONDS):
        gc.collect()
        live, _peak = tracemalloc.get_traced_memory()
        replace_text(path, f"{live}\n")
        looks += 1
        if looks % TOP_EVERY == 0:
            grown = tracemalloc.take_snapshot().compare_to(first, "lineno")[:TOP_LINES]
            replace_text(path.with_name(path.name + ".top"), "".join(f"{line}\n" for line in grown))


def replace_text(path: Path, text: str) -> None:
    """The file's text replaced whole."""
    spare = path.with_name(path.name + ".new")
    spare.write_text(text)
    os.replace(spare, path)
