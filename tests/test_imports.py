"""The package's modules import one another without a circle, counting imports inside
functions too: the graph is drawn from the code itself."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "yahtzee"


def module_name(path: Path) -> str:
    """The dotted name of a module file of the package."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, modules: set) -> set:
    """The package's modules a file imports anywhere in it (a package's __init__ is not
    counted for `from package import module`, which reads the module alone)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            submodules = {f"{base}.{alias.name}" for alias in node.names} & modules
            found.update(submodules)
            if base in modules and len(submodules) < len(node.names):
                found.add(base)
    found.discard(name)
    return found


def import_graph() -> dict:
    """Each module of the package and the package's modules it imports."""
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(path) for path in paths}
    return {module_name(path): imported(path, modules) for path in paths}


def cycles(graph: dict) -> list:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_the_graph_sees_imports_inside_functions_and_relative_ones(tmp_path, monkeypatch):
    package = tmp_path / "yahtzee"
    (package / "screens").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "screens" / "__init__.py").write_text("from .turn import play\n")
    (package / "screens" / "turn.py").write_text("def play():\n    from ..game import Game\n    import yahtzee.dice\n")
    for name in ("game", "dice"):
        (package / f"{name}.py").write_text("")
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    monkeypatch.setattr(__import__(__name__), "PACKAGE", package)
    graph = import_graph()
    assert graph["yahtzee.screens.turn"] == {"yahtzee.game", "yahtzee.dice"}
    assert graph["yahtzee.screens"] == {"yahtzee.screens.turn"}
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_of_the_package_imports_itself_through_others():
    assert cycles(import_graph()) == []


# The game model and the modules beneath it: none of them knows a file format.
MODEL = ["yahtzee.game", "yahtzee.scorecard", "yahtzee.scoring", "yahtzee.moves", "yahtzee.match",
         "yahtzee.rules", "yahtzee.illegal"]
FORMATS = {"yahtzee.game_json", "yahtzee.records", "yahtzee.session", "yahtzee.saves"}


def reached_from(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module `start` imports, directly or through others."""
    seen, todo = set(), [start]
    while todo:
        for module in graph.get(todo.pop(), set()) - seen:
            seen.add(module)
            todo.append(module)
    return seen


def test_the_model_imports_no_file_format():
    graph = import_graph()
    for module in MODEL:
        reached = reached_from(graph, module)
        assert not {m for m in reached if m in FORMATS or m.startswith("yahtzee.saves.")}, module
    assert "yahtzee.game" in graph["yahtzee.game_json"] and "yahtzee.game" in graph["yahtzee.records"]
