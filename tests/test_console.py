"""The console layer on its own: the one key reader, names typed, messages, control sequences."""
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from functools import partial
from typing import Any, Callable, Union

import pytest
from helpers import (
    FULL_SIZE,
    POSIX_READER,
    KeyScript,
    ScreenOutput,
    chunked_console,
    plain_console,
    printed,
    wait_until,
)
from keycodes import F8, F9, F10, KEYS, sent
from prompt_toolkit.keys import Keys
from prompt_toolkit.utils import get_cwidth

from yahtzee.consoles.keymode import KeyConsole, StopRequested
from yahtzee.consoles.keyreader import ESCAPE_TIMEOUT, SEQUENCE_TIMEOUT
from yahtzee.consoles.stops import InputClosed
from yahtzee.present.keys import Key
from yahtzee.present.palette import strip_controls, visible_width
from yahtzee.present.render import SCREEN_HEIGHT
from yahtzee.screens.flow import Keeper, run_from
from yahtzee.screens.steps import Moment, Screen

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LEFT, END = sent(Keys.Left), sent(Keys.End)


@pytest.mark.parametrize("text, shown", [
    ("plain", "plain"),
    ("\x1b[1;31mred\x1b[0m", "red"),                     # CSI colour codes
    ("a\x1b[2Jb\x1b[?25lc", "abc"),                      # CSI with private parameters
    ("a\x1b]0;title\x07b", "ab"),                        # OSC ended by BEL
    ("a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\b", "alinkb"),  # OSC ended by ESC \
    ("a\x1bP1$r0m\x1b\\b", "ab"),                        # DCS
    ("a\x1bXsos\x1b\\b\x1b^pm\x1b\\c\x1b_apc\x1b\\d", "abcd"),  # SOS, PM, APC
    ("a\x9b31mb\x9d0;t\x9cc", "abc"),                    # C1 CSI and OSC
    ("a\x1b7b\x1b(Bc\x1b4d", "abcd"),                    # other ESC sequences
    ("a\x1b", "a"), ("a\x1b[12", "a"), ("a\x1b]0;unended", "a"),  # cut short
    ("a\x07\x00\x85b\tc\n", "ab\tc\n"),                  # lone C0/C1 controls; tab, newline stay
    ("Zoë 名前", "Zoë 名前"),
])
def test_strip_controls_leaves_only_what_a_screen_shows(text: str, shown: str) -> None:
    assert strip_controls(text) == shown
    assert strip_controls(text) == shown


def test_widths_are_terminal_cells() -> None:
    assert visible_width("\x1b[31m名前\x1b[0m") == 4
    assert visible_width("Zoë") == 3
    # plain ASCII is counted apart from the cell-width table: both must agree on every character
    for char in map(chr, range(128)):
        assert visible_width(f"\x1b[1m{char}x") == get_cwidth(strip_controls(char + "x")), repr(char)


@pytest.fixture
def script() -> Iterator[Callable]:
    scripts = []

    def start(keys: str = "", **options: Any) -> Any:
        scripts.append(KeyScript(keys, **options))
        return scripts[-1]

    yield start
    for each in scripts:
        each.close()


def read_keys(console: KeyConsole, count: int) -> list[Union[str, Key]]:
    return [console.read_key() for _ in range(count)]


def keys_split(first: str, rest: str, delay: float) -> list[Union[str, Key]]:
    """The two tokens read when `rest` arrives `delay` seconds after `first` (each read apart)."""
    console = chunked_console([(first, 0), (rest, delay)])
    try:
        return read_keys(console, 2)
    finally:
        console.reader.close()


def test_keys_become_tokens(script: Callable) -> None:
    console = script(f"R1\r{F8}{F9}{F10}{KEYS['C-c']} ?{sent(Keys.Up)}\t2").console
    assert read_keys(console, 10) == ["r", "1", "enter", "F8", "F9", "F10", "F10", " ", "?", "2"]


