"""What proves a friend's seat theirs, and whom the host removed from the table.

A seat taken with a listed key is proved by that key's fingerprint; a seat taken with the
table's password by a rejoin code, shown only at that friend's terminal, of which the autosave
keeps only a hash. A removed friend is refused for the rest of the game by name and key, or by
name and address where they came with the password."""
import hashlib
import secrets
from collections.abc import Callable

from ..model.words import Say
from ..saves.proofs import CODE_PROOF

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # none that reads like another (no I, O, 0, 1)
CODE_LENGTH = 6  # 32**6: about a billion codes, against three tries a connection and 60 a minute an address
MAX_CODE_CHARS = 16  # typed at the rejoin question; more is not a code


def new_code(pick: Callable[[str], str] = secrets.choice) -> str:
    """A fresh rejoin code."""
    return "".join(pick(CODE_LETTERS) for _ in range(CODE_LENGTH))


def plain_code(typed: str) -> str:
    """A rejoin code as typed, case and spaces aside."""
    return "".join(typed.split()).upper()


def code_proof(code: str) -> str:
    """What the autosave keeps of a rejoin code (as typed: case and spaces aside)."""
    return CODE_PROOF + hashlib.sha256(plain_code(code).encode()).hexdigest()


def by_code(proof: str) -> bool:
    """A seat proved by a rejoin code (taken with the password)."""
    return proof.startswith(CODE_PROOF)


def removal_mark(name: str, proof: str, address: str) -> tuple[str, str]:
    """What a removed friend is known by: their name and their key, or their name and address."""
    return name.casefold(), proof if proof and not by_code(proof) else "@" + address


def removed(name: str) -> Say:
    """Why a friend the host removed is not let back in."""
    return Say("The host removed {name} from this table.").format(name=name)


def not_yours(name: str, owner: str) -> Say:
    """Why a login that does not prove a friend's seat is not seated there."""
    if by_code(owner):
        return Say("{name}'s seat needs its rejoin code: join again and give it.").format(name=name)
    return Say("{name}'s seat was taken with a key: join again with the same key.").format(name=name)
