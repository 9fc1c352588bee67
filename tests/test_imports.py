"""The package's modules import one another without a circle, counting imports inside
functions too: the graph is drawn from the code itself."""
import ast
import re
from pathlib import Path

import pytest
from syntax import parsed, walked

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "yahtzee"


def module_name(path: Path) -> str:
    """The dotted name of a module file of the package."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, modules: set) -> set:
    """The package's modules a file imports anywhere in it, and the packages that hold them
    (Python runs a package's __init__ before any module in it; the file's own are running)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in walked(parsed(path)):
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
    own = set(ancestors(name))
    found |= {package for module in found for package in ancestors(module) if package in modules} - own
    found.discard(name)
    return found


def ancestors(module: str) -> list:
    """The packages that hold a module, the nearest first."""
    parts = module.split(".")
    return [".".join(parts[:cut]) for cut in range(len(parts) - 1, 0, -1)]


def import_graph() -> dict:
    """Each module of the package and the package's modules it imports."""
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(path) for path in paths}
    return {module_name(path): imported(path, modules) for path in paths}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
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


def test_the_graph_sees_imports_inside_functions_and_relative_ones(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
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


def test_no_module_of_the_package_imports_itself_through_others() -> None:
    assert cycles(import_graph()) == []


# The layers, lowest first: a module may import its own package's modules and those of the
# packages before it (the package's docstring says the same). The top, yahtzee itself, may
# import any.
LAYERS = ["yahtzee.model", "yahtzee.speech", "yahtzee.saves", "yahtzee.strategy", "yahtzee.strategy.exact",
          "yahtzee.strategy.play", "yahtzee.strategy.odds", "yahtzee.strategy.storage", "yahtzee.strategy.headless",
          "yahtzee.coach", "yahtzee.present", "yahtzee.consoles", "yahtzee.screens", "yahtzee.net", "yahtzee"]
# Imports against the layers: none left; the test fails when one comes back.
STILL_UPWARD: set = set()


def layer(module: str) -> int:
    """The place in LAYERS of the package a module lies in (the longest that holds it)."""
    holding = [package for package in LAYERS if module == package or module.startswith(package + ".")]
    return LAYERS.index(max(holding, key=len))


def upward_imports(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """The imports of a module from a layer above its own."""
    return {(module, imported) for module, targets in graph.items() for imported in targets
            if layer(imported) > layer(module) and layer(module) != len(LAYERS) - 1}


def test_each_package_imports_only_itself_and_the_layers_below_it() -> None:
    assert upward_imports(import_graph()) == STILL_UPWARD


def test_a_package_that_imports_a_layer_above_it_is_found() -> None:
    graph = {"yahtzee.model.game": {"yahtzee.present.render"}, "yahtzee.present.render": {"yahtzee.model.game"},
             "yahtzee.app": {"yahtzee.net.server"}, "yahtzee.strategy.odds.rival": {"yahtzee.strategy.exact.table"}}
    assert upward_imports(graph) == {("yahtzee.model.game", "yahtzee.present.render")}


def test_every_module_below_the_top_is_in_a_layer() -> None:
    for module in import_graph():
        assert layer(module) < len(LAYERS) - 1 or module.count(".") <= 1, module


def collide(one: str, other: str) -> bool:
    """Two names that say the same: equal, one the other's plural or doer, or one base name
    before an underscore."""
    short, long = sorted((one, other), key=len)
    return short == long or long in {short + ending for ending in ("s", "es", "r", "er", "ry")} or \
        one.split("_")[0] == other.split("_")[0]


def test_no_two_modules_or_packages_share_a_name_or_its_plural() -> None:
    leaves = sorted({(module.rpartition(".")[2], module) for module in import_graph() if "." in module})
    assert [(one, other) for index, (name, one) in enumerate(leaves) for other_name, other in leaves[index + 1:]
            if collide(name, other_name)] == []
    assert collide("tables", "table") and collide("rivalry", "rival") and collide("review_lines", "review")
    assert collide("moods", "moods") and not collide("play", "replay") and not collide("table", "tablekeeper")


def test_at_most_fifteen_modules_lie_directly_in_the_package() -> None:
    top = [path.stem for path in PACKAGE.glob("*.py") if path.stem not in ("__init__", "__main__")]
    assert len(top) <= 15, top


def late_imports(path: Path) -> int:
    """The imports a file makes inside its functions (importlib.import_module and __import__
    counted), and a module __getattr__ that imports by name."""
    tree = parsed(path)
    found = sum(isinstance(node, (ast.Import, ast.ImportFrom)) or
                (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", ""))
                 in ("import_module", "__import__"))
                for function in walked(tree) if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef))
                for node in walked(function))
    return found + any(isinstance(node, ast.FunctionDef) and node.name == "__getattr__" for node in tree.body)


