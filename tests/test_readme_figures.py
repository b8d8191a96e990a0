"""Every speed figure README.md states is one BENCHMARKS.md has, written the same way (issue 42,
item 6): README's figures had drifted from the measurements (130-220x for Mouse Trap's engine
where a side-by-side run gave 61-68x), so the README takes them from BENCHMARKS.md, one source."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# A ratio ("52x", "61-68x", "0.63x") or a rate ("0.33 games/s", "1,200 games per second").
NUMBER = r"\d[\d,]*(?:\.\d+)?"
FIGURE = re.compile(rf"(?<![\w.]){NUMBER}(?:-{NUMBER})?(?:x\b| games/s\b| games per second\b)")


def figures(text: str) -> list[str]:
    return FIGURE.findall(text)


def test_the_pattern_finds_ratios_and_rates():
    text = "61-68x the kernel, 0.63x the CPU, 52x, 3.2 games/s, 1,200 games per second; not 0x1F or x86_64"
    assert figures(text) == ["61-68x", "0.63x", "52x", "3.2 games/s", "1,200 games per second"]


def test_every_readme_speed_figure_is_in_benchmarks():
    readme = (ROOT / "README.md").read_text()
    benchmarks = (ROOT / "BENCHMARKS.md").read_text()
    found = figures(readme)
    assert found, "README.md states no speed figure: the pattern is broken"
    missing = [f for f in found if f not in benchmarks]
    assert not missing, f"README.md states {missing}, which BENCHMARKS.md does not have"
