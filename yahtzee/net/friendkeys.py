"""A friend's own keys at a hosted table, answered at once whichever terminal is asked: F9 their
seat's bell, D their terminal's language, F8 refused (verify is the host's), and F10 or Q, asked
first, to leave the table."""
from typing import Callable

from ..consoles.keymode import KeyConsole
from ..model.words import Later, Say
from ..present.keys import Key, letter_as_key
from ..present.render import on_off
from ..speech.locales import LANGUAGES
from .lines import SeatLines
from .terminals import Friend, Terminals

LANGUAGE_KEY = "d"  # at a friend's terminal: the next language the game speaks


class FriendKeys:
    """The keys each friend has for their own terminal."""

    def __init__(self, terminals: Terminals, lines: SeatLines, redraw: Callable[[str, KeyConsole], None]) -> None:
        self.terminals, self.lines = terminals, lines
        self.redraw = redraw  # a terminal's screen drawn again as it sees it now

    def take(self, key: str, token: str) -> bool:
        """A friend's own hot keys and their leave question, at any moment; whether it was one."""
        friend = self.terminals.friends.get(key)
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
            self.redraw(key, friend.console)
        elif token == LANGUAGE_KEY:
            speak_next_language(friend.console)
        else:
            return False
        return True

    def _leave_answer(self, key: str, friend: Friend, token: str) -> None:
        """The friend's answer to whether they leave the table."""
        if token in ("y", Key.QUIT):
            friend.last_words(self.lines.left(key))
            friend.seat.disconnect()
            self.terminals.let_go(key)
            return
        if token in ("n", Key.ESCAPE):
            friend.leaving = False
            self.redraw(key, friend.console)
            return
        friend.console.remind(Say("Please answer Y or N."))


def speak_next_language(console: KeyConsole) -> None:
    """A friend's terminal speaks the next language the game knows (D), and says so in it."""
    console.speak(LANGUAGES[(LANGUAGES.index(console.language) + 1) % len(LANGUAGES)])
    console.remind(Say("This terminal speaks English now (D changes it)."))