@pytest.mark.posix(reason=POSIX_READER)
def test_a_lone_esc_is_a_key_of_its_own() -> None:
    assert keys_split(KEYS["Esc"], "2", ESCAPE_TIMEOUT + 0.3) == ["escape", "2"]


@pytest.mark.posix(reason=POSIX_READER)
def test_an_f_key_split_after_its_sequence_began_is_still_the_f_key() -> None:
    # Longer than a lone Esc waits: a sequence begun (Esc [ 1) waits for the rest.
    assert ESCAPE_TIMEOUT + 0.1 < SEQUENCE_TIMEOUT / 2
    assert keys_split(F8[:3], F8[3:] + "2", ESCAPE_TIMEOUT + 0.1) == ["F8", "2"]


@pytest.mark.posix(reason=POSIX_READER)
def test_an_f_key_split_after_its_esc_never_becomes_a_die_choice() -> None:
    assert keys_split(F8[:1], F8[1:] + "2", ESCAPE_TIMEOUT + 0.3) == ["escape", "2"]


@pytest.mark.posix(reason=POSIX_READER)
def test_an_f_key_whose_rest_comes_within_the_escape_timeout_is_the_f_key() -> None:
    assert keys_split(F8[:1], F8[1:] + "2", ESCAPE_TIMEOUT / 2) == ["F8", "2"]


@pytest.mark.posix(reason=POSIX_READER)
def test_control_sequences_never_reach_a_name_being_typed(context: partial) -> None:
    """A cursor report in two pieces, a paste, ESC 4 and an F10 in two pieces, each piece
    read apart, 0.2 s after the one before, while the first name is typed."""
    console = chunked_console([("A\x1b[12;", 0), ("40R\x1b[2J\x07\x1b]0;t\x07\x1b4B\x1b[2", 0.2), ("1~", 0.2),
                               ("n", 0), ("\r", 0)])
    ctx = context()
    try:
        with pytest.raises(InputClosed):
            run_from(console, ctx, Keeper(ctx), Moment(Screen.NAMES))
    finally:
        console.reader.close()
    output = console.output
    assert isinstance(output, ScreenOutput)
    said = "".join(output.written)
    assert "Quit Computer Yahtzee? (Y/N)" in said and "Player 1 name: AB" in said
    assert "arg" not in said and "^[" not in said and "40R" not in said
    assert [player.name for player in ctx.session.players] == ["AB"]
    assert "1. AB" in output.text() and "Player 2 name:" in output.text()


@pytest.mark.parametrize("noise", ["\x1b[31m", "\x1b[<0;12;4M", "\x1b[2J\x07\x1b]0;t\x07",
                                   "\x1bP1$r\x1b\\", "\x1b[12;40R", "\x1b4", "\x1b[200~"])
@pytest.mark.posix(reason=POSIX_READER)
def test_control_sequences_type_nothing(script: Callable, noise: str) -> None:
    console = script(f"a{noise}b").console
    assert read_keys(console, 2) == ["a", "b"]


def test_keys_typed_ahead_survive_every_kind_of_read(script: Callable) -> None:
    console = script(f"xAnn{F8}Bo\rny").console
    assert console.read_key() == "x"
    assert console.read_text("Name: ") == ("F8", "Ann")
    assert console.read_text("Name: ", "Ann") == (None, "AnnBo")
    assert read_keys(console, 2) == ["n", "y"]


@pytest.mark.posix(reason=POSIX_READER)
def test_a_name_stops_at_its_limit_and_is_edited_in_place(script: Callable) -> None:
    console = script("Annabelle\r" + f"Bob{LEFT}{LEFT}x\x7f\x7fZ{END}y\r" + "\x1b4C\r").console
    assert console.read_text("Name: ", limit=6) == (None, "Annabe")
    assert script("한국어X\r").console.read_text("Name: ", limit=6) == (None, "한국어")  # cells, not characters
    assert console.read_text("Name: ") == (None, "Zoby")
    assert console.read_text("Name: ") == (None, "C")  # ESC 4 is no numeric argument


def test_a_name_never_grows_past_the_screen_width(script: Callable) -> None:
    console = script("名" * 60 + "\r").console
    _, text = console.read_text("Player 1 name: ")
    assert visible_width("Player 1 name: " + text) <= 79


