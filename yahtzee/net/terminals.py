"""Every terminal at a hosted table: the host's key console and each friend's (by folded login
name, with the reader of the keys typed while another terminal was asked), and one wait for a
key across all of them."""
import contextlib
import select
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Callable, Optional

from ..consoles.keymode import KeyConsole
from ..consoles.keyreader import KeyReader
from ..consoles.stops import InputClosed
from ..model.words import Text
from .seat import RemoteSeat

HOST = ""  # the host's terminal, among the friends' folded names
WAIT_SECONDS = 0.25  # the longest a wait for keys sleeps before it looks around (notices, joins)


@dataclass
class Friend:
    """A friend's terminal: their seat's connection, the console drawing for it, and the reader
    of the keys they typed while another terminal was asked."""

    seat: RemoteSeat
    console: KeyConsole
    reader: KeyReader  # the console's own reader, which the table's wait watches
    aside: KeyReader
    leaving: bool = False  # asked whether they leave the table

    def last_words(self, said: Text) -> None:
        """What they read as they go, sent before their connection is closed, and kept for the
        page they go back to (a server's)."""
        self.seat.note = said
        with contextlib.suppress(InputClosed):
            self.console.message(said)
            self.console.end_line()


class Terminals:
    """The host's terminal and the friends' at the table now."""

    def __init__(self, host: KeyConsole, host_reader: KeyReader,
                 console_for: Callable[[RemoteSeat, KeyReader], KeyConsole]) -> None:
        self.host, self.host_reader = host, host_reader  # the host's console and the reader it reads with
        self.console_for = console_for  # a friend's console reading with a reader, in their terminal's own look
        self.friends: dict[str, Friend] = {}  # by folded login name, seated or watching

    def console(self, key: str) -> KeyConsole:
        """The console of a terminal (the host's for one that is gone)."""
        friend = self.friends.get(key)
        return self.host if friend is None else friend.console

    def at(self, key: str, action: Callable[[KeyConsole], object]) -> None:
        """Do `action` at one terminal; a friend who is gone is let go."""
        try:
            action(self.console(key))
        except InputClosed:
            if key == HOST:
                raise
            self.let_go(key)

    def everywhere(self, action: Callable[[str, KeyConsole], object], but: Optional[str] = None,
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
                self.let_go(key)

    def poll(self, key: str) -> Optional[str]:
        """A key waiting at this terminal, or None; a friend who left is let go."""
        try:
            return self.console(key).poll_token()
        except InputClosed:
            if key == HOST:
                raise
            self.let_go(key)
            return None

    def take_in(self, seat: RemoteSeat, typed_aside: Callable[[], None]) -> Optional[Friend]:
        """A friend's terminal, taken in (None when its connection went before the game looked);
        `typed_aside` hears of the keys they type while another terminal is asked."""
        if not seat.take():
            return None
        reader = KeyReader(seat.fileno())
        console = self.console_for(seat, reader)
        seat.woken, seat.typed_aside = reader.wake, typed_aside
        friend = self.friends[seat.name.casefold()] = Friend(seat, console, reader, KeyReader(seat.aside_fileno()))
        return friend

    def promote(self, key: str) -> Friend:
        """A friend's terminal becomes the host's (the host left a server's table): every key
        typed there answers from now on, and the host's keys are offered there."""
        friend = self.friends.pop(key)
        friend.aside.close()
        friend.seat.listening, friend.seat.typed_aside = True, None
        friend.console.at_host, friend.console.own_sound = True, None
        self.host, self.host_reader = friend.console, friend.reader
        return friend

    def demote(self, seat: RemoteSeat, console: KeyConsole, reader: KeyReader,
               typed_aside: Callable[[], None]) -> Friend:
        """The host's terminal becomes a friend's (they handed a server's table on and stay at
        it); `typed_aside` hears of the keys they type while another terminal is asked."""
        console.at_host, console.own_sound = False, seat.sound
        seat.woken, seat.typed_aside = reader.wake, typed_aside
        friend = self.friends[seat.name.casefold()] = Friend(seat, console, reader, KeyReader(seat.aside_fileno()))
        return friend

    def newcomers(self, present: Iterable[RemoteSeat]) -> list[RemoteSeat]:
        """The seats logged in whose terminals are not taken in yet."""
        return [seat for seat in present if seat.name.casefold() not in self.friends]

    def let_go_of_the_gone(self, present: Iterable[RemoteSeat]) -> None:
        """Let go of the consoles of friends who left (or joined again on a new connection)."""
        live = {seat.name.casefold(): seat for seat in present}
        for key, friend in list(self.friends.items()):
            if live.get(key) is not friend.seat:
                self.let_go(key)

    def let_go(self, key: str) -> None:
        """A friend's console goes (their connection went, or the game ended)."""
        friend = self.friends.pop(key)
        friend.console.end_line()
        friend.reader.close()
        friend.aside.close()
        friend.seat.close()

    def wake(self) -> None:
        """From another thread: end every wait for a key."""
        for friend in list(self.friends.values()):
            friend.reader.wake()
        self.host_reader.wake()

    def wait(self) -> None:
        """Sleep until a key comes at any terminal (or a wake-up, or a held Esc is due)."""
        friends = self.friends.values()
        readers = [self.host_reader, *(f.reader for f in friends), *(f.aside for f in friends)]
        for reader in readers:  # a terminal not asked now is not read: its time would be due at once ever after
            reader.flush_if_due()
        due = [d for d in (reader.flush_due() for reader in readers) if d is not None]
        timeout = min([WAIT_SECONDS, *due])
        select.select([fd for reader in readers for fd in reader.waits_on], [], [], timeout)
        for reader in readers:  # a wake-up left in a reader not read now would end every wait at once
            reader.forget_wakes()

    def redraw_if_resized(self) -> None:
        """Every terminal whose window changed size drawn again."""
        self.host.redraw_if_resized()
        for friend in list(self.friends.values()):
            with contextlib.suppress(InputClosed):
                friend.console.redraw_if_resized()
