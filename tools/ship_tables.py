"""The tables that come with the package (yahtzee/strategy/shipped): the 1987 rules' table of
expected scores and its rests, so that a fresh install shows the win chance without a wait.

    python tools/ship_tables.py           build them and write them into the package
    python tools/ship_tables.py --check   build them afresh and check that the package holds
                                          the same arrays (floats to their last bits; exit
                                          status 1 if not)

A build takes about a minute on one core.
"""
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from yahtzee.model.rules import HASBRO  # noqa: E402
from yahtzee.strategy.odds.rests import measured_rests  # noqa: E402
from yahtzee.strategy.storage.cache import SHIPPED, build_table, rests_file_name, save_rests, save_table  # noqa: E402

SHIPPED_RULES = (HASBRO,)


def build(folder: Path) -> list[str]:
    """Build every shipped table and its rests into `folder`; their file names."""
    names = []
    for rules in SHIPPED_RULES:
        table = build_table(rules, moments=True)  # the rests' moments worked out in the same pass
        rests_path = folder / rests_file_name(table)
        if not (save_table(table, folder) and save_rests(table, measured_rests(table), rests_path)):
            raise OSError(f"cannot write into {folder}")
        names += [path.name for path in sorted(folder.glob("*.npz")) if path.name not in names]
    return names


# Sums of floats may end a last bit apart on another processor (numpy picks its vector code by
# what the processor has): the check takes floats equal within this share of their size (those
# kept in single precision: within their own last bit, where such a difference may round).
RELATIVE_BITS = 1e-12


def arrays(path: Path) -> dict[str, np.ndarray]:
    """Every array of an .npz file."""
    with np.load(path, allow_pickle=False) as stored:
        return {name: stored[name] for name in stored.files}


def same_arrays(shipped: dict[str, np.ndarray], built: dict[str, np.ndarray]) -> bool:
    """The same arrays, names, dtypes and shapes: whole numbers to the bit, floats within
    RELATIVE_BITS of their size."""
    if shipped.keys() != built.keys():
        return False
    for name, kept in shipped.items():
        made = built[name]
        if kept.dtype != made.dtype or kept.shape != made.shape:
            return False
        if np.issubdtype(kept.dtype, np.floating):
            share = max(RELATIVE_BITS, float(np.finfo(kept.dtype).eps))
            if not np.allclose(kept, made, rtol=share, atol=RELATIVE_BITS, equal_nan=True):
                return False
        elif not np.array_equal(kept, made):
            return False
    return True


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
            elif not same_arrays(arrays(shipped), arrays(built / name)):
                print(f"not what a build makes: {name}")
                same = False
        extra = sorted({path.name for path in SHIPPED.glob("*.npz")} - set(names))
        for name in extra:
            print(f"in the package but not built: {name}")
        return same and not extra


def main(argv: list[str]) -> int:
    """Write the shipped tables, or check them."""
    if argv == ["--check"]:
        same = check()
        print("the shipped tables are what a build makes" if same else "the shipped tables are out of date: "
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
