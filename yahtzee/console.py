"""The only door to the terminal: keys through prompt_toolkit, colours, the bell, plain mode.

Screens talk to a console in tokens: "F8", "F9", "F10", "enter", or the lower-cased key or
input line ("r", "135", "y").  Key mode reads one keystroke a token; plain mode one line.
"""
import contextlib
import errno
import shutil
import sys
import time

from .palette import no_colour
from .render import SCREEN_HEIGHT, SCREEN_WIDTH, too_small_lines

HOT_KEYS = ("F8", "F9", "F10")
PLAIN_WORDS = {"f8": "F8", "verify": "F8", "f9": "F9", "sound": "F9", "f10": "F10", "quit": "F10"}
BELL = "\a"
CLEAR = "\x1b[H\x1b[2J"
CSI_FINAL = set("~ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@`{|}")


def ignore_mouse_reports(bindings):
    """A pasted colour code (ESC [ 3 1 m) looks like a mouse report: drop it, never crash."""
    from prompt_toolkit.keys import Keys
    bindings.add(Keys.Vt100MouseEvent)(lambda event: None)


def swallow_title_sequences(bindings):
    """A pasted ESC ] ... BEL (a window-title sequence) types nothing into a name."""
    from prompt_toolkit.filters import Condition
    from prompt_toolkit.keys import Keys
    inside = {"sequence": False}
    swallowing = Condition(lambda: inside["sequence"])

    def start(event):
        inside["sequence"] = True

    def end(event):
        inside["sequence"] = False

    bindings.add("escape", "]")(start)
    bindings.add(Keys.Any, filter=swallowing)(lambda event: None)
    bindings.add("c-g", filter=swallowing)(end)
    bindings.add("escape", "\\", filter=swallowing)(end)


class InputClosed(Exception):
    """No more input will come: end of file, or the terminal is gone."""


class StopRequested(BaseException):
    """SIGTERM or SIGHUP arrived: stop at the next safe moment (the last save stands)."""


class PlainConsole:
    """One command a line, no colours, no cursor movement: for scripts, pipes and dumb terminals."""

    plain = True

    def __init__(self, stdin=None, stdout=None, ring=False):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        for stream in (self.stdin, self.stdout):
            if hasattr(stream, "reconfigure"):  # bytes the encoding lacks never stop the game
                stream.reconfigure(errors="replace")
        self.paint = no_colour
        self.unicode = False
        self.ring = ring
        self.stop = None
        self._reading = False

    def request_stop(self, signum):
        """From a signal handler: stop now if waiting for a line, else before the next read."""
        self.stop = signum
        if self._reading:
            raise StopRequested(signum)

    @contextlib.contextmanager
    def running(self):
        """Nothing to set up for lines."""
        yield self

    def _write(self, text):
        try:
            self.stdout.write(text)
            self.stdout.flush()
        except OSError:
            raise InputClosed("the output is gone") from None

    def show(self, lines, brief=None):
        """Print a screen, or its brief form when it has one."""
        shown = lines if brief is None else brief
        self._write("".join(line.rstrip() + "\n" for line in shown))

    def message(self, text):
        """A one-line message for the player."""
        self._write(text + "\n")

    def status(self, text):
        """A passing line (a progress bar): printed like a message."""
        self.message(text)

    def _read_line(self, prompt):
        self._write(f"{prompt}> " if prompt else "> ")
        if self.stop:
            raise StopRequested(self.stop)
        self._reading = True
        try:
            line = self.stdin.readline()
        except OSError:
            raise InputClosed("the input is gone") from None
        except KeyboardInterrupt:
            self._write("\n")
            return "f10"  # Ctrl-C asks to quit, as F10 does
        finally:
            self._reading = False
        if not line:
            self._write("\n")
            raise InputClosed("end of input")
        return line.strip()

    def read_key(self, prompt=""):
        """One input line as a token: hot-key words become F8/F9/F10, empty is 'enter'."""
        line = self._read_line(prompt)
        lowered = line.lower()
        return PLAIN_WORDS.get(lowered) or lowered or "enter"

    def forget_messages(self):
        """Lines are printed once: nothing to forget."""

    def read_text(self, prompt, default="", limit=None):
        """A line of free text; returns (hot key or None, text)."""
        line = self._read_line(prompt)
        hot = PLAIN_WORDS.get(line.lower())
        return (hot, "") if hot else (None, line)

    def bell(self, count=1):
        """Ring only when the output is a terminal that can hear it."""
        if self.ring:
            self._write(BELL * count)

    def pause(self, seconds):
        """Plain mode never waits."""

    def discard_typeahead(self):
        """Plain mode reads every line in order: nothing is discarded."""


