"""Every console reads the game's named keys by the one key map (yahtzee.present.keys): a key
pressed any of its ways comes to the screens as the same Key, at every kind of terminal and in
plain mode; a hot key's letter acts as the key."""
import contextlib
import io
import os
from collections.abc import Iterator
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

import pytest
from helpers import NO_CRYPTOGRAPHY, KeyScript, clock, plain_console, printed
from keycodes import sent
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.key_binding import KeyPress
from prompt_toolkit.keys import Keys
from test_windows_keys import FakeWindows, windows_console

from yahtzee.consoles.keymode import KeyConsole
from yahtzee.consoles.keyreader import KeyReader
from yahtzee.consoles.plain import PlainConsole
from yahtzee.consoles.screenreader import AccessibleConsole
from yahtzee.model.session import Session
from yahtzee.present.keys import HOT_KEYS, KEY_MAP, LETTERS, LINE_KEYS, PLAIN_WORDS, TERMINAL_KEYS, Key, letter_as_key
from yahtzee.screens.context import Context, Services
from yahtzee.screens.prompts import hot_key
from yahtzee.screens.seatview import ContextSeating

if TYPE_CHECKING:  # the table's modules load asyncssh, which Windows (under Wine) cannot
    from yahtzee.net.hostconsole import TableConsole
    from yahtzee.net.seat import RemoteSeat

SIZE = os.terminal_size((80, 24))


def codes(typed: Union[Keys, str]) -> str:
    """What a terminal sends for a key of prompt_toolkit's, or for text typed."""
    return sent(typed) if isinstance(typed, Keys) else typed


@contextlib.contextmanager
def posix_terminal() -> Iterator[tuple[KeyConsole, Callable]]:
    """A key console on the POSIX key reader, and how keys reach it."""
    script = KeyScript("", more_to_come=True)
    try:
        yield script.console, lambda typed: script.pipe.send_text(codes(typed))
    finally:
        script.close()


@contextlib.contextmanager
def windows_terminal() -> Iterator[tuple[KeyConsole, Callable]]:
    """A key console on the Windows key reader, and how key events reach it."""
    fake = FakeWindows()
    console, _ = windows_console(fake)

    def press(typed: Any) -> None:
        fake.type(*([KeyPress(typed)] if isinstance(typed, Keys) else map(KeyPress, typed)))
    yield console, press


@contextlib.contextmanager
def screen_reader() -> Iterator[tuple[AccessibleConsole, Callable]]:
    """The screen-reader console over a pipe."""
    with create_pipe_input() as pipe:
        console = AccessibleConsole(input=pipe, output=Discarded(), terminal_size=lambda: SIZE)
        try:
            yield console, lambda typed: pipe.send_text(codes(typed))
        finally:
            console.reader.close()


@contextlib.contextmanager
def friends_seat() -> Iterator[tuple[KeyConsole, Callable]]:
    """A friend's terminal at a hosted table: the bytes their ssh client sends, into their seat."""
    from yahtzee.net.seat import RemoteSeat  # the table's modules load asyncssh
    seat = RemoteSeat("ann", lambda data: None, lambda: None, 80, 24)
    seat.take()
    seat.listening = True
    console = KeyConsole(input=seat, output=seat, terminal_size=seat.terminal_size, at_host=False)
    try:
        yield console, lambda typed: seat.typed(codes(typed).encode())
    finally:
        console.reader.close()
        seat.close()


@contextlib.contextmanager
def tables_host() -> "Iterator[tuple[TableConsole, Callable]]":
    """The table's console, asked at the host's terminal."""
    from tablehands import Server  # asyncssh: the table's tests need what hosting needs

    from yahtzee.net.hostconsole import TableConsole
    with posix_terminal() as (host, press):
        ctx = Context(Session([]), Services(clock))
        assert isinstance(host.reader, KeyReader)

        def no_friend(seat: "RemoteSeat", reader: KeyReader) -> KeyConsole:
            raise AssertionError("no friend sits at this table")
        yield TableConsole(host, host.reader, Server().serving, console_for=no_friend,
                           seating=ContextSeating(ctx)), press


class Discarded:
    """A screen sink that keeps nothing."""

    def write_raw(self, data: str) -> None:
        pass

    def flush(self) -> None:
        pass

    def encoding(self) -> str:
        return "utf-8"


