"""Issue 42 item 7: `gymnasium.make_vec` (a game's batched vector environment) against Gymnasium's
own SyncVectorEnv over the single environment: same seed, same (seeded) actions -> the same
observations, masks, rewards, terminations and truncations, step for step, autoresets included
(both next-step autoreset), for every game. Environment i of either plays the single environment
reset with seed + i: its stream (core/stream.py's `env_stream(seed + i)`) draws the setup, the
chance and the opponents' choices in the same order in the kernel and in the engines. Booby
Trap has no batched engine: `make_vec` gives it SyncVectorEnv too, and the check is that two of
them seeded alike agree (the single environment replays from its seed)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import trapworks.adapters.gymnasium  # registers the ids

pytest.importorskip("numba")

VECTOR_ENV_IDS = ["trapworks/MouseTrap-v0", "trapworks/DeadEndDrive-v0", "trapworks/LastMouseLost-v0"]
EVERY_ENV_ID = [*VECTOR_ENV_IDS, "trapworks/BoobyTrap-v0"]
STEPS = 200


def legal_pick(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """One legal action per environment, drawn from `rng` (the same draws for both vector envs);
    0 where none is legal (a game over: the next step is its autoreset, which ignores it)."""
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks], dtype=np.int64)


@pytest.mark.parametrize("env_id", VECTOR_ENV_IDS)
def test_both_vector_envs_use_next_step_autoreset(env_id):
    batched = gymnasium.make_vec(env_id, num_envs=2)
    sync = gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="sync")
    assert isinstance(sync, gymnasium.vector.SyncVectorEnv)
    assert batched.metadata["autoreset_mode"] == sync.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert batched.single_observation_space == sync.single_observation_space
    assert batched.single_action_space == sync.single_action_space


def test_every_game_is_checked():
    assert sorted(EVERY_ENV_ID) == sorted(trapworks.adapters.gymnasium.ENV_IDS.values())


# (env id, opponents, options): every game with random opponents and its default options, and
# the batched engines' heuristic too; 13 Dead End Drive's games outlast 200 steps, so its
# heuristic case has a turn limit, which ends (truncates) and resets games within them.
CASES = [(env_id, "random", {}) for env_id in EVERY_ENV_ID] + [
    ("trapworks/MouseTrap-v0", "heuristic", {"players": 3}),
    ("trapworks/LastMouseLost-v0", "heuristic", {}),
    ("trapworks/DeadEndDrive-v0", "heuristic", {"turn_limit": 6}),
]


@pytest.mark.parametrize("env_id,opponents,options", CASES)
def test_make_vec_matches_sync_vector_env(env_id, opponents, options):
    # Booby Trap's physics makes its steps the dear ones (10-15 s for 200 steps of two): one
    # environment there, three elsewhere.
    num_envs = 3 if env_id in VECTOR_ENV_IDS else 1
    batched = gymnasium.make_vec(env_id, num_envs=num_envs, opponents=opponents, **options)
    sync = gymnasium.make_vec(
        env_id, num_envs=num_envs, vectorization_mode="sync", opponents=opponents, **options
    )
    assert isinstance(sync, gymnasium.vector.SyncVectorEnv)
    assert isinstance(batched, gymnasium.vector.SyncVectorEnv) == (env_id not in VECTOR_ENV_IDS)
    b_obs, b_info = batched.reset(seed=7)
    s_obs, s_info = sync.reset(seed=7)
    rng = np.random.default_rng(3)
    ended = rewarded = 0
    for step in range(STEPS):
        np.testing.assert_array_equal(b_obs, s_obs, err_msg=f"observations, step {step}")
        np.testing.assert_array_equal(
            b_info["action_mask"], s_info["action_mask"], err_msg=f"action masks, step {step}"
        )
        actions = legal_pick(rng, b_info["action_mask"])
        b_obs, b_rew, b_term, b_trunc, b_info = batched.step(actions)
        s_obs, s_rew, s_term, s_trunc, s_info = sync.step(actions)
        np.testing.assert_array_equal(b_rew, s_rew, err_msg=f"rewards, step {step}")
        np.testing.assert_array_equal(b_term, s_term, err_msg=f"terminations, step {step}")
        np.testing.assert_array_equal(b_trunc, s_trunc, err_msg=f"truncations, step {step}")
        ended += int(b_term.sum() + b_trunc.sum())
        rewarded += int(np.count_nonzero(b_rew))  # a game won or lost (a truncated one gives 0)
    if env_id != "trapworks/DeadEndDrive-v0" or options:
        assert ended >= 1  # episodes ended, and were reset, within the 200 steps
        assert rewarded >= 1 or "turn_limit" in options


def test_environment_i_draws_from_the_single_environments_stream_for_seed_plus_i():
    from trapworks.core.stream import env_stream_seed
    from trapworks.core.vector_env import stream_seeds

    assert stream_seeds(40, 3).tolist() == [env_stream_seed(40 + i) for i in range(3)]
    assert len(set(stream_seeds(None, 3).tolist())) == 3  # fresh entropy without a seed
    with pytest.raises(ValueError, match="non-negative"):
        stream_seeds(-1, 2)
