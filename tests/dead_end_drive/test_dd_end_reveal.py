"""The end-of-game reveal: once the game is over every seat's view and the spectator's show every
hand, the secret cards and the portrait frame; before the end no view holds them."""

from __future__ import annotations

import random

from dd_helpers import game, random_game


def test_every_secret_is_in_every_view_after_the_end_and_in_none_before():
    ends = 0
    for players, seed in ((2, 181861025), (3, 1), (4, 2), (2, 4)):
        g = game(players)
        seen: list[bool] = []

        def check(s, n=players, seen=seen):
            if not s.is_terminal():
                seen.extend("revealed" in s.view(seat) for seat in [None, *range(n)])

        s = random_game(g, seed, check=check)
        assert seen and not any(seen)
        if not s.is_terminal():
            continue
        ends += 1
        views = [s.view(seat) for seat in [None, *range(players)]]
        revealed = views[0]["revealed"]
        assert all(v["revealed"] == revealed for v in views)
        hands = revealed["hands"]
        assert [h["seat"] for h in hands] == list(range(players))
        for seat in range(players):
            own = s.view(seat)
            assert hands[seat]["characters"] == own["my_characters"]
            assert hands[seat]["trap_cards"] == own["my_trap_cards"]
        # every pawn card is somewhere: a hand, a secret card, or laid down when knocked off
        held = {p for h in hands for p in h["characters"] + h["secret_cards"]}
        laid = {p["letter"] for p in views[0]["pawns"] if "owner" in p}
        assert held | laid == {p["letter"] for p in views[0]["pawns"]}  # all 12
        frame = revealed["portrait_cycle"] + revealed["portraits_never_shown"]
        assert len(frame) == len(set(frame))
        # nothing is hidden any more: a resampled state shows the same view
        for seat in range(players):
            assert s.resample(seat, random.Random(1)).view(seat) == s.view(seat)
    assert ends >= 2
