"""What proves a friend's seat theirs, as the autosave holds it: nothing yet, their SSH key's
fingerprint, or a hash of their rejoin code (the table over SSH makes them)."""
import re
from typing import Any

SEAT_PROOF = re.compile(r"|SHA256:[A-Za-z0-9+/]{1,100}|code:[0-9a-f]{64}")
CODE_PROOF = "code:"  # a seat taken with the password: its rejoin code's hash follows


def is_seat_proof(proof: Any) -> bool:
    """What may prove a seat a friend's, as the autosave holds it."""
    return isinstance(proof, str) and SEAT_PROOF.fullmatch(proof) is not None
