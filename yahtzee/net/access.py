"""Who may log in to a server of tables (--serve), as its folder keeps it: the server's password
or a listed key (as at a hosted table), listed keys alone, or anyone under any name, where a
name first used with a key is that key's from then on (NameKeys, kept in the folder)."""
import enum
import json
import threading
from pathlib import Path
from typing import Optional

from ..model.words import Say
from ..saves.atomic import write_atomically
from .credentials import KeyFileProblem, key_file

ACCESS_FILE = "access"  # the access chosen with --access, kept for the next start
NAMES_FILE = "names.json"  # an open server's names taken with a key
MAX_NAMES = 10_000  # names an open server binds to keys; past this a new name logs in unbound


class Access(enum.Enum):
    """How a login proves it may come in."""

    PASSWORD = "password"  # the server's password, or a key listed in authorized_keys
    KEYS = "keys"  # a listed key only
    OPEN = "open"  # anyone; a name first used with a key is then that key's


def kept_access(folder: Path, chosen: Optional[str]) -> Access:
    """The access `chosen` on the command line (kept in `folder` for the next start), else the
    one kept there, else the password's; a kept word that is none of them is refused."""
    path = folder / ACCESS_FILE
    if chosen is not None:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomically(path, (chosen + "\n").encode())
        return Access(chosen)
    data = key_file(path)
    if data is None:
        return Access.PASSWORD
    try:
        return Access(data.decode("utf-8", "replace").strip())
    except ValueError:
        raise KeyFileProblem(Say("{path} names no access (open, password or keys)").format(path=str(path))) from None


class NameKeys:
    """The names of an open server that a key took, each that key's alone from then on (by its
    fingerprint), kept in a file in the server's folder."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / NAMES_FILE
        self._lock = threading.Lock()
        self.bound = self._read()

    def _read(self) -> dict[str, str]:
        """The names bound so far; a file that is not such a list is refused, naming it."""
        data = key_file(self.path)
        if data is None:
            return {}
        try:
            bound = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            bound = None
        if not isinstance(bound, dict) or not all(isinstance(v, str) for v in bound.values()):
            raise KeyFileProblem(Say("{path} is not a list of names and their keys: move it away and names are "
                                     "taken afresh").format(path=str(self.path)))
        return bound

    def lets_in(self, name: str, fingerprint: Optional[str]) -> bool:
        """Whether `name` may come in with this key's fingerprint (None: without a key): a name
        bound to a key only with it; a new name with a key is bound to it now."""
        key = name.casefold()
        with self._lock:
            bound = self.bound.get(key)
            if bound is not None:
                return bound == fingerprint
            if fingerprint is not None and len(self.bound) < MAX_NAMES:
                self.bound[key] = fingerprint
                write_atomically(self.path, json.dumps(self.bound, sort_keys=True).encode())
            return True
