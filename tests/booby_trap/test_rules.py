"""A test per rule sentence of 001 (Booby Trap), each citing the sentence it checks."""

from functools import cache

import pytest
from bt_helpers import MID, L, arch_layout, cite, column, constructed, piece_at, support_layout

import trapworks
from trapworks.core import IllegalActionError
from trapworks.games.booby_trap import physics
from trapworks.games.booby_trap.physics import MARK, POINTS, TRAY_WIDTH

BAR_LL = 4 * L  # the bar resting on a column of two large pieces


@cache
def _initial(players=2, variant="regular", seed=0):
    return trapworks.make("booby-trap", players=players, variant=variant).new_initial_state(seed)


def initial(players=2, variant="regular", seed=0):
    return _initial(players, variant, seed).clone()


def loose_piece(state):
    """A piece that carries no load (lifting it cannot move the bar)."""
    load = physics.stress_of(state.packing).load
    return min(p for p in state.touchable() if load[p] == 0.0)


def free_layout(**kw):
    """Arch with the keystone, plus two free small pieces: (state, keystone id, free ids)."""
    tray, bar, key = arch_layout()
    tray = tray + [("S", 85.0, 25.0), ("S", 85.0, TRAY_WIDTH - 25.0)]
    state = constructed(tray, bar, per_size=8, **kw)
    free = [piece_at(state, 30.0, MID), piece_at(state, 85.0, 25.0), piece_at(state, 85.0, TRAY_WIDTH - 25.0)]
    return state, piece_at(state, *key), free


def remove(state, piece):
    state.apply_action(piece)
    state.apply_action(state.game.remove_action)
    return next(e for e in state.last_events() if e["type"] == "removal")


def pass_turn(state, piece=None):
    state.apply_action(state.touchable()[0] if piece is None else piece)
    state.apply_action(state.game.pass_action)


# --- object ------------------------------------------------------------------------
def test_object_points_by_removing_pieces_without_moving_the_bar():
    cite(
        "The object of the game is to win as many points as possible by removing colored playing "
        "pieces from the game board without moving the spring bar."
    )
    state, _, free = free_layout()
    event = remove(state, free[0])
    assert not event["tripped"]
    assert state.scores()[0] == POINTS["S"] and free[0] in state.winnings[0]


def test_most_points_wins():
    cite("The player who has accumulated the most points at the end of the game is the winner.")
    # Three pieces left, two players: one successful removal ends the game.
    tray = column("LL", 150.0) + [("M", 30.0, 40.0)]
    state = constructed(tray, BAR_LL, won=[["M"], ["L"]])
    remove(state, piece_at(state, 30.0, 40.0))
    assert state.is_terminal()
    assert state.scores() == [4, 3]
    assert state.winners() == [0] and state.returns() == [4.0, 3.0]


# --- setting up --------------------------------------------------------------------
def test_pieces_placed_in_front_of_the_bar():
    cite(
        "Pull back the spring bar and place the playing pieces with the knobs face up in the section "
        "of the board in front of the spring bar."
    )
    state = initial()
    assert len(state.packing.pieces) == 60
    assert all(p.x + p.radius <= state.packing.bar + 0.5 for p in state.packing.pieces)


def test_mixed_and_the_bar_rests_against_them():
    cite("Mix the pieces and gently release the spring bar until it rests against them.")
    a, b = initial(seed=0), initial(seed=1)
    assert a.sizes != b.sizes  # the mix differs by seed
    stress = physics.stress_of(a.packing)
    on_bar = [(bb, f) for aa, bb, f in stress.contacts if aa == -1]
    assert on_bar and sum(f for _, f in on_bar) == pytest.approx(1.0, rel=0.05)


def test_do_not_touch_the_spring_bar_again():
    cite("Do not touch the spring bar again during the game.")
    state = initial()
    bar = state.packing.bar
    pass_turn(state)
    assert state.packing.bar == bar  # touching and passing leave the tray alone
    names = {state.action_to_string(a) for a in range(state.game.remove_action + 1)}
    assert not any("bar" in n for n in names)  # no action moves the bar by hand


def test_held_under_pressure():
    cite("The playing pieces are now held under pressure and the game is ready for play.")
    state = initial()
    load = physics.stress_of(state.packing).load
    assert sum(1 for v in load.values() if v > 0.05) >= 5
    assert state.current_player() == 0 and state.legal_actions()


