"""docs/research.md's sizes table is the one the code computes (issue 30: the page said 147/261
for Mouse Trap's tensors where the code gave 148/262)."""

from __future__ import annotations

from pathlib import Path

from trapworks.adapters.docs import BEGIN, END, render, sizes_table

PAGE = Path(__file__).resolve().parents[2] / "docs" / "research.md"


def test_research_page_sizes_are_computed():
    page = PAGE.read_text()
    assert BEGIN in page and END in page
    assert render(page) == page, "run: python -m trapworks.adapters.docs"


def test_sizes_table_follows_the_encoders():
    import trapworks

    table = sizes_table()
    for players in (2, 4):
        size = trapworks.make("mouse-trap", players=players).encoder().observation_size()
        assert f"| Mouse Trap | {players} players | {size} |" in table
