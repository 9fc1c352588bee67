"""How much a hosted table's server gives one address, and every address together: logins
under way, connections logged in, passwords checked a minute, and an address that breaks a
limit refused longer at each offence (as OpenSSH's MaxStartups and PerSourcePenalties)."""
import collections
import math
import random
import time
from dataclasses import dataclass
from typing import Optional

from ..model.words import Say

PASSWORDS_PER_MINUTE = 60  # passwords checked from one address in any minute
PENALTY_SECONDS = 5.0  # an address that breaks a limit is refused this much longer at each offence
MAX_PENALTY_SECONDS = 60.0  # however often it does
MAX_ADDRESSES_KEPT = 4096  # addresses whose recent passwords are remembered (the oldest forgotten first)
MAX_LOGIN_ATTEMPTS = 3  # wrong passwords (or rejoin codes) on one connection before it is closed


@dataclass(frozen=True)
class Sizes:
    """How many connections a server takes: not yet logged in (from every address together, and
    from one), where random early drops begin, and logged in (in all, and from one address)."""

    startups: int
    early_drop_from: int
    startups_per_address: int  # one address never keeps another out
    seated: int
    seated_per_address: int


TABLE_SIZES = Sizes(startups=10, early_drop_from=5, startups_per_address=3, seated=8, seated_per_address=8)
# A server of many tables: 25 tables of 4 players, with room for watchers and for logins under way.
SERVER_SIZES = Sizes(startups=64, early_drop_from=32, startups_per_address=4, seated=160, seated_per_address=16)


class Limits:
    """The connections under way and logged in, each address's recent passwords and penalties
    (used from the server's thread only)."""

    def __init__(self, sizes: Sizes = TABLE_SIZES) -> None:
        self.sizes = sizes
        self.starting: collections.Counter[str] = collections.Counter()  # not yet logged in, by address
        self.seated: collections.Counter[str] = collections.Counter()  # logged in, by address
        self.early_drop = random.Random()
        self.passwords: collections.OrderedDict[str, collections.deque[float]] = collections.OrderedDict()
        self.penalties: collections.OrderedDict[str, float] = collections.OrderedDict()  # address: refused until

    def admit(self, address: str, now: Optional[float] = None) -> Optional[Say]:
        """Whether a new connection from `address` may try to log in: why not, or None (then it
        is counted until it logs in or goes). An address that broke a limit lately is refused
        for its penalty. Past EARLY_DROP_FROM, new ones are dropped at random, more surely the
        fuller it is, so a flood never fills every place at once."""
        now = time.monotonic() if now is None else now
        penalty = self.penalties.get(address, now) - now
        if penalty > 0:
            return Say("Refused {address} for {seconds} s more: it broke a limit.").format(
                address=address, seconds=math.ceil(penalty))
        waiting, sizes = sum(self.starting.values()), self.sizes
        if self.starting[address] >= sizes.startups_per_address:
            self.penalize(address, now)
            return Say("Refused {address}: at most {count} logins at once from one address.").format(
                address=address, count=sizes.startups_per_address)
        drop_chance = (waiting - sizes.early_drop_from + 1) / (sizes.startups - sizes.early_drop_from + 1)
        if waiting >= sizes.early_drop_from and self.early_drop.random() < drop_chance:
            return Say("Refused {address}: {count} logins under way at once (a flood is dropped at random).").format(
                address=address, count=waiting)
        self.starting[address] += 1
        return None

    def penalize(self, address: str, now: Optional[float] = None) -> None:
        """`address` broke a limit: its new connections are refused PENALTY_SECONDS longer (at
        most MAX_PENALTY_SECONDS from now), as OpenSSH's PerSourcePenalties do."""
        now = time.monotonic() if now is None else now
        until = max(self.penalties.pop(address, now), now) + PENALTY_SECONDS
        self.penalties[address] = min(until, now + MAX_PENALTY_SECONDS)  # the latest offender last
        while len(self.penalties) > MAX_ADDRESSES_KEPT:
            self.penalties.popitem(last=False)

    def may_check_password(self, address: str, now: Optional[float] = None) -> bool:
        """Whether another password from `address` may be checked within PASSWORDS_PER_MINUTE
        (every request counts, answered or not)."""
        now = time.monotonic() if now is None else now
        recent = self.passwords.pop(address, None) or collections.deque()
        while recent and now - recent[0] >= 60:
            recent.popleft()
        allowed = len(recent) < PASSWORDS_PER_MINUTE
        if allowed:
            recent.append(now)
        else:
            self.penalize(address, now)
        self.passwords[address] = recent  # the most recent address last
        while len(self.passwords) > MAX_ADDRESSES_KEPT:
            self.passwords.popitem(last=False)
        return allowed

    def logged_in(self, address: str) -> Optional[Say]:
        """A connection from `address` logged in: it takes a seated place, or why not."""
        self.left_unseated(address)
        if sum(self.seated.values()) >= self.sizes.seated:
            return Say("A login from {address} was let go: {count} logged in at once is the most.").format(
                address=address, count=self.sizes.seated)
        if self.seated[address] >= self.sizes.seated_per_address:
            return Say("A login from {address} was let go: {count} logged in from one address is the most.").format(
                address=address, count=self.sizes.seated_per_address)
        self.seated[address] += 1
        return None

    def left_unseated(self, address: str) -> None:
        """A connection not yet logged in went (or logged in)."""
        self.starting[address] -= 1
        if self.starting[address] <= 0:
            del self.starting[address]

    def left_seated(self, address: str) -> None:
        """A connection from `address` that had logged in went."""
        self.seated[address] -= 1
        if self.seated[address] <= 0:
            del self.seated[address]
