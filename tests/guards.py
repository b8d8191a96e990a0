"""Test helpers shared by several test folders (importable: pytest's pythonpath holds tests/)."""


class TrueStateGuard:
    """Hands an agent only what a seat may use of the true state: whose move it is, and
    re-sampling from its own view. Reading anything else fails the test."""

    def __init__(self, state):
        self._state = state

    def current_player(self):
        return self._state.current_player()

    def resample(self, seat, rng=None):
        return self._state.resample(seat, rng)

    def __getattr__(self, name):
        raise AssertionError(f"the agent read {name!r} of the true state")
