"""The console the flow talks to while it hosts a table: one KeyConsole at the host's terminal
and one at each friend's, each drawing every screen in its own language, colours and glyphs,
and the keys of each terminal kept to its own seat.

The seat contract (PRODUCT.md §9): a seat is a friend's when a friend logged in under its name
before the game began (or it was theirs in the saved game); every other human seat, and every
question of the lobby and of the computer players, is the host's. The terminal asked gets the
question and its keys; every other terminal reads what is happening and what it may do there.
Keys typed ahead at the terminal asked are kept; a key at any other terminal is refused there
with one line and dropped. The host's hot keys act before a friend's next key is read; a
friend's own hot keys (F9 their bell, D their language, F10 or Q to leave, asked first) act at
once. A posting is taken back with U by its player, at their own terminal, until the next turn
begins. A friend whose connection drops keeps the seat: the game waits for them at the same
question, and meanwhile the host's keys may answer it or hand the seat to the computer."""
import collections
import contextlib
import functools
import time
from collections.abc import Iterable, Iterator
from typing import Callable, Generic, Optional, TypeVar

from ..consoles.keymode import KeyConsole
from ..consoles.keyreader import KeyReader
from ..consoles.stops import InputClosed
from ..model.words import Say, Text
from ..present.keys import HOT_KEYS, Key, letter_as_key
from ..present.look import Asked, Frame, Look, Screenful
from .claims import SeatClaims
from .friendkeys import FriendKeys
from .hostpages import HOSTED_AWAY, Away, HostPages, PagesFor
from .lines import SeatLines
from .owners import new_code
from .seat import RemoteSeat
from .seating import Seating
from .serving import Serve
from .straykeys import StrayKeys
from .terminals import HOST, Terminals

HANDOVER_SECONDS = 0.001  # the game's thread stands aside while a friend's screen goes out


SeatingT = TypeVar("SeatingT", bound=Seating)


