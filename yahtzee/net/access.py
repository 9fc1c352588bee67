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
REMOVED_FILE = "removed.json"  # the names and addresses an admin removed
MAX_REMOVED = 10_000  # names and addresses removed at once


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
    """The names and addresses an admin removed, refused from then on, kept in a file in the
    server's folder (a restart keeps them); the same typed again lets them in again."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / REMOVED_FILE
        self._lock = threading.Lock()
        self.names, self.addresses = self._read()  # names folded

    def _read(self) -> tuple[set[str], set[str]]:
        """The names and addresses removed so far; a file that is not such lists is refused, naming it."""
        data = key_file(self.path)
        if data is None:
            return set(), set()
        try:
            kept = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            kept = None
        names, addresses = (_strings(kept.get(part)) for part in ("names", "addresses")) if isinstance(kept, dict) \
            else (None, None)
        if names is None or addresses is None:
            raise KeyFileProblem(Say("{path} is not the lists of names and addresses removed: move it away and "
                                     "nobody is removed").format(path=str(self.path)))
        return names, addresses

    def toggle(self, typed: str) -> Optional[bool]:
        """Remove what was typed (an address if it is one, else a name) and keep it: True; if it
        was removed, let it in again: False; None for nothing typed, or too many removed."""
        typed = typed.strip()
        if not typed:
            return None
        try:
            kept, item = self.addresses, str(ipaddress.ip_address(typed))
        except ValueError:
            kept, item = self.names, typed.casefold()
        with self._lock:
            if item in kept:
                kept.discard(item)
            elif len(self.names) + len(self.addresses) < MAX_REMOVED:
                kept.add(item)
            else:
                return None
            write_atomically(self.path, json.dumps({"names": sorted(self.names), "addresses": sorted(self.addresses)},
                                                   indent=1).encode())
            return item in kept

    def refuses(self, name: str, address: str) -> bool:
        """Whether a login as `name` from `address` is refused."""
        with self._lock:
            return name.casefold() in self.names or address in self.addresses


def _strings(value: object) -> Optional[set[str]]:
    """The strings of a list of strings, or None for anything else."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        return None
    return set(value)