# --- pieces ------------------------------------------------------------------------
def test_twenty_of_each_piece_and_their_values():
    cite("Playing pieces are valued as follows: (20 of each piece)")
    cite("Large size piece............... 3 points")
    cite("Medium size piece.............. 2 points")
    cite("Small size piece............... 1 point")
    state = initial()
    assert sorted(state.sizes.count(s) for s in "SML") == [20, 20, 20]
    assert POINTS == {"S": 1, "M": 2, "L": 3}
    assert physics.RADIUS["S"] < physics.RADIUS["M"] < physics.RADIUS["L"]


# --- turns -------------------------------------------------------------------------
def test_first_player_selected_and_rotation():
    cite("A player is selected to take the first turn and other players follow in rotation.")
    state = trapworks.make("booby-trap", players=3, first_player=1).new_initial_state(0)
    order = []
    for _ in range(4):
        order.append(state.current_player())
        pass_turn(state)
    assert order == [1, 2, 0, 1]


def test_touch_only_one_piece_a_turn():
    cite("On each turn a player is allowed to touch only one piece.")
    state = initial()
    a, b = state.touchable()[:2]
    state.apply_action(a)
    with pytest.raises(IllegalActionError, match="only one piece"):
        state.apply_action(b)
    with pytest.raises(IllegalActionError, match="touch a piece first"):
        fresh = initial()
        fresh.apply_action(fresh.game.remove_action)


def test_pass_after_touching():
    cite('After touching a piece, a player may decide not to remove it and announces, "I pass."')
    cite("The next player then takes his turn.")
    state = initial()
    state.apply_action(state.touchable()[0])
    assert state.game.pass_action in state.legal_actions()
    state.apply_action(state.game.pass_action)
    assert any(e["type"] == "pass" and e["msg"] == "booby_trap.passes" for e in state.last_events())
    assert state.current_player() == 1 and state.touched is None
    assert len(state.packing.pieces) == 60


def test_take_without_moving_the_bar_keeps_it():
    cite(
        "If the first player decides to take a piece and does so without moving the spring bar, he "
        "keeps it, and the next player takes his turn."
    )
    state, _, free = free_layout()
    remove(state, free[1])
    assert free[1] in state.winnings[0] and state.current_player() == 1


def test_take_and_move_the_bar_is_penalized():
    cite(
        "If the first player decides to take a piece and in so doing, moves the spring bar, he is "
        "penalized according to the rules below."
    )
    state, key, _ = free_layout(won=[["L", "S"], []])
    event = remove(state, key)
    assert event["tripped"]
    assert state.scores()[0] == 4 - 3 and state.trips[0] == 1


def test_play_continues_until_pieces_left_equal_players():
    cite(
        "Play is continued in this manner until there are as many playing pieces left on the board as "
        "there are players in the game."
    )
    cite("Each player then totals his points, and the player with the most points wins.")
    tray = column("LL", 150.0) + [("S", 30.0, 30.0), ("S", 30.0, 80.0)]
    two = constructed(tray, BAR_LL, players=2, won=[["L"], ["M"]])
    remove(two, piece_at(two, 30.0, 30.0))
    assert two.pieces_left() == 3 and not two.is_terminal()
    remove(two, piece_at(two, 30.0, 80.0))
    assert two.is_terminal() and two.pieces_left() == 2
    assert two.scores() == [4, 3] and two.winners() == [0]
    three = constructed(tray, BAR_LL, players=3, won=[["L"], [], ["M"]])
    remove(three, piece_at(three, 30.0, 30.0))
    assert three.is_terminal() and three.pieces_left() == 3
    assert three.scores() == [4, 0, 2] and three.winners() == [0]


def test_five_players_end_at_five_pieces():
    cite(
        "For example: If five players are playing, the game proceeds until there are five pieces "
        "remaining on the board."
    )
    tray = column("LL", 150.0) + [("S", 30.0, 20.0), ("S", 30.0, 55.0), ("S", 30.0, 90.0), ("S", 60.0, 40.0)]
    state = constructed(tray, BAR_LL, players=5)
    remove(state, piece_at(state, 60.0, 40.0))
    assert state.is_terminal() and state.pieces_left() == 5


