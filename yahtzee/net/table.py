"""The console the flow talks to while it hosts a table: every screen at the host's terminal and
at every friend's, the keys of the seat whose turn it is.

A seat is played from a friend's terminal once a friend has logged in under its name; until
then it is played at the host's keyboard, as in hot-seat play. The lobby's questions and the
computer players' turns are the host's. A friend whose connection drops keeps the seat: the
game waits for them at the same question, and meanwhile the host's keys may answer it (F10
saves the game for later)."""
import contextlib
import functools
import math
import time
from collections.abc import Iterable, Iterator
from typing import Callable, Optional, Protocol

from ..console import KeyConsole
from ..language import _
from ..palette import Paint
from ..render import on_off
from ..screens.prompts import ALIASES
from ..stops import InputClosed, SeatChanged
from .seat import RemoteSeat
from .server import TableServer

AWAY_POLL_SECONDS = 0.25  # how often a wait for a friend who is away looks for their return
AWAY_SECONDS = 300.0  # how long a friend whose turn it is may be away before the computer plays the seat


class Seating(Protocol):
    """What the table asks the game about its seats (the flow's Context answers)."""

    def answering_player(self) -> Optional[str]:
        """The human seat whose turn it is, or None: the host's question."""

    def undo_owner(self) -> Optional[str]:
        """The player whose posting U would take back now, if one may be."""

    def hand_to_computer(self, name: str) -> None:
        """The seat of `name` is played by a computer player from now on."""


class Unseated:
    """The seating before the game's context exists: every question is the host's."""

    def answering_player(self) -> Optional[str]:
        """Nobody's turn yet."""
        return None

    def undo_owner(self) -> Optional[str]:
        """No posting to take back."""
        return None

    def hand_to_computer(self, name: str) -> None:
        """No seat to hand over."""


class AnswerMoved(Exception):
    """A friend took the seat whose question the host's keyboard was answering: the question
    is asked again at the friend's terminal."""


