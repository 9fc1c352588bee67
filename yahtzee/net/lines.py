"""The words each terminal at a hosted table reads of its own: its line while another terminal
is asked, whether its friend leaves, why a key there answered nothing, and its goodbye."""
from typing import Optional

from ..consoles.keymode import KeyConsole
from ..model.words import Say, Text, YesNo
from ..present.look import Asked, Screenful
from .claims import SeatClaims
from .seating import Seating
from .terminals import HOST, Terminals


class SeatLines:
    """Each terminal's own words, from the game's seats and whose they are."""

    def __init__(self, seating: Seating, claims: SeatClaims, terminals: Terminals) -> None:
        self.seating, self.claims, self.terminals = seating, claims, terminals

    def under(self, screen: Screenful, key: str, asker: str) -> Optional[Text]:
        """The line under the screen at this terminal: the question where it is asked (without
        the offer to take back a posting that is another's); elsewhere its own line (what is
        happening and what it may do there), or whether its friend leaves; None for a screen
        that asks nothing."""
        if not isinstance(screen, Asked):
            return None
        friend = self.terminals.friends.get(key)
        if friend is not None and friend.leaving:
            return self.leave_question(key)
        if key == asker:
            owner = self.seating.undo_owner()
            undo_here = screen.without_undo is None or owner is None or self.claims.terminal_of(owner) == key
            return screen.prompt if undo_here else screen.without_undo or screen.prompt
        return self.waiting(key)

    def waiting(self, key: str) -> Text:
        """A terminal's own line while another is asked: what is happening, and its keys."""
        happening = self.seating.happening()
        owner = self.seating.undo_owner()
        if owner is not None and self.claims.terminal_of(owner) == key:
            return Say("{happening} U takes back your posting.").format(happening=happening)
        if key == HOST:
            return Say("{happening} Here: F7 seats, F8 verify, F9 sound, F10 quit.").format(happening=happening)
        if self.claims.seat_name(key) is None:
            return Say("{happening} You watch: F9 sound, D language, F10 leaves.").format(happening=happening)
        return Say("{happening} Here: F9 sound, D language, F10 leaves the table.").format(happening=happening)

    def leave_question(self, key: str) -> YesNo:
        """Whether a friend leaves: a seat's player is told it waits for them (and its code)."""
        if self.claims.seat_name(key) is None:
            return YesNo(Say("Stop watching and leave the table? (Y/N)"))
        code = self.code(key)
        if code:
            return YesNo(Say("Leave the table? Your seat waits for you (rejoin code {code}). (Y/N)").format(code=code))
        return YesNo(Say("Leave the table? Your seat waits for you. (Y/N)"))

    def left(self, key: str) -> Text:
        """What a friend who leaves reads last: how to take their seat back, if they have one."""
        if self.claims.seat_name(key) is None:
            return Say("You left the table.")
        return self.with_code(key, Say("You left the table: join again with ssh to take your seat back."))

    def not_yours(self, host_asks: bool) -> Text:
        """What a terminal that is not asked is told when a key there answers nothing (while
        `host_asks`, the host answers a question a hot key raised)."""
        player = self.seating.answering_player()
        if player is None:
            return self.seating.happening()
        if host_asks:
            return Say("The host answers a question first; then it is {name}'s turn again.").format(name=player)
        return Say("It is {name}'s turn.").format(name=player)

    def say_goodbye(self, key: str, console: KeyConsole) -> None:
        """A friend's goodbye as the table closes, kept too for the page they go back to (a server's)."""
        said = self.goodbye(key)
        friend = self.terminals.friends.get(key)
        if friend is not None:
            friend.seat.note = said
        console.message(said)

    def goodbye(self, key: str) -> Text:
        """What a friend reads as the table closes: whether the game can go on, and how."""
        if self.seating.game_under_way():
            return self.with_code(key, Say(
                "The host stopped the game; it is saved. When the host starts it again, join again with ssh."))
        return Say("The host closed the table. Goodbye.")

    def with_code(self, key: str, said: Say) -> Text:
        """A line about coming back, with the friend's rejoin code where their seat needs one."""
        code = self.code(key)
        if not code or self.claims.seat_name(key) is None:
            return said
        return Say("{said} Your rejoin code: {code}.").format(said=said, code=code)

    def code(self, key: str) -> str:
        """The rejoin code of the friend at this terminal ('' for none)."""
        friend = self.terminals.friends.get(key)
        return "" if friend is None else friend.seat.code
