"""OpenSpiel's CFR on a small 13 Dead End Drive, its hidden cards dealt by chance nodes.

The configuration (`SMALL` below): two players, player 1 to move one pawn 2 squares, three pawns
in play by the front door, nine knocked off (three of them 2-player secret cards); the game ends
after this move (`turn_limit=1`). What player 1 does not know: which of the two other live pawns
is player 2's Character, and whether the third one is among its own secret cards or player 2's
(a pawn that escapes wins for the seat holding its card, secret cards included). Its
information sets hold 12 states each (tests/research/test_hidden_chance.py).

    .venv/bin/python examples/dead_end_drive_cfr.py             # writes ./research-cfr.{png,json}
    .venv/bin/python examples/dead_end_drive_cfr.py --out docs  # refreshes the committed figure

Prints the exploitability of CFR's average policy after each iteration, next to the uniform
policy's in this game and in the same tree where every seat sees every card (its information
states are whole histories: "perfect information").
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import pyspiel
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr, exploitability

import trapworks.adapters.openspiel  # noqa: F401 (registers the games)
from trapworks.adapters.openspiel import GAME_CLASSES

SMALL_POSITION = (
    "players=2 turn=1 phase=select dice=2 moved=D det=0 portrait=S opening=0 turns=0 "
    "pawns=S:m17,D:l16,C:n16,L:off1,P:off1,K:off1,B:off2,Z:off2,M:off2,H:off?,R:off?,O:off? "
    "chars=S/D secret=CH/RO traps=-/-"
)
SMALL = {"players": 2, "turn_limit": 1, "first_player": 1, "position": SMALL_POSITION}


class Revealed(GAME_CLASSES["trapworks_dead_end_drive"]):  # type: ignore[misc, valid-type]
    """The same tree, every seat seeing everything (its information state is the whole history)."""

    def make_py_observer(self, iig_obs_type=None, params=None):
        observer = super().make_py_observer(iig_obs_type, params)
        observer.string_from = lambda state, player: state.history_str()
        return observer


def run(iterations: int) -> dict[str, Any]:
    game = pyspiel.load_game("trapworks_dead_end_drive", SMALL)
    revealed = Revealed(dict(game.get_parameters()))
    start = time.perf_counter()
    solver = cfr.CFRSolver(game)
    curve = []
    for i in range(1, iterations + 1):
        solver.evaluate_and_update_policy()
        curve.append(
            {"iteration": i, "exploitability": exploitability.exploitability(game, solver.average_policy())}
        )
    return {
        "game": str(game),
        "iterations": iterations,
        "uniform_exploitability": exploitability.exploitability(game, policy_lib.UniformRandomPolicy(game)),
        "uniform_exploitability_perfect_information": exploitability.exploitability(
            revealed, policy_lib.UniformRandomPolicy(revealed)
        ),
        "curve": curve,
        "seconds": round(time.perf_counter() - start, 1),
    }


def plot(result: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=100)
    x = [c["iteration"] for c in result["curve"]]
    ax.plot(x, [c["exploitability"] for c in result["curve"]], marker="o", label="CFR average policy")
    ax.axhline(result["uniform_exploitability"], color="grey", ls="--", label="uniform policy")
    ax.axhline(
        result["uniform_exploitability_perfect_information"],
        color="tab:red",
        ls=":",
        label="uniform, cards seen by all",
    )
    ax.set_xlabel("CFR iterations")
    ax.set_ylabel("exploitability")
    ax.set_yscale("symlog", linthresh=1e-3)
    ax.set_title("13 Dead End Drive, small configuration: CFR")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--no-plot", action="store_true")
    parser.add_argument(
        "--out",
        type=Path,
        default=Path.cwd(),
        help="folder for research-cfr.{png,json} (default: the current folder; --out docs "
        "replaces the committed figure on purpose)",
    )
    args = parser.parse_args(argv)
    result = run(args.iterations)
    for c in result["curve"]:
        print(f"iteration {c['iteration']:3d}: exploitability {c['exploitability']:.6f}")
    print(
        f"uniform policy: {result['uniform_exploitability']:.4f} (cards seen by all: "
        f"{result['uniform_exploitability_perfect_information']:.4f}); {result['seconds']} s"
    )
    if not args.no_plot:
        out: Path = args.out
        out.mkdir(parents=True, exist_ok=True)
        (out / "research-cfr.json").write_text(json.dumps(result, indent=1) + "\n")
        plot(result, out / "research-cfr.png")
        print(f"wrote {out / 'research-cfr.png'} and research-cfr.json")


if __name__ == "__main__":
    main()
