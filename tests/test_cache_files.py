"""Strategy table files: links, FIFOs and lying headers are set aside with one line and the
table rebuilt; temp files of killed builds are cleared."""
import json
import os
import sys
import time
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers import SYMLINKS, read_table

from yahtzee.model.rules import HASBRO, Rules
from yahtzee.model.words import Say, Text
from yahtzee.speech.languages import text
from yahtzee.strategy.exact.objective import EXPECTED_SCORE, Objective
from yahtzee.strategy.exact.table import StrategyTable
from yahtzee.strategy.storage import cache

NAME = cache.table_file_name(HASBRO, EXPECTED_SCORE)

pytestmark = pytest.mark.usefixtures("no_shipped_tables")  # the cache is the point


@pytest.fixture(scope="module")
def hasbro(shared_table_cache: Path) -> StrategyTable:
    return cache.table_loader(shared_table_cache)(HASBRO)


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch, hasbro: StrategyTable) -> list[Any]:
    """Table builds, answered with the already built table."""
    made = []

    def build(rules: Rules, objective: Objective = EXPECTED_SCORE, progress: Any = None, processes: int = 1,
              moments: bool = False) -> Any:
        made.append(rules.name)
        return StrategyTable(rules, objective, hasbro.values)
    monkeypatch.setattr(cache, "build_table", build)
    return made


def load(folder: Path) -> Any:
    heard: list[Text] = []
    table = cache.load_table(HASBRO, cache_dir=folder, notify=heard.append)
    return table, heard


def assert_set_aside_and_rebuilt(
        folder: Path, builds: list[str], heard: list[Say], table: StrategyTable, hasbro: StrategyTable) -> None:
    assert builds == ["hasbro"] and np.array_equal(table.values, hasbro.values)
    assert len(heard) == 1 and text(heard[0]).startswith("a damaged strategy table is rebuilt")
    assert len(text(heard[0])) < 80
    assert [p.name for p in folder.glob(NAME + ".bad-*")] and read_table(HASBRO, EXPECTED_SCORE, folder)


def write_npz(path: Path, values_header_shape: tuple[int, ...], meta: Mapping[str, object]) -> None:
    """A table file whose values.npy header claims `values_header_shape` but holds 8 bytes."""
    with zipfile.ZipFile(path, "w") as archive:
        header = {"descr": "<f8", "fortran_order": False, "shape": values_header_shape}
        with archive.open("values.npy", "w") as member:
            np.lib.format.write_array_header_1_0(member, header)
            member.write(b"\0" * 8)
        with archive.open("meta.npy", "w") as member:
            np.lib.format.write_array(member, np.array(json.dumps(meta)))


def test_a_table_whose_header_claims_a_trillion_values_is_set_aside_not_allocated(tmp_path: Path, builds: list[Any],
                                                                                  hasbro: StrategyTable) -> None:
    write_npz(tmp_path / NAME, (10 ** 12,), cache.table_meta(HASBRO, EXPECTED_SCORE, hasbro.values))
    table, heard = load(tmp_path)
    assert_set_aside_and_rebuilt(tmp_path, builds, heard, table, hasbro)


@pytest.mark.posix(reason="a FIFO (os.mkfifo)")
def test_a_table_that_is_a_fifo_is_set_aside_without_hanging(
        tmp_path: Path, builds: list[Any], hasbro: StrategyTable) -> None:
    if sys.platform == "win32":  # for the type checker: POSIX only (never run on Windows)
        pytest.skip("POSIX only")
    os.mkfifo(tmp_path / NAME)
    table, heard = load(tmp_path)
    assert_set_aside_and_rebuilt(tmp_path, builds, heard, table, hasbro)


@pytest.mark.wine_lacks(reason=SYMLINKS)
def test_a_table_that_is_a_link_is_never_followed(tmp_path: Path, builds: list[Any], hasbro: StrategyTable) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    cache.save_table(hasbro, elsewhere)
    (tmp_path / NAME).symlink_to(elsewhere / NAME)
    before = (elsewhere / NAME).read_bytes()
    table, heard = load(tmp_path)
    assert_set_aside_and_rebuilt(tmp_path, builds, heard, table, hasbro)
    assert (elsewhere / NAME).read_bytes() == before


def test_a_file_larger_than_any_table_is_set_aside_unread(
        tmp_path: Path, builds: list[Any], hasbro: StrategyTable) -> None:
    with open(tmp_path / NAME, "wb") as file:
        file.truncate(64 * 1024 * 1024)
    table, heard = load(tmp_path)
    assert_set_aside_and_rebuilt(tmp_path, builds, heard, table, hasbro)


def test_stale_temp_files_of_killed_builds_are_removed_fresh_ones_kept(
        tmp_path: Path, builds: list[Any], hasbro: StrategyTable) -> None:
    cache.save_table(hasbro, tmp_path)
    stale, fresh = tmp_path / f"{NAME}abc.tmp", tmp_path / f"{NAME}def.tmp"
    stale.write_bytes(b"half a table")
    fresh.write_bytes(b"a table being built now")
    old = time.time() - cache.STALE_SECONDS - 60
    os.utime(stale, (old, old))
    table, heard = load(tmp_path)
    assert not stale.exists() and fresh.exists()
    assert builds == [] and heard == []


def test_a_tables_name_is_the_rules_own_and_no_saved_form_of_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shipped table's name, made from the rules and objective themselves: a change to how
    a saved game writes its rules renames no table."""
    from yahtzee.saves import codec
    shipped = {path.name for path in cache.SHIPPED.glob("strategy-*.npz")}
    assert cache.table_file_name(HASBRO, EXPECTED_SCORE) in shipped
    for holder in (codec, cache):  # wherever the saved form would be made from
        monkeypatch.setattr(holder, "rules_to_dict", lambda rules: {"saved": "differently"}, raising=False)
    assert cache.table_file_name(HASBRO, EXPECTED_SCORE) in shipped