def test_the_last_three_messages_stay_until_forgotten(script: Callable) -> None:
    keys = script()
    console = keys.console
    drawn = keys.output.written  # each drawing, as it was sent to the terminal
    console.show(["SCREEN"])
    for text in ("one", "two", "three", "four"):
        console.message(text)
    console.show(["NEXT SCREEN"])
    assert drawn[-1].split("\r\n")[1:4] == ["two", "three", "four"]
    console.forget_messages()
    console.show(["NEXT SCREEN"])
    assert "four" not in drawn[-1]


def test_messages_that_do_not_fit_drop_the_oldest(script: Callable) -> None:
    keys = script()
    console, drawn = keys.console, keys.output.written  # each drawing, as it was sent to the terminal
    console.show([f"row {n}" for n in range(SCREEN_HEIGHT - 1)])
    console.message("old")
    console.message("new")
    rows = drawn[-1].split("\r\n")
    assert "new" in rows and "old" not in rows


def test_a_stop_request_ends_the_read_under_way(script: Callable) -> None:
    keys = script(more_to_come=True)
    later = threading.Timer(0.2, lambda: keys.console.request_stop(signal.SIGTERM))
    later.start()
    with pytest.raises(StopRequested):
        keys.console.read_key()
    later.join()


def test_plain_mode_keeps_step() -> None:
    console = plain_console(["Annabelle"])
    console.message("shown at once")
    console.forget_messages()
    assert console.read_text("Name", limit=6) == (None, "Annabelle")
    assert "shown at once" in printed(console)


@pytest.mark.posix(reason="/dev/full")
@pytest.mark.parametrize("args", [["--bogus"], ["--rules", "nope"], ["--simulate", "0"]])
def test_a_usage_error_exits_2_even_when_stderr_is_full(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "yahtzee.py", *args], cwd=ROOT, stderr=full,
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 2


def test_a_message_from_another_thread_is_shown_while_a_key_is_awaited(script: Callable) -> None:
    keys = script("", more_to_come=True)
    shown = []

    def later() -> None:
        keys.console.message_from_thread("A damaged strategy table is rebuilt.")
        try:
            wait_until(lambda: "A damaged strategy table is rebuilt." in keys.output.text())
        finally:
            shown.append(keys.output.text())
            keys.pipe.send_text("x")
    worker = threading.Thread(target=later)
    keys.console.show(["THE SCREEN"])
    worker.start()
    assert keys.console.read_key("Press a key") == "x"
    worker.join()
    assert "THE SCREEN" in shown[0] and "A damaged strategy table is rebuilt." in shown[0]


@pytest.mark.posix(reason="SIGWINCH sent to another thread (pthread_kill)")
def test_a_resize_signalled_to_another_thread_is_drawn_at_once(script: Callable) -> None:
    if sys.platform == "win32":  # for the type checker: POSIX only (never run on Windows)
        pytest.skip("POSIX only")
    keys = script(more_to_come=True)
    size = [FULL_SIZE]
    keys.console.terminal_size = lambda: size[0]
    shown, main = [], threading.get_ident()

    def later() -> None:
        """A window made smaller while a table is built: the kernel may give the signal to
        the building thread, not to the one waiting for a key."""
        try:
            wait_until(lambda: sys._current_frames()[main].f_code.co_name == "next_press")
            time.sleep(0.1)  # into its select(): a signal sent sooner would be handled anyway
            size[0] = os.terminal_size((70, 24))
            signal.pthread_kill(threading.get_ident(), signal.SIGWINCH)
            shown.append(wait_until(lambda: "needs 80x24" in keys.output.text()))
        finally:
            keys.pipe.send_text(F10)  # F10 is still read on a window too small
    worker = threading.Thread(target=later)
    with keys.console.running():
        keys.console.show(["THE SCREEN"])
        worker.start()
        assert keys.console.read_key("Press a key") == "F10"
    worker.join()
    assert shown == [True]