def test_after_touching_pass_or_remove_only():
    cite("Once a player has touched a piece, he must either pass his turn or remove the piece.")
    state = initial()
    state.apply_action(state.touchable()[0])
    assert state.legal_actions() == [state.game.pass_action, state.game.remove_action]


def test_bar_moves_less_than_a_space_keeps_the_piece():
    cite(
        "If he does remove a piece and the spring bar moves less than one of the spaces on the scale "
        "along the side, he has completed a successful play and keeps the piece."
    )
    tray, bar = support_layout("LMSS")
    state = constructed(tray, bar)
    key = piece_at(state, 57.0, MID)
    event = remove(state, key)
    assert 0 < event["travel_mm"] < MARK and not event["tripped"]
    assert key in state.winnings[0] and state.scores()[0] == 3


def test_bar_moves_a_marking_penalty_and_discard_pile():
    cite(
        "If the spring bar moves one or more markings, the player is penalized three points and the "
        "piece that caused the penalty is placed in a discard pile along with any other pieces that "
        "may have jumped out of the board or been pushed up on their sides."
    )
    state, key, _ = free_layout(won=[["L"], []])
    before = {p.id for p in state.packing.pieces}
    event = remove(state, key)
    assert event["tripped"] and event["travel_mm"] >= MARK
    assert key in state.discard and key not in state.winnings[0]
    assert event["popped"], "this collapse throws pieces out"
    for p in event["popped"]:
        assert p in state.discard and p in before
    assert {p.id for p in state.packing.pieces} == before - {key} - set(event["popped"])


@pytest.mark.parametrize(
    "held, paid", [("L", "L"), ("MS", "MS"), ("SSS", "SSS"), ("LMS", "L"), ("MSS", "MS")]
)
def test_penalty_paid_from_winnings(held, paid):
    cite(
        "Whenever a player is penalized, he must discard from his winnings, pieces equal to three points "
        "(one large size piece, or one medium size piece plus one small size piece, or three small "
        "sizes pieces)."
    )
    state, key, _ = free_layout(won=[list(held), []])
    remove(state, key)
    penalty = next(e for e in state.last_events() if e["type"] == "penalty")
    assert sorted(state.sizes[p] for p in penalty["paid"]) == sorted(paid)
    assert all(p in state.discard for p in penalty["paid"])
    assert state.debt[0] == 0


def test_net_score_at_a_glance():
    cite("In this way each player can tell at a glance what his net score is at any time.")
    state, key, _ = free_layout(won=[["L", "M", "S", "S"], []])
    remove(state, key)
    # What he still holds is his net score.
    assert state.scores()[0] == sum(POINTS[state.sizes[p]] for p in state.winnings[0]) == 4
    assert state.view(1)["scores"][0]["net"] == 4


def test_debt_kept_and_paid_off_when_he_wins_enough():
    cite(
        "Of course if a player should owe more than he can pay he must keep track of his debt and pay "
        "it off as soon as he wins enough points to do so."
    )
    state, key, _ = free_layout(won=[["M"], []])
    remove(state, key)
    assert state.debt[0] == 3 and state.scores()[0] == 2 - 3
    assert state.view(1)["scores"][0]["debt"] == 3
    # Later he wins a small piece: medium + small pay the debt.
    tray = column("LL", 150.0) + [("S", 30.0, 30.0), ("S", 30.0, 80.0)]
    later = constructed(tray, BAR_LL, won=[["M"], []], debt=[3, 0])
    assert later.scores()[0] == -1
    remove(later, piece_at(later, 30.0, 30.0))
    assert later.debt[0] == 0 and later.winnings[0] == [] and later.scores()[0] == 0


# --- passing ----------------------------------------------------------------------
def test_pass_as_often_as_wished_while_not_everyone_passed_twice():
    cite(
        "A player may pass as many times as he wishes so long as each person playing has not already "
        "passed twice in succession."
    )
    state = initial(players=2)
    for _ in range(3):
        pass_turn(state)
    state.apply_action(state.touchable()[0])
    assert state.game.pass_action in state.legal_actions()


