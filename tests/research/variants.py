"""Option sets the research adapters are tested on: every variant and every option with a rule
choice of each game, kept small (short turn limits, small boards, few Booby Trap pieces) so that
the checks stay fast; Booby Trap runs physics on every removal."""

from __future__ import annotations

from typing import Any

# game id -> list of option sets (trapworks options).
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "last-mouse-lost": [
        {"board": [1, 2, 3], "first_to": 2},
        {"board": [1, 2, 3], "first_to": 2, "rules": "advanced", "first_player": "random"},
        {"board": [2, 3], "first_to": 3, "opener": "loser", "first_player": 1},
        {"board": [2, 3], "first_to": 2, "opener": "winner", "rules": "advanced"},
        {"board": [1, 3], "first_to": 2, "opener": "same", "first_player": "random"},
        {"first_to": 1},  # the standard board
    ],
    "mouse-trap": [
        {"players": 2, "turn_limit": 12},
        {"players": 3, "variant": "original", "turn_limit": 12, "first_player": "random"},
        {"players": 4, "turn_limit": 10, "trap_reliability": 1.0},
        {
            "players": 2,
            "turn_limit": 12,
            "cheese_supply": 4,
            "follow_destination": False,
            "pay_while_mouse_on_wheel": False,
            "pay_miss_ends_turn": True,
            "steal_tie": "choose",
            "safe_protects_cheese": False,
            "empty_pile_source": "any",
            "trap_stage_odds": {"stairs": 0.5},
        },
    ],
    "booby-trap": [
        {"pieces_per_size": 2},
        {"pieces_per_size": 2, "variant": "solitaire"},
        {"pieces_per_size": 2, "variant": "sizes-in-order", "players": 3},
        {"pieces_per_size": 2, "variant": "no-passes", "first_player": 1, "tension_noise": 0.0},
        {"pieces_per_size": 2, "teaching": True},
    ],
    "dead-end-drive": [
        {"players": 4, "turn_limit": 8},
        {"players": 2, "turn_limit": 8, "first_player": 2},
        {"players": 3, "turn_limit": 8, "blocked_die": "lose-turn", "after_draw": "none"},
        {"players": 2, "turn_limit": 8, "passage_hops": 0, "traps_per_kind": 2, "wild_cards": 9},
    ],
}

OPENSPIEL_NAMES = {
    "last-mouse-lost": "trapworks_last_mouse_lost",
    "mouse-trap": "trapworks_mouse_trap",
    "booby-trap": "trapworks_booby_trap",
    "dead-end-drive": "trapworks_dead_end_drive",
}


def openspiel_params(game_id: str, options: dict[str, Any]) -> dict[str, Any]:
    """The OpenSpiel game parameters for trapworks options (the adapter's documented mapping)."""
    params: dict[str, Any] = {}
    for key, value in options.items():
        if key == "board":
            params[key] = ";".join(map(str, value)) + ";"
        elif key == "first_player" and value == "random":
            params[key] = -1
        elif key == "trap_stage_odds":
            params[key] = ";".join(f"{k}:{v}" for k, v in value.items())
        elif isinstance(value, bool) and game_id == "mouse-trap":
            params[key] = "yes" if value else "no"
        else:
            params[key] = value
    return params


def cases() -> list[tuple[str, dict[str, Any]]]:
    return [(g, o) for g, sets in VARIANTS.items() for o in sets]


def case_id(case: tuple[str, dict[str, Any]]) -> str:
    game_id, options = case
    return game_id + ":" + ",".join(f"{k}={v}" for k, v in options.items())
