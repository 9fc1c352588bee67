"""Colour themes: classic, light and mono, chosen by preference or --theme; NO_COLOR still wins."""
import json
import re
from pathlib import Path
from typing import Any, Optional

import pytest
from helpers import PTY
from terminal import Terminal

from yahtzee import cli
from yahtzee.present.palette import THEMES, UnknownTheme, no_colour, painter

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
SGR = re.compile(r"\x1b\[([0-9;]*)m")
YELLOW_OR_CYAN = {"33", "36", "93", "96"}


def codes(text: str) -> set[str]:
    """Every SGR parameter in the text."""
    return {param for group in SGR.findall(text) for param in group.split(";") if param}


def test_every_role_is_in_every_theme() -> None:
    roles = set(THEMES["classic"])
    assert all(set(theme) == roles for theme in THEMES.values())


@pytest.mark.parametrize("role", sorted(THEMES["light"]))
def test_the_light_theme_has_no_yellow_or_cyan_text(role: str) -> None:
    assert not codes(painter("light")(role, "text")) & YELLOW_OR_CYAN


@pytest.mark.parametrize("role", sorted(THEMES["mono"]))
def test_the_mono_theme_is_bold_and_reverse_only(role: str) -> None:
    assert codes(painter("mono")(role, "text")) <= {"0", "1", "7"}


def test_the_classic_theme_is_the_default_and_no_colour_paints_nothing() -> None:
    assert painter(True)("on", "ON") == painter("classic")("on", "ON") != "ON"
    assert painter(None) is painter(False) is no_colour
    with pytest.raises(UnknownTheme, match="known: classic, light, mono"):
        painter("neon")


def test_a_bad_theme_is_a_one_line_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        cli.main(["--theme", "neon"])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "unknown theme 'neon'" in error


def screen_codes(tmp_path: Path, *args: Any, env: Any = None, prefs: Any = None) -> set[str]:
    """The colour codes the play screen is drawn with, after the first roll."""
    saves = tmp_path / "saves"
    saves.mkdir()
    if prefs:
        (saves / "prefs.json").write_text(json.dumps({"version": 1, **prefs}))
    term = Terminal("--saves", str(saves), "--seed", "2", *args, env=env)
    try:
        term.wait_for("Press any key to begin")
        term.press("x")
        term.wait_for("Instructions? (Y/N)")
        term.press("n", "ANN", "Enter", "Enter")
        term.wait_for("Ready to play? (Y/N)")
        term.press("y", " ", "1")
        term.wait_for("[1]")
        return codes(term.raw.decode("utf-8", "replace"))
    finally:
        term.close()


@pytest.mark.posix(reason=PTY)
def test_the_theme_option_reaches_the_screen(tmp_path: Path) -> None:
    assert screen_codes(tmp_path, "--theme", "mono") == {"0", "1", "7"}


@pytest.mark.posix(reason=PTY)
def test_the_theme_preference_reaches_the_screen(tmp_path: Path) -> None:
    shown = screen_codes(tmp_path, prefs={"theme": "light"})
    assert "34" in shown and not shown & YELLOW_OR_CYAN


@pytest.mark.posix(reason=PTY)
def test_the_theme_option_beats_the_preference(tmp_path: Path) -> None:
    assert screen_codes(tmp_path, "--theme", "mono", prefs={"theme": "light"}) == {"0", "1", "7"}


@pytest.mark.parametrize("args, env", [(("--theme", "light"), {"NO_COLOR": "1"}),
                                       (("--theme", "mono", "--no-color"), None)])
@pytest.mark.posix(reason=PTY)
def test_no_color_beats_the_theme(
        tmp_path: Path, args: tuple[str, ...], env: Optional[dict[str, str]]) -> None:
    assert screen_codes(tmp_path, *args, env=env) == set()
