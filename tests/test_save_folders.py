"""Where the game keeps its files: beside a checkout, in the user's folders once installed, or
where the command line or the environment says; an earlier install's saves moved once."""
from pathlib import Path

import pytest
from helpers import XDG_HOME
from test_saves import files_in

from yahtzee.saves.folder import EarlierSaves, Folders, choose_folders, move_earlier_saves


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A project folder as a checkout has it: yahtzee.py beside the package."""
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "yahtzee.py").write_text("")
    return folder


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh home with no XDG folders set."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for name in ("XDG_DATA_HOME", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path / "home"


def test_the_command_line_beats_the_environment_which_beats_the_default(tmp_path: Path, checkout: Path) -> None:
    env = {"YAHTZEE_SAVES": str(tmp_path / "env")}
    assert choose_folders(str(tmp_path / "cli"), env, checkout) == Folders(tmp_path / "cli", tmp_path / "cli/cache")
    assert choose_folders(None, env, checkout) == Folders(tmp_path / "env", tmp_path / "env/cache")
    assert choose_folders(None, {}, checkout) == Folders(checkout / "saves", checkout / "saves/cache")
    assert choose_folders(None, {"YAHTZEE_CACHE": str(tmp_path / "tables")}, checkout).cache == tmp_path / "tables"


@pytest.mark.posix(reason="the XDG folders (Windows' AppData folders are tested through their seam)")
def test_an_installed_game_keeps_the_saves_and_tables_in_the_users_folders(tmp_path: Path, home: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site-packages"  # where the package lies, with no yahtzee.py beside it
    site.mkdir()
    assert choose_folders(None, {}, site, "linux") == Folders(home / ".local/share/yahtzee", home / ".cache/yahtzee")
    assert choose_folders(None, {}, site, "darwin") == Folders(home / "Library/Application Support/yahtzee",
                                                              home / "Library/Caches/yahtzee")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert choose_folders(None, {}, site, "linux") == Folders(tmp_path / "data/yahtzee", tmp_path / "cache/yahtzee")
    import platformdirs.windows
    folders = {"CSIDL_APPDATA": tmp_path / "Roaming", "CSIDL_LOCAL_APPDATA": tmp_path / "Local"}
    monkeypatch.setattr(platformdirs.windows, "get_win_folder", lambda csidl: str(folders[csidl]))
    windows = choose_folders(None, {}, site, "win32")
    assert windows == Folders(tmp_path / "Local/yahtzee", tmp_path / "Local/yahtzee/Cache")


@pytest.mark.posix(reason=XDG_HOME)
def test_an_unusable_saves_folder_beside_a_checkout_falls_back_to_the_users_folders(checkout: Path, home: Path) -> None:
    (checkout / "saves").write_text("a file where the folder should be")
    assert choose_folders(None, {}, checkout, "linux") == Folders(home / ".local/share/yahtzee",
                                                                  home / ".cache/yahtzee")


@pytest.mark.posix(reason=XDG_HOME)
def test_the_saves_an_earlier_install_kept_in_the_environment_are_moved_once(tmp_path: Path, home: Path) -> None:
    site = tmp_path / "site-packages"
    (site / "saves" / "cache").mkdir(parents=True)
    (site / "saves" / "history.jsonl").write_text("{}\n")
    (site / "saves" / "prefs.json").write_text("{}")
    (site / "saves" / "cache" / "strategy-hasbro.npz").write_bytes(b"8 MB of tables")
    folders = choose_folders(None, {}, site, "linux")
    assert move_earlier_saves(site, folders) == EarlierSaves(site / "saves", moved=True)
    assert files_in(folders.saves) == ["history.jsonl", "prefs.json"] and not (site / "saves").exists()
    assert move_earlier_saves(site, folders) is None
    (site / "saves").mkdir()
    (site / "saves" / "history.jsonl").write_text("{}\n")
    assert move_earlier_saves(site, folders) == EarlierSaves(site / "saves", moved=False)  # never over saves
    assert (site / "saves" / "history.jsonl").exists()


def test_a_checkout_never_moves_its_own_saves(checkout: Path, home: Path) -> None:
    (checkout / "saves").mkdir()
    (checkout / "saves" / "history.jsonl").write_text("{}\n")
    assert move_earlier_saves(checkout, choose_folders(None, {}, checkout, "linux")) is None


# autosave.json
