"""The sizes docs/research.md gives, computed from the code (a test keeps the page in step).

python -m trapworks.adapters.docs          # rewrites the table in docs/research.md
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

# (game, options, label) for each row of the table.
CONFIGS: list[tuple[str, dict[str, Any], str]] = [
    ("last-mouse-lost", {}, "standard board"),
    ("mouse-trap", {"players": 2}, "2 players"),
    ("mouse-trap", {"players": 4}, "4 players"),
    ("booby-trap", {}, "60 pieces, 2 players"),
    ("booby-trap", {"pieces_per_size": 2, "players": 3}, "6 pieces, 3 players"),
    ("dead-end-drive", {"players": 2}, "2 players"),
    ("dead-end-drive", {"players": 4}, "4 players"),
]

BEGIN, END = "<!-- sizes:begin (python -m trapworks.adapters.docs) -->", "<!-- sizes:end -->"


def sizes_table() -> str:
    """The markdown table of spaces and tensor sizes, one row per configuration."""
    import pyspiel

    import trapworks.adapters.openspiel  # noqa: F401 (registers the games)
    from trapworks.adapters.openspiel import GAMES

    names = {info["game_id"]: name for name, info in GAMES.items()}
    rows = [
        "| game | configuration | observation | information state (OpenSpiel, perfect recall) "
        "| player actions | chance outcomes (OpenSpiel) | max game length (OpenSpiel) |",
        "|---|---|---|---|---|---|---|",
    ]
    for game_id, options, label in CONFIGS:
        tw = trapworks.make(game_id, **options)
        params = {k: v for k, v in options.items()}
        game = pyspiel.load_game(names[game_id], params)
        rows.append(
            f"| {tw.title} | {label} | {tw.encoder().observation_size()} | "
            f"{game.information_state_tensor_size()} | {tw.num_distinct_actions()} | "
            f"{game.max_chance_outcomes()} | {game.max_game_length()} |"
        )
    return "\n".join(rows)


def render(page: str) -> str:
    """`page` with the table between the markers replaced by the computed one."""
    pattern = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END), re.S)
    if not pattern.search(page):
        raise ValueError(f"the page has no {BEGIN} ... {END} block")
    return pattern.sub(lambda _: BEGIN + "\n" + sizes_table() + "\n" + END, page)


def main(argv: list[str] | None = None) -> None:
    path = Path(argv[0] if argv else "docs/research.md")
    path.write_text(render(path.read_text()))
    print(f"wrote the sizes table of {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
