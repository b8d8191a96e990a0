"""Issue 42 item 7: the batched vector environment against Gymnasium's own SyncVectorEnv over the
single environment: same seeds, same (seeded) actions -> the same observations, rewards,
terminations and truncations, step for step, autoresets included (both next-step autoreset)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import trapworks.adapters.gymnasium  # noqa: F401  (registers the ids)

pytest.importorskip("numba")

VECTOR_ENV_IDS = ["trapworks/MouseTrap-v0", "trapworks/DeadEndDrive-v0", "trapworks/LastMouseLost-v0"]
NUM_ENVS = 3
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


@pytest.mark.xfail(
    strict=True,
    reason="issue 42 item 7, open: the two draw their chance and opponents' moves from different "
    "random sources. SyncVectorEnv seeds env i's single env with seed+i, which runs Python's "
    "random.Random (setup_seed, make_agent seeds); the batched env gives env i the stream "
    "SeedSequence(seed).generate_state(num_envs)[i] and its engine's own agents and chance draws",
)
@pytest.mark.parametrize("env_id", VECTOR_ENV_IDS)
def test_batched_vector_env_matches_sync_vector_env(env_id):
    batched = gymnasium.make_vec(env_id, num_envs=NUM_ENVS)
    sync = gymnasium.make_vec(env_id, num_envs=NUM_ENVS, vectorization_mode="sync")
    b_obs, b_info = batched.reset(seed=7)
    s_obs, s_info = sync.reset(seed=7)
    rng = np.random.default_rng(3)
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
