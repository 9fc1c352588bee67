"""How much a hosted table's server gives one address, and every address together: logins
under way, connections logged in, passwords checked a minute, and an address that breaks a
limit refused longer at each offence (as OpenSSH's MaxStartups and PerSourcePenalties)."""
import collections
import math
import random
import time
from typing import Optional

from ..model.words import Say

MAX_STARTUPS = 10  # connections not yet logged in, from every address together
EARLY_DROP_FROM = 5  # from this many not yet logged in, a new one is dropped at random (surely at MAX_STARTUPS)
MAX_STARTUPS_PER_ADDRESS = 3  # not yet logged in from one address: one address never keeps another out
MAX_SEATED = 8  # logged-in connections at once
PASSWORDS_PER_MINUTE = 60  # passwords checked from one address in any minute
PENALTY_SECONDS = 5.0  # an address that breaks a limit is refused this much longer at each offence
MAX_PENALTY_SECONDS = 60.0  # however often it does
MAX_ADDRESSES_KEPT = 4096  # addresses whose recent passwords are remembered (the oldest forgotten first)
MAX_LOGIN_ATTEMPTS = 3  # wrong passwords (or rejoin codes) on one connection before it is closed


class Limits:
    """The connections under way and logged in, each address's recent passwords and penalties
    (used from the server's thread only)."""

    def __init__(self) -> None:
        self.starting: collections.Counter[str] = collections.Counter()  # not yet logged in, by address
        self.seated = 0
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
        waiting = sum(self.starting.values())
        if self.starting[address] >= MAX_STARTUPS_PER_ADDRESS:
            self.penalize(address, now)
            return Say("Refused {address}: at most {count} logins at once from one address.").format(
                address=address, count=MAX_STARTUPS_PER_ADDRESS)
        drop_chance = (waiting - EARLY_DROP_FROM + 1) / (MAX_STARTUPS - EARLY_DROP_FROM + 1)
        if waiting >= EARLY_DROP_FROM and self.early_drop.random() < drop_chance:
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
        if self.seated >= MAX_SEATED:
            return Say("A login from {address} was let go: {count} logged in at once is the most.").format(
                address=address, count=MAX_SEATED)
        self.seated += 1
        return None

    def left_unseated(self, address: str) -> None:
        """A connection not yet logged in went (or logged in)."""
        self.starting[address] -= 1
        if self.starting[address] <= 0:
            del self.starting[address]

    def left_seated(self) -> None:
        """A connection that had logged in went."""
        self.seated -= 1
