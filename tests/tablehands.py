"""A hosted table in process: the host's key console and each friend's terminal as the SSH
server would make them (a RemoteSeat whose screens land on a pyte screen), the flow running in
a thread of its own, keys typed at each terminal as the server's thread would hand them over."""
import contextlib
import os
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Callable, Optional, Union

import pyte
from helpers import WAIT_SECONDS, FastScreen, ScreenOutput, end_of_keys, screen_lines, table_context, wait_until
from keycodes import KEYS
from prompt_toolkit.input import create_pipe_input

from yahtzee.consoles.keymode import KeyConsole
from yahtzee.consoles.keyreader import KeyReader
from yahtzee.consoles.stops import InputClosed
from yahtzee.model.seatowners import Seats, SeatsSnapshot
from yahtzee.model.words import Say, Text
from yahtzee.net.hostconsole import TableConsole
from yahtzee.net.seat import RemoteSeat
from yahtzee.net.server import TableServer
from yahtzee.net.serving import join_line
from yahtzee.present.palette import painter
from yahtzee.saves.store import Saves
from yahtzee.screens.flow import Keeper, run, run_from
from yahtzee.screens.seatview import ContextSeating
from yahtzee.screens.steps import Moment, Screen

SIZE = os.terminal_size((80, 24))
FACES = [1, 2, 3, 4, 6] * 60  # never five alike: every posting is asked to be verified
PLAYERS = ["ANN", "BOB"]  # ANN at the host's keyboard, BOB at his own terminal


class FriendScreen:
    """What a friend's ssh client shows: the bytes the seat sends, on an 80x24 screen."""

    def __init__(self) -> None:
        self.screen = FastScreen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.lock = threading.Lock()
        self.drawings: Optional[list[str]] = None  # a list: the screen as each packet left it

    def receive(self, data: bytes) -> None:
        with self.lock:
            self.raw += data
            self.stream.feed(data)
            if self.drawings is not None:
                self.drawings.append("\n".join(line.rstrip() for line in screen_lines(self.screen)))

    def text(self) -> str:
        with self.lock:
            return "\n".join(line.rstrip() for line in screen_lines(self.screen))


class Server:
    """The seats logged in, as the game's thread asks the SSH server for them: a SeatServer
    (net/serving.py) without the SSH."""

    def __init__(self) -> None:
        self.seats: list[RemoteSeat] = []
        self.changed: Callable[[], None] = lambda: None
        # whose the game's seats are, read as the real server reads them at the door
        self.game_seats: Callable[[], SeatsSnapshot] = SeatsSnapshot

    def serving(self, notify: Callable[[Text], None], changed: Callable[[], None],
                seats: Callable[[], SeatsSnapshot]) -> "Server":
        """This server, telling `changed` when a friend comes or goes, reading the game's `seats`
        (the host is told nothing: no login comes through the door here)."""
        self.changed, self.game_seats = changed, seats
        return self

    def remove(self, name: str, seat: Optional[RemoteSeat]) -> None:
        if seat is not None:
            seat.hang_up()

    def present(self) -> list[RemoteSeat]:
        return [seat for seat in self.seats if not seat.gone]

    def start(self) -> None:
        """Nothing to listen on: the tests hand the seats over themselves."""

    def close(self) -> None:
        for seat in self.seats:
            seat.hang_up()

    def how_to_join(self) -> Say:
        return join_line(8022, "here", "secret")


