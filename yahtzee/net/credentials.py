"""Who may join a hosted table: the table's password, or a public key the host listed; and
the host's own key, made once and kept in the data folder so friends can recognise it."""
import hmac
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Protocol

import asyncssh

from ..model.words import Refusal, Say
from ..saves.atomic import NotAFile, open_for_reading, write_atomically

HOST_KEY_FILE = "ssh_host_key"
AUTHORIZED_KEYS_FILE = "authorized_keys"
PASSWORD_FILE = "password"  # a server's (--serve) password, kept from one start to the next
PASSWORD_LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"  # none that look alike (l/1, o/0)
PASSWORD_LENGTH = 10
MAX_KEY_FILE_BYTES = 1024 * 1024


class KeyFileProblem(Refusal):
    """A key file the table cannot use: said in one line, never a traceback."""


class NameBinding(Protocol):
    """An open server's names taken with a key (access.NameKeys)."""

    def lets_in(self, name: str, fingerprint: Optional[str]) -> bool:
        """Whether `name` may come in with this key's fingerprint (None: without a key)."""


@dataclass(frozen=True)
class Credentials:
    """The host's key, the table's password and the public keys let in without it; a server of
    tables may take listed keys alone (no password), or anyone (its names bound to keys)."""

    host_key: asyncssh.SSHKey
    password: str
    authorized: Optional[asyncssh.SSHAuthorizedKeys]
    takes_password: bool = True
    open_names: Optional[NameBinding] = None  # anyone may come in, under a name no key took
    admins: frozenset[str] = frozenset()  # the fingerprints of the keys that administer a server

    @property
    def takes_keys(self) -> bool:
        """Whether a public key may log in."""
        return self.open_names is not None or self.authorized is not None or bool(self.admins)

    def password_lets_in(self, name: str, password: str) -> bool:
        """Whether this password lets `name` in: the table's, or on an open server any, for a
        name no key took."""
        if self.open_names is not None:
            return self.open_names.lets_in(name, None)
        return self.takes_password and self.password_fits(password)

    def key_lets_in(self, name: str, key: asyncssh.SSHKey) -> bool:
        """Whether this key lets `name` in: a listed one, or on an open server the key that
        took the name (a name nobody took is this key's now)."""
        fingerprint = str(key.get_fingerprint("sha256"))
        if fingerprint in self.admins:
            return True
        if self.open_names is not None:
            return self.open_names.lets_in(name, fingerprint)
        return self.key_fits(key)

    @property
    def fingerprint(self) -> str:
        """The host key's SHA256 fingerprint, as ssh shows it."""
        return str(self.host_key.get_fingerprint("sha256"))

    def password_fits(self, password: str) -> bool:
        """Whether `password` is the table's (compared in constant time)."""
        return hmac.compare_digest(password.encode("utf-8", "replace"), self.password.encode())

    def key_fits(self, key: asyncssh.SSHKey) -> bool:
        """Whether the host listed this public key."""
        if self.authorized is None:
            return False
        return self.authorized.validate(key, "", "") is not None  # the options of a listed key: {} for none


def new_password() -> str:
    """A random password for one table."""
    return "".join(secrets.choice(PASSWORD_LETTERS) for _ in range(PASSWORD_LENGTH))


def key_file(path: Path) -> Optional[bytes]:
    """A key file's bytes (None when there is none), read as the saves are: never through a
    link, never more than a key file holds; KeyFileProblem says what is wrong."""
    try:
        opened = open_for_reading(path, MAX_KEY_FILE_BYTES, lambda size: KeyFileProblem(
            Say("{path} is {size} bytes: larger than a key file").format(path=str(path), size=size)))
    except NotAFile as odd:
        raise KeyFileProblem(Say("{path} is not a file (a link or a folder is never followed)").format(
            path=str(path))) from odd
    except OSError as error:
        raise KeyFileProblem(Say("{path} cannot be read: {error}").format(
            path=str(path), error=error.strerror or str(error))) from None
    if opened is None:
        return None
    with opened[0] as file:
        return file.read()


def host_key(folder: Path) -> asyncssh.SSHKey:
    """The host key kept in `folder`, made the first time (the atomic write's file is its owner's
    only). A damaged one is refused, not replaced: friends' ssh trusts it by its fingerprint."""
    path = folder / HOST_KEY_FILE
    data = key_file(path)
    if data is not None:
        try:
            return asyncssh.import_private_key(data)
        except (asyncssh.KeyImportError, ValueError):
            raise KeyFileProblem(Say("the table's host key {path} is damaged: move it away and a new one is made "
                                     "(friends' ssh will ask to trust the new one)").format(path=str(path))) from None
    key = asyncssh.generate_private_key("ssh-ed25519")
    folder.mkdir(parents=True, exist_ok=True)
    write_atomically(path, key.export_private_key())
    return key


def authorized_keys(folder: Path) -> Optional[asyncssh.SSHAuthorizedKeys]:
    """The public keys listed in the data folder's authorized_keys, or None when none is
    (no file, or one with no key in it); a line that is no key is refused, naming the file."""
    path = folder / AUTHORIZED_KEYS_FILE
    data = key_file(path)
    if data is None:
        return None
    text = data.decode("utf-8", "replace")
    if not any(line.strip() and not line.lstrip().startswith("#") for line in text.splitlines()):
        return None
    try:
        return asyncssh.import_authorized_keys(text)
    except (asyncssh.KeyImportError, ValueError) as error:
        raise KeyFileProblem(Say("{path} lists something that is not a public key ({error})").format(
            path=str(path), error=str(error)[:60])) from None


def table_credentials(folder: Path, password: Optional[str] = None) -> Credentials:
    """The credentials of a table hosted from `folder`."""
    return Credentials(host_key(folder), password or new_password(), authorized_keys(folder))


def kept_password(folder: Path) -> str:
    """The password kept in `folder` for a server of many tables, made the first time (the
    atomic write's file is its owner's only); an empty one is refused, naming the file."""
    path = folder / PASSWORD_FILE
    data = key_file(path)
    if data is not None:
        password = data.decode("utf-8", "replace").strip()
        if not password:
            raise KeyFileProblem(Say("{path} holds no password: write one in it, or move it away and a new one "
                                     "is made").format(path=str(path)))
        return password
    password = new_password()
    folder.mkdir(parents=True, exist_ok=True)
    write_atomically(path, (password + "\n").encode())
    return password
