"""A run that lacks a package it needs says so in one line, with the README's install command,
and exits 2: the package is really absent (the game runs without site-packages, beside a
folder that links every installed package but that one)."""
import site
import subprocess
import sys
from pathlib import Path
from typing import Any, Union

import pytest
from forkserver import ROOT
from helpers import ISOLATED, PTY
from terminal import Terminal

from yahtzee.usage import INSTALL, program_name


def without(package: str, tmp_path: Path) -> Path:
    """A folder holding every installed package but `package`, for PYTHONPATH under `python -S`."""
    folder = tmp_path / f"without-{package}"
    folder.mkdir()
    for site_packages in map(Path, site.getsitepackages()):
        for entry in site_packages.iterdir():
            if entry.name.split(".")[0].split("-")[0] != package and not (folder / entry.name).exists():
                (folder / entry.name).symlink_to(entry)
    return folder


def said_once(stderr: str, package: str) -> str:
    """The one line a missing package is said in."""
    assert "Traceback" not in stderr
    (line,) = stderr.strip().splitlines()
    assert f"the package {package} is not installed" in line and INSTALL in line
    return line


@pytest.mark.skipif(ISOLATED, reason="this Python's ._pth file makes it ignore PYTHONPATH and -S")
def test_plain_mode_without_numpy_says_so_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-S", str(ROOT / "yahtzee.py"), "--plain", "--saves", str(tmp_path)],
                          input="\n", capture_output=True, text=True, timeout=60,
                          env={"PYTHONPATH": str(without("numpy", tmp_path)), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 2
    assert said_once(done.stderr, "numpy").startswith("yahtzee.py: ")


@pytest.mark.posix(reason=PTY)
@pytest.mark.parametrize("package, options", [("prompt_toolkit", []), ("asyncssh", ["--host", "127.0.0.1:0"])])
def test_key_mode_and_hosting_without_their_package_say_so_in_one_line(
        package: str, options: list[Union[str, Any]], tmp_path: Path) -> None:
    stderr = tmp_path / "stderr"
    term = Terminal(program=[sys.executable, "-S", str(ROOT / "yahtzee.py"), "--saves", str(tmp_path), *options],
                    env={"PYTHONPATH": str(without(package, tmp_path))}, stderr=stderr)
    try:
        assert term.exit_code() == 2
    finally:
        term.close()
    said_once(stderr.read_text(), package)


@pytest.mark.parametrize("started_as, name", [("/x/yahtzee.py", "yahtzee.py"), ("/venv/bin/yahtzee", "yahtzee"),
                                              ("/x/yahtzee/__main__.py", "python -m yahtzee")])
def test_usage_lines_name_the_game_as_it_was_started(started_as: str, name: str) -> None:
    assert program_name(started_as) == name


def test_help_of_python_m_yahtzee_names_it_so() -> None:
    done = subprocess.run([sys.executable, "-m", "yahtzee", "--help"], capture_output=True, text=True,
                          cwd=str(ROOT), timeout=30)
    assert done.stdout.startswith("usage: python -m yahtzee ")