class Table:
    """Players at a table in process; `terminals` by name ("host" and each login name)."""

    def __init__(
            self, players: Sequence[Union[str, tuple[Any, ...]]], faces: Sequence[int], logins: Sequence[str] = (),
            environments: Optional[dict[str, dict[str, str]]] = None, term: str = "xterm",
            before_game: bool = True, begun: bool = True, saves: Optional[Saves] = None) -> None:
        self.server = Server()
        self._pipe = create_pipe_input()
        self.pipe = self._pipe.__enter__()
        self.host_output = ScreenOutput(SIZE)
        self.host = KeyConsole(input=self.pipe, output=self.host_output, terminal_size=lambda: SIZE,
                               paint=painter("classic"), flashes=True, language="en")
        self.ctx = table_context(faces, players, saves=saves, prefs={"computer_delay": 0.0, "dice_roll": "off"},
                                 verify=True)
        self.session = self.ctx.session
        assert isinstance(self.host.reader, KeyReader)
        self.table = TableConsole(self.host, self.host.reader, self.server.serving, self.console_for,
                                  ContextSeating(self.ctx), new_code=lambda: "K7Q2MX")
        self.friends: dict[str, FriendScreen] = {}
        self.seats: dict[str, RemoteSeat] = {}
        for name in logins:
            self.log_in(name, (environments or {}).get(name, {}), term)
        if before_game:
            self.table.refresh()  # the friends who logged in before the game take their seats
        if begun:
            self.session.new_game()
        self.error: Optional[BaseException] = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def console_for(self, seat: RemoteSeat, reader: KeyReader) -> KeyConsole:
        """A friend's console, as the game makes it for their TERM and locale."""
        return KeyConsole(input=seat, output=seat, terminal_size=seat.terminal_size, reader=reader,
                          paint=painter(seat.colour and "classic"), unicode=seat.unicode,
                          flashes=seat.colour, language=seat.language, at_host=False)

    def log_in(
            self, name: str, environment: Optional[dict[str, str]] = None, term: str = "xterm", proof: str = "",
            address: str = "127.0.0.2") -> FriendScreen:
        """A friend logs in as `name` (with a key's fingerprint as `proof`, or the password)."""
        screen = FriendScreen()
        seat = RemoteSeat(name, screen.receive, lambda: seat.hang_up(), 80, 24, term, environment or {}, proof,
                          address)
        self.server.seats.append(seat)
        self.friends[name], self.seats[name] = screen, seat
        self.server.changed()
        return screen

    def drop(self, name: str) -> None:
        """A friend's connection drops."""
        self.seats[name].hang_up()
        self.server.changed()

    def start(self, moment: Optional[Moment] = None) -> "Table":
        """The flow from `moment` (the play screen; None with a saves folder: the saved game
        offered first, as at a start), in its own thread."""
        self.moment = moment or (None if self.ctx.services.saves else Moment(Screen.PLAY))
        self.thread.start()
        return self

    def _run(self) -> None:
        try:
            with self.table.running():
                if self.moment is None:
                    run(self.table, self.ctx, Keeper(self.ctx))
                else:
                    run_from(self.table, self.ctx, Keeper(self.ctx), self.moment)
        except InputClosed:
            pass
        except BaseException as error:  # noqa: BLE001 - the test thread reports it
            self.error = error

    def text(self, who: str) -> str:
        """The terminal's screen as its reader sees it."""
        return self.host_output.text() if who == "host" else self.friends[who].text()

    def type(self, who: str, *keys: Any) -> None:
        """Keys typed at a terminal (names as in KEYS), each handed over as its own packet."""
        for key in keys:
            data = KEYS.get(key, key)
            if who == "host":
                self.pipe.send_text(data)
            else:
                self.seats[who].typed(data.encode())

    def wait_for(self, who: str, words: str) -> str:
        """The screen of `who` once it shows `words` (the game's own error, if it failed first)."""
        def shown() -> Any:
            if self.error is not None:
                raise self.error
            return words in self.text(who)
        wait_until(shown, failure=lambda: f"{who} never saw {words!r} on:\n{self.text(who)}")
        return self.text(who)

    def steady(self, who: str, still: float = 0.2) -> str:
        """The screen of `who` once nothing has been drawn on it for `still` seconds (a moment's
        last draw can follow the one that shows its question)."""
        last: dict[str, Any] = {"text": self.text(who), "at": time.monotonic()}

        def unchanged() -> bool:
            now = self.text(who)
            if now != last["text"]:
                last.update(text=now, at=time.monotonic())
            return time.monotonic() - last["at"] >= still
        wait_until(unchanged, failure=lambda: f"{who}'s screen never stood still:\n{self.text(who)}")
        return str(last["text"])

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """The game's thread held at its next wait for keys until the block ends: keys typed
        meanwhile at several terminals are all there when it looks."""
        terminals = self.table.terminals  # whose wait for a key across them the game's thread sleeps in
        entered, go, wait = threading.Event(), threading.Event(), terminals.wait

        def gate() -> None:
            entered.set()
            go.wait(WAIT_SECONDS)
            terminals.wait = wait  # type: ignore[method-assign]
            wait()
        terminals.wait = gate  # type: ignore[method-assign]  # the game's thread held at its next wait
        terminals.wake()
        assert entered.wait(WAIT_SECONDS), "the game never waited for a key"
        try:
            yield
        finally:
            go.set()

    def settle(self, seconds: float = 0.3) -> None:
        """Let the game's thread act on what was typed."""
        time.sleep(seconds)

    def close(self) -> None:
        end_of_keys(self.pipe)
        for seat in self.seats.values():
            seat.hang_up()
        if self.thread.is_alive():
            self.thread.join(timeout=10)
        self._pipe.__exit__(None, None, None)


@contextlib.contextmanager
def table(
        players: Sequence[Union[str, tuple[Any, ...]]], faces: Sequence[int], logins: Sequence[str] = (),
        moment: Optional[Moment] = None, **options: Any) -> Iterator[Table]:
    """A table under way from its first roll (or from `moment`); closed after."""
    hands = Table(players, faces, logins, **options).start(moment)
    try:
        yield hands
    finally:
        hands.close()


def at_bobs_first_roll(hands: Table) -> str:
    """ANN posts in CHANCE at the host; BOB's first roll at his terminal."""
    hands.wait_for("host", "ANN: press any key to roll")
    hands.type("host", " ")
    hands.wait_for("host", "Roll 1 of 3")
    hands.type("host", "r")
    hands.wait_for("host", "Post where?")
    hands.type("host", "c")
    hands.wait_for("host", "(Y/N)")
    hands.type("host", "y")
    hands.wait_for("BOB", "BOB: press any key to roll")
    hands.type("BOB", " ")
    return hands.wait_for("BOB", "Roll 1 of 3")


def served(tmp_path: Path, seats: Optional[Seats] = None) -> tuple[TableServer, list[Text]]:
    """A real table server listening on loopback, no game behind it, reading the game's `seats`
    (a model Seats) at the door."""
    from yahtzee.net.credentials import table_credentials
    from yahtzee.net.log import TableLog
    from yahtzee.net.server import TableServer
    told: list[Text] = []
    server = TableServer(table_credentials(tmp_path), "127.0.0.1", 0, told.append, TableLog(tmp_path),
                         seats=(seats or Seats()).snapshot)
    server.start()
    return server, told
