"""Whose the seats of a hosted table are (PRODUCT.md §9): each friend's proof checked against the
game's seat owners, a seat claimed for a friend who logs in under its name before the game (by
their key, or by a rejoin code shown only at their terminal), and the owners told to the SSH
server, which asks for a seat's proof at the door."""
from typing import Callable, Optional

from ..model.game import MAX_PLAYERS
from ..model.words import Say
from .owners import code_proof, not_yours
from .roster import Present
from .seating import Seating
from .serving import SeatServer
from .terminals import HOST, Friend


class SeatClaims:
    """The seats' owners as the game has them, held against the friends at the table."""

    def __init__(self, seating: Seating, server: SeatServer, new_code: Callable[[], str]) -> None:
        self.seating, self.server, self.new_code = seating, server, new_code

    def stays(self, key: str, friend: Friend) -> bool:
        """Whether the friend at this terminal stays: a seat's friend only with what proves it
        theirs (else they are told why and disconnected); a seat not yet proved, or before the
        game a name while seats remain, is claimed for them."""
        seat, owners = friend.seat, self.seating.seat_owners()
        owner = owners.get(key)
        if owner and owner != seat.proof:
            friend.console.message(not_yours(seat.name, owner))
            friend.console.end_line()
            seat.disconnect()
            return False
        if owner == "" or (owner is None and not self.seating.game_under_way() and len(owners) < MAX_PLAYERS):
            if not seat.proof:
                seat.code = self.new_code()
                seat.proof = code_proof(seat.code)
                friend.console.message(Say("Your rejoin code is {code}: with it you take {name}'s seat back if you "
                                           "leave (shown only here).").format(code=seat.code, name=seat.name))
            owners[key] = seat.proof
            self.publish()
        return True

    def settle(self) -> None:
        """Once a game is under way, only its human seats are owned; the server told."""
        owners = self.seating.seat_owners()
        if self.seating.game_under_way():
            for key in set(owners) - self.seating.human_seats():
                del owners[key]
        self.publish()

    def publish(self) -> None:
        """Tell the SSH server whose the seats are now."""
        owners = self.seating.seat_owners()
        if self.server.owners != owners:
            self.server.owners = dict(owners)

    def free(self, key: str) -> None:
        """A seat is nobody's any more (its friend was removed): the host's again."""
        self.seating.seat_owners().pop(key, None)
        self.publish()

    def terminal_of(self, player: str) -> str:
        """The terminal a player's keys come from: their own if the seat is a friend's, else the host's."""
        key = player.casefold()
        return key if key in self.seating.seat_owners() else HOST

    def seat_name(self, key: str) -> Optional[str]:
        """The seat a friend's terminal plays, or None for a watcher (before the game, a
        friend's name is a seat to come)."""
        under_way = self.seating.game_under_way()
        seated = key in self.seating.seat_owners() and (key in self.seating.human_seats() or not under_way)
        return key if seated else None

    def people(self, friends: dict[str, Friend]) -> list[tuple[str, Present]]:
        """Who is at the table, by folded name: the friends at their terminals, then the seats
        whose friends are away."""
        here = [(key, Present(friend.seat.name, self.seat_name(key) is not None, True, friend.seat.proof,
                              friend.seat.address)) for key, friend in friends.items()]
        away = [(key, Present(key, True, False, proof))
                for key, proof in self.seating.seat_owners().items()
                if key not in friends and (key in self.seating.human_seats() or not self.seating.game_under_way())]
        return here + away
