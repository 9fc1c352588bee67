"""A usage error said in one line on stderr, under the name the game was started by; and the
packages a run needs, said the same way when one is missing."""
import importlib.machinery
import os
import sys
from collections.abc import Iterable
from typing import Optional

from .model.words import Refusal
from .speech.languages import _, text

INSTALL = "python3 -m venv .venv && .venv/bin/python -m pip install -e ."  # README.md's first command


def program_name(started_as: Optional[str] = None) -> str:
    """How the game was started, as its usage lines name it: yahtzee.py, yahtzee (installed),
    or python -m yahtzee."""
    name = os.path.basename(sys.argv[0] if started_as is None else started_as)
    if name == "__main__.py":
        return "python -m yahtzee"
    return "yahtzee" if name in ("yahtzee", "yahtzee.exe", "yahtzee-script.py") else "yahtzee.py"


def usage_error(message: object) -> int:
    """Say what was wrong on stderr; the exit code for a usage error (2), whatever stderr is."""
    try:
        shown = text(message.said) if isinstance(message, Refusal) else message
        sys.stderr.write(f"{program_name()}: {shown}\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass  # a full or closed stderr must not turn a usage error into a crash
    return 2


def missing_package(names: Iterable[str]) -> Optional[int]:
    """None when every package named is installed; else the first missing one said in one line
    with the install command, and the exit code (2)."""
    for name in names:
        if importlib.machinery.PathFinder.find_spec(name) is None:  # looked for, never loaded
            return usage_error(_("the package {name} is not installed: install the game as README.md says "
                                 "({command})").format(name=name, command=INSTALL))
    return None
