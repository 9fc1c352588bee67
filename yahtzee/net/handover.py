"""A server's table whose host may leave while others play at it (hall.py): the next human by
seat who is at the table hosts it from their own terminal and the game goes on, whether the
host left with F10 (asked first) or their connection dropped. The host who left is back at the
page; their seat waits for them as any friend's, taken back by joining the table again."""
import contextlib
import dataclasses
import functools
from collections.abc import Iterable
from typing import Callable, Optional, TypeVar

from ..consoles.keymode import KeyConsole
from ..consoles.keyreader import KeyReader
from ..consoles.stops import InputClosed
from ..model.words import Say, Text, YesNo
from ..present.keys import Key
from ..present.look import Asked, Frame, Screenful
from ..screens.prompts import QUIT_GAME
from .claims import SeatClaims
from .hostconsole import SeatingT, TableConsole
from .hostpages import SERVED_AWAY, Away, Hosting, HostPages
from .lines import SeatLines
from .owners import by_code
from .roster import Present, roster_view
from .seat import RemoteSeat
from .seating import Seating
from .serving import SeatServer, Serve
from .terminals import Friend, Terminals

T = TypeVar("T")
# The hall hears who hosts the table now (their connection and their console) and who hosted it
# before, if they stay at the table.
Handed = Callable[[RemoteSeat, KeyConsole, Optional[RemoteSeat]], None]


class ServedTableConsole(TableConsole[SeatingT]):
    """A TableConsole at a server's table: its host's connection, and the hand-over when it goes."""

    def __init__(self, host: KeyConsole, host_reader: KeyReader, serve: Serve,
                 console_for: Callable[[RemoteSeat, KeyReader], KeyConsole], seating: SeatingT, *,
                 host_seat: RemoteSeat, handed: Handed, relist: Callable[[], None], away: Away = SERVED_AWAY) -> None:
        super().__init__(host, host_reader, serve, console_for, seating, away=away, lines=ServedLines,
                         pages=functools.partial(ServedPages, self.hand_table))
        self.host_seat = host_seat  # the host's connection: when it drops, the table is handed over
        self.handed = handed
        self.relist = relist  # the server's page lists the table anew (who watches it changed)

    # -- the calls that read the host's keys, and so learn first that the host is gone ------
    def show(self, screen: Screenful, brief: Optional[Iterable[Text]] = None) -> None:
        """The screen everywhere; F10's question, where another may host, asks whether the host leaves."""
        self._surviving(lambda: super(ServedTableConsole, self).show(self._leave_asked(screen), brief))

    def read_key(self, prompt: Text = "") -> str:
        """The next key of the terminal asked; Y to leave the table hands it over (the flow plays on)."""
        token = self._surviving(lambda: super(ServedTableConsole, self).read_key(prompt))
        successor = self.successor() if prompt == QUIT_GAME and token in ("y", Key.QUIT) else None
        if successor is None:
            return token
        self.hand_over(successor)
        return "n"

    def read_text(self, prompt: Text, default: str = "", limit: Optional[int] = None,
                  unlimited: str = "") -> tuple[Optional[str], str]:
        """A line of the host's."""
        return self._surviving(lambda: super(ServedTableConsole, self).read_text(prompt, default, limit, unlimited))

    def typed_ahead(self) -> list[str]:
        """The host's keys typed while the game was busy."""
        return self._surviving(super().typed_ahead)

    def animate(self, frames: Iterable[Frame], seconds_per_frame: float) -> bool:
        """Each frame everywhere; False as soon as the terminal asked has a key."""
        frames = list(frames)
        return self._surviving(lambda: super(ServedTableConsole, self).animate(frames, seconds_per_frame))

    def pause(self, seconds: float) -> Optional[str]:
        """A moment to see a step; a key at the terminal asked cuts it short."""
        return self._surviving(lambda: super(ServedTableConsole, self).pause(seconds))

    def farewell(self, said: Text) -> None:
        """The last words, each terminal's kept for the page it goes back to: the host's say where
        the saved game is (the flow's `said` is a terminal game's: start it again)."""
        if self.seating.game_under_way():
            self.host_seat.note = Say("The game is saved: the page lists it, for you or another of its players "
                                      "to take up.")
        self._farewell_said = True
        self._say_goodbyes()

    def refresh(self) -> str:
        """Friends taken in and let go, as at any table; the server's page told when who watches changed."""
        watchers = self.seating.seats().watchers()
        asker = super().refresh()
        if self.seating.seats().watchers() != watchers:
            self.relist()
        return asker

    # -- the hand-over ---------------------------------------------------------------------
    def successor(self) -> Optional[str]:
        """The terminal (folded name) of the next human by seat after the host's who is at the
        table now; before the game, of the first friend who took a seat; None for nobody."""
        host = self.host_seat.name.casefold()
        order = self.seating.human_seats() if self.seating.game_under_way() else list(self.seating.seats().owners())
        if host in order:
            order = order[order.index(host) + 1:] + order[:order.index(host)]
        return next((key for key in order if key in self.friends and not self.friends[key].leaving
                     and self.claims.seat_name(key) is not None), None)

    def hand_over(self, key: str) -> None:
        """The friend at `key` hosts the table from now on; the host who left goes back to the
        page, their seat waiting for them; every terminal is told, and drawn anew."""
        left, console, reader = self.host_seat, self.host, self.terminals.host_reader
        friend = self._promote(key, None)
        left.note = Say("You left the table: {name} hosts it now. Join it again from the page to take your seat "
                        "back.").format(name=friend.seat.name)  # shown at the page
        with contextlib.suppress(InputClosed):
            console.end_line()  # the table's last line sent before the connection goes back to the page
        reader.close()
        left.disconnect()
        left.close()
        self.host.message(Say("{name} left: you host the table now (F7 shows who is at it).").format(name=left.name))
        self._tell_others(Say("{name} left: {host} hosts the table now.").format(name=left.name,
                                                                              host=friend.seat.name))

    def hand_table(self, key: str) -> None:
        """The host hands the table to the friend at `key` and stays at it, at their own seat
        (a friend's now, proved as any friend's); every terminal is told, and drawn anew."""
        stays, console, reader = self.host_seat, self.host, self.terminals.host_reader
        friend = self._promote(key, stays)
        name = stays.name.casefold()
        self.terminals.demote(stays, console, reader, self._typed_aside)
        with contextlib.suppress(InputClosed):
            self.claims.stays(name, self.friends[name])  # a seat proved by their key, or a rejoin code shown them
        self.host.message(Say("{name} handed you the table: you host it now (F7 shows who is at it).").format(
            name=stays.name))
        self._tell_others(Say("{name} handed the table to {host}.").format(name=stays.name, host=friend.seat.name))

    def _promote(self, key: str, stays: Optional[RemoteSeat]) -> Friend:
        """The friend at `key` is the host now, listed so (with the host before them as one of the
        table's logins if they `stay`), and the seats are owned as a new host's table's are."""
        left = self.host_seat
        friend = self.terminals.promote(key)
        self.host_seat = friend.seat
        self.handed(friend.seat, friend.console, stays)  # listed as the host before the one who left sees the page
        self._seat_who_left(left, key)
        return friend

    def _tell_others(self, said: Text) -> None:
        """Every terminal but the new host's told what changed, and every one drawn anew."""
        self.terminals.everywhere(lambda other, at: at.message(said), but_host=True)
        self.draw_everywhere(self.refresh())

    def _seat_who_left(self, left: RemoteSeat, key: str) -> None:
        """The new host's seat is played at their terminal; in a game under way every other
        human seat nobody proved is its name's to take back (the one who left: with their key,
        where they came with one)."""
        seats = self.seating.seats()
        if not self.seating.game_under_way():
            seats.free(key)
            return
        seats.seat_host(key, self.seating.human_seats())
        name = left.name.casefold()
        if name in seats and left.proof and not by_code(left.proof):
            seats.take(name, left.proof)

    def _leave_asked(self, screen: Screenful) -> Screenful:
        """F10's question while a game plays, where another would host: whether the host leaves."""
        if not isinstance(screen, Asked) or screen.prompt != QUIT_GAME:
            return screen
        successor = self.successor()
        if successor is None:
            return screen
        question = Say("Leave the table? {name} hosts it from now on, and your seat waits for you. (Y/N)")
        return dataclasses.replace(screen, prompt=YesNo(question.format(name=self.friends[successor].seat.name)))

    def _surviving(self, call: Callable[[], T]) -> T:
        """`call`, done again at the next host's terminal where the host's connection dropped
        and another human is at the table to host it."""
        while True:
            try:
                return call()
            except InputClosed:
                successor = self.successor() if self.host_seat.gone else None
                if successor is None:
                    raise
                self.hand_over(successor)


