"""Vector environments backed by the batched engine (issue 31): `gymnasium.make_vec` gives the
engine's environment, and each of its environments is the single environment's game step for
step: the kernel, with its own agents and chance tables drawing from that environment's stream,
gives the same observations, masks, rewards and episode ends."""

from __future__ import annotations

import random

import gymnasium
import numpy as np
import pytest

import trapworks
import trapworks.adapters.gymnasium  # noqa: F401  (registers the ids)
from trapworks.agents import make_agent
from trapworks.core.batch import in_threads

pytest.importorskip("numba")
from trapworks.games.mouse_trap.batch import SharedStream, sample_chance_from_stream  # noqa: E402
from trapworks.games.mouse_trap.vector_env import MouseTrapVectorEnv, stream_seeds  # noqa: E402


class KernelEnv:
    """The kernel's game for one environment of the vector env, on that environment's stream."""

    def __init__(self, options, seat, opponents, seed):
        self.game = trapworks.make("mouse-trap", **options)
        self.seat = seat
        self.stream = SharedStream(int(seed))
        others = [s for s in range(self.game.num_players()) if s != seat]
        self.agents = {
            s: make_agent(name, self.game, s, seed=0) for s, name in zip(others, opponents, strict=True)
        }
        for a in self.agents.values():
            a.rng = self.stream

    def new(self):
        self.state = self.game.new_initial_state()
        self._advance()

    def _advance(self):
        st = self.state
        while not st.is_terminal():
            if st.is_chance_node():
                st.apply_action(sample_chance_from_stream(st, self.stream))
            elif st.current_player() == self.seat:
                return
            else:
                st.apply_action(self.agents[st.current_player()].step(st))

    def obs(self):
        return np.asarray(self.state.observation_tensor(self.seat), np.float32)

    def mask(self):
        m = np.zeros(self.game.num_distinct_actions(), np.int8)
        if not self.state.is_terminal() and self.state.current_player() == self.seat:
            m[self.state.legal_actions()] = 1
        return m


@pytest.mark.parametrize(
    "options,seat,opponents",
    [
        ({"players": 2}, 0, ["random"]),
        (
            {"players": 4, "variant": "original", "first_player": "random"},
            2,
            ["heuristic", "random", "double-catch"],
        ),
        ({"players": 3, "turn_limit": 15, "cheese_supply": 3}, 1, ["random", "heuristic"]),
    ],
)
def test_vector_env_is_the_kernel_step_for_step(options, seat, opponents):
    num = 6
    envs = gymnasium.make_vec(
        "trapworks/MouseTrap-v0", num_envs=num, seat=seat, opponents=opponents, **options
    )
    assert isinstance(envs.unwrapped, MouseTrapVectorEnv)
    obs, info = envs.reset(seed=11)
    kernels = [KernelEnv(options, seat, opponents, s) for s in stream_seeds(11, num)]
    for k in kernels:
        k.new()
    pending_reset = [False] * num
    picker = random.Random(5)
    episodes = 0
    for _step in range(400):
        for e, k in enumerate(kernels):
            np.testing.assert_array_equal(obs[e], k.obs())
            np.testing.assert_array_equal(info["action_mask"][e], k.mask())
        actions = np.array(
            [
                picker.choice(np.flatnonzero(m).tolist()) if m.any() else 0
                for m in envs.unwrapped.action_masks()
            ]
        )
        obs, rewards, terminated, truncated, info = envs.step(actions)
        for e, k in enumerate(kernels):
            if pending_reset[e]:
                k.new()
                pending_reset[e] = False
                assert rewards[e] == 0 and not terminated[e] and not truncated[e]
                continue
            k.state.apply_action(int(actions[e]))
            k._advance()
            if k.state.is_terminal():
                episodes += 1
                pending_reset[e] = True
                assert truncated[e] == k.state.is_truncated()
                assert terminated[e] == (not k.state.is_truncated())
                assert rewards[e] == k.state.returns()[seat]
            else:
                assert rewards[e] == 0 and not terminated[e] and not truncated[e]
    assert episodes >= 3


