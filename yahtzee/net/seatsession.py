"""A friend's session at a hosted table: one terminal, the rejoin code asked first where the seat
needs it, then their keys to their seat within a rate, their window's size, and an idle limit."""
import asyncio
import time
from typing import Optional

import asyncssh

from ..model.checks import NAME_CELLS
from ..model.words import Say, Text, source_text
from ..present.palette import cut_to_cells
from ..present.render import SCREEN_HEIGHT, SCREEN_WIDTH
from ..speech.languages import speaking, text
from ..speech.locales import from_environment
from .limits import MAX_LOGIN_ATTEMPTS
from .owners import MAX_CODE_CHARS, code_proof, plain_code
from .seat import MAX_COLUMNS, MAX_LINES, RemoteSeat
from .serving import Serving

LOGIN_SECONDS = 30  # to log in, once connected (and to give the rejoin code)
IDLE_SECONDS = 30 * 60  # a seat that sends nothing this long is let go
MAX_INPUT_RATE = 512  # bytes a second from one seat (100 function keys; a typist sends 20): more is dropped
RESIZE_SECONDS = 0.05  # a window dragged to new sizes is drawn anew at most this often
MAX_RESIZES_A_SECOND = 200  # window sizes from a seat in a second (a dragged window sends some 60): more, it goes


class CodeLine:
    """The rejoin code as it is typed at the door: letters and digits, Backspace takes one back."""

    def __init__(self) -> None:
        self.typed = ""

    def press(self, char: str) -> str:
        """Take a key typed; what the terminal shows for it ('' for a key that is no part of a code)."""
        if char in "\x7f\b" and self.typed:
            self.typed = self.typed[:-1]
            return "\b \b"
        if char.isalnum() and len(self.typed) < MAX_CODE_CHARS:
            self.typed += char
            return char
        return ""

    def take(self) -> str:
        """The code typed (case and spaces aside), the line emptied for another try."""
        code, self.typed = plain_code(self.typed), ""
        return code


