"""What only the host's terminal at a hosted table shows: the page of who is at the table (F7,
where a number removes someone), and the wait for a friend who is away at their turn (the
host's keys answer meanwhile; * or the countdown hands the seat, or at a server's table that
turn alone, to the computer)."""
import functools
import math
from dataclasses import dataclass
from typing import Callable, Optional, Protocol

from ..consoles.keymode import KeyConsole
from ..consoles.stops import SeatChanged
from ..model.words import Say, Text
from ..present.keys import Key, letter_as_key
from ..present.look import Asked
from .claims import SeatClaims
from .owners import removal_mark
from .roster import Present, roster_view
from .seating import Seating
from .serving import SeatServer
from .terminals import HOST, Terminals

PICK_A_NUMBER = Say("Press a number from the list, or Esc.")
AWAY_POLL_SECONDS = 0.25  # how often a wait for a friend who is away looks for their return


@dataclass(frozen=True)
class AwayWords:
    """How the wait for a friend away is said ({name}; {time} the time left)."""

    hint: Say  # to the host, as the wait begins
    stayed: Say  # the time is up
    starred: Say  # the host's * did not wait
    host_count: Say  # the time left, at the host's terminal
    count: Say  # the time left, at every other terminal


SEAT_GOES = AwayWords(Say("{name} is away. Meanwhile your keys answer; * hands the seat to the computer."),
                      Say("{name} stayed away: the computer plays the seat from now on."),
                      Say("{name}'s seat is played by the computer from now on."),
                      Say("{name} is away: the computer takes the seat in {time}, or now with *."),
                      Say("{name} is away: the computer takes the seat in {time}."))
TURN_COUNT = Say("{name} is away: the computer plays this turn for them in {time}.")
TURN_GOES = AwayWords(Say("{name} is away. Meanwhile your keys answer; * lets the computer play this turn."),
                      Say("{name} stayed away: the computer plays this turn for them."),
                      Say("The computer plays this turn for {name}."), TURN_COUNT, TURN_COUNT)


@dataclass(frozen=True)
class Away:
    """How long a friend away at their turn is waited for, and what the computer then plays:
    their seat from then on, or (`turn_only`) that turn alone, the seat staying theirs."""

    seconds: float
    turn_only: bool = False

    @property
    def words(self) -> AwayWords:
        """How the wait is said."""
        return TURN_GOES if self.turn_only else SEAT_GOES


HOSTED_AWAY = Away(300.0)  # --host: the host decides, and the seat goes to the computer
SERVED_AWAY = Away(120.0, turn_only=True)  # a server's table: nobody's keys wait for the friend


class Hosting(Protocol):
    """What the host's pages ask of the table's console."""

    def refresh(self) -> str:
        """Friends taken in and let go; the terminal asked."""

    def show_at(self, key: str, console: KeyConsole) -> None:
        """The screen as this terminal sees it."""

    def draw_everywhere(self, asker: str) -> None:
        """The screen as it stands at every terminal."""

    def look_around(self) -> None:
        """Notices shown, friends taken in and let go, their keys looked at."""

    def message(self, said: Text) -> None:
        """A message at every terminal."""


# The host's pages of a table: made for it, its terminals, claims, seating and server, the wait
# for a friend away, and the clock that wait counts with.
PagesFor = Callable[[Hosting, Terminals, SeatClaims, Seating, SeatServer, Away, Callable[[], float]], "HostPages"]


