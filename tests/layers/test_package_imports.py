"""No import cycle and no upward import anywhere in the package. Every import counts: at the top of
a module, inside a function (a lazy import), and under `if TYPE_CHECKING:` (a type-only cycle
still knots the modules together, and is how such cycles used to hide). The graph is read from
the source with `ast`, so nothing is imported to check it.

Layers, lowest first: core < games < agents < adapters, sim, server < cli. A module may import
its own layer and the ones below. The package root (`trapworks/__init__.py`, which joins core and
the games) counts as the games' layer."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "trapworks"
# paths: where trapworks keeps its files, a neutral module importing nothing of trapworks.
LAYERS = {"paths": 0, "core": 0, "games": 1, "agents": 2, "adapters": 3, "sim": 3, "server": 3, "cli": 4}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """Every trapworks module `path` imports, anywhere in it (TYPE_CHECKING blocks included)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            submodules = {f"{target}.{a.name}" for a in node.names} & modules
            found |= submodules
            # `from . import physics` imports the module physics, not (only) the package itself.
            if node.module or not submodules:
                found.add(target)
    # A module's own ancestors run first when it is imported (Python's loading order): not an edge.
    return {m for m in found & modules if m != name and not name.startswith(m + ".")}


def import_graph() -> dict[str, set[str]]:
    files = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    modules = set(files)
    return {name: imports_of(path, modules) for name, path in files.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def layer(module: str) -> int:
    parts = module.split(".")
    return LAYERS["games"] if len(parts) == 1 else LAYERS.get(parts[1], max(LAYERS.values()) + 1)


def upward_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    return sorted((m, d) for m, deps in graph.items() for d in deps if layer(d) > layer(m))


def in_server(module: str) -> bool:
    return module.startswith("trapworks.server")


def test_the_reader_sees_lazy_and_type_checking_imports(tmp_path: Path) -> None:
    global SRC
    pkg = tmp_path / "trapworks" / "games" / "demo"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("from . import game\n")
    (pkg / "render.py").write_text("x = 1\n")
    (pkg / "notation.py").write_text("y = 1\n")
    (pkg / "game.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .render import x\n"
        "def f():\n    from .notation import y\n"
    )
    saved, SRC = SRC, tmp_path
    try:
        modules = {module_name(p) for p in tmp_path.rglob("*.py")}
        found = imports_of(pkg / "game.py", modules)
        init = imports_of(pkg / "__init__.py", modules)
    finally:
        SRC = saved
    assert found == {"trapworks.games.demo.notation", "trapworks.games.demo.render"}
    assert init == {"trapworks.games.demo.game"}  # not the package itself
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycle_outside_the_server() -> None:
    graph = import_graph()
    assert len(graph) > 80
    bad = [c for c in cycles(graph) if not all(in_server(m) for m in c)]
    assert not bad, "import cycles: " + "; ".join(" <-> ".join(c) for c in bad)


def test_no_upward_import_outside_the_server() -> None:
    bad = [(m, d) for m, d in upward_imports(import_graph()) if not in_server(m)]
    assert not bad, "upward imports: " + "; ".join(f"{m} -> {d}" for m, d in bad)


def test_no_import_cycle_or_upward_import_in_the_server() -> None:
    graph = import_graph()
    assert [c for c in cycles(graph) if any(in_server(m) for m in c)] == []
    assert [(m, d) for m, d in upward_imports(graph) if in_server(m)] == []