class KeyConsole:
    """A real terminal: single keystrokes through prompt_toolkit, screens redrawn as blocks."""

    plain = False

    def __init__(self, input=None, output=None, paint=no_colour, unicode=True,
                 terminal_size=None, sleep=time.sleep):
        from prompt_toolkit.input import create_input
        from prompt_toolkit.output import create_output
        self.input = input or create_input()
        self.output = output or create_output()
        self.paint = paint
        self.unicode = unicode
        self.terminal_size = terminal_size or (lambda: shutil.get_terminal_size((80, 24)))
        self.sleep = sleep
        self.lines = []
        self.pending = []
        self.prompt = ""
        self.stop = None
        self._drawn_size = None
        self._notes = []
        self._escape_at = None
        self._in_sequence = False

    def request_stop(self, signum):
        """From a signal handler: end the key read under way, or the next one, with StopRequested.
        The running application is told through its event loop, never by raising here."""
        from prompt_toolkit.application import get_app_or_none
        self.stop = signum
        app = get_app_or_none()
        if app is not None and app.is_running and app.loop is not None:
            app.loop.call_soon_threadsafe(lambda: self._stop_app(app))

    def _stop_app(self, app):
        """End a running key read if a stop was asked for (run inside its event loop)."""
        if self.stop and app.is_running and app.future is not None and not app.future.done():
            app.exit(exception=StopRequested(self.stop))

    @contextlib.contextmanager
    def running(self):
        """Keep the terminal in raw mode for the whole game, so keys never echo between reads."""
        with self.input.raw_mode():
            try:
                yield self
            finally:
                self._write("\r\n")

    def _write(self, text):
        try:
            self.output.write_raw(text)
            self.output.flush()
        except OSError as error:
            if error.errno in (errno.EIO, errno.EPIPE, errno.EBADF):
                raise InputClosed("the terminal is gone") from None
            raise

    def _fits(self):
        size = self.terminal_size()
        return size.columns >= SCREEN_WIDTH and size.lines >= SCREEN_HEIGHT

    def _draw(self, lines, notes=()):
        if not self._fits():
            size = self.terminal_size()
            lines, notes = too_small_lines(size.columns, size.lines), [self.prompt]
        self._drawn_size, self._notes = self.terminal_size(), list(notes)
        # The last row stays free for the cursor, so the screen never scrolls.
        room = max(1, self._drawn_size.lines - 1 - len(lines))
        rows = [*lines, *list(notes)[-room:]]
        self._write(CLEAR + "".join(row.rstrip() + "\r\n" for row in rows))

    def show(self, lines, brief=None):
        """Redraw the whole screen, with the messages given since the last one."""
        self.lines = list(lines)
        self._draw(self.lines, self.pending)
        self.pending = []

    def message(self, text):
        """Show a one-line message under the screen now (it stays for the next screen)."""
        self.pending.append(text)
        self._draw(self.lines, self.pending)

    def status(self, text):
        """Show a passing line under the screen (a progress bar) that the next draw replaces."""
        self._draw(self.lines, [*self.pending, text])

    def read_key(self, prompt=""):
        """The next keystroke as a token; a too-small terminal waits to be enlarged."""
        self.prompt = prompt
        if not self._fits():
            self._draw(self.lines)
        while True:
            token = self._read_one_key()
            # A question shown with the too-small message may still be answered.
            if self._fits() or token == "F10" or prompt.endswith("(Y/N)"):
                return token
            self._draw(self.lines)

    def _read_one_key(self):
        while True:
            token = self._run_key_app()
            if token is not None and not self._is_escape_tail(token):
                return token
            if self.terminal_size() != self._drawn_size:
                self._draw(self.lines, self._notes)  # the window was resized

    def _is_escape_tail(self, token):
        """Swallow the rest of an F-key sequence that arrived split after a bare Esc."""
        if token == "escape":
            self._escape_at, self._in_sequence = time.monotonic(), False
            return True
        if self._escape_at is None or time.monotonic() - self._escape_at > 1.0:
            self._escape_at = None
            return False
        if not self._in_sequence and token in ("[", "o", "O"):
            self._in_sequence = True
            return True
        if self._in_sequence:
            if token in CSI_FINAL or token.upper() in CSI_FINAL:
                self._escape_at = None
            return True
        self._escape_at = None
        return False

    def _run_key_app(self):
        from prompt_toolkit.application import Application
        from prompt_toolkit.key_binding import KeyBindings
        from prompt_toolkit.keys import Keys
        from prompt_toolkit.layout import Layout, Window
        from prompt_toolkit.layout.controls import FormattedTextControl

        bindings = KeyBindings()
        named = {Keys.F8: "F8", Keys.F9: "F9", Keys.F10: "F10", "c-c": "F10",
                 "enter": "enter", "escape": "escape"}
        for key, token in named.items():
            bindings.add(key)(lambda event, token=token: event.app.exit(result=token))

        @bindings.add(Keys.Any)
        def any_key(event):
            data = event.key_sequence[0].data
            event.app.exit(result=data.lower() if len(data) == 1 and data.isprintable() else None)

        ignore_mouse_reports(bindings)
        app = Application(layout=Layout(Window(FormattedTextControl(""), height=1)),
                          key_bindings=bindings, input=self.input, output=self.output,
                          erase_when_done=True, after_render=self._after_render)
        return self._guarded(lambda: app.run(pre_run=lambda: self._stop_app(app)))

    def _after_render(self, app):
        """A resized window ends the key read, so that the screen is drawn again at once."""
        if self.terminal_size() != self._drawn_size and not app.future.done():
            app.exit(result=None)

    def discard_typeahead(self):
        """Forget keys pressed while the game was busy: they answered nothing on screen."""
        from prompt_toolkit.input.typeahead import clear_typeahead
        clear_typeahead(self.input)
        try:
            import termios
        except ImportError:
            return  # not POSIX: the typeahead store was all there was
        try:
            termios.tcflush(self.input.fileno(), termios.TCIFLUSH)
        except (termios.error, OSError, ValueError, AttributeError):
            pass  # not a terminal: nothing waits there

    def _guarded(self, run):
        if self.stop:
            raise StopRequested(self.stop)
        try:
            return run()
        except EOFError:
            raise InputClosed("the terminal is closed") from None
        except OSError as error:
            if error.errno in (errno.EIO, errno.EBADF, errno.ENXIO):
                raise InputClosed("the terminal is gone") from None
            raise

    def forget_messages(self):
        """The messages' subject is done with."""
        self.pending = []

    def read_text(self, prompt, default="", limit=None):
        """A line of text (a name); F8/F9/F10 and Ctrl-C come back as (hot key, text so far)."""
        from prompt_toolkit import PromptSession
        from prompt_toolkit.key_binding import KeyBindings
        from prompt_toolkit.keys import Keys

        bindings = KeyBindings()
        hot = {Keys.F8: "F8", Keys.F9: "F9", Keys.F10: "F10", "c-c": "F10", "c-d": "F10"}
        for key, token in hot.items():
            bindings.add(key)(lambda event, token=token: event.app.exit(
                result=(token, event.app.current_buffer.text)))
        ignore_mouse_reports(bindings)
        swallow_title_sequences(bindings)
        session = PromptSession(key_bindings=bindings, input=self.input, output=self.output,
                                erase_when_done=False)
        result = self._guarded(lambda: session.prompt(
            prompt, default=default, pre_run=lambda: self._stop_app(session.app)))
        return result if isinstance(result, tuple) else (None, result)

    def bell(self, count=1):
        """Ring the terminal bell, a short pattern for more than one."""
        for ring in range(count):
            self._write(BELL)
            if ring + 1 < count:
                self.sleep(0.15)

    def pause(self, seconds):
        """Let the player see a step before the next one."""
        if seconds > 0:
            self.sleep(seconds)
