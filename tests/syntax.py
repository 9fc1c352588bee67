"""The package's sources as syntax trees, for the tests that read the code itself: each file
parsed, and each node walked, once in a test process (the tests only read them)."""
import ast
import functools


@functools.cache
def parsed(path):
    """A source file's syntax tree."""
    return ast.parse(path.read_text(encoding="utf-8"))


@functools.cache
def walked(node):
    """Every node under a syntax tree's `node`, as ast.walk gives them."""
    return tuple(ast.walk(node))
