"""Who may log in to a server of tables (--serve), as its folder keeps it: the server's password
or a listed key (as at a hosted table), listed keys alone, or anyone under any name, where a
name first used with a key is that key's from then on (NameKeys, kept in the folder); and who
administers it (the keys in admin_keys)."""
import enum
import ipaddress
import json
import threading
from pathlib import Path
from typing import Optional

import asyncssh

from ..model.words import Say
from ..saves.atomic import write_atomically
from .credentials import KeyFileProblem, key_file

ACCESS_FILE = "access"  # the access chosen with --access, kept for the next start
ADMIN_KEYS_FILE = "admin_keys"  # the keys of whoever may close a table or remove someone (one a line)
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


def admin_fingerprints(folder: Path) -> frozenset[str]:
    """The fingerprints of the keys listed in the folder's admin_keys (none without the file); a
    line that is no public key is refused, naming the file."""
    path = folder / ADMIN_KEYS_FILE
    data = key_file(path)
    lines = [] if data is None else [line.strip() for line in data.decode("utf-8", "replace").splitlines()]
    try:
        return frozenset(str(asyncssh.import_public_key(line).get_fingerprint("sha256"))
                         for line in lines if line and not line.startswith("#"))
    except (asyncssh.KeyImportError, ValueError) as error:
        raise KeyFileProblem(Say("{path} lists something that is not a public key ({error})").format(
            path=str(path), error=str(error)[:60])) from None


class Removals:
    """The names and addresses an admin removed, refused for the rest of the server's run."""

    def __init__(self) -> None:
        self.names: set[str] = set()  # folded
        self.addresses: set[str] = set()
        self._lock = threading.Lock()

    def add(self, typed: str) -> bool:
        """Remove what was typed, an address if it is one, else a name; False for nothing typed."""
        typed = typed.strip()
        if not typed:
            return False
        try:
            address = str(ipaddress.ip_address(typed))
        except ValueError:
            address = ""
        with self._lock:
            if address:
                self.addresses.add(address)
            else:
                self.names.add(typed.casefold())
        return True

    def refuses(self, name: str, address: str) -> bool:
        """Whether a login as `name` from `address` is refused."""
        with self._lock:
            return name.casefold() in self.names or address in self.addresses
