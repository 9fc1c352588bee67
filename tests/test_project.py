"""The project's own promises: README's commands and CI stay in step."""
import pathlib
import re
from pathlib import Path

import pytest
from helpers import run_game, there
from syntax import parsed, walked

ROOT = pathlib.Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    return re.findall(r"```sh\n(.+?)\n```", (ROOT / "README.md").read_text())


def test_readme_starts_with_the_play_and_test_commands() -> None:
    play, test = readme_commands()[:2]
    assert (ROOT / "README.md").read_text().index(play) < 40
    assert "pip install" in play and play.endswith("python yahtzee.py")
    assert "pip install" in test and test.endswith("python -m pytest")


def test_ci_runs_exactly_the_readme_test_command() -> None:
    test = readme_commands()[1]
    assert test in (ROOT / ".ci" / "run").read_text().splitlines()


def test_the_package_version_matches_setup_cfg() -> None:
    from yahtzee import __version__
    assert f"version = {__version__}\n" in (ROOT / "setup.cfg").read_text()


def test_the_manual_fits_an_80_column_screen() -> None:
    long = [n for n, line in enumerate((ROOT / "YAHTZEE.DOC").read_text().splitlines(), 1)
            if len(line) >= 80]
    assert long == []


@pytest.mark.posix(reason="the README's command in a POSIX shell")
def test_the_readme_plain_example_leaves_no_saved_game_in_the_players_saves(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys
    (example,) = [line for line in (ROOT / "README.md").read_text().splitlines()
                  if line.startswith("printf ")]
    command = example.replace(".venv/bin/python yahtzee.py", f"{sys.executable} yahtzee.py")
    env = {key: value for key, value in os.environ.items() if key != "YAHTZEE_SAVES"}
    env["TMPDIR"] = str(tmp_path)
    before = sorted((ROOT / "saves").glob("*")) if (ROOT / "saves").exists() else []
    done = subprocess.run(["sh", "-c", command], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and "ANN posts" in done.stdout
    after = sorted((ROOT / "saves").glob("*")) if (ROOT / "saves").exists() else []
    assert after == before
    assert list(tmp_path.rglob("autosave.json"))  # the example's game was kept in its own folder


def test_printing_to_a_reader_that_stops_early_is_no_error(tmp_path: Path) -> None:
    import subprocess
    import sys
    child = subprocess.Popen([sys.executable, str(ROOT / "yahtzee.py"), "--stats", "--saves", str(tmp_path)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    there(child.stdout).close()  # as `| head -1` does once it has its line
    assert child.wait(timeout=60) == 0
    assert there(child.stderr).read() == b""


def test_the_manual_is_one_text_in_the_package_that_the_project_links_to() -> None:
    packaged = ROOT / "yahtzee" / "YAHTZEE.DOC"
    assert (ROOT / "YAHTZEE.DOC").resolve() == packaged.resolve()
    from yahtzee import manual
    assert packaged == manual.MANUAL and manual.read_manual()[0].strip() == "COMPUTER YAHTZEE - THE PLAYER'S MANUAL"
    assert "YAHTZEE.DOC" in (ROOT / "setup.cfg").read_text().split("[options.package_data]")[1].splitlines()[1]


def test_paths_says_where_each_kind_of_file_is(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from yahtzee import cli
    monkeypatch.setenv("YAHTZEE_CACHE", str(tmp_path / "tables"))
    assert cli.main(["--paths", "--saves", str(tmp_path / "saves")]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"saved game, history and preferences: {tmp_path / 'saves'}", f"strategy tables: {tmp_path / 'tables'}",
        f"manual: {ROOT / 'yahtzee' / 'YAHTZEE.DOC'}"]


def test_the_player_is_told_where_an_earlier_installs_saves_went(tmp_path: Path) -> None:
    from yahtzee import cli
    from yahtzee.saves.folder import EarlierSaves, Folders
    from yahtzee.speech.languages import text
    folders = Folders(tmp_path / "data", tmp_path / "cache")
    assert text(cli.earlier_saves_notice(EarlierSaves(tmp_path / "old", True), folders)) == (
        f"the saves of an earlier install were moved from {tmp_path / 'old'} to {tmp_path / 'data'}")
    assert "stay in" in text(cli.earlier_saves_notice(EarlierSaves(tmp_path / "old", False), folders))


def test_every_name_a_benchmark_takes_from_the_game_is_there() -> None:
    # The benchmarks run outside the suite, so a name moved in the game would break one unseen.
    import ast
    import importlib
    missing = []
    for path in sorted((ROOT / "bench").glob("*.py")):
        for node in walked(parsed(path)):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "yahtzee":
                module = importlib.import_module(there(node.module))
                missing += [f"{path.name}: {node.module}.{alias.name}" for alias in node.names
                            if not hasattr(module, alias.name)]
    assert missing == []


def test_on_windows_a_write_to_a_pipe_whose_reader_is_gone_is_no_error_either(monkeypatch: pytest.MonkeyPatch) -> None:
    import errno
    import sys

    from yahtzee import reports
    monkeypatch.setattr(sys, "stdout", sys.stdout)  # printing sends what is left to os.devnull
    monkeypatch.setattr(sys, "platform", "win32")

    def gone() -> int:
        raise OSError(errno.EINVAL, "Invalid argument")  # Windows' ERROR_NO_DATA, as CPython reports it
    assert reports.printing(gone) == 0
    monkeypatch.setattr(sys, "platform", "linux")  # elsewhere EINVAL is a real fault
    with pytest.raises(OSError):
        reports.printing(gone)


def readme_options() -> set[str]:
    """The options README.md lists on its Options line."""
    text = (ROOT / "README.md").read_text()
    listed = text[text.index("\nOptions: "):].split("\n\n")[0]
    return set(re.findall(r"--[a-z-]+", listed))


def test_the_readme_lists_every_option_the_game_takes() -> None:
    from yahtzee.cli import argument_parser
    taken = {option for action in argument_parser()._actions for option in action.option_strings
             if option.startswith("--")}
    assert readme_options() == taken


def test_the_readme_plain_example_runs_the_projects_own_python_and_plays_the_manuals_walk_through(
        tmp_path: Path) -> None:
    (example,) = [line for line in (ROOT / "README.md").read_text().splitlines() if line.startswith("printf ")]
    assert " | .venv/bin/python yahtzee.py " in example  # as the first command made it: no bare python
    lines = there(re.search(r"printf '(.+?)\\n'", example)).group(1).split("\\n")
    options = example.split("yahtzee.py ")[1].replace('"$(mktemp -d)"', str(tmp_path)).split()
    done = run_game(options, input="\n".join(lines))
    manual = (ROOT / "YAHTZEE.DOC").read_text()
    walk = manual[manual.index("A one-player game typed line by line"):manual.index("7. COMMAND LINE")]
    typed = [row.split()[0] if row.split()[0] != "(empty" else "" for row in walk.splitlines()
             if row.startswith("  ") and not row.startswith(("  then", "  and"))]
    assert typed[:len(lines)] == lines
    confirmed = there(re.search(r'confirm "(Post \d+ in [A-Z ]+\?)"', walk)).group(1)
    assert f"{confirmed} (Y/N)" in done.stdout and "ANN posts 25 in FULL HOUSE." in done.stdout


def test_the_readme_says_how_the_suites_time_is_measured_and_what_it_took() -> None:
    from tools import suite_time
    text = " ".join((ROOT / "README.md").read_text().split())
    said = re.search(r"The suite's time is measured one way for every issue, by `python tools/suite_time.py`: "
                     r"the README's test command, its install included, in a clean clone of the project on this "
                     r"2-core machine with one process keeping a core busy beside it; the target is at most "
                     r"(\d+) s\. On (\d{4}-\d{2}-\d{2}) \(([\d,]+) tests\) it took ((?:\d+ s(?:, | and )?)+)", text)
    assert said is not None and int(said.group(1)) == suite_time.TARGET_SECONDS == 120
    worst = max(map(int, re.findall(r"\d+", said.group(4))))
    verdict = text[said.end():said.end() + 120].split(";")[0]
    assert ("NOT met" in verdict) == (worst > suite_time.TARGET_SECONDS)
    assert suite_time.test_command() == readme_commands()[1]
