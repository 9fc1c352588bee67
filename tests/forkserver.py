"""Games started from a process that has loaded the game's modules already (a fork server, one
for each test worker): it forks each game onto a pseudo-terminal of its own, so the game skips
the interpreter's start and the imports, most of a short game's CPU, and is from there the
real program: `yahtzee.py` run as __main__ in a process of its own, leading its own session
with the terminal as its controlling terminal, with the test's environment, folder and
arguments. The test holds the terminal's only master end and kills the game by its pid; the
server, its parent, tells its exit status.

Interpreter-level settings (PYTHON*, LANG, LC_*) are fixed when the server starts: a game
that needs others is started afresh, as is every test of the start itself (terminal.Terminal
and helpers.run_game choose)."""
from __future__ import annotations  # (pexpect.spawn, in annotations, is POSIX's only)

import atexit
import contextlib
import importlib
import io
import json
import locale
import os
import random
import runpy
import selectors
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pexpect
from pexpect.fdpexpect import fdspawn

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "yahtzee.py"
# What a game loads before its first screen (and in its background threads): the server loads
# it once, each forked game finds it loaded.
PRELOADED = ("yahtzee.cli", "yahtzee.app", "yahtzee.consoles.keymode", "yahtzee.consoles.toolkit",
             "yahtzee.consoles.lineedit", "yahtzee.consoles.keyreader", "yahtzee.consoles.plain",
             "yahtzee.strategy.storage.engine", "yahtzee.net.hostconsole", "yahtzee.net.server")
MESSAGE_BYTES = 1 << 16


def set_up_by_interpreter(name: str) -> bool:
    """Whether an environment variable is read when Python starts (so a forked game keeps the
    server's); PYTHONUNBUFFERED apart, which a forked game follows (standard_streams)."""
    return (name.startswith(("PYTHON", "LC_")) or name == "LANG") and name != "PYTHONUNBUFFERED"


def interpreter_settings(environment: Mapping[str, str]) -> dict[str, str]:
    """The environment's variables that Python reads when it starts."""
    return {name: value for name, value in environment.items() if set_up_by_interpreter(name)}


# -- the server -------------------------------------------------------------------------
def serve(connection: socket.socket) -> None:
    """Load the game's modules, then start a game for each request until the worker hangs up."""
    if sys.platform == "win32":  # for the type checker: the fork server is POSIX's (none on Windows)
        raise OSError("no fork server on Windows")
    for name in PRELOADED:
        importlib.import_module(name)
    assert threading.active_count() == 1, "a fork server forks only a single thread"
    while True:
        data, fds, _, _ = socket.recv_fds(connection, MESSAGE_BYTES, 3)
        if not data:
            return
        request = json.loads(data)
        if request["do"] == "start":
            pid, master = start(request, connection)
            socket.send_fds(connection, [json.dumps({"pid": pid}).encode()], [master])
            os.close(master)
        elif request["do"] == "run":
            pid = run(request, connection, fds)
            connection.send(json.dumps({"pid": pid}).encode())
        else:  # "status"
            done, status = os.waitpid(request["pid"], os.WNOHANG)
            connection.send(json.dumps({"status": status if done else None}).encode())


def start(request: dict[str, Any], connection: socket.socket) -> tuple[int, int]:
    """Fork a game on a new terminal: (its pid, the terminal's master end)."""
    if sys.platform == "win32":  # for the type checker: the fork server is POSIX's (none on Windows)
        raise OSError("no fork server on Windows")
    import fcntl  # (the server forks and sets up terminals; on Windows helpers.run_game starts each game afresh)
    import termios
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", request["lines"], request["columns"], 0, 0))
    if not request["echo"]:
        attributes = termios.tcgetattr(slave)
        attributes[3] &= ~termios.ECHO
        termios.tcsetattr(slave, termios.TCSANOW, attributes)
    pid = os.fork()
    if pid == 0:
        try:
            os.close(master)
            connection.close()
            on_terminal(request, slave)
        finally:
            os._exit(70)  # only if the game itself could not be run
    os.close(slave)
    return pid, master


