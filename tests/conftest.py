"""Test-wide setup: one strategy-table cache for the whole run, so tables build once."""
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture(scope="session", autouse=True)
def shared_table_cache(tmp_path_factory):
    """Every game started by the tests (in-process or not) keeps its tables in one folder."""
    folder = tmp_path_factory.mktemp("table-cache")
    os.environ["YAHTZEE_CACHE"] = str(folder)
    yield folder
    os.environ.pop("YAHTZEE_CACHE", None)
