"""What a hosted table asks the game about its seats (net/seating.py's Seating), answered from
the screens' context: whose question it is, what is happening, whose the seats are."""
from __future__ import annotations

from ..model.seatowners import Seats
from ..model.session import Session
from ..model.words import Say
from .context import Context
from .steps import IN_GAME, Screen


class ContextSeating:
    """The game's seats as a hosted table sees them, read from the context as it stands."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def answering_player(self) -> str | None:
        """The human player who answers the question on screen; None for a lobby question or
        a computer player's turn (the host's, when friends play from their own terminals)."""
        game = self.ctx.session.game
        if self.ctx.moment.screen not in IN_GAME or game is None or game.is_over or game.current.is_computer:
            return None
        return game.current.name

    def hand_to_computer(self, name: str, mood: str = "thinker") -> None:
        """The human seat `name` is played by a computer player from now on (its table readied)."""
        game = self.ctx.session.game
        for player in [*self.ctx.session.players, *(game.players if game is not None else [])]:
            if player.name == name and not player.is_computer:
                player.kind, player.mood = "computer", mood
        self.ctx.prepare_tables()

    def stand_in(self, name: str) -> None:
        """This turn of `name`'s is played by the computer in their place (its table readied)."""
        game = self.ctx.session.game
        if game is not None and game.stand_in(name):
            self.ctx.prepare_tables()

    def happening(self) -> Say:
        """What is going on, for a seat that is not asked: whose turn and what they do."""
        game = self.ctx.session.game
        if self.ctx.moment.screen not in IN_GAME or game is None or game.is_over:
            if self.ctx.moment.screen in (Screen.END_OF_GAME, Screen.RECAP, Screen.RECAP_THEN_CONFIRM):
                return Say("The game is over: the host decides what comes next.")
            return Say("The host is getting the game ready.")
        name = game.current.name
        if game.current.is_computer:
            return Say("{name} is playing.").format(name=name)
        if self.ctx.moment.screen is Screen.PLAY:
            return Say("{name} is rolling the dice.").format(name=name)
        return Say("{name} decides where to post.").format(name=name)

    def seated(self) -> Session:
        """The session whose seats are the table's: a saved game while it is offered, else the session."""
        offered = self.ctx.offered  # read once: the server's thread asks while the flow may clear it
        return self.ctx.session if offered is None else offered

    def game_under_way(self) -> bool:
        """A game is in play: seats are no longer taken by logging in under their name."""
        game = self.seated().game
        return game is not None and not game.is_over

    def seats(self) -> Seats:
        """The seats friends took at their own terminals (the seated game's)."""
        return self.seated().seats

    def human_seats(self) -> list[str]:
        """The seats (folded names) people play, in seat order."""
        return [player.name.casefold() for player in self.seated().players if not player.is_computer]

    def saved_game_set_aside(self) -> bool:
        """The host chose not to resume the saved game offered."""
        return self.ctx.set_aside

    def undo_owner(self) -> str | None:
        """The player whose posting U would take back now, if one may be."""
        game = self.ctx.session.game
        if game is None or game.undo_point is None or not game.can_undo:
            return None
        return game.players[game.undo_point.seat].name
