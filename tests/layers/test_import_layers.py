"""Each game package is layered one way: its data, rules and state at the bottom, notation and
drawing above them, the package's __init__ on top joining the layers. The import graph is read
from the source (imports inside functions count; `if TYPE_CHECKING:` blocks do not, since they
never run), so a cycle hidden in a function body fails here too."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
GAMES = SRC / "trapworks" / "games"
PRESENTATION = ("notation", "render")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def runtime_imports(path: Path) -> set[str]:
    """The trapworks modules `path` imports when its code runs (any depth, TYPE_CHECKING skipped)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for sub in child.orelse:
                    visit(sub)
                continue
            if isinstance(child, ast.Import):
                found.update(a.name for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[: len(base) - (child.level - 1)]
                    target = ".".join(base + ([child.module] if child.module else []))
                else:
                    target = child.module or ""
                if child.module:
                    found.add(target)
                # `from . import physics` imports the module physics (names that are not
                # modules are dropped later: only modules that exist are kept)
                found.update(f"{target}.{a.name}" for a in child.names)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def import_graph(root: Path) -> dict[str, set[str]]:
    files = {module_name(p): p for p in root.rglob("*.py")}
    return {name: runtime_imports(path) & set(files) - {name} for name, path in files.items()}


def test_the_graph_reader_sees_function_level_imports_and_skips_type_checking(tmp_path: Path) -> None:
    pkg = tmp_path / "trapworks" / "games" / "demo"
    pkg.mkdir(parents=True)
    (pkg / "game.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .render import x\n"
        "def f():\n    from .notation import y\n"
    )
    global SRC
    saved, SRC = SRC, tmp_path
    try:
        found = runtime_imports(pkg / "game.py")
    finally:
        SRC = saved
    assert "trapworks.games.demo.notation" in found
    assert "trapworks.games.demo.render" not in found


def test_no_import_cycles_in_the_games() -> None:
    graph = import_graph(GAMES)
    # Package __init__ files are the top of each package; a submodule's import of its sibling
    # runs the parent __init__ first, but that is Python's loading order, not a dependency.
    try:
        order = list(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as exc:
        pytest.fail(f"import cycle in trapworks.games: {' -> '.join(exc.args[1])}")
    assert len(order) == len(graph) > 10


@pytest.mark.parametrize("package", sorted(p.name for p in GAMES.iterdir() if (p / "game.py").exists()))
def test_rules_sit_below_notation_and_drawing(package: str) -> None:
    graph = import_graph(GAMES)
    prefix = f"trapworks.games.{package}"
    upward = {f"{prefix}.{m}" for m in PRESENTATION} | {"trapworks.cli", "trapworks.server", "trapworks.web"}
    rules = f"{prefix}.game"
    # Everything the rules reach, directly or through other modules of the package.
    reached, todo = set(), [rules]
    while todo:
        for dep in graph.get(todo.pop(), ()):
            if dep not in reached:
                reached.add(dep)
                todo.append(dep)
    assert not reached & upward, f"{rules} imports {sorted(reached & upward)}"
