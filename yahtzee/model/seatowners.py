"""Whose the seats of a game played from friends' own terminals are: each seat a friend took, by
folded name, with what proves it theirs (an opaque proof: '' while not yet proved), whom the
host removed, and who watches (at the table with no seat, for as long as they are there). The
game's thread changes them; another thread (a table's server, a server's page) reads a
snapshot taken under their lock, or the watchers."""
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum, auto
from typing import Optional

from .game import MAX_PLAYERS

Mark = tuple[str, str]  # what a removed friend is known by (a name and their key or address)


class Claim(Enum):
    """What a friend's proof makes of the seat under their name."""

    YOURS = auto()  # the seat is theirs, and the proof shows it
    NOT_YOURS = auto()  # the seat is another's proof's
    OPEN = auto()  # the seat may be taken (not yet proved, or a name while seats remain)
    NONE = auto()  # no seat for them: they watch


@dataclass(frozen=True)
class SeatsSnapshot:
    """The seats as they stood at one moment, for a reader on another thread."""

    owners: Mapping[str, str] = field(default_factory=dict)
    removed: frozenset[Mark] = frozenset()

    def proof_of(self, name: str) -> str:
        """What proves the seat under login `name` its friend's ('' for none or not yet proved)."""
        return self.owners.get(name.casefold(), "")


class Seats:
    """The seats friends took at their own terminals, and whom the host removed."""

    def __init__(self, owners: Optional[Mapping[str, str]] = None) -> None:
        self._owners = dict(owners or {})
        self._removed: set[Mark] = set()
        self._watchers: frozenset[str] = frozenset()  # not kept with the game: who is at the table now
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Seats({self._owners!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Seats) and self.snapshot() == other.snapshot()

    def owners(self) -> dict[str, str]:
        """Each seat friends took, by folded name, and what proves it theirs (a copy)."""
        with self._lock:
            return dict(self._owners)

    def owner(self, key: str) -> Optional[str]:
        """What proves the seat of folded name `key` its friend's; None for no friend's seat."""
        return self._owners.get(key)

    def __contains__(self, key: str) -> bool:
        return key in self._owners

    def claim(self, key: str, proof: str, may_take: bool) -> Claim:
        """What `proof` makes of the seat of folded name `key`: `may_take`, a name not yet a
        seat's may become one (before the game, while seats remain)."""
        owner = self._owners.get(key)
        if owner and owner != proof:
            return Claim.NOT_YOURS
        if owner == "" or (owner is None and may_take and len(self._owners) < MAX_PLAYERS):
            return Claim.OPEN
        return Claim.YOURS if owner else Claim.NONE

    def take(self, key: str, proof: str) -> None:
        """The seat of folded name `key` is the friend's who holds `proof`."""
        with self._lock:
            self._owners[key] = proof

    def keep_only(self, keys: Iterable[str]) -> None:
        """Only these seats stay friends' (the game's human seats, once it is under way)."""
        kept = set(keys)
        with self._lock:
            self._owners = {key: proof for key, proof in self._owners.items() if key in kept}

    def seat_host(self, host: str, humans: Iterable[str]) -> None:
        """A saved game taken up by another host (a server's table): the host's own seat,
        folded name `host`, is played at the host's terminal; every other human seat nobody
        proved is its name's to claim (its player hosted it before)."""
        with self._lock:
            self._owners.pop(host, None)
            for key in humans:
                if key != host:
                    self._owners.setdefault(key, "")

    def watch(self, keys: Iterable[str]) -> None:
        """These (folded names) watch the table now, and nobody else."""
        with self._lock:
            self._watchers = frozenset(keys)

    def watchers(self) -> frozenset[str]:
        """Who watches the table now (folded names)."""
        with self._lock:
            return self._watchers

    def free(self, key: str) -> None:
        """The seat of folded name `key` is nobody's any more."""
        with self._lock:
            self._owners.pop(key, None)

    def remove(self, mark: Mark) -> None:
        """The host removed the friend known by `mark` for the rest of the game."""
        with self._lock:
            self._removed.add(mark)

    def has_removed(self, mark: Mark) -> bool:
        """Whether the host removed the friend known by `mark`."""
        with self._lock:
            return mark in self._removed

    def carry_removals(self, other: "Seats") -> None:
        """Whom the host removed from `other`'s game is refused here too (a saved game set aside)."""
        with other._lock:
            removed = set(other._removed)
        with self._lock:
            self._removed |= removed

    def snapshot(self) -> SeatsSnapshot:
        """The seats as they stand now."""
        with self._lock:
            return SeatsSnapshot(dict(self._owners), frozenset(self._removed))