def test_only_the_lazy_seams_import_late() -> None:
    """numpy (strategy.storage.builder.engine(), the build's process,
    --simulate), asyncssh (hosting), prompt_toolkit (keyterminal.toolkit) and each platform's own
    modules load late; everything else is imported at the top."""
    counts = {path.relative_to(PACKAGE).as_posix(): late_imports(path) for path in sorted(PACKAGE.rglob("*.py"))}
    assert sum(counts.values()) <= 20, {path: count for path, count in counts.items() if count}
    assert late_imports(Path(__file__)) > 0  # this file's own, counted the same way


ANYTHING_DICT = re.compile(r"(dict|Dict|Mapping)\[str, *(Any|object)\]")


def test_dicts_of_anything_are_few_and_only_where_the_saves_read_their_files() -> None:
    """Values travel as typed values; a JSON object of anything is read only where a file is
    read (yahtzee.saves), and what is written is a typed JSONObject (saves/shapes.py)."""
    found = [(path.relative_to(PACKAGE).as_posix(), number) for path in sorted(PACKAGE.rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if ANYTHING_DICT.search(line)]
    assert len(found) <= 15, found
    assert {path.split("/")[0] for path, _ in found} == {"saves"}, found
    assert ANYTHING_DICT.search("def f(x: Mapping[str, Any]) -> dict[str, object]:")


# Where words become text in a language: the consoles, the presentation, the languages
# themselves and the command line's modules. Everywhere below them says things with Say.
TRANSLATING = ("yahtzee/consoles/", "yahtzee/present/", "yahtzee/speech/", "yahtzee/cli.py", "yahtzee/app.py",
               "yahtzee/usage.py", "yahtzee/reports.py", "yahtzee/manual.py")


def translators(path: Path) -> set:
    """The gettext calls a file imports from the languages module (_, ngettext, pgettext)."""
    return {alias.name for node in walked(parsed(path)) if isinstance(node, ast.ImportFrom)
            and (node.module or "").endswith("speech.languages") for alias in node.names
            if alias.name in {"_", "ngettext", "pgettext"}}


def test_only_the_consoles_the_presentation_and_the_command_line_translate_on_the_spot() -> None:
    translating = [path for path in sorted(PACKAGE.rglob("*.py")) if translators(path)]
    outside = [path.relative_to(ROOT).as_posix() for path in translating
               if not path.relative_to(ROOT).as_posix().startswith(TRANSLATING)]
    assert translating and outside == []


def test_no_module_of_the_package_is_over_four_hundred_lines() -> None:
    long = {path.relative_to(ROOT).as_posix(): lines for path in PACKAGE.rglob("*.py")
            if (lines := len(path.read_text(encoding="utf-8").splitlines())) > 400}
    assert long == {}


# How a package's docstring names each package it may import.
PACKAGE_WORDS = {"model": "the model", "speech": "the speech", "saves": "the saves", "strategy": "the strategy",
                 "coach": "the coach", "present": "the presentation", "consoles": "the consoles",
                 "screens": "the screens"}


def test_each_packages_docstring_names_exactly_the_packages_it_imports() -> None:
    graph = import_graph()
    for package in PACKAGE_WORDS | {"net": ""}:
        uses = {target.split(".")[1] for module, targets in graph.items() if module.startswith(f"yahtzee.{package}.")
                for target in targets if target.count(".") >= 1} - {package}
        docstring = ast.get_docstring(parsed(PACKAGE / package / "__init__.py")) or ""
        said = re.split(r"\b(?:It|They|it) imports? ", docstring.replace("\n", " "), maxsplit=1)[-1]
        named = {other for other, words in PACKAGE_WORDS.items() if other != package and words in said}
        assert named == uses, (package, named, uses)
