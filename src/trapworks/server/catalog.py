"""What the lobby and the game pages read about a game beyond its options, derived from the
game's spec (core/spec.py): the agents' words, the how-to-play steps, the static part of its
views, and the shared words (forfeit reasons). No rule here; nothing a seat may not know."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from trapworks.agents import agent_words
from trapworks.core import Game
from trapworks.core.forfeit import forfeit_reason_words
from trapworks.core.registry import game_spec
from trapworks.core.spec import GameSpec, spec_of

RENDERER_DIR = Path(__file__).resolve().parent.parent / "web" / "static" / "renderers"


def spec_for_id(game_id: str) -> GameSpec | None:
    try:
        return game_spec(game_id)
    except Exception:  # noqa: BLE001 - an unknown or older game: no spec
        return None


def catalog_words(game: Game) -> dict[str, Any]:
    """The catalog entry's words for `game`: agent words, how-to steps, forfeit reasons."""
    spec = spec_of(game)
    return {
        "agent_words": agent_words(game),
        "howto": list(spec.howto) if spec is not None else [],
        "forfeit_reasons": forfeit_reason_words(),
    }


__all__ = ["catalog_words", "spec_for_id"]


def renderer_url(game_id: str) -> str:
    """The front end's renderer for a game (its spec's, else one named after it, else generic)."""
    spec = spec_for_id(game_id)
    if spec is not None and (RENDERER_DIR / spec.renderer).is_file():
        return f"/static/renderers/{spec.renderer}"
    if (RENDERER_DIR / f"{game_id}.js").is_file():
        return f"/static/renderers/{game_id}.js"
    return "/static/renderers/generic.js"
