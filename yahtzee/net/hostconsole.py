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
import math
import select
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Callable, Generic, Optional, TypeVar

from ..consoles.keymode import KeyConsole, PressReader, key_token
from ..consoles.keyreader import KeyReader
from ..consoles.stops import InputClosed, SeatChanged
from ..model.game import MAX_PLAYERS
from ..model.words import Later, Say, Text, YesNo
from ..present.keys import HOT_KEYS, Key, letter_as_key
from ..present.look import Asked, Frame, Look, Screenful
from ..present.render import on_off
from ..speech.locales import LANGUAGES
from .owners import code_proof, new_code, not_yours, removal_mark
from .questions import Seating
from .roster import Present, roster_view
from .seat import RemoteSeat
from .server import TableServer

AWAY_POLL_SECONDS = 0.25  # how often a wait for a friend who is away looks for their return
AWAY_SECONDS = 300.0  # how long a friend whose turn it is may be away before the computer plays the seat
HANDOVER_SECONDS = 0.001  # the game's thread stands aside while a friend's screen goes out
WAIT_SECONDS = 0.25  # the longest a wait for keys sleeps before it looks around (notices, joins)
LANGUAGE_KEY = "d"  # at a friend's terminal: the next language the game speaks
HOST = ""  # the host's terminal, among the friends' folded names


@dataclass
class Friend:
    """A friend's terminal: their seat's connection, the console drawing for it, and the reader
    of the keys they typed while another terminal was asked."""

    seat: RemoteSeat
    console: KeyConsole
    aside: KeyReader
    leaving: bool = False  # asked whether they leave the table


SeatingT = TypeVar("SeatingT", bound=Seating)