def test_everyone_passed_twice_then_must_remove():
    cite(
        "If everyone playing has passed twice in succession, then on the third turn a player must remove "
        "a piece, even though he is certain that the spring bar will move."
    )
    state = initial(players=2)
    for _ in range(4):
        pass_turn(state)
    state.apply_action(state.touchable()[0])
    assert state.legal_actions() == [state.game.remove_action]
    with pytest.raises(IllegalActionError, match="passed twice"):
        state.apply_action(state.game.pass_action)


def test_three_player_example_game_1():
    cite("Player A must pick because all players have passed twice in succession.")
    state = initial(players=3)
    seats = []
    for _ in range(6):  # 1st and 2nd turn: A, B, C each say "I pass"
        seats.append(state.current_player())
        pass_turn(state)
    assert seats == [0, 1, 2, 0, 1, 2]
    assert state.current_player() == 0  # 3rd turn: Player A
    state.apply_action(loose_piece(state))
    assert state.legal_actions() == [state.game.remove_action]  # must pick


def test_three_player_example_game_2():
    cite("Any player may again pass because all players have not passed twice in succession.")
    state = initial(players=3)
    for _ in range(4):  # A, B, C pass; A passes
        pass_turn(state)
    assert state.current_player() == 1
    remove(state, loose_piece(state))  # B picks
    pass_turn(state)  # C passes
    assert state.current_player() == 0
    state.apply_action(state.touchable()[0])
    assert state.game.pass_action in state.legal_actions()  # A can pass if he wishes


# --- feeling the tension -------------------------------------------------------------
def test_not_all_pieces_held_tightly():
    cite(
        "If players study the set up board carefully, they will note that the spring bar is not holding "
        "all the pieces tightly."
    )
    cite("Some pieces may be completely loose.")
    state = initial()
    load = physics.stress_of(state.packing).load
    assert any(v == 0.0 for v in load.values()) and any(v > 0.3 for v in load.values())


def test_touching_pieces_not_under_pressure_lift_out_without_releasing_the_bar():
    cite(
        "Others, although touching each other, may not be under spring pressure and can be lifted out "
        "without releasing the spring bar."
    )
    state = initial()
    stress = physics.stress_of(state.packing)
    near = {}
    for a in state.packing.pieces:
        near[a.id] = sum(
            1
            for b in state.packing.pieces
            if b.id != a.id and ((a.x - b.x) ** 2 + (a.y - b.y) ** 2) ** 0.5 < a.radius + b.radius + 0.3
        )
    touching_unloaded = [p for p, v in stress.load.items() if v == 0.0 and near[p] >= 1]
    assert touching_unloaded
    result = physics.resolve_removal(state.packing, touching_unloaded[0])
    assert not result.tripped and abs(result.travel) < 0.05 * MARK


def test_tension_felt_by_the_toucher_only():
    cite("A loose playing piece can be found only by feeling carefully the tension on the piece.")
    state = initial()
    piece = state.touchable()[0]
    state.apply_action(piece)
    mine = state.last_events(0)
    theirs = state.last_events(1)
    assert any(e["type"] == "feel" for e in mine)
    assert not any(e["type"] == "feel" for e in theirs)
    assert any(e["type"] == "touch" and e["piece"] == piece for e in theirs)
    assert state.view(0)["reading"]["piece"] == piece
    assert state.view(1)["reading"] is None and state.view(1)["my_readings"] == []
    assert state.view(None)["reading"] is None
    assert "reading" not in state.position()


def test_reading_tracks_the_true_tension():
    state = trapworks.make("booby-trap", tension_noise=0.0).new_initial_state(0)
    load = physics.stress_of(state.packing).load
    tight = max(load, key=load.get)
    state.apply_action(tight)
    assert state.view(0)["reading"]["reading"] == pytest.approx(load[tight], abs=1e-3)
    assert state.view(0)["reading"]["feel"] == "tight"


def test_tight_piece_best_to_pass():
    cite(
        "If the piece is being held tightly under tension, it is best to pass and try another piece on "
        "the next turm."
    )
    from trapworks.agents import make_agent

    state = trapworks.make("booby-trap", tension_noise=0.0).new_initial_state(0)
    load = physics.stress_of(state.packing).load
    state.apply_action(max(load, key=load.get))
    agent = make_agent("heuristic", state.game, 0, seed=0)
    assert agent.step(state) == state.game.pass_action


