"""Whose the seats of a hosted table are (PRODUCT.md §9): each friend's proof checked against the
game's seats, a seat claimed for a friend who logs in under its name before the game (by their
key, or by a rejoin code shown only at their terminal). The SSH server reads the same seats at
the door."""
from typing import Callable, Optional

from ..model.seatowners import Claim
from ..model.words import Say
from .owners import code_proof, not_yours, removal_mark, removed
from .roster import Present
from .seating import Seating
from .terminals import HOST, Friend


class SeatClaims:
    """The seats' owners as the game has them, held against the friends at the table."""

    def __init__(self, seating: Seating, new_code: Callable[[], str]) -> None:
        self.seating, self.new_code = seating, new_code

    def stays(self, key: str, friend: Friend) -> bool:
        """Whether the friend at this terminal stays: not one the host removed, and a seat's friend
        only with what proves it theirs (else they are told why and disconnected); a seat not yet
        proved, or before the game a name while seats remain, is claimed for them."""
        seat, seats = friend.seat, self.seating.seats()
        claim = seats.claim(key, seat.proof, may_take=not self.seating.game_under_way())
        refused = seats.has_removed(removal_mark(seat.name, seat.proof, seat.address))
        if refused or claim is Claim.NOT_YOURS:
            friend.console.message(removed(seat.name) if refused else not_yours(seat.name, seats.owner(key) or ""))
            friend.console.end_line()
            seat.disconnect()
            return False
        if claim is Claim.OPEN:
            if not seat.proof:
                seat.code = self.new_code()
                seat.proof = code_proof(seat.code)
                friend.console.message(Say("Your rejoin code is {code}: with it you take {name}'s seat back if you "
                                           "leave (shown only here).").format(code=seat.code, name=seat.name))
            seats.take(key, seat.proof)
        return True

    def settle(self, friends: dict[str, Friend]) -> None:
        """Once a game is under way, only its human seats are owned; the friends at the table
        with no seat watch it."""
        seats = self.seating.seats()
        if self.seating.game_under_way():
            seats.keep_only(self.seating.human_seats())
        seats.watch(key for key in friends if self.seat_name(key) is None)

    def free(self, key: str) -> None:
        """A seat is nobody's any more (its friend was removed): the host's again."""
        self.seating.seats().free(key)

    def terminal_of(self, player: str) -> str:
        """The terminal a player's keys come from: their own if the seat is a friend's, else the host's."""
        key = player.casefold()
        return key if key in self.seating.seats() else HOST

    def seat_name(self, key: str) -> Optional[str]:
        """The seat a friend's terminal plays, or None for a watcher (before the game, a
        friend's name is a seat to come)."""
        under_way = self.seating.game_under_way()
        seated = key in self.seating.seats() and (key in self.seating.human_seats() or not under_way)
        return key if seated else None

    def people(self, friends: dict[str, Friend]) -> list[tuple[str, Present]]:
        """Who is at the table, by folded name: the friends at their terminals, then the seats
        whose friends are away."""
        here = [(key, Present(friend.seat.name, self.seat_name(key) is not None, True, friend.seat.proof,
                              friend.seat.address)) for key, friend in friends.items()]
        away = [(key, Present(key, True, False, proof))
                for key, proof in self.seating.seats().owners().items()
                if key not in friends and (key in self.seating.human_seats() or not self.seating.game_under_way())]
        return here + away
