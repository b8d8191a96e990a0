"""Types of the compiled world copy and settle loop (_worldcopy.c)."""

from collections.abc import Callable

def init(is_pivot: int, is_gear: int, is_groove: int) -> None: ...
def copy_state(src: int, dst: int) -> None: ...
def init_steps(
    step: int,
    set_force: int,
    position: int,
    set_iterations: int,
    each_body: int,
    each_arbiter: int,
    body_batched: int,
    arbiter_batched: int,
) -> None: ...
def warm_up(
    space: int,
    bar: int,
    steps: int,
    ramp: int,
    warm_iterations: int,
    iterations: int,
    half: float,
    preload: float,
    rate: float,
    reference: float,
    dt: float,
) -> None: ...
def run(
    space: int,
    bar: int,
    load: float,
    steps: int,
    half: float,
    preload: float,
    rate: float,
    reference: float,
    dt: float,
) -> None: ...
def settle(
    space: int,
    bar: int,
    load: float,
    max_steps: int,
    half: float,
    preload: float,
    rate: float,
    reference: float,
    dt: float,
    speeds: int,
    check_every: int,
    rest_speed: float,
    rest_checks: int,
    depths: int,
    squeeze_every: int,
    pop: float,
    on_squeeze: Callable[[], object] | None,
    places: int,
    frame_every: int,
    tape: list | None,
) -> int: ...
