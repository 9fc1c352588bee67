"""Where the player's files go: the saves (autosave, history, preferences) and the tables.

Run from a checkout (yahtzee.py beside the package) they stay beside the game, in saves/ and
saves/cache/. Installed, the saves go in the platform's user data folder and the tables in its
user cache folder, as platformdirs names them (XDG on Linux, Application Support and Caches on
macOS, AppData on Windows). --saves and $YAHTZEE_SAVES choose the saves folder (the tables then
go in its cache/), $YAHTZEE_CACHE the tables' folder.
"""
import shutil
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from platformdirs.api import PlatformDirsABC

APP = "yahtzee"
ENV_SAVES = "YAHTZEE_SAVES"
ENV_CACHE = "YAHTZEE_CACHE"
CHECKOUT_MARK = "yahtzee.py"  # the script beside the package in a checkout, never installed


@dataclass(frozen=True)
class Folders:
    """The folders of one run."""

    saves: Path
    cache: Path


def platform_dirs(platform: Optional[str] = None) -> "PlatformDirsABC":
    """platformdirs' folders of the game for a platform ('linux', 'darwin', 'win32'...)."""
    platform = sys.platform if platform is None else platform
    if platform == "win32":
        from platformdirs.windows import Windows
        return Windows(APP, appauthor=False)
    if platform == "darwin":
        from platformdirs.macos import MacOS
        return MacOS(APP, appauthor=False)
    from platformdirs.unix import Unix
    return Unix(APP, appauthor=False)


def is_checkout(project_dir: Path) -> bool:
    """The game runs from a checkout of the project, not from an installed package."""
    return (Path(project_dir) / CHECKOUT_MARK).is_file()


def choose_folders(cli_saves: Optional[str], environ: Mapping[str, str], project_dir: Path,
                   platform: Optional[str] = None) -> Folders:
    """--saves, else $YAHTZEE_SAVES, else saves/ beside a checkout's yahtzee.py if it can be
    written, else the user data folder; the tables in $YAHTZEE_CACHE, else beside the saves
    chosen so (cache/), else in the user cache folder."""
    chosen = cli_saves or environ.get(ENV_SAVES)
    beside = Path(project_dir) / "saves"
    if chosen:
        saves = Path(chosen).expanduser()
        cache = saves / "cache"
    elif is_checkout(project_dir) and can_hold(beside):
        saves, cache = beside, beside / "cache"
    else:
        dirs = platform_dirs(platform)
        saves, cache = Path(dirs.user_data_dir), Path(dirs.user_cache_dir)
    if environ.get(ENV_CACHE):
        cache = Path(environ[ENV_CACHE]).expanduser()
    return Folders(saves, cache)


def can_hold(folder: Path) -> bool:
    """A folder that can be written, or that can be made where it would go."""
    return is_writable_folder(folder) or (not folder.exists() and is_writable_folder(folder.parent))


def is_writable_folder(path: Path) -> bool:
    """A folder this process may create files in: tried, as os.access reads neither Windows'
    folder permissions nor a file system mounted read-only."""
    if not Path(path).is_dir():
        return False
    try:
        with tempfile.TemporaryFile(dir=path):
            return True
    except OSError:
        return False


@dataclass(frozen=True)
class EarlierSaves:
    """Saves an earlier install kept inside the environment: moved to the saves folder, or
    left where they are because that folder holds saves of its own."""

    folder: Path
    moved: bool


def move_earlier_saves(project_dir: Path, folders: Folders) -> Optional[EarlierSaves]:
    """An installed game: the saves an earlier version kept inside the environment (saves/
    beside the package) move to the saves folder chosen unless it holds saves already; None
    when there are none."""
    old = Path(project_dir) / "saves"
    if is_checkout(project_dir) or not old.is_dir() or old.resolve() == folders.saves.resolve():
        return None
    entries = [entry for entry in old.iterdir() if entry.name != "cache"]
    if not entries:
        return None
    if folders.saves.is_dir() and any(folders.saves.iterdir()):
        return EarlierSaves(old, moved=False)
    folders.saves.mkdir(parents=True, exist_ok=True)
    for entry in entries:
        shutil.move(str(entry), str(folders.saves / entry.name))
    shutil.rmtree(old, ignore_errors=True)  # what is left is tables, which are worked out again
    return EarlierSaves(old, moved=True)