class HostPages:
    """The host's own pages, over the table's terminals and seats."""

    ROSTER_KEYS = Say("A number removes that one for the rest of the game; Esc returns.")

    def __init__(self, table: Hosting, terminals: Terminals, claims: SeatClaims, seating: Seating,
                 server: SeatServer, away: Away, clock: Callable[[], float]) -> None:
        self.table, self.terminals, self.claims, self.seating, self.server = table, terminals, claims, seating, server
        self.away, self.clock = away, clock

    @property
    def host(self) -> KeyConsole:
        """The host's console (at a server's table, whoever hosts it now)."""
        return self.terminals.host

    def wait_for(self, key: str, prompt: Text) -> Optional[str]:
        """A friend whose turn it is is away: wait for them, the time left shown at every
        terminal; a key of the host's answers instead (it comes back); when the time is up the
        computer plays the seat."""
        shown = self.seating.answering_player() or key
        self.table.show_at(HOST, self.host)  # the question itself, which the host may answer now
        self.host.asking(prompt)
        self.host.show_arrived()  # that they left, above what to do about it
        self.host.remind(self.away.words.hint.format(name=shown))
        self.host.remind(self.server.how_to_join())
        deadline, counted = self.clock() + self.away.seconds, None
        while key not in self.terminals.friends:
            left = math.ceil(deadline - self.clock())
            if left <= 0:
                self.computer_plays(shown, self.away.words.stayed)
            if left != counted:
                counted = left
                self.count_down(shown, f"{left // 60}:{left % 60:02d}")
            token = self.host.pause(AWAY_POLL_SECONDS)
            if token == Key.SEATS:
                self.roster()
                self.table.show_at(HOST, self.host)
                continue
            if token == "*":
                self.computer_plays(shown, self.away.words.starred)
            if token is not None:
                return token
            self.host.show_arrived()
            self.table.refresh()
        self.table.draw_everywhere(self.table.refresh())  # the seat changed hands: every terminal's line with it
        self.host.remind(Say("{name} is back: the seat's own keys answer again.").format(name=shown))
        return None

    def count_down(self, name: str, clock: str) -> None:
        """The time left for a friend away, at every terminal."""
        self.host.status(self.away.words.host_count.format(name=name, time=clock))
        told = self.away.words.count.format(name=name, time=clock)
        self.terminals.everywhere(functools.partial(status_line, told), but_host=True)

    def roster(self) -> None:
        """The host's page of who is at the table: a number removes that one for the rest of
        the game (a seat removed is the host's again). Back to the question after; the flow
        runs the moment again if a seat changed hands."""
        seats_before = self.seating.seats().owners()
        prompt = self.ROSTER_KEYS
        self.host.forget_messages()
        while True:
            self.table.refresh()
            people = self.claims.people(self.terminals.friends)
            self.host.show(Asked(roster_view([person for _, person in people], self.server.how_to_join()), prompt))
            token = self.host.read_key(prompt, idle=self.table.look_around)
            if token == "x" or letter_as_key(token) in (Key.ESCAPE, Key.SEATS, Key.QUIT, Key.ENTER):
                break
            if token.isdigit() and 1 <= int(token) <= len(people):
                self.remove(*people[int(token) - 1])
            elif token == "h":
                if self.hand_on(people):
                    return  # another hosts the table, told so and every terminal drawn anew
            else:
                self.host.remind(PICK_A_NUMBER)
        self.host.forget_messages()
        if self.seating.seats().owners() != seats_before and self.seating.game_under_way():
            raise SeatChanged()
        self.table.show_at(HOST, self.host)

    def hand_on(self, people: list[tuple[str, Present]]) -> bool:
        """H at the page of who is at the table: no key at a --host table (its host is its terminal)."""
        self.host.remind(PICK_A_NUMBER)
        return False

    def remove(self, key: str, person: Present) -> None:
        """Remove a friend for the rest of the game: their seat (if they had one) is the host's
        again, they are refused if they come back, and every terminal is told."""
        friend = self.terminals.friends.get(key)
        if friend is not None:
            friend.last_words(Say("The host removed you from the table."))
        self.seating.seats().remove(removal_mark(person.name, person.proof, person.address))
        self.server.remove(person.name, friend.seat if friend else None)
        if friend is not None:
            self.terminals.let_go(key)
        self.claims.free(key)
        self.table.message(Say("{name} was removed from the table for the rest of the game.").format(name=person.name))

    def computer_plays(self, name: str, why: Say) -> None:
        """The seat of `name` (or this turn of it) to the computer, said at every terminal; the
        flow runs the moment again."""
        if self.away.turn_only:
            self.seating.stand_in(name)
        else:
            self.seating.hand_to_computer(name)
        self.table.message(why.format(name=name))
        raise SeatChanged()


def status_line(said: Text, key: str, console: KeyConsole) -> None:
    """Show a passing line at a terminal."""
    console.status(said)