def run(request: dict[str, Any], connection: socket.socket, pipes: list[int]) -> int:
    """Fork a game reading and writing the pipes it was given (stdin, stdout, stderr): its pid."""
    if sys.platform == "win32":  # for the type checker: the fork server is POSIX's (none on Windows)
        raise OSError("no fork server on Windows")
    pid = os.fork()
    if pid == 0:
        try:
            connection.close()
            os.setsid()
            for fd, pipe in enumerate(pipes):
                os.dup2(pipe, fd)
            become_game(request)
        finally:
            os._exit(70)  # only if the game itself could not be run
    for pipe in pipes:
        os.close(pipe)
    return pid


def on_terminal(request: dict[str, Any], terminal: int) -> None:
    """In the forked process: the terminal as a new session's, then the game."""
    if sys.platform == "win32":  # for the type checker: the fork server is POSIX's (none on Windows)
        raise OSError("no fork server on Windows")
    import fcntl
    import termios
    os.setsid()
    fcntl.ioctl(terminal, termios.TIOCSCTTY, 0)
    for fd in (0, 1, 2):
        os.dup2(terminal, fd)
    os.close(terminal)
    if request["stderr"]:  # to a file, so it outlives the terminal
        errors = os.open(request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(errors, 2)
        os.close(errors)
    become_game(request)


def become_game(request: dict[str, Any]) -> None:
    """In the forked process, fds 0-2 in place: the request's environment, folder and
    arguments, then the game as `python yahtzee.py ARGS` runs it."""
    os.closerange(3, 256)
    os.environ.clear()
    os.environ.update(request["env"])
    os.chdir(request["cwd"])
    sys.argv = [str(GAME), *request["args"]]
    sys.path[0] = str(GAME.parent)
    random.seed()  # each game its own chance, as a new interpreter's
    standard_streams()
    os._exit(run_as_main())


def standard_streams() -> None:
    """New sys.stdin, stdout and stderr on fds 0-2, set up as a new interpreter sets them up
    (encodings and error handlers as the server's; PYTHONUNBUFFERED followed)."""
    unbuffered = bool(os.environ.get("PYTHONUNBUFFERED"))
    for name, fd in (("stdin", 0), ("stdout", 1), ("stderr", 2)):
        old = getattr(sys, name)
        binary: io.BufferedReader | io.BufferedWriter | io.FileIO
        if fd == 0:
            binary = io.BufferedReader(io.FileIO(fd, "rb", closefd=False))
        else:
            raw = io.FileIO(fd, "wb", closefd=False)
            binary = raw if unbuffered else io.BufferedWriter(raw)
        stream = io.TextIOWrapper(binary, encoding=old.encoding, errors=old.errors,
                                  line_buffering=not unbuffered and (fd == 2 or os.isatty(fd)),
                                  write_through=unbuffered)
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def run_as_main() -> int:
    """Run yahtzee.py as __main__ and end as Python ends: the exit status of SystemExit or 1
    after an uncaught exception's traceback, once non-daemon threads are done, the atexit
    functions run and the streams are flushed."""
    try:
        runpy.run_path(str(GAME), run_name="__main__")
        status = 0
    except SystemExit as leaving:
        status = exit_status(leaving.code)
    except KeyboardInterrupt:
        traceback.print_exc()
        status = -signal.SIGINT
    except BaseException:  # noqa: BLE001 (reported as Python reports it)
        traceback.print_exc()
        status = 1
    # the non-daemon threads waited for, as Python does before atexit (private: not in the stubs)
    threading._shutdown()  # type: ignore[attr-defined]
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    if status == -signal.SIGINT:  # as Python ends after an uncaught KeyboardInterrupt
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    return status


def exit_status(code: object) -> int:
    """The process's exit status for SystemExit(code), as Python gives it."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


# -- the worker's side --------------------------------------------------------------------
class ForkServer:
    """A worker's connection to its fork server, started at the first game."""

    connection: socket.socket
    lock: threading.Lock
    process: subprocess.Popen[bytes]

    def __init__(self, environment: Mapping[str, str]) -> None:
        if sys.platform == "win32":  # for the type checker: the fork server is POSIX's (none on Windows)
            raise OSError("no fork server on Windows")
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.connection = ours
        self.lock = threading.Lock()
        self.process = subprocess.Popen([sys.executable, __file__, str(theirs.fileno())], pass_fds=[theirs.fileno()],
                                        env=environment, cwd=str(ROOT), stdin=subprocess.DEVNULL)
        theirs.close()

    def start(self, args: Sequence[str], environment: Mapping[str, str], cwd: Path, lines: int, columns: int,
              echo: bool, stderr: Path | None) -> tuple[int, int]:
        """A game started on a new terminal: (its pid, the master end)."""
        if sys.platform == "win32":  # for the type checker: the fork server is POSIX's (none on Windows)
            raise OSError("no fork server on Windows")
        request = {"do": "start", "args": list(args), "env": dict(environment), "cwd": str(cwd),
                   "lines": lines, "columns": columns, "echo": echo, "stderr": stderr and str(stderr)}
        with self.lock:
            self.connection.send(json.dumps(request).encode())
            data, fds, _, _ = socket.recv_fds(self.connection, MESSAGE_BYTES, 1)
        if not data:
            raise RuntimeError("the fork server ended")
        return json.loads(data)["pid"], fds[0]

    def run(self, args: Sequence[str], environment: Mapping[str, str], cwd: Path, pipes: list[int]) -> int:
        """A game started on the pipes (stdin, stdout, stderr): its pid."""
        if sys.platform == "win32":  # for the type checker: the fork server is POSIX's (none on Windows)
            raise OSError("no fork server on Windows")
        request = {"do": "run", "args": list(args), "env": dict(environment), "cwd": str(cwd)}
        with self.lock:
            socket.send_fds(self.connection, [json.dumps(request).encode()], pipes)
            data = self.connection.recv(MESSAGE_BYTES)
        if not data:
            raise RuntimeError("the fork server ended")
        return json.loads(data)["pid"]

    def status(self, pid: int) -> int | None:
        """The game's wait status once it has ended, else None."""
        with self.lock:
            self.connection.send(json.dumps({"do": "status", "pid": pid}).encode())
            data = self.connection.recv(MESSAGE_BYTES)
        if not data:
            raise RuntimeError("the fork server ended")
        return json.loads(data)["status"]


# The server's environment: the run's, as it stood when the tests were collected (the tests
# start their games unbuffered). A test's own settings of its game's interpreter (a locale, a
# Python option) start that game afresh.
SERVER_ENVIRONMENT = {**os.environ, "PYTHONUNBUFFERED": "1"}
_SERVER: list[ForkServer] = []


def fork_server(environment: Mapping[str, str]) -> ForkServer | None:
    """This worker's fork server if it can start a game with `environment`, else None."""
    if sys.platform == "win32":  # no fork
        return None
    if interpreter_settings(environment) != interpreter_settings(SERVER_ENVIRONMENT):
        return None
    if not _SERVER:
        _SERVER.append(ForkServer(SERVER_ENVIRONMENT))
    return _SERVER[0]


class ForkedGame(fdspawn):
    """A forked game as pexpect sees a spawned one: read, send and expect on its terminal;
    isalive, kill, terminate, close, setwinsize; exitstatus and signalstatus once it has ended."""

    pid: int

    def __init__(self, server: ForkServer, pid: int, master: int, **options: Any) -> None:
        super().__init__(master, **options)
        self.server, self.pid = server, pid
        self.exitstatus: int | None = None
        self.signalstatus: int | None = None
        self.status: int | None = None
        self.terminated = False

    def isalive(self) -> bool:
        """Whether the game is still running."""
        if sys.platform == "win32":  # for the type checker: the fork server is POSIX's (none on Windows)
            raise OSError("no fork server on Windows")
        if self.terminated:
            return False
        status = self.server.status(self.pid)
        if status is None:
            return True
        self.status, self.terminated = status, True
        if os.WIFEXITED(status):
            self.exitstatus = os.WEXITSTATUS(status)
        else:
            self.signalstatus = os.WTERMSIG(status)
        return False

    def kill(self, sig: int) -> None:
        """Send the game a signal."""
        if not self.terminated:
            os.kill(self.pid, sig)

    # pexpect's spawn.terminate tells whether the child ended, as this does (fdspawn's stub: None)
    def terminate(self, force: bool = False) -> bool:  # type: ignore[override]
        """End the game: SIGHUP, SIGINT, then with `force` SIGKILL (pexpect's order)."""
        if sys.platform == "win32":  # for the type checker: the fork server is POSIX's (none on Windows)
            raise OSError("no fork server on Windows")
        for sig in (signal.SIGHUP, signal.SIGCONT, signal.SIGINT) + ((signal.SIGKILL,) if force else ()):
            if not self.isalive():
                return True
            self.kill(sig)
            self._wait_for_end(0.1)
        return not self.isalive()

    def close(self, force: bool = True) -> None:
        """Close the master end (the game is hung up) and wait for its status."""
        if not self.closed:
            self.close_master()
        if not self._wait_for_end(1.0) and force:
            self.terminate(force=True)

    def close_master(self) -> None:
        """Close the terminal's master end, as closing the window does."""
        super().close()

    def _wait_for_end(self, seconds: float) -> bool:
        """Wait up to `seconds` for the game to end; whether it has."""
        from helpers import wait_until  # (the worker's: the server itself never loads the tests' helpers)
        with contextlib.suppress(AssertionError):
            wait_until(lambda: not self.isalive(), seconds)
        return not self.isalive()

    def setwinsize(self, rows: int, cols: int) -> None:
        """Resize the terminal (the game gets SIGWINCH)."""
        if sys.platform == "win32":  # for the type checker: the fork server is POSIX's (none on Windows)
            raise OSError("no fork server on Windows")
        import fcntl
        import termios
        fcntl.ioctl(self.child_fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def spawn_game(args: Sequence[str], environment: Mapping[str, str], lines: int = 24, columns: int = 80,
               echo: bool = True, stderr: Path | None = None, fresh: bool = False,
               **options: Any) -> ForkedGame | pexpect.spawn:
    """The game started with `args` on a new terminal (its stderr to the file `stderr` if
    given): forked where the environment allows, else (and when `fresh`) started afresh by
    pexpect, as a player starts it."""
    server = None if fresh else fork_server(environment)
    if server is None:
        return spawn([sys.executable, str(GAME), *args], environment, lines, columns, echo, stderr, **options)
    pid, master = server.start(args, environment, ROOT, lines, columns, echo, stderr)
    return ForkedGame(server, pid, master, **options)


def spawn(command: Sequence[str], environment: Mapping[str, str], lines: int = 24, columns: int = 80, echo: bool = True,
          stderr: Path | None = None, **options: Any) -> pexpect.spawn:
    """A program started afresh by pexpect on a new terminal (its stderr to the file `stderr`
    if given)."""
    if stderr is not None:
        command = ["/bin/sh", "-c", 'exec "$@" 2>"$GAME_STDERR"', "sh", *command]
        environment = {**environment, "GAME_STDERR": str(stderr)}
    return pexpect.spawn(command[0], list(command[1:]), cwd=str(ROOT), env=environment,
                         dimensions=(lines, columns), echo=echo, **options)


def run_forked(args: Sequence[str], input: str | bytes | None = None, env: Mapping[str, str] | None = None,
               timeout: float = 60, text: bool = True, fresh: bool = False) -> subprocess.CompletedProcess[Any]:
    """helpers.run_game's game in a process of its own: subprocess.run of `python yahtzee.py
    ARGS` with `input`, capturing its output, forked where the environment allows, else (and
    when `fresh`) started afresh."""
    environment = dict(os.environ if env is None else env)
    server = None if fresh else fork_server(environment)
    if server is None:
        return subprocess.run([sys.executable, str(GAME), *args], input=input, capture_output=True, text=text,
                              env=environment, cwd=ROOT, timeout=timeout)
    if sys.platform == "win32":  # for the type checker: fork_server gives none on Windows
        raise OSError("no fork server on Windows")
    from helpers import wait_until  # (the worker's: the server itself never loads the tests' helpers)
    deadline = time.monotonic() + timeout
    (stdin, feed), (out, out_end), (err, err_end) = os.pipe(), os.pipe(), os.pipe()
    pid = server.run(args, environment, ROOT, [stdin, out_end, err_end])
    for end in (stdin, out_end, err_end):
        os.close(end)
    data = input.encode() if isinstance(input, str) else input or b""
    feeding = threading.Thread(target=feed_and_close, args=(feed, data), daemon=True)
    feeding.start()

    def ended() -> list[int]:
        """[the game's wait status] once it has ended (a status of 0 an ending too), else []."""
        status = server.status(pid)
        return [] if status is None else [status]
    try:
        stdout, stderr = read_to_end([out, err], deadline)
        try:
            (status,) = wait_until(ended, deadline - time.monotonic())
        except AssertionError:
            raise subprocess.TimeoutExpired(args, timeout) from None
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        raise
    finally:
        feeding.join()
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -os.WTERMSIG(status)
    if text:
        return subprocess.CompletedProcess([sys.executable, str(GAME), *args], code, as_text(stdout), as_text(stderr))
    return subprocess.CompletedProcess([sys.executable, str(GAME), *args], code, stdout, stderr)


def feed_and_close(fd: int, data: bytes) -> None:
    """Write `data` to the pipe and close it (a game that stops reading early is no error)."""
    with contextlib.suppress(BrokenPipeError), open(fd, "wb") as pipe:
        pipe.write(data)


def read_to_end(fds: list[int], deadline: float) -> list[bytes]:
    """All that is written to the pipes until they close, each as bytes (TimeoutExpired at `deadline`)."""
    outputs = {fd: bytearray() for fd in fds}
    with selectors.DefaultSelector() as selector:
        for fd in fds:
            selector.register(fd, selectors.EVENT_READ)
        while selector.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                raise subprocess.TimeoutExpired("the game", left)
            for key, _ in selector.select(left):
                chunk = os.read(key.fd, 65536)
                if chunk:
                    outputs[key.fd] += chunk
                else:
                    selector.unregister(key.fd)
                    os.close(key.fd)
    return [bytes(outputs[fd]) for fd in fds]


def as_text(output: bytes) -> str:
    """Output as subprocess.run(text=True) gives it: decoded, newlines made \n."""
    return output.decode(locale.getpreferredencoding(False)).replace("\r\n", "\n").replace("\r", "\n")


def close_window(child: ForkedGame | pexpect.spawn) -> None:
    """Close the terminal's master end under a game, as a player closing the window does."""
    if isinstance(child, ForkedGame):
        child.close_master()
    else:
        child.ptyproc.fileobj.close()  # type: ignore[attr-defined]  # pexpect's, not in its stubs


def has_ended(child: ForkedGame | pexpect.spawn) -> bool:
    """Whether the game has ended (once its window is closed, too)."""
    return not (child.isalive() if isinstance(child, ForkedGame)
                else child.ptyproc.isalive())  # type: ignore[attr-defined]  # pexpect's, not in its stubs


def ended_with(child: ForkedGame | pexpect.spawn) -> int | None:
    """The game's exit status once it has ended."""
    return (child.exitstatus if isinstance(child, ForkedGame)
            else child.ptyproc.exitstatus)  # type: ignore[attr-defined]  # pexpect's, not in its stubs


if __name__ == "__main__":
    serve(socket.socket(fileno=int(sys.argv[1])))