class TableConsole(Generic[SeatingT]):
    """The host's KeyConsole and one KeyConsole per friend, behind the one console the screens use."""

    reads_lines = False

    def __init__(self, host: KeyConsole, host_reader: KeyReader,
                 serve: Serve,
                 console_for: Callable[[RemoteSeat, KeyReader], KeyConsole], seating: SeatingT,
                 away: Away = HOSTED_AWAY, clock: Callable[[], float] = time.monotonic,
                 new_code: Callable[[], str] = new_code, lines: type[SeatLines] = SeatLines,
                 pages: PagesFor = HostPages) -> None:
        self.seating = seating  # what the game says of its seats
        self.terminals = Terminals(host, host_reader, console_for)
        self.friends = self.terminals.friends  # by folded login name, seated or watching
        # The server tells the host its lines, wakes the waits for keys when a friend comes or
        # goes, and reads the game's seats at the door.
        self.server = serve(self.message_from_thread, self._wake, lambda: seating.seats().snapshot())
        self.screen: Screenful = []
        self._host_hot: collections.deque[str] = collections.deque()  # the host's hot keys, for the next read
        self._host_asks: Optional[Text] = None  # a host's hot key made this question the host's, until this prompt
        self._replying: str = HOST  # the terminal whose key was answered last: reminders go there
        self._farewell_said = False
        self._stale = False  # screens shown while a friend's keys were typed ahead, not drawn yet
        self._typing = False  # the host types a line: a friend's key wakes the host's wait to be answered
        self._told_set_aside = False  # the friends waiting were told the saved game was set aside
        self.claims = SeatClaims(self.seating, new_code)
        self.lines = lines(self.seating, self.claims, self.terminals)
        self.own_keys = FriendKeys(self.terminals, self.lines, self.show_at)
        self.stray = StrayKeys(self.terminals, self.seating, self.claims, self.lines, self.own_keys)
        self.pages = pages(self, self.terminals, self.claims, self.seating, self.server, away, clock)

    # -- what the screens read of a console ------------------------------------------------
    @property
    def host(self) -> KeyConsole:
        """The host's console (at a server's table, whoever hosts it now)."""
        return self.terminals.host

    @property
    def look(self) -> Look:
        """How the terminal asked draws (its pages are counted in its look)."""
        return self.terminals.console(self._asker()).look

    def drawn(self, screen: Screenful) -> list[str]:
        """A screen's lines as the terminal asked draws them."""
        return self.terminals.console(self._asker()).drawn(screen)

    def speak(self, code: str) -> None:
        """The host's language preference changed: the host's terminal speaks it."""
        self.host.speak(code)

    @property
    def stop(self) -> Optional[int]:
        """A stop signal that came to the host."""
        return self.host.stop

    def request_stop(self, signum: int) -> None:
        """From a signal handler at the host: the read under way stops, at whichever terminal."""
        self.host.request_stop(signum)
        for friend in list(self.friends.values()):
            friend.console.request_stop(signum)

    @contextlib.contextmanager
    def running(self) -> Iterator["TableConsole"]:
        """The host's terminal raw for the whole game; the friends go when it ends."""
        with self.host.running():
            try:
                yield self
            finally:
                if not self._farewell_said:
                    self._say_goodbyes()
                for key in list(self.friends):
                    self.terminals.let_go(key)  # their last line ends before the server's thread stops sending
                self.server.close()

    # -- shown at every terminal -------------------------------------------------------
    def show(self, screen: Screenful, brief: Optional[Iterable[Text]] = None) -> None:
        """A whole screen at every terminal: the question at the one asked, each other
        terminal's own line in its place."""
        self.screen = screen
        if isinstance(screen, Asked) and screen.prompt == self._host_asks:
            self._host_asks = None  # the host's hot key is done with: the question is the seat's again
        asker = self.refresh()
        self._refuse_host_keys()
        if asker != HOST and self.terminals.console(asker).reader.has_press(0):
            self._stale = True  # a friend's keys typed ahead: drawn once they are all answered
            return
        self.draw_everywhere(asker)

    def draw_everywhere(self, asker: str) -> None:
        """The screen as it stands at every terminal, the one asked first (it waits for it)."""
        self._stale = False
        self.terminals.at(asker, functools.partial(self.show_at, asker))
        if asker != HOST:
            time.sleep(HANDOVER_SECONDS)  # the server's thread sends the friend's screen before the others are drawn
        self.terminals.everywhere(self.show_at, but=asker)

    def message(self, said: Text) -> None:
        """A message under the screen, at every terminal."""
        self.terminals.everywhere(lambda key, console: console.message(said))

    def farewell(self, said: Text) -> None:
        """The last words: the host's own; each friend told what happens next for them."""
        self.host.message(said)
        self._farewell_said = True
        self._say_goodbyes()

    def _say_goodbyes(self) -> None:
        """Each friend told what happens next for them."""
        self.terminals.everywhere(self.lines.say_goodbye, but_host=True)

    def remind(self, said: Text) -> None:
        """A message about the question asked, at the terminal whose key it answers."""
        self.terminals.at(self._replying, lambda console: console.remind(said))

    def forget_messages(self) -> None:
        """The screen's subject changed, at every terminal."""
        self.terminals.everywhere(lambda key, console: console.forget_messages())

    def status(self, said: Text) -> None:
        """A passing line, at every terminal."""
        self.terminals.everywhere(lambda key, console: console.status(said))

    def bell(self, count: int = 1) -> None:
        """The bell, at every terminal whose sound is on."""
        self.terminals.everywhere(lambda key, console: console.bell(count) if key == HOST
                                  or self.friends[key].seat.sound
                                  else None)

    def message_from_thread(self, said: Text) -> None:
        """A notice from work in the background (the server, the table builder), at every
        terminal, each in its own language."""
        self.host.message_from_thread(said)
        for friend in list(self.friends.values()):
            friend.console.message_from_thread(said)

    def typed_ahead(self) -> list[str]:
        """The host's keys typed while the game was busy (a computer's turn is the host's);
        the friends' are looked at for their own hot keys and refused."""
        self.stray.look(None, self._host_answers)
        return [*self._host_hot, *self.host.typed_ahead()]

    def animate(self, frames: Iterable[Frame], seconds_per_frame: float) -> bool:
        """Each frame at every terminal; False as soon as the terminal asked has a key."""
        asker = self._asker()
        answering = self.terminals.console(asker)
        for frame in frames:
            self.terminals.everywhere(functools.partial(show_frame, frame), but=asker)
            if not answering.animate([frame], seconds_per_frame):
                return False
        return True

    def pause(self, seconds: float) -> Optional[str]:
        """A moment to see a step; a key at the terminal asked cuts it short."""
        token = self.terminals.console(self._asker()).pause(seconds)
        self.stray.look(None, self._host_answers)
        return token

    # -- answered at one terminal ------------------------------------------------------
    def read_key(self, prompt: Text = "") -> str:
        """The next key of the terminal asked; the host's hot keys first; keys at any other
        terminal act on that terminal's own hot keys or are refused there."""
        if self._host_asks is not None and prompt == self._host_asks:
            self._host_asks = None  # the host's hot key is done with: the question is the seat's again
        while True:
            asker, seat = self.refresh(), self._seat_terminal()
            if seat != asker:
                answered = self.pages.wait_for(seat, prompt)
                if answered is not None:
                    self._replying = HOST
                    return answered
                continue
            token = self._next_token(asker, prompt)
            if token is not None:
                return token
            if self._stale:
                self.draw_everywhere(asker)
            self._wait()

    def read_text(self, prompt: Text, default: str = "", limit: Optional[int] = None,
                  unlimited: str = "") -> tuple[Optional[str], str]:
        """A line of text: always the host's (names are typed in the lobby)."""
        self.refresh()
        self._replying = HOST
        self._typing = True
        try:
            return self.host.read_text(prompt, default, limit, unlimited, idle=self.look_around)
        finally:
            self._typing = False

    def _typed_aside(self) -> None:
        """From the server's thread: a friend typed while another terminal was asked; a line the
        host types is woken to answer it (any other wait looks at the friends' keys itself)."""
        if self._typing:
            self.host.reader.wake()

    def _next_token(self, asker: str, prompt: Text) -> Optional[str]:
        """A key that answers `prompt`, if one is waiting: the host's hot keys come first,
        then U from the terminal whose posting it takes back, then the terminal asked; every
        other key is handled at its own terminal."""
        hot = self._host_hot_key(prompt, asker)
        if hot is not None:
            return hot
        self.terminals.console(asker).asking(self.lines.under(self.screen, asker, asker) or prompt)
        self.stray.look(asker, self._host_answers)
        undo = self.stray.take_undo()
        if undo is not None and self.seating.undo_owner() is not None:
            self._replying = undo
            return "u"
        while True:
            token = self.terminals.poll(asker)
            if token is None:
                return None
            if asker == HOST and token == Key.SEATS:
                self.pages.roster()
                continue
            refused = self.stray.refused_undo(token, asker, self._host_answers)
            if not refused and not (asker != HOST and self.own_keys.take(asker, token)):
                self._replying = asker
                return token

    def _host_hot_key(self, prompt: Text, asker: str) -> Optional[str]:
        """The host's next hot key, pressed while a friend's terminal was asked (the questions
        it raises are the host's until this prompt is asked again); the host's other keys
        meanwhile are refused."""
        self._refuse_host_keys()
        if not self._host_hot:
            return None
        if self._host_hot[0] == Key.SEATS:
            self._host_hot.popleft()
            self.pages.roster()
            return self._host_hot_key(prompt, asker)
        if asker != HOST:
            self._host_asks = prompt
        self._replying = HOST
        return self._host_hot.popleft()

    def _refuse_host_keys(self) -> None:
        """While a friend's terminal is asked, the host's keys: hot keys kept for the next
        read, any other refused with a line."""
        if self._asker() == HOST:
            return
        while True:
            token = self.host.poll_token()
            if token is None:
                return
            if letter_as_key(token) in (*HOT_KEYS, Key.SEATS):
                self._host_hot.append(token)
            else:
                self.stray.refuse(HOST, token, self._host_answers)

    # -- each terminal's view --------------------------------------------------------------
    def show_at(self, key: str, console: KeyConsole) -> None:
        """The screen as this terminal sees it; the reminders about its last line go with it."""
        line = self.lines.under(self.screen, key, self._asker())
        if line is None or not isinstance(self.screen, Asked):
            console.show(self.screen)
        else:
            console.show_asking(self.screen if line == self.screen.prompt else self.screen.view(line), line)

    # -- the seats -----------------------------------------------------------------------
    def _asker(self) -> str:
        """The terminal asked now: a friend's folded name, or HOST (also while the friend
        whose turn it is is away)."""
        seat = self._seat_terminal()
        return seat if seat in self.friends else HOST

    @property
    def _host_answers(self) -> bool:
        """A host's hot key made the question the host's, until its own prompt is asked again."""
        return self._host_asks is not None

    def _seat_terminal(self) -> str:
        """The terminal whose question it is: a friend's folded name (present or away), or HOST."""
        if self._host_asks is not None:
            return HOST
        player = self.seating.answering_player()
        return HOST if player is None else self.claims.terminal_of(player)

    def refresh(self) -> str:
        """Take in the friends who joined and let go of those who left; the terminal asked
        (each friend's keys are answers only while theirs is)."""
        self.terminals.let_go_of_the_gone(self.server.present())
        self._take_in_joined()
        self._tell_set_aside()
        self._settle_owners()
        asker = self._asker()
        for key, friend in self.friends.items():
            friend.seat.listening = key == asker and not friend.leaving
        return asker

    def _tell_set_aside(self) -> None:
        """The friends who waited while the host was asked to resume the saved game: told it was
        set aside (their names take seats in the new game as anyone's do)."""
        if self._told_set_aside or not self.seating.saved_game_set_aside():
            return
        self._told_set_aside = True
        said = Say("The host set the saved game aside: a new game begins.")
        self.terminals.everywhere(lambda key, console: console.message(said), but_host=True)

    def _wake(self) -> None:
        """From the server's thread: end every wait for a key, so a friend who came is taken in."""
        self.terminals.wake()

    def look_around(self) -> None:
        """While the host's terminal waits for a key: notices shown, friends who joined taken
        in, those who left let go, and their keys looked at."""
        self.host.show_arrived()
        self.terminals.let_go_of_the_gone(self.server.present())
        self._take_in_joined()
        self.stray.look(self._asker(), self._host_answers)

    def _take_in_joined(self) -> None:
        """Take in the friends who joined since the last look."""
        for seat in self.terminals.newcomers(self.server.present()):
            self._take_in(seat)

    def _take_in(self, seat: RemoteSeat) -> None:
        """A friend joined (or came back): before the game, the seat of their name is theirs
        while seats remain (until the host frees it); their console shows the screen as it stands."""
        friend = self.terminals.take_in(seat, self._typed_aside)
        if friend is None:
            return  # gone before the game looked: nothing of it to keep
        key, console = seat.name.casefold(), friend.console
        with contextlib.suppress(InputClosed):
            if not self.claims.stays(key, friend):
                self.terminals.let_go(key)
                return
            joined = Say("{name} joined the table over SSH from {address}.").format(name=seat.name,
                                                                                    address=seat.address)
            self.terminals.everywhere(lambda other, at: at.message(joined), but=key)
            self.show_at(key, console)
            if self.seating.game_under_way() and self.claims.seat_name(key) is None:
                console.message(Say("{name} is not a seat played here: you watch. F10 leaves.").format(
                    name=seat.name))

    def _settle_owners(self) -> None:
        """Every friend at the table checked against the seats' owners as the game has them now
        (a resumed game brings its own); once a game is under way, only its human seats are owned."""
        for key, friend in list(self.friends.items()):
            with contextlib.suppress(InputClosed):
                if not self.claims.stays(key, friend):
                    self.terminals.let_go(key)
        self.claims.settle(self.friends)

    def _wait(self) -> None:
        """Sleep until a key comes at any terminal (or a wake-up, or a held Esc is due)."""
        self.terminals.wait()
        if self.host.stop:
            self.host.poll_token()  # raises StopRequested
        self.look_around()
        self.terminals.redraw_if_resized()

def show_frame(frame: Frame, key: str, console: KeyConsole) -> None:
    """Draw a frame at a terminal."""
    console.show(frame)