class ServedLines(SeatLines):
    """Each terminal's own words at a server's table: whoever leaves it goes back to the page."""

    def left(self, key: str) -> Text:
        """What a friend who leaves reads (at the page): how to take their seat back, if they have one."""
        if self.claims.seat_name(key) is None:
            return Say("You left the table.")
        return self.with_code(key, Say("You left the table: join it again from the page to take your seat back."))

    def goodbye(self, key: str) -> Text:
        """What a friend reads (at the page) as the table closes: where its saved game is."""
        if self.seating.game_under_way():
            return Say("The host stopped the game; it is saved: the page lists it, for any of its players to take up.")
        return Say("The host closed the table.")


class ServedPages(HostPages):
    """The host's pages at a server's table: on the page of who is at it, H hands the table on."""

    ROSTER_KEYS = Say("A number removes that one for the game; H hands the table on; Esc returns.")

    def __init__(self, hand_table: Callable[[str], None], table: Hosting, terminals: Terminals, claims: SeatClaims,
                 seating: Seating, server: SeatServer, away: Away, clock: Callable[[], float]) -> None:
        super().__init__(table, terminals, claims, seating, server, away, clock)
        self.hand_table = hand_table  # the table's: the friend at this terminal hosts it, the host stays

    def hand_on(self, people: list[tuple[str, Present]]) -> bool:
        """H: the player whose number follows hosts the table from now on, the host staying at
        their own seat; False for Esc, or (said why) for someone who does not play here now."""
        prompt = Say("Who hosts the table from now on? A player's number; Esc returns.")
        self.host.show(Asked(roster_view([person for _, person in people], self.server.how_to_join()), prompt))
        token = self.host.read_key(prompt, idle=self.table.look_around)
        picked = people[int(token) - 1] if token.isdigit() and 1 <= int(token) <= len(people) else None
        if picked is None or not (picked[1].seated and picked[1].here):
            if picked is not None:
                self.host.remind(Say("{name} does not play at the table now: only a player here may host it.").format(
                    name=picked[1].name))
            return False
        self.hand_table(picked[0])
        return True