def test_stress_arches_shown_in_teaching_mode():
    cite("When the spring bar is released, architectural stress arches and stress patterns are formed.")
    cite("Skill comes in being able to recognize and trace these patterns.")
    tray, bar, key = arch_layout()
    game_state = constructed(tray, bar, per_size=8, teaching=True)
    view = game_state.view(1)
    contacts = view["stress"]["contacts"]
    keystone = piece_at(game_state, *key)
    # The arch carries the bar: bar -> keystone -> legs -> walls; the free piece carries nothing.
    assert any(a == -1 and b == keystone for a, b, _ in contacts)
    assert view["stress"]["loads"][str(piece_at(game_state, 30.0, MID))] == 0.0
    assert "stress" not in constructed(tray, bar, per_size=8).view(1)


# --- variant games --------------------------------------------------------------------
def test_solitaire_object():
    cite("Set up the board as in the regular game.")
    cite(
        "The object of the game is to remove all pieces except one, tripping the spring bar no more than "
        "three times."
    )
    state = initial(players=1, variant="solitaire")
    assert state.num_players() == 1 and len(state.packing.pieces) == 60
    # Won: one piece left after at most three trips.
    tray = column("L", 150.0) + [("S", 20.0, 40.0)]
    won = constructed(tray, 2 * L, players=1, variant="solitaire", trips=[3])
    remove(won, piece_at(won, 20.0, 40.0))
    assert won.is_terminal() and won.winners() == [0] and won.returns() == [1.0]
    # Lost: a fourth trip ends it.
    tray, bar, key = arch_layout()
    lost = constructed(tray, bar, players=1, variant="solitaire", per_size=8, trips=[3])
    remove(lost, piece_at(lost, *key))
    assert lost.is_terminal() and lost.trips == [4] and lost.winners() == [] and lost.returns() == [-1.0]


def test_solitaire_three_trips_still_playing():
    # The middle column carries the bar; taking its first piece trips it (a mark or more) and
    # leaves pieces on the tray (the arch's collapse throws out all but one since issue 25).
    tray, bar = support_layout("LLM")
    state = constructed(tray, bar, players=1, variant="solitaire", per_size=8, trips=[2])
    remove(state, piece_at(state, 57.0, MID))
    assert state.trips == [3] and state.pieces_left() > 1 and not state.is_terminal()


def test_sizes_in_order():
    cite(
        "The board is set up in the regular way and turns rotate in the same manner as in the standard "
        "game except as follows:"
    )
    cite("All small size playing pieces must be removed first.")
    cite("Next, all medium size pieces must be removed.")
    cite(
        "Finally, all large size pieces are removed until only one piece remains on the board for each player."
    )
    state = initial(variant="sizes-in-order")
    assert {state.sizes[p] for p in state.touchable()} == {"S"}
    large = next(p.id for p in state.packing.pieces if p.size == "L")
    with pytest.raises(IllegalActionError, match="small pieces must be removed first"):
        state.apply_action(large)
    tray = column("LL", 150.0) + [("M", 20.0, 40.0), ("S", 50.0, 40.0)]
    s2 = constructed(tray, BAR_LL, variant="sizes-in-order")
    assert {s2.sizes[p] for p in s2.touchable()} == {"S"}
    remove(s2, piece_at(s2, 50.0, 40.0))
    assert {s2.sizes[p] for p in s2.touchable()} == {"M"}
    remove(s2, piece_at(s2, 20.0, 40.0))
    assert s2.is_terminal() and s2.pieces_left() == 2 and {s2.sizes[p.id] for p in s2.packing.pieces} == {"L"}


def test_sizes_in_order_scores_and_penalties_same():
    cite("Scores and penalties are the same as in the regular game.")
    tray, bar, key = arch_layout()
    tray = [t for t in tray if t[0] == "L"]
    state = constructed(tray, bar, per_size=8, variant="sizes-in-order", won=[["M", "S"], []])
    remove(state, piece_at(state, *key))
    assert state.trips[0] == 1 and state.scores()[0] == 0 and state.debt[0] == 0


def test_no_passes():
    cite("All rules are the same as in the regular game except that no passes are allowed.")
    state = initial(variant="no-passes")
    state.apply_action(state.touchable()[0])
    assert state.legal_actions() == [state.game.remove_action]
    with pytest.raises(IllegalActionError, match="no passes"):
        state.apply_action(state.game.pass_action)
