"""Property tests particular to Last Mouse Lost's notation."""

from hypothesis import given, settings
from hypothesis import strategies as st

import trapworks
from trapworks.core import PositionError

boards = st.lists(st.integers(1, 16), min_size=1, max_size=8)


@st.composite
def positions(draw):
    board = draw(boards)
    rows = ["".join(draw(st.sampled_from("o.")) for _ in range(n)) for n in board]
    first_to = draw(st.integers(1, 4))
    a, b = draw(st.integers(0, first_to - 1)), draw(st.integers(0, first_to - 1))
    mover = draw(st.sampled_from("12"))
    opener = draw(st.sampled_from("12"))
    return board, first_to, f"{'/'.join(rows)} {mover} {a}-{b} {opener}"


@settings(max_examples=300, deadline=None)
@given(positions(), st.sampled_from(["basic", "advanced"]))
def test_position_text_round_trips_or_is_rejected_with_a_reason(case, rules):
    board, first_to, text = case
    game = trapworks.make("last-mouse-lost", board=board, first_to=first_to, rules=rules)
    try:
        state = game.state_from_position(text)
    except PositionError as e:
        assert e.reason  # rejected: an impossible position, with the reason said
        assert "every mouse is pressed" in e.reason or "opened" in e.reason
        return
    assert state.position() == text
    # Every legal action's text parses back to the same action.
    for a in state.legal_actions():
        assert state.string_to_action(state.action_to_string(a)) == a