class TableConsole:
    """The host's KeyConsole and one KeyConsole per friend, behind the one console the screens use."""

    plain = False
    reads_lines = False

    def __init__(self, host: KeyConsole, server: TableServer, console_for: Callable[[RemoteSeat], KeyConsole],
                 away_seconds: float = AWAY_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        self.host = host
        self.away_seconds, self.clock = away_seconds, clock
        self.server = server
        self.seating: Seating = Unseated()  # the game's context, once there is one
        self.console_for = console_for
        self.remote: dict[str, tuple[RemoteSeat, KeyConsole]] = {}  # by folded name
        self.remote_names: set[str] = set()  # seats a friend has played from: theirs from then on
        self.screen: tuple[list[str], Optional[list[str]]] = ([], None)
        self._host_answers = False  # the host's keys answer a question that a friend's seat may take over
        # A friend who joins while a seat waits for a key is shown the screen at once.
        server.changed = self._wake
        host.idle = self._look_around

    # -- what the screens read of a console ------------------------------------------------
    @property
    def flashes(self) -> bool:
        """A Yahtzee blinks (as the host's terminal does)."""
        return self.host.flashes

    @property
    def unicode(self) -> bool:
        """The dice are drawn with box-drawing characters."""
        return self.host.unicode

    @property
    def paint(self) -> Paint:
        """The host's colours."""
        return self.host.paint

    @property
    def stop(self) -> Optional[int]:
        """A stop signal that came to the host."""
        return self.host.stop

    def request_stop(self, signum: int) -> None:
        """From a signal handler at the host: the read under way stops, at whichever seat."""
        self.host.request_stop(signum)
        for _seat, console in list(self.remote.values()):
            console.request_stop(signum)

    @contextlib.contextmanager
    def running(self) -> Iterator["TableConsole"]:
        """The host's terminal raw for the whole game; the friends go when it ends."""
        with self.host.running():
            try:
                yield self
            finally:
                self.server.close()
                for key in list(self.remote):
                    self._let_go(key)

    # -- shown at every seat -------------------------------------------------------------
    def show(self, lines: Iterable[str], brief: Optional[Iterable[str]] = None) -> None:
        """A whole screen, at every seat."""
        self.screen = (list(lines), None if brief is None else list(brief))
        self._everywhere(lambda console: console.show(*self.screen))

    def message(self, text: str) -> None:
        """A message under the screen, at every seat."""
        self._everywhere(lambda console: console.message(text))

    def remind(self, text: str) -> None:
        """A message about the question asked, at every seat."""
        self._everywhere(lambda console: console.remind(text))

    def forget_messages(self) -> None:
        """The screen's subject changed, at every seat."""
        self._everywhere(lambda console: console.forget_messages())

    def status(self, text: str) -> None:
        """A passing line, at every seat."""
        self._everywhere(lambda console: console.status(text))

    def bell(self, count: int = 1) -> None:
        """The bell, at every seat whose sound is on."""
        muted = [console for seat, console in self.remote.values() if not seat.sound]
        self._everywhere(lambda console: None if console in muted else console.bell(count))

    def message_from_thread(self, text: str) -> None:
        """A message from work in the background, for the host."""
        self.host.message_from_thread(text)

    def typed_ahead(self) -> list[str]:
        """The host's keys typed while the game was busy (a computer's turn is the host's);
        a friend's answer nothing and are dropped."""
        self._everywhere(KeyConsole.typed_ahead, but=self.host)
        return self.host.typed_ahead()

    def animate(self, frames: Iterable[Iterable[str]], seconds_per_frame: float) -> bool:
        """Each frame at every seat; False as soon as the answering seat presses a key."""
        answering = self._answering()
        for frame in frames:
            shown = list(frame)
            self._everywhere(functools.partial(KeyConsole.show, lines=shown), but=answering)
            if not answering.animate([shown], seconds_per_frame):
                return False
        return True

    def pause(self, seconds: float) -> Optional[str]:
        """A moment to see a step; a key at the answering seat cuts it short."""
        return self._answering().pause(seconds)

    # -- answered at one seat ------------------------------------------------------------
    def read_key(self, prompt: str = "") -> str:
        """The next key of the seat whose turn it is (the host's for the lobby's questions)."""
        while True:
            name = self._refresh()
            if name is None:
                try:
                    token = self._host_key(prompt)
                except AnswerMoved:
                    continue
                if not self._refused_undo(token, self.host, None):
                    return token
                continue
            entry = self.remote.get(name)
            if entry is None:
                answered = self._wait_for(name, prompt)
                if answered is not None:
                    return answered
                continue
            seat, console = entry
            try:
                token = console.read_key(prompt)
            except InputClosed:
                self._let_go(name)
                continue
            if not (self._own_hot_key(seat, console, token) or self._refused_undo(token, console, name)):
                return token

    def _host_key(self, prompt: str) -> str:
        """The host's key for the question; a friend who joins to play the seat that answers
        it ends the wait (AnswerMoved), or their keys would be refused as out of turn."""
        self._host_answers = True
        try:
            return self.host.read_key(prompt)
        finally:
            self._host_answers = False

    def read_text(self, prompt: str, default: str = "", limit: Optional[int] = None,
                  unlimited: str = "") -> tuple[Optional[str], str]:
        """A line of text: always the host's (names are typed in the lobby)."""
        self._refresh()
        return self.host.read_text(prompt, default, limit, unlimited)

    def _refused_undo(self, token: str, console: KeyConsole, seat: Optional[str]) -> bool:
        """U at a terminal that did not make the posting it would take back is refused with a
        word (`seat`: the friend's folded name, None for the host's keyboard)."""
        owner = self.seating.undo_owner() if token == "u" else None
        if owner is None:
            return False
        ours = owner.casefold() == seat if seat is not None else owner.casefold() not in self.remote_names
        if not ours:
            console.remind(_("Only {name} may take back {name}'s posting.").format(name=owner))
        return not ours

    def _own_hot_key(self, seat: RemoteSeat, console: KeyConsole, token: str) -> bool:
        """A friend's hot keys are their seat's own: F9 their sound, F10 leaves the table (the
        game goes on), F8 is the host's; whether the token was one."""
        token = ALIASES.get(token, token)
        if token == "F9":
            seat.sound = not seat.sound
            console.remind(_("Sound at your seat is now {state}.").format(state=on_off(seat.sound)))
        elif token == "F8":
            console.remind(_("Verify is the host's to change."))
        elif token == "F10":
            with contextlib.suppress(InputClosed):
                console.message(_("You left the table: join again with ssh to take your seat back."))
            seat.disconnect()
            self._let_go(seat.name.casefold())
        else:
            return False
        return True

    # -- the seats -----------------------------------------------------------------------
    def _refresh(self) -> Optional[str]:
        """Take in the friends who joined and let go of those who left; the folded name of the
        friend's seat that answers now, or None for the host."""
        self._let_go_of_the_gone()
        self._take_in_joined()
        name = self._answering_seat()
        for key, (seat, _console) in self.remote.items():
            seat.listening = key == name
        return name

    def _answering_seat(self) -> Optional[str]:
        """The folded name of the friend's seat that answers now, or None for the host."""
        acting = self.seating.answering_player()
        name = None if acting is None else acting.casefold()
        return name if name in self.remote_names else None

    def _wake(self) -> None:
        """From the server's thread: end every wait for a key, so a friend who came is taken in."""
        for _seat, console in list(self.remote.values()):
            console.reader.wake()
        self.host.reader.wake()

    def _look_around(self) -> None:
        """While a seat waits for a key: the host's notices shown, the friends who joined taken
        in (the one whose seat answers the host's question takes it over), and a friend who
        typed out of turn told whose turn it is."""
        self.host.show_arrived()
        self._let_go_of_the_gone(but_the_listening=True)  # a seat read from now ends its own read
        self._take_in_joined()
        if self._host_answers and self._answering_seat() is not None:
            raise AnswerMoved()
        for key, (seat, console) in list(self.remote.items()):
            if seat.knocked:
                seat.knocked = False
                acting = self.seating.answering_player()
                try:
                    console.remind(_("It is {name}'s turn.").format(name=acting) if acting
                                   else _("The host answers this question."))
                except InputClosed:
                    self._let_go(key)

    def _let_go_of_the_gone(self, but_the_listening: bool = False) -> None:
        """Let go of the consoles of friends who left (or joined again on a new connection)."""
        live = {seat.name.casefold(): seat for seat in self.server.present()}
        for key, (seat, _console) in list(self.remote.items()):
            if live.get(key) is not seat and not (but_the_listening and seat.listening):
                self._let_go(key)

    def _take_in_joined(self) -> None:
        """Take in the friends who joined since the last look."""
        for seat in self.server.present():
            key = seat.name.casefold()
            if key not in self.remote:
                self._take_in(key, seat)

    def _take_in(self, key: str, seat: RemoteSeat) -> None:
        """A friend joined (or came back): their console, showing the screen as it stands."""
        console = self.console_for(seat)
        seat.woken = console.reader.wake
        console.idle = self._look_around
        self.remote[key] = (seat, console)
        self.remote_names.add(key)
        with contextlib.suppress(InputClosed):
            console.show(*self.screen)

    def _let_go(self, key: str) -> None:
        """A friend's console goes (their connection went, or the game ended)."""
        seat, console = self.remote.pop(key)
        console.reader.close()
        seat.close()

    def _answering(self) -> KeyConsole:
        """The console whose keys answer now."""
        name = self._refresh()
        entry = None if name is None else self.remote.get(name)
        return self.host if entry is None else entry[1]

    def _everywhere(self, action: Callable[[KeyConsole], object], but: Optional[KeyConsole] = None) -> None:
        """Do `action` at the host's terminal and every friend's; a friend who is gone is let go."""
        self._refresh()
        if self.host is not but:
            action(self.host)
        for key, (_seat, console) in list(self.remote.items()):
            if console is but:
                continue
            try:
                action(console)
            except InputClosed:
                self._let_go(key)

    def _wait_for(self, name: str, prompt: str) -> Optional[str]:
        """A friend whose turn it is is away: wait for them, the time left shown at every seat;
        a key of the host's answers instead; when the time is up the computer plays the seat."""
        shown = self.seating.answering_player() or name
        self.host.show_arrived()  # that they left, above what to do about it
        self.host.remind(_("{name} is away. Meanwhile your keys answer; * hands the seat to the computer.")
                         .format(name=shown))
        self.host.remind(self.server.how_to_join())
        deadline, counted = self.clock() + self.away_seconds, None
        while name not in self.remote:
            left = math.ceil(deadline - self.clock())
            if left <= 0:
                self._computer_plays(shown, _("{name} stayed away: the computer plays the seat from now on."))
            if left != counted:
                counted = left
                self.status(_("{name} is away: the computer takes the seat in {time}, or now with *.").format(
                    name=shown, time=f"{left // 60}:{left % 60:02d}"))
            token = self.host.pause(AWAY_POLL_SECONDS)
            if token == "*":
                self._computer_plays(shown, _("{name}'s seat is played by the computer from now on."))
            if token is not None:
                return token
            self.host.show_arrived()
            self._refresh()
        self.host.remind(_("{name} is back: the seat's own keys answer again.").format(name=shown))
        return None

    def _computer_plays(self, name: str, why: str) -> None:
        """The seat of `name` to the computer, said at every seat; the flow runs the moment again."""
        self.seating.hand_to_computer(name)
        self.message(why.format(name=name))
        raise SeatChanged()
