"""The tables that come with the package (yahtzee/strategy/shipped): the 1987 rules' table of
expected scores and its rests, so that a fresh install shows the win chance without a wait.

    python tools/ship_tables.py           build them and write them into the package
    python tools/ship_tables.py --check   build them afresh and check that the package holds
                                          the same bits (exit status 1 if not)

A build takes about a minute on one core.
"""
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from yahtzee.model.rules import HASBRO  # noqa: E402
from yahtzee.strategy.odds.rests import measure_rests  # noqa: E402
from yahtzee.strategy.storage.cache import SHIPPED, build_table, rests_file_name, save_rests, save_table  # noqa: E402

SHIPPED_RULES = (HASBRO,)


def build(folder: Path) -> list[str]:
    """Build every shipped table and its rests into `folder`; their file names."""
    names = []
    for rules in SHIPPED_RULES:
        table = build_table(rules)
        rests_path = folder / rests_file_name(table)
        if not (save_table(table, folder) and save_rests(table, measure_rests(table), rests_path)):
            raise OSError(f"cannot write into {folder}")
        names += [path.name for path in sorted(folder.glob("*.npz")) if path.name not in names]
    return names


def arrays(path: Path) -> dict[str, tuple[str, tuple[int, ...], bytes]]:
    """Every array of an .npz file: its dtype, shape and bytes."""
    with np.load(path, allow_pickle=False) as stored:
        return {name: (str(stored[name].dtype), stored[name].shape, stored[name].tobytes()) for name in stored.files}


def check() -> bool:
    """Build afresh and compare, file by file and array by array, with the shipped files."""
    with tempfile.TemporaryDirectory() as scratch:
        built = Path(scratch)
        names = build(built)
        same = True
        for name in names:
            shipped = SHIPPED / name
            if not shipped.exists():
                print(f"missing from the package: {name}")
                same = False
            elif arrays(shipped) != arrays(built / name):
                print(f"not the bits a build makes: {name}")
                same = False
        extra = sorted({path.name for path in SHIPPED.glob("*.npz")} - set(names))
        for name in extra:
            print(f"in the package but not built: {name}")
        return same and not extra


def main(argv: list[str]) -> int:
    """Write the shipped tables, or check them."""
    if argv == ["--check"]:
        same = check()
        print("the shipped tables are the bits a build makes" if same else "the shipped tables are out of date: "
              "run python tools/ship_tables.py")
        return 0 if same else 1
    SHIPPED.mkdir(exist_ok=True)
    for path in SHIPPED.glob("*.npz"):
        path.unlink()
    for name in build(SHIPPED):
        print(f"wrote {SHIPPED / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
