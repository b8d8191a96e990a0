"""Booby Trap observation encoding (from `view(seat)` only; see trapworks.core.encoding).

Tensor, in order, with N = pieces in the game and n = players. Per piece id (N slots, 8 each):
on the tray (1), x / tray length, y / tray width (2), size one-hot S, M, L (3), and the seat's own
latest reading of that piece since the last removal with a flag that one exists (2; other
seats' readings are never in a view). Then: the bar's displacement in marks (1); who is to move
(n); the observing seat (n); the touched piece (N); passes in a row / 2n (1); must remove (1);
per seat the net score / all points, and trips / N (2n); pieces left / N (1); the game over (1).
"""

from __future__ import annotations

from typing import Any

from trapworks.core.encoding import Encoder, one_hot

SIZES = ("S", "M", "L")


class BoobyTrapEncoder(Encoder):
    static_keys = ("game", "variant", "players", "teaching", "tray", "position", "legal_actions")
    # Readings, the bar's displacement and net scores are not bounded by 1 (scores go negative).
    low = float("-inf")
    high = float("inf")

    def observation_shape(self) -> tuple[int, ...]:
        big_n = self.game.num_pieces  # type: ignore[attr-defined]  # made for a Booby Trap game
        n = self.game.num_players()
        return (9 * big_n + 4 * n + 5,)

    def encode(self, view: dict[str, Any], out: list[float]) -> None:
        big_n = self.game.num_pieces  # type: ignore[attr-defined]  # made for a Booby Trap game
        n = view["players"]
        tray = view["tray"]
        total_points = max(1, self.game.options["pieces_per_size"] * sum(tray["points"].values()))
        latest: dict[int, float] = {}
        for r in view["my_readings"]:
            if r["settle"] == view["settles"]:
                latest[r["piece"]] = r["reading"]
        slots = [0.0] * (8 * big_n)
        for p in view["pieces"]:
            base = 8 * p["id"]
            slots[base] = 1.0
            slots[base + 1] = p["x"] / tray["length"]
            slots[base + 2] = p["y"] / tray["width"]
            slots[base + 3 + SIZES.index(p["size"])] = 1.0
            if p["id"] in latest:
                slots[base + 6] = latest[p["id"]]
                slots[base + 7] = 1.0
        out.extend(slots)
        out.append(view["bar_marks"])
        one_hot(out, view["to_move"], n)
        one_hot(out, view["seat"], n)
        one_hot(out, view["touched"], big_n)
        out.append(view["passes_in_row"] / (2 * n))
        out.append(1.0 if view["must_remove"] else 0.0)
        for s in view["scores"]:
            out.append(s["net"] / total_points)
            out.append(s["trips"] / big_n)
        out.append(view["pieces_left"] / big_n)
        out.append(1.0 if view["terminal"] else 0.0)
