"""The seating protocol: what a hosted table asks the game about its seats (the flow's Context answers)."""
from typing import Optional, Protocol

from ..model.seatowners import Seats
from ..model.words import Say


class Seating(Protocol):
    """What the table asks the game about its seats (the flow's Context answers)."""

    def answering_player(self) -> Optional[str]:
        """The human seat whose turn it is, or None: the host's question."""

    def undo_owner(self) -> Optional[str]:
        """The player whose posting U would take back now, if one may be."""

    def hand_to_computer(self, name: str) -> None:
        """The seat of `name` is played by a computer player from now on."""

    def stand_in(self, name: str) -> None:
        """This turn of `name`'s, whose turn it is, is played by the computer in their place."""

    def happening(self) -> Say:
        """What is going on, for a terminal that is not asked."""

    def game_under_way(self) -> bool:
        """A game is in play (a seat is no longer taken by logging in under its name)."""

    def seats(self) -> Seats:
        """The seats friends took at their own terminals (the seated game's); any thread may ask."""

    def human_seats(self) -> list[str]:
        """The seats (folded names) people play, in seat order."""

    def saved_game_set_aside(self) -> bool:
        """The host chose not to resume the saved game offered (its seats are nobody's now)."""
