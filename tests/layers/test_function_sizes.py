"""Functions a reader can hold in mind (issue 38): in the package no function is over 150 lines
and at most 10 are over 80 (a long function is split along its seams: the app into routers, the
socket into its session class, the room and the accounts into their parts, a position reader into
one reader per field, a report into its parts). Nested functions count on their own and inside the
function that holds them; a typer command's options are named at module level, so a command reads
as its list of parameters."""

from __future__ import annotations

import ast
from pathlib import Path

from layers.test_import_layers import SRC

PACKAGE = SRC / "trapworks"
LONGEST = 150
LONG = 80
MOST_LONG = 10


def function_sizes(folder: Path) -> dict[str, int]:
    """Each function's (and method's) length in lines, by `path:name:line`."""
    sizes = {}
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                assert node.end_lineno is not None
                sizes[f"{path.name}:{node.name}:{node.lineno}"] = node.end_lineno - start + 1
    return sizes


def test_no_function_is_over_150_lines_and_at_most_10_over_80() -> None:
    sizes = function_sizes(PACKAGE)
    assert len(sizes) > 2000  # the reader sees the package's functions
    assert {f: n for f, n in sizes.items() if n > LONGEST} == {}
    long = sorted((n, f) for f, n in sizes.items() if n > LONG)
    assert len(long) <= MOST_LONG, long


def test_the_count_sees_a_long_function(tmp_path: Path) -> None:
    """A control: a 151-line function is found, and the function nested in it too."""
    body = "\n".join(f"        x{i} = {i}" for i in range(148))
    (tmp_path / "m.py").write_text(f"def outer():\n    def inner():\n{body}\n    return inner\n")
    sizes = function_sizes(tmp_path)
    assert sorted(sizes.values()) == [149, 151]
