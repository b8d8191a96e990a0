"""The package's shape in figures: functions over a length, the longest function and class.

    python scripts/code_shape.py [--over 80] [--list] [paths...]   (default: src/trapworks)

A function's length is its lines from `def` (decorators included) to its last line, nested
functions counted inside their parent and also on their own; a class's likewise. Issue 38
asks for these figures before and after its refactors.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path


def _span(node: ast.AST) -> int:
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])  # type: ignore[attr-defined]
    return node.end_lineno - first + 1  # type: ignore[attr-defined]


def shapes(paths: list[Path]) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """(length, "file:line name") for every function and every class under `paths`."""
    functions: list[tuple[int, str]] = []
    classes: list[tuple[int, str]] = []
    for root in paths:
        for file in sorted(root.rglob("*.py")) if root.is_dir() else [root]:
            tree = ast.parse(file.read_text(encoding="utf-8"), filename=str(file))
            for node in ast.walk(tree):
                where = f"{file}:{getattr(node, 'lineno', 0)}"
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    functions.append((_span(node), f"{where} {node.name}"))
                elif isinstance(node, ast.ClassDef):
                    classes.append((_span(node), f"{where} {node.name}"))
    return functions, classes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, default=[Path("src/trapworks")])
    parser.add_argument("--over", type=int, default=80, help="count functions longer than this")
    parser.add_argument("--list", action="store_true", help="list the functions over the length")
    args = parser.parse_args(argv)
    functions, classes = shapes(args.paths)
    if not functions:
        print("no Python functions found", file=sys.stderr)
        return 1
    long = sorted((f for f in functions if f[0] > args.over), reverse=True)
    top_f, top_c = max(functions), max(classes) if classes else (0, "-")
    print(f"functions: {len(functions)}, over {args.over} lines: {len(long)}, over 150 lines: "
          f"{sum(1 for n, _ in functions if n > 150)}")
    print(f"longest function: {top_f[0]} lines  {top_f[1]}")
    print(f"longest class:    {top_c[0]} lines  {top_c[1]}")
    if args.list:
        for n, name in long:
            print(f"  {n:5d}  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