# Each terminal, opened: (its console, a press of a key there).
TERMINALS: dict[str, Callable[[], AbstractContextManager[tuple[Any, Callable[..., None]]]]] = {
    "posix": posix_terminal, "windows": windows_terminal, "screen reader": screen_reader,
    "friend's seat": friends_seat, "table's host": tables_host}


AT_A_TABLE = pytest.mark.wine_lacks(reason=NO_CRYPTOGRAPHY)


def at(terminal: str, *values: Any) -> pytest.ParameterSet:
    """The test's parameters at `terminal`: those at a table marked, as the table loads asyncssh."""
    return pytest.param(terminal, *values, marks=AT_A_TABLE if terminal in ("friend's seat", "table's host") else ())


# At the table's host F7 opens the seats' page rather than answering (tests/test_seats.py).
PRESSES = [at(terminal, name, key) for terminal in TERMINALS for name, key in TERMINAL_KEYS.items()
           if (terminal, key) != ("table's host", Key.SEATS)]


@pytest.mark.parametrize("terminal, name, key", PRESSES)
def test_every_terminal_reads_a_terminal_key_as_the_same_named_key(terminal: str, name: str, key: Key) -> None:
    with TERMINALS[terminal]() as (console, press):
        press(Keys(name))
        assert console.read_key("a question") is key


@pytest.mark.parametrize("terminal", [at(name) for name in ("posix", "windows", "screen reader", "friend's seat")])
@pytest.mark.parametrize("name, key", LINE_KEYS.items())
def test_every_terminal_ends_a_line_with_enter_or_a_hot_key(terminal: str, name: str, key: Key) -> None:
    with TERMINALS[terminal]() as (console, press):
        press("Ann")
        press(Keys(name))
        assert console.read_text("Name: ") == (None if key is Key.ENTER else key, "Ann")


def test_the_keys_that_end_a_line_are_enter_and_the_hot_keys() -> None:
    assert set(LINE_KEYS.values()) == {Key.ENTER, *HOT_KEYS}
    assert all(LINE_KEYS[name] is key for name, key in TERMINAL_KEYS.items() if key in LINE_KEYS.values())


@pytest.mark.parametrize("word, key", PLAIN_WORDS.items())
def test_plain_mode_reads_a_keys_word_as_the_key(word: str, key: Key) -> None:
    console = plain_console([word, word.upper(), word])
    assert console.read_key() is key
    assert console.read_key() is key
    assert console.read_text("Name: ") == ((key, "") if key in HOT_KEYS else (None, word))


class Interrupted(io.StringIO):
    """Input where the player pressed Ctrl-C."""

    def readline(self, size: Optional[int] = -1, /) -> str:  # type: ignore[override]  # (typeshed: _IOBase's gives bytes)
        raise KeyboardInterrupt


def test_ctrl_c_quits_in_plain_mode_as_at_a_terminal() -> None:
    console = PlainConsole(Interrupted(), io.StringIO())
    assert console.read_key() is Key.QUIT
    assert console.read_text("Name: ") == (Key.QUIT, "")


def test_every_key_is_pressed_at_a_terminal_by_keys_prompt_toolkit_knows() -> None:
    for key in Key:
        assert KEY_MAP[key].terminal, key
        for name in (*KEY_MAP[key].terminal, *KEY_MAP[key].typing):
            Keys(name)  # raises for a name prompt_toolkit lacks
    assert set(KEY_MAP) == set(Key)


@pytest.mark.parametrize("token", [*LETTERS, *HOT_KEYS])
def test_a_hot_keys_letter_acts_as_the_key(token: Union[str, Key]) -> None:
    console = plain_console(["n"])  # the answer to the quit question: play on
    ctx = Context(Session([]), Services(clock))
    verify, sound = ctx.session.verify, ctx.session.sound
    key = letter_as_key(token)
    assert key in HOT_KEYS
    assert hot_key(console, ctx, token, lambda prompt: lambda look: [])
    assert (ctx.session.verify != verify, ctx.session.sound != sound) == (key is Key.VERIFY, key is Key.SOUND)
    assert ("Quit Computer Yahtzee? (Y/N)" in printed(console)) == (key is Key.QUIT)
