"""Prints the share of the package's functions that are fully annotated (every parameter
but self and cls, and the return) and exits 1 under the floor given (default 90%).
Usage: python tools/annotations.py [FLOOR_PERCENT]"""
import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "yahtzee"


def is_annotated(function: ast.FunctionDef) -> bool:
    """Every parameter (self and cls aside) and the return carry a type."""
    arguments = function.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
             *filter(None, [arguments.vararg, arguments.kwarg])]
    named = [argument for argument in every if argument.arg not in ("self", "cls")]
    return function.returns is not None and all(argument.annotation is not None for argument in named)


def functions(path: Path) -> list:
    """Every function and method defined in a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


def main(argv: list) -> int:
    """Count, print, and compare with the floor."""
    floor = float(argv[0]) if argv else 90.0
    found = [function for path in sorted(PACKAGE.rglob("*.py")) for function in functions(path)]
    annotated = sum(is_annotated(function) for function in found)
    share = 100.0 * annotated / len(found)
    print(f"annotations: {annotated} of {len(found)} functions fully annotated ({share:.1f}%; floor {floor:.0f}%)")
    return 0 if share >= floor else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