class SeatSession(asyncssh.SSHServerSession):
    """A friend's session: a terminal and a shell request, nothing else; their keys to their seat."""

    def __init__(self, table: Serving, name: str, proof: str) -> None:
        self.table, self.name, self.proof = table, name, proof
        self.address = "?"
        self.chan: Optional[asyncssh.SSHServerChannel[bytes]] = None
        self.size: Optional[tuple[int, int]] = None
        self.term = "xterm"
        self.seat: Optional[RemoteSeat] = None
        self.window = (time.monotonic(), 0)  # the input rate's second and its bytes
        self.idle: Optional[asyncio.TimerHandle] = None
        self.resizing: Optional[asyncio.TimerHandle] = None  # the game is told the window's size soon
        self.resizes = (time.monotonic(), 0)  # the window sizes' second and their count
        self.code_wanted: Optional[str] = None  # the rejoin code's proof this terminal must give first
        self.code = CodeLine()
        self.tries = 0

    def connection_made(self, chan: "asyncssh.SSHServerChannel[bytes]") -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: object) -> bool:
        self.size = term_size[0] or SCREEN_WIDTH, term_size[1] or SCREEN_HEIGHT
        self.term = term_type or "xterm"
        self._check_window(*self.size)
        return True

    def shell_requested(self) -> bool:
        return self.size is not None  # a game needs a terminal: `ssh -T` is refused

    def exec_requested(self, command: str) -> bool:
        self.table.notify(Say("A command over SSH was refused: the table serves only a terminal."))
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        assert self.chan is not None
        peer = self.chan.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        self.code_wanted = self.table.code_asked(self.name, self.proof)
        if self.code_wanted is None:
            self._join(self.proof)
        else:
            self._tell(Say("{name}'s seat is kept for the friend who took it. Their rejoin code:").format(
                name=self.name), end=" ")
            self.idle = asyncio.get_running_loop().call_later(LOGIN_SECONDS, self.chan.close)

    def _join(self, proof: str) -> None:
        """Take the seat (or watch), or be told why not and let go."""
        assert self.chan is not None and self.size is not None
        environment = self.chan.get_environment()
        refused = self.table.join(self.name, self.chan, *self.size, self.term, proof, environment, self.address)
        self.table.log.record(self.address, self.name, "joined the table" if refused is None
                              else "refused a seat: " + source_text(refused))
        if refused:
            self._tell(refused)
            self.chan.exit(1)
            return
        self.seat = self.table.seat(self.name)
        self._restart_idle()

    def _tell(self, said: Text, end: str = "\r\n") -> None:
        """A line for this terminal, before it has a seat, in its client's language."""
        assert self.chan is not None
        with speaking(from_environment(self.chan.get_environment())):
            self.chan.write((text(said) + end).encode("utf-8", "replace"))

    def _code_typed(self, data: bytes) -> None:
        """Keys typed at the rejoin question: the code, echoed; Enter checks it (three tries,
        counted with the address's passwords); Ctrl-C or Ctrl-D goes."""
        assert self.chan is not None and self.code_wanted is not None
        for char in data.decode("ascii", "replace"):
            if char in "\r\n":
                self._check_code()
                return
            if char in "\x03\x04":
                self.chan.close()
                return
            self.chan.write(self.code.press(char).encode())

    def _check_code(self) -> None:
        """The rejoin code typed: the seat, another try, or the connection closed."""
        assert self.chan is not None and self.code_wanted is not None
        self.tries += 1
        code = self.code.take()
        proof = code_proof(code)
        self.chan.write(b"\r\n")
        if not self.table.limits.may_check_password(self.address):
            self.table.log.record(self.address, self.name, "refused: too many passwords a minute")
            self._tell(Say("Too many tries from your address: wait a minute."))
            self.chan.exit(1)
        elif proof == self.code_wanted:
            self.table.log.record(self.address, self.name, "gave the seat's rejoin code")
            self.code_wanted = None
            self._join(proof)
            if self.seat is not None:
                self.seat.code = code
        elif self.tries >= MAX_LOGIN_ATTEMPTS:
            self.table.log.record(self.address, self.name, "wrong rejoin code: closed")
            self.table.limits.penalize(self.address)
            self.table.notify(Say("A connection was closed after {count} failed logins.").format(
                count=MAX_LOGIN_ATTEMPTS))
            self._tell(Say("That is not the code."))
            self.chan.exit(1)
        else:
            self.table.log.record(self.address, self.name, "wrong rejoin code")
            self._tell(Say("That is not the code. Their rejoin code:"), end=" ")

    def data_received(self, data: bytes, datatype: object) -> None:
        if self.code_wanted is not None:
            self._code_typed(data)
            return
        if self.seat is None:
            return
        self.seat = self.seat.current()
        self._restart_idle()
        now = time.monotonic()
        second, count = self.window
        if now - second >= 1:
            second, count = now, 0
        room = max(0, MAX_INPUT_RATE - count)
        self.window = second, count + min(room, len(data))
        kept = self.seat.typed(data[:room]) if room else True
        if len(data) > room or not kept:
            self.table.notify(Say("Keys from {name} came too fast: some were dropped.").format(name=self.name))

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        now = time.monotonic()
        second, count = self.resizes
        self.resizes = (now, 1) if now - second >= 1 else (second, count + 1)
        if self.resizes[1] > MAX_RESIZES_A_SECOND and self.chan is not None:
            self.table.log.record(self.address, self.name, "changed window size too often: closed")
            self.table.limits.penalize(self.address)
            self.table.notify(Say("{name}'s window changed size {count} times in a second: let go.").format(
                name=cut_to_cells(self.name, NAME_CELLS), count=MAX_RESIZES_A_SECOND))
            self.chan.close()
            return
        self._check_window(width, height)
        self.size = width, height
        if self.seat is not None and self.resizing is None:  # the game hears the latest size, RESIZE_SECONDS apart
            self.resizing = asyncio.get_running_loop().call_later(RESIZE_SECONDS, self._resize)

    def _resize(self) -> None:
        self.resizing = None
        if self.seat is not None and self.size is not None:
            self.seat = self.seat.current()
            self.seat.resized(*self.size)

    def _check_window(self, columns: int, lines: int) -> None:
        """A window beyond reason is drawn at the largest size, and the host is told."""
        if columns > MAX_COLUMNS or lines > MAX_LINES:
            self.table.notify(Say("A window of {columns}x{lines} is drawn as {most} ({name}).").format(
                columns=columns, lines=lines, most=f"{MAX_COLUMNS}x{MAX_LINES}",
                name=cut_to_cells(self.name, NAME_CELLS)))

    def eof_received(self) -> bool:
        return False

    def connection_lost(self, exc: Optional[Exception]) -> None:
        for timer in (self.idle, self.resizing):
            if timer is not None:
                timer.cancel()
        if self.seat is not None:
            self.table.log.record(self.address, self.name, "left")
            self.table.leave(self.seat.current())

    def _restart_idle(self) -> None:
        """Let a seat that sends nothing for IDLE_SECONDS go."""
        if self.idle is not None:
            self.idle.cancel()
        self.idle = asyncio.get_running_loop().call_later(IDLE_SECONDS, self._idle_out)

    def _idle_out(self) -> None:
        self.table.notify(Say("{name} was idle for {minutes} minutes and was let go.").format(
            name=self.name, minutes=IDLE_SECONDS // 60))
        if self.chan is not None:
            self.chan.close()