class TableConsole(Generic[SeatingT]):
    """The host's KeyConsole and one KeyConsole per friend, behind the one console the screens use."""

    plain = False
    reads_lines = False

    def __init__(self, host: KeyConsole, serve: Callable[[Callable[[], None]], TableServer],
                 console_for: Callable[[RemoteSeat], KeyConsole],
                 seating_at: "Callable[[TableConsole[SeatingT]], SeatingT]",
                 away_seconds: float = AWAY_SECONDS, clock: Callable[[], float] = time.monotonic,
                 new_code: Callable[[], str] = new_code) -> None:
        self.host = host
        self.new_code = new_code
        self.away_seconds, self.clock = away_seconds, clock
        self.server = serve(self._wake)  # the server wakes the waits for keys when a friend comes or goes
        self.console_for = console_for
        self.friends: dict[str, Friend] = {}  # by folded login name, seated or watching
        self.screen: Screenful = []
        self._host_hot: collections.deque[str] = collections.deque()  # the host's hot keys, for the next read
        self._host_asks: Optional[Text] = None  # a host's hot key made this question the host's, until this prompt
        self._replying: str = HOST  # the terminal whose key was answered last: reminders go there
        self._undo_from: Optional[str] = None  # a terminal not asked pressed U to take back its posting
        self._farewell_said = False
        self._stale = False  # screens shown while a friend's keys were typed ahead, not drawn yet
        self._typing = False  # the host types a line: a friend's key wakes the host's wait to be answered
        self._told_set_aside = False  # the friends waiting were told the saved game was set aside
        # What the game says of its seats: the game's context, made with this console (its strategy
        # engine shows its waits at every terminal) before any friend can come.
        self.seating = seating_at(self)
        self._publish_owners()

    # -- what the screens read of a console ------------------------------------------------
    @property
    def look(self) -> Look:
        """How the terminal asked draws (its pages are counted in its look)."""
        return self._console(self._asker()).look

    def drawn(self, screen: Screenful) -> list[str]:
        """A screen's lines as the terminal asked draws them."""
        return self._console(self._asker()).drawn(screen)

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
                    self._everywhere(lambda key, console: console.message(self._goodbye(key)), but_host=True)
                for key in list(self.friends):
                    self._let_go(key)  # their last line ends before the server's thread stops sending
                self.server.close()

    # -- shown at every terminal -------------------------------------------------------
    def show(self, screen: Screenful, brief: Optional[Iterable[Text]] = None) -> None:
        """A whole screen at every terminal: the question at the one asked, each other
        terminal's own line in its place."""
        self.screen = screen
        if isinstance(screen, Asked) and screen.prompt == self._host_asks:
            self._host_asks = None  # the host's hot key is done with: the question is the seat's again
        asker = self._refresh()
        self._refuse_host_keys()
        if asker != HOST and posix(self._console(asker).reader).has_press(0):
            self._stale = True  # a friend's keys typed ahead: drawn once they are all answered
            return
        self._draw_everywhere(asker)

    def _draw_everywhere(self, asker: str) -> None:
        """The screen as it stands at every terminal, the one asked first (it waits for it)."""
        self._stale = False
        self._at(asker, functools.partial(self._show_at, asker))
        if asker != HOST:
            time.sleep(HANDOVER_SECONDS)  # the server's thread sends the friend's screen before the others are drawn
        self._everywhere(self._show_at, but=asker)

    def message(self, said: Text) -> None:
        """A message under the screen, at every terminal."""
        self._everywhere(lambda key, console: console.message(said))

    def farewell(self, said: Text) -> None:
        """The last words: the host's own; each friend told what happens next for them."""
        self.host.message(said)
        self._farewell_said = True
        self._everywhere(lambda key, console: console.message(self._goodbye(key)), but_host=True)

    def _goodbye(self, key: str) -> Text:
        """What a friend reads as the table closes: whether the game can go on, and how."""
        if self.seating.game_under_way():
            return self._with_code(key, Say(
                "The host stopped the game; it is saved. When the host starts it again, join again with ssh."))
        return Say("The host closed the table. Goodbye.")

    def _with_code(self, key: str, said: Say) -> Text:
        """A line about coming back, with the friend's rejoin code where their seat needs one."""
        friend = self.friends.get(key)
        if friend is None or not friend.seat.code or self._seat_name(key) is None:
            return said
        return Say("{said} Your rejoin code: {code}.").format(said=said, code=friend.seat.code)

    def remind(self, said: Text) -> None:
        """A message about the question asked, at the terminal whose key it answers."""
        self._at(self._replying, lambda console: console.remind(said))

    def forget_messages(self) -> None:
        """The screen's subject changed, at every terminal."""
        self._everywhere(lambda key, console: console.forget_messages())

    def status(self, said: Text) -> None:
        """A passing line, at every terminal."""
        self._everywhere(lambda key, console: console.status(said))

    def bell(self, count: int = 1) -> None:
        """The bell, at every terminal whose sound is on."""
        self._everywhere(lambda key, console: console.bell(count) if key == HOST or self.friends[key].seat.sound
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
        self._look_at_friends()
        return [*self._host_hot, *self.host.typed_ahead()]

    def animate(self, frames: Iterable[Frame], seconds_per_frame: float) -> bool:
        """Each frame at every terminal; False as soon as the terminal asked has a key."""
        asker = self._asker()
        answering = self._console(asker)
        for frame in frames:
            self._everywhere(functools.partial(show_frame, frame), but=asker)
            if not answering.animate([frame], seconds_per_frame):
                return False
        return True

    def pause(self, seconds: float) -> Optional[str]:
        """A moment to see a step; a key at the terminal asked cuts it short."""
        token = self._console(self._asker()).pause(seconds)
        self._look_at_friends()
        return token

    # -- answered at one terminal ------------------------------------------------------
    def read_key(self, prompt: Text = "") -> str:
        """The next key of the terminal asked; the host's hot keys first; keys at any other
        terminal act on that terminal's own hot keys or are refused there."""
        if self._host_asks is not None and prompt == self._host_asks:
            self._host_asks = None  # the host's hot key is done with: the question is the seat's again
        while True:
            asker, seat = self._refresh(), self._seat_terminal()
            if seat != asker:
                answered = self._wait_for(seat, prompt)
                if answered is not None:
                    return answered
                continue
            token = self._next_token(asker, prompt)
            if token is not None:
                return token
            if self._stale:
                self._draw_everywhere(asker)
            self._wait()

    def read_text(self, prompt: Text, default: str = "", limit: Optional[int] = None,
                  unlimited: str = "") -> tuple[Optional[str], str]:
        """A line of text: always the host's (names are typed in the lobby)."""
        self._refresh()
        self._replying = HOST
        self._typing = True
        try:
            return self.host.read_text(prompt, default, limit, unlimited, idle=self._look_around)
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
        self._console(asker).asking(self._line_for(asker) or prompt)
        self._look_at_friends(asker)
        undo, self._undo_from = self._undo_from, None
        if undo is not None and self.seating.undo_owner() is not None:
            self._replying = undo
            return "u"
        while True:
            token = self._poll(asker)
            if token is None:
                return None
            if asker == HOST and token == Key.SEATS:
                self._roster()
                continue
            if not self._refused_undo(token, asker) and not (asker != HOST and self._own_key(asker, token)):
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
            self._roster()
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
                self._refuse(HOST, token)

    def _poll(self, key: str) -> Optional[str]:
        """A key waiting at this terminal (its answers), or None; a friend who left is let go."""
        try:
            return self._console(key).poll_token()
        except InputClosed:
            if key != HOST:
                self._let_go(key)
                return None
            raise

    def _refused_undo(self, token: str, key: str) -> bool:
        """U where it is not the undo owner's terminal is refused with a word."""
        owner = self.seating.undo_owner() if token == "u" else None
        if owner is None or self._terminal_of(owner) == key:
            return False
        self._refuse(key, token)
        return True

    def _own_key(self, key: str, token: str) -> bool:
        """A friend's own hot keys and their leave question, at any moment; whether it was one."""
        friend = self.friends.get(key)
        if friend is None:
            return True
        token = letter_as_key(token)
        if friend.leaving:
            self._leave_answer(key, friend, token)
        elif token == Key.SOUND:
            friend.seat.sound = not friend.seat.sound
            friend.console.own_sound = friend.seat.sound
            friend.console.remind(Say("Sound at your seat is now {state}.").format(
                state=Later(lambda: on_off(friend.seat.sound))))
        elif token == Key.VERIFY:
            friend.console.remind(Say("Verify is the host's to change."))
        elif token == Key.QUIT:
            friend.leaving = True
            self._show_at(key, friend.console)
        elif token == LANGUAGE_KEY:
            friend.console.speak(LANGUAGES[(LANGUAGES.index(friend.console.language) + 1) % len(LANGUAGES)])
            friend.console.remind(Say("This terminal speaks English now (D changes it)."))
        else:
            return False
        return True

    def _leave_answer(self, key: str, friend: Friend, token: str) -> None:
        """The friend's answer to whether they leave the table."""
        if token in ("y", Key.QUIT):
            said = (Say("You left the table.") if self._seat_name(key) is None else
                    self._with_code(key, Say("You left the table: join again with ssh to take your seat back.")))
            with contextlib.suppress(InputClosed):
                friend.console.message(said)
                friend.console.end_line()  # sent before their connection is closed
            friend.seat.disconnect()
            self._let_go(key)
            return
        if token in ("n", Key.ESCAPE):
            friend.leaving = False
            self._show_at(key, friend.console)
            return
        friend.console.remind(Say("Please answer Y or N."))

    def _look_at_friends(self, asker: Optional[str] = None) -> None:
        """Every friend's keys typed while another terminal was asked: their own hot keys
        act, U takes back their posting where they may, any other key is refused there."""
        for key, friend in list(self.friends.items()):
            friend.console.show_arrived()
            while key in self.friends:
                try:
                    press = friend.aside.poll()
                except InputClosed:
                    self._let_go(key)
                    break
                if press is None:
                    break
                token = key_token(press)
                if token is None or self._own_key(key, token):
                    continue
                if key != asker:
                    self._refuse(key, token)

    def _refuse(self, key: str, token: str) -> None:
        """A key at a terminal that is not asked: U where the posting is theirs answers the
        read under way; any other key is refused there with one line."""
        owner = self.seating.undo_owner() if token == "u" else None
        if owner is not None and self._terminal_of(owner) == key:
            self._undo_from = key
            return
        said = self._not_yours() if owner is None else Say("Only {name} may take back {name}'s posting.").format(
            name=owner)
        self._at(key, lambda console: console.remind(said))

    def _not_yours(self) -> Text:
        """What a terminal that is not asked is told when a key there answers nothing."""
        player = self.seating.answering_player()
        if player is None:
            return self.seating.happening()
        if self._host_asks is not None:
            return Say("The host answers a question first; then it is {name}'s turn again.").format(name=player)
        return Say("It is {name}'s turn.").format(name=player)

    # -- each terminal's view --------------------------------------------------------------
    def _show_at(self, key: str, console: KeyConsole) -> None:
        """The screen as this terminal sees it; the reminders about its last line go with it."""
        line = self._line_for(key)
        if line is None or not isinstance(self.screen, Asked):
            console.show(self.screen)
        else:
            console.show_asking(self.screen if line == self.screen.prompt else self.screen.view(line), line)

    def _line_for(self, key: str) -> Optional[Text]:
        """The line under the screen at this terminal: the question where it is asked (without
        the offer to take back a posting that is another's); elsewhere its own line (what is
        happening and what it may do there); None for a screen that asks nothing."""
        screen = self.screen
        if not isinstance(screen, Asked):
            return None
        friend = self.friends.get(key)
        if friend is not None and friend.leaving:
            return self._leave_question(key, friend)
        if key == self._asker():
            owner = self.seating.undo_owner()
            undo_here = screen.without_undo is None or owner is None or self._terminal_of(owner) == key
            return screen.prompt if undo_here else screen.without_undo or screen.prompt
        return self._waiting_line(key)

    def _leave_question(self, key: str, friend: Friend) -> YesNo:
        """Whether a friend leaves: a seat's player is told it waits for them (and its code)."""
        if self._seat_name(key) is None:
            return YesNo(Say("Stop watching and leave the table? (Y/N)"))
        if friend.seat.code:
            return YesNo(Say("Leave the table? Your seat waits for you (rejoin code {code}). (Y/N)").format(
                code=friend.seat.code))
        return YesNo(Say("Leave the table? Your seat waits for you. (Y/N)"))

    def _waiting_line(self, key: str) -> Text:
        """A terminal's own line while another is asked: what is happening, and its keys."""
        happening = self.seating.happening()
        owner = self.seating.undo_owner()
        if owner is not None and self._terminal_of(owner) == key:
            return Say("{happening} U takes back your posting.").format(happening=happening)
        if key == HOST:
            return Say("{happening} Here: F7 seats, F8 verify, F9 sound, F10 quit.").format(happening=happening)
        if self._seat_name(key) is None:
            return Say("{happening} You watch: F9 sound, D language, F10 leaves.").format(happening=happening)
        return Say("{happening} Here: F9 sound, D language, F10 leaves the table.").format(happening=happening)

    # -- the seats -----------------------------------------------------------------------
    def _asker(self) -> str:
        """The terminal asked now: a friend's folded name, or HOST (also while the friend
        whose turn it is is away)."""
        seat = self._seat_terminal()
        return seat if seat in self.friends else HOST

    def _seat_terminal(self) -> str:
        """The terminal whose question it is: a friend's folded name (present or away), or HOST."""
        if self._host_asks is not None:
            return HOST
        player = self.seating.answering_player()
        return HOST if player is None else self._terminal_of(player)

    def _terminal_of(self, player: str) -> str:
        """The terminal a player's keys come from: their own if the seat is a friend's, else the host's."""
        key = player.casefold()
        return key if key in self.seating.seat_owners() else HOST

    def _seat_name(self, key: str) -> Optional[str]:
        """The seat a friend's terminal plays, or None for a watcher (before the game, a
        friend's name is a seat to come)."""
        under_way = self.seating.game_under_way()
        seated = key in self.seating.seat_owners() and (key in self.seating.human_seats() or not under_way)
        return key if seated else None

    def _refresh(self) -> str:
        """Take in the friends who joined and let go of those who left; the terminal asked
        (each friend's keys are answers only while theirs is)."""
        self._let_go_of_the_gone()
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
        self._everywhere(lambda key, console: console.message(said), but_host=True)

    def _wake(self) -> None:
        """From the server's thread: end every wait for a key, so a friend who came is taken in."""
        for friend in list(self.friends.values()):
            friend.console.reader.wake()
        self.host.reader.wake()

    def _look_around(self) -> None:
        """While the host's terminal waits for a key: notices shown, friends who joined taken
        in, those who left let go, and their keys looked at."""
        self.host.show_arrived()
        self._let_go_of_the_gone()
        self._take_in_joined()
        self._look_at_friends(self._asker())

    def _let_go_of_the_gone(self) -> None:
        """Let go of the consoles of friends who left (or joined again on a new connection)."""
        live = {seat.name.casefold(): seat for seat in self.server.present()}
        for key, friend in list(self.friends.items()):
            if live.get(key) is not friend.seat:
                self._let_go(key)

    def _take_in_joined(self) -> None:
        """Take in the friends who joined since the last look."""
        for seat in self.server.present():
            key = seat.name.casefold()
            if key not in self.friends:
                self._take_in(key, seat)

    def _take_in(self, key: str, seat: RemoteSeat) -> None:
        """A friend joined (or came back): before the game, the seat of their name is theirs
        while seats remain (until the host frees it); their console shows the screen as it stands."""
        if not seat.take():
            return  # gone before the game looked: nothing of it to keep
        console = self.console_for(seat)
        seat.woken, seat.typed_aside = console.reader.wake, self._typed_aside
        self.friends[key] = Friend(seat, console, KeyReader(seat.aside_fileno()))
        with contextlib.suppress(InputClosed):
            if not self._owns_or_claims(key):
                return
            joined = Say("{name} joined the table over SSH from {address}.").format(name=seat.name,
                                                                                    address=seat.address)
            self._everywhere(lambda other, at: at.message(joined), but=key)
            self._show_at(key, console)
            if self.seating.game_under_way() and self._seat_name(key) is None:
                console.message(Say("{name} is not a seat played here: you watch. F10 leaves.").format(
                    name=seat.name))

    def _settle_owners(self) -> None:
        """Every friend at the table checked against the seats' owners as the game has them now
        (a resumed game brings its own); once a game is under way, only its human seats are owned."""
        for key in list(self.friends):
            with contextlib.suppress(InputClosed):
                self._owns_or_claims(key)
        owners = self.seating.seat_owners()
        if self.seating.game_under_way():
            for key in set(owners) - self.seating.human_seats():
                del owners[key]
        self._publish_owners()

    def _owns_or_claims(self, key: str) -> bool:
        """Whether the friend at this terminal stays: a seat's friend only with what proves it
        theirs; a seat not yet proved, or before the game a name while seats remain, is claimed
        for them (by their key, or by a new rejoin code shown only at their terminal)."""
        friend = self.friends[key]
        seat, owners = friend.seat, self.seating.seat_owners()
        owner = owners.get(key)
        if owner and owner != seat.proof:
            friend.console.message(not_yours(seat.name, owner))
            friend.console.end_line()
            seat.disconnect()
            self._let_go(key)
            return False
        if owner == "" or (owner is None and not self.seating.game_under_way() and len(owners) < MAX_PLAYERS):
            if not seat.proof:
                seat.code = self.new_code()
                seat.proof = code_proof(seat.code)
                friend.console.message(Say("Your rejoin code is {code}: with it you take {name}'s seat back if you "
                                           "leave (shown only here).").format(code=seat.code, name=seat.name))
            owners[key] = seat.proof
            self._publish_owners()
        return True

    def _publish_owners(self) -> None:
        """Tell the SSH server whose the seats are now (it asks for a seat's proof at the door)."""
        owners = self.seating.seat_owners()
        if self.server.owners != owners:
            self.server.owners = dict(owners)

    def _let_go(self, key: str) -> None:
        """A friend's console goes (their connection went, or the game ended)."""
        friend = self.friends.pop(key)
        friend.console.end_line()
        friend.console.reader.close()
        friend.aside.close()
        friend.seat.close()

    def _console(self, key: str) -> KeyConsole:
        """The console of a terminal (the host's for one that is gone)."""
        friend = self.friends.get(key)
        return self.host if friend is None else friend.console

    def _at(self, key: str, action: Callable[[KeyConsole], object]) -> None:
        """Do `action` at one terminal; a friend who is gone is let go."""
        try:
            action(self._console(key))
        except InputClosed:
            if key == HOST:
                raise
            self._let_go(key)

    def _everywhere(self, action: Callable[[str, KeyConsole], object], but: Optional[str] = None,
                    but_host: bool = False) -> None:
        """Do `action` at the host's terminal and every friend's; a friend who is gone is let go."""
        if but != HOST and not but_host:
            action(HOST, self.host)
        for key, friend in list(self.friends.items()):
            if key == but:
                continue
            try:
                action(key, friend.console)
            except InputClosed:
                self._let_go(key)

    def _wait(self) -> None:
        """Sleep until a key comes at any terminal (or a wake-up, or a held Esc is due)."""
        readers = [posix(self.host.reader), *(posix(f.console.reader) for f in self.friends.values()),
                   *(f.aside for f in self.friends.values())]
        for reader in readers:  # a terminal not asked now is not read: its time would be due at once ever after
            reader.flush_if_due()
        due = [d for d in (reader.flush_due() for reader in readers) if d is not None]
        timeout = min([WAIT_SECONDS, *due])
        select.select([fd for reader in readers for fd in reader.waits_on], [], [], timeout)
        for reader in readers:  # a wake-up left in a reader not read now would end every wait at once
            reader.forget_wakes()
        if self.host.stop:
            self.host.poll_token()  # raises StopRequested
        self._look_around()
        self.host.redraw_if_resized()
        for friend in list(self.friends.values()):
            with contextlib.suppress(InputClosed):
                friend.console.redraw_if_resized()

    def _wait_for(self, key: str, prompt: Text) -> Optional[str]:
        """A friend whose turn it is is away: wait for them, the time left shown at every
        terminal; a key of the host's answers instead; when the time is up the computer plays
        the seat."""
        shown = self.seating.answering_player() or key
        self._show_at(HOST, self.host)  # the question itself, which the host may answer now
        self.host.asking(prompt)
        self.host.show_arrived()  # that they left, above what to do about it
        self.host.remind(Say("{name} is away. Meanwhile your keys answer; * hands the seat to the computer.")
                         .format(name=shown))
        self.host.remind(self.server.how_to_join())
        deadline, counted = self.clock() + self.away_seconds, None
        while key not in self.friends:
            left = math.ceil(deadline - self.clock())
            if left <= 0:
                self._computer_plays(shown, Say("{name} stayed away: the computer plays the seat from now on."))
            if left != counted:
                counted = left
                clock = f"{left // 60}:{left % 60:02d}"
                self.host.status(Say("{name} is away: the computer takes the seat in {time}, or now with *.").format(
                    name=shown, time=clock))
                told = Say("{name} is away: the computer takes the seat in {time}.").format(name=shown, time=clock)
                self._everywhere(functools.partial(status_line, told), but_host=True)
            token = self.host.pause(AWAY_POLL_SECONDS)
            if token == Key.SEATS:
                self._roster()
                self._show_at(HOST, self.host)
                continue
            if token == "*":
                self._computer_plays(shown, Say("{name}'s seat is played by the computer from now on."))
            if token is not None:
                self._replying = HOST
                return token
            self.host.show_arrived()
            self._refresh()
        self._draw_everywhere(self._refresh())  # the seat changed hands: every terminal's line with it
        self.host.remind(Say("{name} is back: the seat's own keys answer again.").format(name=shown))
        return None

    # -- the host's page of who is at the table ---------------------------------------------
    def _roster(self) -> None:
        """The host's page of who is at the table: a number removes that one for the rest of
        the game (a seat removed is the host's again). Back to the question after; the flow
        runs the moment again if a seat changed hands."""
        seats_before = dict(self.seating.seat_owners())
        prompt = Say("A number removes that one for the rest of the game; Esc returns.")
        self.host.forget_messages()
        while True:
            self._refresh()
            people = self._people()
            self.host.show(Asked(roster_view([person for _, person in people], self.server.how_to_join()), prompt))
            token = self.host.read_key(prompt, idle=self._look_around)
            if token == "x" or letter_as_key(token) in (Key.ESCAPE, Key.SEATS, Key.QUIT, Key.ENTER):
                break
            if token.isdigit() and 1 <= int(token) <= len(people):
                self._remove(*people[int(token) - 1])
            else:
                self.host.remind(Say("Press a number from the list, or Esc."))
        self.host.forget_messages()
        if self.seating.seat_owners() != seats_before and self.seating.game_under_way():
            raise SeatChanged()
        self._show_at(HOST, self.host)

    def _people(self) -> list[tuple[str, Present]]:
        """Who is at the table, by folded name: the friends at their terminals, then the seats
        whose friends are away."""
        here = [(key, Present(friend.seat.name, self._seat_name(key) is not None, True, friend.seat.proof,
                              friend.seat.address)) for key, friend in self.friends.items()]
        away = [(key, Present(key, True, False, proof))
                for key, proof in self.seating.seat_owners().items()
                if key not in self.friends and (key in self.seating.human_seats() or not self.seating.game_under_way())]
        return here + away

    def _remove(self, key: str, person: Present) -> None:
        """Remove a friend for the rest of the game: their seat (if they had one) is the host's
        again, they are refused if they come back, and every terminal is told."""
        friend = self.friends.get(key)
        if friend is not None:
            with contextlib.suppress(InputClosed):
                friend.console.message(Say("The host removed you from the table."))
                friend.console.end_line()  # sent before their connection is closed
        self.server.remove(removal_mark(person.name, person.proof, person.address), friend.seat if friend else None)
        if friend is not None:
            self._let_go(key)
        self.seating.seat_owners().pop(key, None)
        self._publish_owners()
        self.message(Say("{name} was removed from the table for the rest of the game.").format(name=person.name))

    def _computer_plays(self, name: str, why: Say) -> None:
        """The seat of `name` to the computer, said at every terminal; the flow runs the moment again."""
        self.seating.hand_to_computer(name)
        self.message(why.format(name=name))
        raise SeatChanged()


def posix(reader: PressReader) -> KeyReader:
    """A terminal's key reader, as a table reads it: a descriptor to wait on (tables are POSIX's)."""
    assert isinstance(reader, KeyReader)
    return reader


def show_frame(frame: Frame, key: str, console: KeyConsole) -> None:
    """Draw a frame at a terminal."""
    console.show(frame)


def status_line(said: Text, key: str, console: KeyConsole) -> None:
    """Show a passing line at a terminal."""
    console.status(said)

