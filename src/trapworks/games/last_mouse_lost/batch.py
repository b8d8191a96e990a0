"""Batched playouts of Last Mouse Lost: many whole matches in one compiled loop (_fastlml.c).

The match loop is the compiled engine's own `play_batch` (C, in _fastlml.c next to the rules):
it runs the very rule functions a single compiled state runs (which presses are legal, which mice
a press takes, what the end of a round decides), inlined by the C compiler, and adds only the
match loop and the two policies a simulation runs most: `random` (a uniform legal move) and
`heuristic` (agents.HeuristicAgent's decisions: the misère-Nim endgame rule, then a move that
hands the opponent a lost endgame, else one that gives no endgame away, else any). Action ids
and their order in the legal list are the engine's, so the kernel's. Boards of up to 64 mice
(the engine's). This module only checks the request, prepares the arrays and shapes the result;
it needs numpy, not numba.

Randomness: each game draws from its own SplitMix64 stream seeded with its seed; a choice among
n items takes item `((draw >> 32) * n) >> 32`. `SharedStream` (core/stream.py) is the same
stream in Python, with `choice` as random.Random has it, so the kernel's own agents can consume
it identically: the test plays the kernel with it and gets the batched games move for move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from trapworks.core import TrapworksError
from trapworks.core.batch import check_agents, rows_from_columns, seed_array

from . import _fastlml  # the compiled engine (play_batch is offered only where it is built)


class LastMouseLostGame(Protocol):
    """What the engine reads of a Last Mouse Lost game (game.py's LastMouseLostGame; named here
    as a protocol because the rules module imports this one, never the reverse)."""

    options: dict[str, Any]
    full_board: int
    num_press_actions: int
    tables: Any

    def max_game_length(self) -> int: ...


POLICIES = {"random": 0, "heuristic": 1}
OPENER_RULES = {"alternate": 0, "loser": 1, "winner": 2, "same": 3}


def play_arrays(
    game: LastMouseLostGame, agents: Sequence[str], seeds: Any, moves: bool = False
) -> dict[str, Any]:
    """The batched engine's columns, one entry per seed (numpy arrays): "winner", "length",
    "rounds", "opener_wins", and with `moves` the actions ("moves", -1 after a game's end)."""
    check_agents("Last Mouse Lost", agents, 2, POLICIES)
    spec = game.tables.spec
    if spec is None:
        raise TrapworksError("the compiled engine holds boards of up to 64 mice")
    fp = game.options["first_player"]
    seeds = seed_array(seeds)
    n = len(seeds)
    winner = np.zeros(n, np.int8)
    length = np.zeros(n, np.int32)
    rounds = np.zeros(n, np.int32)
    opener_wins = np.zeros(n, np.int32)
    max_len = game.max_game_length()
    played = np.full((n if moves else 0, max_len), -1, np.int32)
    _fastlml.play_batch(
        spec,
        game.full_board,
        int(game.options["first_to"]),
        OPENER_RULES[game.options["opener"]],
        2 if fp == "random" else int(fp),
        (POLICIES[agents[0]], POLICIES[agents[1]]),
        seeds,
        winner,
        length,
        rounds,
        opener_wins,
        played,
        max_len,
    )
    out = {"winner": winner, "length": length, "rounds": rounds, "opener_wins": opener_wins}
    if moves:
        out["moves"] = played
    return out


def play_batch(
    game: LastMouseLostGame, agents: Sequence[str], seeds: Sequence[int], moves: bool = False
) -> list[dict[str, Any]]:
    """One row per seed: the match played by `agents` (one policy name per seat)."""
    cols = play_arrays(game, agents, seeds, moves)
    first_to = game.options["first_to"]
    # "length" counts the seats' decisions: with first_player="random" the match's first action
    # is chance's draw of the opener.
    chance = 1 if game.options["first_player"] == "random" else 0
    cols["actions"] = cols.pop("length")
    cols["length"] = cols["actions"] - chance
    cols["truncated"] = np.zeros(len(cols["winner"]), bool)
    endings = [f"{first_to}-{r - first_to}" for r in cols["rounds"].tolist()]  # the match score
    return rows_from_columns(cols, 2, endings, ("rounds", "opener_wins"))
