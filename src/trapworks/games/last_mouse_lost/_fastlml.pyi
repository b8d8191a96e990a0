# Types of the compiled engine _fastlml.c (optional; see game.py).
from collections.abc import Sequence
from typing import Any, Self

class Spec:
    def __init__(
        self,
        advanced: bool,
        row_lengths: Sequence[int],
        row_first_action: Sequence[int],
        action_row: Sequence[int],
        action_count: Sequence[int],
        action_mask: Sequence[int],
    ) -> None: ...
    def address(self) -> int: ...

class Core:
    board: int
    to_move: int
    match_over: bool
    _live: bool
    _history: list[int]
    _spec: Spec | None
    _round_rules: tuple[int, int, int]
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    def is_terminal(self) -> bool: ...
    def legal_actions(self, player: int | None = None) -> list[int]: ...
    def apply_action(self, action: int) -> None: ...
    def clone(self) -> Self: ...

def bind_methods(cls: type[Core]) -> None: ...
def engine_addresses() -> dict[str, int]: ...
def play_batch(
    spec: Spec,
    full_board: int,
    first_to: int,
    opener_rule: int,
    first_player: int,
    policies: tuple[int, int],
    seeds: Any,
    winner: Any,
    length: Any,
    rounds: Any,
    opener_wins: Any,
    moves: Any,
    max_len: int,
    /,
) -> None: ...

# h31vec: the step-wise batched API (vector_env.py). config = (full board, first_to, opener
# rule, first player (2: drawn), policy of seat 0, policy of seat 1, learning seat).
def vector_reset(
    spec: Spec,
    config: tuple[int, int, int, int, int, int, int],
    state: Any,
    seeds: Any,
    obs: Any,
    mask: Any,
    /,
) -> None: ...
def vector_step(
    spec: Spec,
    config: tuple[int, int, int, int, int, int, int],
    state: Any,
    actions: Any,
    obs: Any,
    mask: Any,
    rewards: Any,
    terminated: Any,
    truncated: Any,
    illegal: Any,
    /,
) -> None: ...

# h30 (issue 30, deliver 5): the observation tensor in C (encoding.py's layout).
def tensor_writer(template: Any, fallback: Any, /) -> Any:
    """state_tensor(state, seat) -> float32 numpy array: copies of `template` written from a
    compiled state; any other state is handed to fallback(state, seat)."""
