"""The server package has no import cycle, and imports nothing from the CLI above it (issue 24):
`server/service.py` and `server/control.py` used to import each other, and `server/app.py` took
its data folder from `cli.options`. The graph is read from the source, imports inside functions
included (test_import_layers.runtime_imports)."""

from __future__ import annotations

import graphlib

from layers.test_import_layers import SRC, import_graph, module_name, runtime_imports

SERVER = SRC / "trapworks" / "server"


def test_the_server_package_has_no_import_cycle() -> None:
    graph = import_graph(SERVER)
    assert "trapworks.server.service" in graph and "trapworks.server.control" in graph
    graphlib.TopologicalSorter(graph).prepare()  # raises CycleError naming the cycle


def test_the_server_imports_nothing_from_the_cli() -> None:
    upward = {
        module_name(path): sorted(i for i in runtime_imports(path) if i.startswith("trapworks.cli"))
        for path in SERVER.rglob("*.py")
    }
    assert {m: found for m, found in upward.items() if found} == {}


def test_the_reader_sees_the_server_edges_and_skips_type_checking_imports() -> None:
    """A control: the graph has service -> control, and control's import of the service (for
    type hints only, under TYPE_CHECKING) is not an edge; with it, the cycle would be reported."""
    graph = import_graph(SERVER)
    assert "trapworks.server.control" in graph["trapworks.server.service"]
    assert "trapworks.server.service" not in graph["trapworks.server.control"]
    looped = {
        **graph,
        "trapworks.server.control": graph["trapworks.server.control"] | {"trapworks.server.service"},
    }
    try:
        graphlib.TopologicalSorter(looped).prepare()
    except graphlib.CycleError:
        return
    raise AssertionError("the cycle service <-> control was not reported")
