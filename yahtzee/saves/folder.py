"""Choosing the saves folder: --saves, $YAHTZEE_SAVES, beside the game, or the user data folder."""
import os
from pathlib import Path

ENV_SAVES = "YAHTZEE_SAVES"


def choose_saves_dir(cli_value, environ, project_dir, windows=None):
    """--saves, else $YAHTZEE_SAVES, else saves/ beside yahtzee.py if writable, else user data."""
    if cli_value:
        return Path(cli_value).expanduser()
    if environ.get(ENV_SAVES):
        return Path(environ[ENV_SAVES]).expanduser()
    beside = Path(project_dir) / "saves"
    if _is_writable_folder(beside) or (not beside.exists() and _is_writable_folder(beside.parent)):
        return beside
    return user_data_dir(environ, os.name == "nt" if windows is None else windows)


def user_data_dir(environ, windows):
    """The per-user data folder: %APPDATA%, $XDG_DATA_HOME or ~/.local/share, + yahtzee."""
    home = Path(environ.get("HOME") or Path.home())
    if windows:
        return Path(environ.get("APPDATA") or home / "AppData" / "Roaming") / "yahtzee"
    xdg = environ.get("XDG_DATA_HOME", "")
    base = Path(xdg) if os.path.isabs(xdg) else home / ".local" / "share"
    return base / "yahtzee"


def is_writable_folder(path):
    """A folder this process may create files in."""
    return Path(path).is_dir() and os.access(path, os.W_OK | os.X_OK)


_is_writable_folder = is_writable_folder
