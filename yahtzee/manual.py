"""The player's manual, YAHTZEE.DOC, as the package carries it."""
from pathlib import Path

MANUAL = Path(__file__).resolve().parent / "YAHTZEE.DOC"  # the project's YAHTZEE.DOC links to it


def read_manual() -> list[str]:
    """YAHTZEE.DOC as lines (empty when it is missing)."""
    try:
        return MANUAL.read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
