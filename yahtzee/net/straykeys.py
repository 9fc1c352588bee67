"""Keys typed at a terminal of a hosted table that is not asked: a friend's own keys act there, U
where the posting is that terminal's answers the read under way, and any other key is refused
there with one line."""
from typing import Optional

from ..consoles.keyterminal import key_token
from ..consoles.stops import InputClosed
from ..model.words import Say
from .claims import SeatClaims
from .friendkeys import FriendKeys
from .lines import SeatLines
from .seating import Seating
from .terminals import Terminals


class StrayKeys:
    """The keys of the terminals not asked, and a U among them that the next read answers."""

    def __init__(self, terminals: Terminals, seating: Seating, claims: SeatClaims, lines: SeatLines,
                 own_keys: FriendKeys) -> None:
        self.terminals, self.seating, self.claims = terminals, seating, claims
        self.lines, self.own_keys = lines, own_keys
        self.undo_from: Optional[str] = None  # a terminal not asked pressed U to take back its posting

    def look(self, asker: Optional[str], host_asks: bool) -> None:
        """Every friend's keys typed while another terminal was asked: their own hot keys
        act, U takes back their posting where they may, any other key is refused there."""
        friends = self.terminals.friends
        for key, friend in list(friends.items()):
            friend.console.show_arrived()
            while key in friends:
                try:
                    press = friend.aside.poll()
                except InputClosed:
                    self.terminals.let_go(key)
                    break
                if press is None:
                    break
                token = key_token(press)
                if token is None or self.own_keys.take(key, token):
                    continue
                if key != asker:
                    self.refuse(key, token, host_asks)

    def refused_undo(self, token: str, key: str, host_asks: bool) -> bool:
        """U where it is not the undo owner's terminal is refused with a word; whether it was."""
        owner = self.seating.undo_owner() if token == "u" else None
        if owner is None or self.claims.terminal_of(owner) == key:
            return False
        self.refuse(key, token, host_asks)
        return True

    def refuse(self, key: str, token: str, host_asks: bool) -> None:
        """A key at a terminal that is not asked: U where the posting is theirs answers the
        read under way; any other key is refused there with one line."""
        owner = self.seating.undo_owner() if token == "u" else None
        if owner is not None and self.claims.terminal_of(owner) == key:
            self.undo_from = key
            return
        said = (self.lines.not_yours(host_asks) if owner is None
                else Say("Only {name} may take back {name}'s posting.").format(name=owner))
        self.terminals.at(key, lambda console: console.remind(said))

    def take_undo(self) -> Optional[str]:
        """The terminal whose U waits to be answered, if one does (it is answered once)."""
        undo, self.undo_from = self.undo_from, None
        return undo
