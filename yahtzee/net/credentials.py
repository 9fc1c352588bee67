"""Who may join a hosted table: the table's password, or a public key the host listed; and
the host's own key, made once and kept in the data folder so friends can recognise it."""
import hmac
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import asyncssh

from ..saves.atomic import write_atomically

HOST_KEY_FILE = "ssh_host_key"
AUTHORIZED_KEYS_FILE = "authorized_keys"
PASSWORD_LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"  # none that look alike (l/1, o/0)
PASSWORD_LENGTH = 10


@dataclass(frozen=True)
class Credentials:
    """The host's key, the table's password and the public keys let in without it."""

    host_key: asyncssh.SSHKey
    password: str
    authorized: Optional[asyncssh.SSHAuthorizedKeys]

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


def host_key(folder: Path) -> asyncssh.SSHKey:
    """The host key kept in `folder`, made the first time (the atomic write's file is its owner's only)."""
    path = folder / HOST_KEY_FILE
    if path.exists():
        return asyncssh.read_private_key(str(path))
    key = asyncssh.generate_private_key("ssh-ed25519")
    folder.mkdir(parents=True, exist_ok=True)
    write_atomically(path, key.export_private_key())
    return key


def authorized_keys(folder: Path) -> Optional[asyncssh.SSHAuthorizedKeys]:
    """The public keys listed in the data folder's authorized_keys, or None when there is none."""
    path = folder / AUTHORIZED_KEYS_FILE
    if not path.exists():
        return None
    return asyncssh.read_authorized_keys(str(path))


def table_credentials(folder: Path, password: Optional[str] = None) -> Credentials:
    """The credentials of a table hosted from `folder`."""
    return Credentials(host_key(folder), password or new_password(), authorized_keys(folder))
