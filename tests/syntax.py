"""The package's sources as syntax trees, for the tests that read the code itself: each file
parsed, and each node walked, once in a test process (the tests only read them)."""
import ast
import functools
from pathlib import Path


@functools.cache
def parsed(path: Path) -> ast.Module:
    """A source file's syntax tree."""
    return ast.parse(path.read_text(encoding="utf-8"))


@functools.cache
def walked(node: ast.AST) -> tuple[ast.AST, ...]:
    """Every node under a syntax tree's `node`, as ast.walk gives them."""
    return tuple(ast.walk(node))
