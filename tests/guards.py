"""Test helpers shared by several test folders (importable: pytest's pythonpath holds tests/)."""


class TrueStateGuard:
    """Hands an agent only what a seat may use of the true state: whose move it is, the rules,
    the acting seat's own view and legal actions, and re-sampling from its own view. Reading
    anything else fails the test."""

    def __init__(self, state):
        self._state = state

    def current_player(self):
        return self._state.current_player()

    def resample(self, seat, rng=None):
        return self._state.resample(seat, rng)

    @property
    def game(self):
        return self._state.game  # the rules and options: public

    def view(self, seat=None):
        if seat is None or seat != self._state.current_player():
            raise AssertionError(f"the agent asked for the view of seat {seat!r}, not its own")
        return self._state.view(seat)

    def legal_actions(self, player=None):
        return self._state.legal_actions(player)  # the acting seat's own choices

    def action_to_string(self, action, player=None):
        return self._state.action_to_string(action, player)

    def __getattr__(self, name):
        raise AssertionError(f"the agent read {name!r} of the true state")