def test_vector_env_errors_name_the_problem():
    envs = gymnasium.make_vec("trapworks/MouseTrap-v0", num_envs=2, players=3)
    with pytest.raises(RuntimeError, match="reset"):
        envs.step(np.array([0, 0]))
    envs.reset(seed=0)
    with pytest.raises(ValueError, match="out of range"):
        envs.step(np.array([0, 99]))
    with pytest.raises(ValueError, match="one per environment"):
        envs.step(np.array([0]))
    # a legal-range action that is not legal: that episode ends as a loss (-1, as the single
    # environment gives it), the other plays on
    obs, rewards, terminated, truncated, info = envs.step(np.array([7, 0]))  # crank before any roll
    assert terminated.tolist() == [True, False] and rewards[0] == -1.0 and info["illegal_action"][0]
    with pytest.raises(ValueError, match="mcts"):
        gymnasium.make_vec("trapworks/MouseTrap-v0", num_envs=2, opponents="mcts")


def test_same_seed_same_games_and_sync_mode_still_available():
    def run(seed):
        envs = gymnasium.make_vec("trapworks/MouseTrap-v0", num_envs=4, players=3)
        obs, info = envs.reset(seed=seed)
        out = [obs]
        for _ in range(50):
            acts = np.array([np.flatnonzero(m)[-1] if m.any() else 0 for m in info["action_mask"]])
            obs, r, term, trunc, info = envs.step(acts)
            out.append(obs)
        return np.stack(out)

    np.testing.assert_array_equal(run(3), run(3))
    assert not np.array_equal(run(3), run(4))
    sync = gymnasium.make_vec("trapworks/MouseTrap-v0", num_envs=2, vectorization_mode="sync")
    assert isinstance(sync, gymnasium.vector.SyncVectorEnv)


def test_the_training_example_runs(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "examples" / "mouse_trap_vector_pg.py"
    out = subprocess.run(
        [sys.executable, str(example), "--updates", "2", "--num-envs", "16", "--steps", "40"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr
    assert "win rate" in out.stdout and "Warning" not in out.stderr


def test_results_do_not_depend_on_the_number_of_threads(monkeypatch):
    # The engine's step runs the environments in chunks, one per thread (batch.vector_step):
    # each reads and writes only its own rows and draws from its own stream, so one thread or
    # several give the same games, illegal actions and autoresets included. Chunks of 4
    # environments here, so that 37 are split (a real run splits from thousands on).
    import numba

    from trapworks.games.mouse_trap import batch

    monkeypatch.setattr(batch, "_ENVS_PER_THREAD", 4)
    split: list[int] = []  # the thread count of each step

    def counted(count, threads, play):
        split.append(threads)
        in_threads(count, threads, play)

    monkeypatch.setattr(batch, "in_threads", counted)

    def run(threads):
        previous = numba.get_num_threads()
        numba.set_num_threads(threads)
        try:
            envs = gymnasium.make_vec(
                "trapworks/MouseTrap-v0",
                num_envs=37,
                players=4,
                opponents=["random", "heuristic", "double-catch"],
            )
            obs, info = envs.reset(seed=21)
            rng = np.random.default_rng(2)
            out = [obs, info["action_mask"]]
            for i in range(300):
                m = info["action_mask"]
                acts = np.argmax(m * rng.random(m.shape), axis=1)
                if i % 25 == 0:  # some illegal actions too
                    acts = rng.integers(0, m.shape[1], m.shape[0])
                obs, rewards, terminated, truncated, info = envs.step(acts)
                out += [obs, info["action_mask"], rewards, terminated, truncated]
            return out
        finally:
            numba.set_num_threads(previous)

    one = run(1)
    assert sum(int(a.sum()) for a in one[5::5]) >= 20  # terminated: episodes ended
    most = numba.config.NUMBA_NUM_THREADS
    if most < 2:
        pytest.skip("numba has one thread here")
    split.clear()
    for a, b in zip(one, run(most), strict=True):
        np.testing.assert_array_equal(a, b)
    assert set(split) == {min(most, 37 // 4)}  # the environments were split across threads
