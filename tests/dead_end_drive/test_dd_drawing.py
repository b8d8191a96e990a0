"""The view's `board.drawing` (render.py): what the browser needs to draw the mansion, worked out
from the grid of mansion.txt alone; the same for every seat and the spectator, all game long."""

from __future__ import annotations

import random

import trapworks
from trapworks.games.dead_end_drive import load_mansion
from trapworks.games.dead_end_drive.board import FURNITURE, TRAP_SQUARES

M = load_mansion()


def drawing() -> dict:
    return trapworks.make("dead-end-drive").new_initial_state(seed=1).view(None)["board"]["drawing"]


def test_every_furniture_square_is_in_exactly_one_piece_of_its_kind_and_in_the_legend():
    d = drawing()
    seen: dict[str, str] = {}
    for piece in d["pieces"]:
        for sq in piece["squares"]:
            assert sq not in seen, sq
            seen[sq] = piece["kind"]
            r, c = int(sq[1:]) - 1, ord(sq[0]) - ord("a")
            assert (
                piece["row"] <= r < piece["row"] + piece["rows"]
                and piece["col"] <= c < piece["col"] + piece["cols"]
            )
    expected = {}
    for r, row in enumerate(M.grid):
        for c, ch in enumerate(row):
            if ch in FURNITURE or ch == "R":
                expected[M.name(r * M.width + c)] = FURNITURE.get(ch, "red chair")
    assert seen == expected
    # the dining table is one piece of six squares; the large sofa one of two
    assert sorted(len(p["squares"]) for p in d["pieces"] if p["kind"] == "table") == [1, 6]
    assert [len(p["squares"]) for p in d["pieces"] if p["kind"] == "large sofa"] == [2]
    # the Red Chairs face the dining table
    chairs = [p for p in d["pieces"] if p["kind"] == "red chair"]
    assert len(chairs) == 12 and {p["facing"] for p in chairs} == {"up", "down"}
    legend = [e["kind"] for e in d["legend"]]
    assert set(FURNITURE[ch] for row in M.grid for ch in row if ch in FURNITURE) <= set(legend)
    assert {f"{k} trap" for k in TRAP_SQUARES.values()} <= set(legend)
    assert len(legend) == len(set(legend))


def test_rooms_traps_and_doorways_come_from_the_grid():
    d = drawing()
    names = "Library, Stair hall, Ballroom, Living room, Dining hall, Gallery, Study, Foyer, Parlour"
    assert {r["name"] for r in d["rooms"]} == set(names.split(", "))
    for room in d["rooms"]:
        label = room["label"]
        assert label["cols"] >= 3, room  # room for the name on the wall
        for c in range(label["col"], label["col"] + label["cols"]):
            assert M.grid[label["row"]][c] == "#", room
    against = {t["kind"]: t["against"] for t in d["traps"]}
    assert set(against) == set(TRAP_SQUARES.values())
    # the bookcase and the fireplace stand in a wall; the statue trap's furniture is the gold statue
    for t in d["traps"]:
        sq = M.square(t["square"])
        assert M.trap_kind[sq] == t["kind"]
        if t["against"]:
            r, c = divmod(sq, M.width)
            dr, dc = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}[t["against"]]
            beside = M.grid[r + dr][c + dc]
            assert beside == ("G" if t["kind"] == "statue" else "#"), t
    assert against["bookcase"] and against["fireplace"] and against["statue"] == "up"
    for w in d["doorways"]:
        r, c = divmod(M.square(w["square"]), M.width)
        sides = (
            (M.grid[r][c - 1], M.grid[r][c + 1])
            if w["along"] == "row"
            else (M.grid[r - 1][c], M.grid[r + 1][c])
        )
        assert sides == ("#", "#") and M.grid[r][c] in ".~p"
    assert len(d["doorways"]) >= 8


def test_the_drawing_is_the_same_for_every_seat_and_all_game_long():
    game = trapworks.make("dead-end-drive", players=3)
    s = game.new_initial_state(seed=5)
    first = s.view(None)["board"]["drawing"]
    rng = random.Random(2)
    for _ in range(300):
        if s.is_terminal():
            break
        for seat in (None, 0, 1, 2):
            assert s.view(seat)["board"]["drawing"] == first
        if s.is_chance_node():
            actions, probs = zip(*s.chance_outcomes(), strict=True)
            s.apply_action(rng.choices(actions, probs)[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    # one drawing per mansion, shared by every view (it is read, never changed)
    assert s.view(0)["board"]["drawing"] is s.view(None)["board"]["drawing"]
