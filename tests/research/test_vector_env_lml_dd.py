"""Vector environments of Last Mouse Lost (the compiled engine's step-wise batch, _fastlml.c) and
13 Dead End Drive (the numba engine, batch.py), issue 31: `gymnasium.make_vec` gives the
engine's environment, and each of its environments is the single environment's game step for
step: the kernel, with its own agents and chance drawing from that environment's stream (and,
for 13 Dead End Drive, its deal and reshuffles), gives the same observations (the adapters'
`observation_array`, the single environment's), masks, rewards and episode ends."""

from __future__ import annotations

import random

import gymnasium
import numpy as np
import pytest

import trapworks
import trapworks.adapters.gymnasium  # noqa: F401  (registers the ids)
from trapworks.adapters._common import action_mask, observation_array
from trapworks.agents import make_agent
from trapworks.core.stream import SharedStream, sample_chance_from_stream


class KernelEnv:
    """The kernel's game for one environment of a vector env, on that environment's stream."""

    def __init__(self, game_id, options, seat, opponents, seed):
        self.game = trapworks.make(game_id, **options)
        self.seat = seat
        self.stream = SharedStream(int(seed))
        others = [s for s in range(self.game.num_players()) if s != seat]
        self.agents = {
            s: make_agent(name, self.game, s, seed=0) for s, name in zip(others, opponents, strict=True)
        }
        for a in self.agents.values():
            a.rng = self.stream

    def new(self):
        if self.game.game_id == "dead-end-drive":
            from trapworks.games.dead_end_drive.batch import deal_from_stream
            from trapworks.games.dead_end_drive.game import DeadEndDriveState

            self.state = DeadEndDriveState(self.game, seed=0, deal=False)
            deal_from_stream(self.state, self.stream)
        else:
            self.state = self.game.new_initial_state()
        self.advance()

    def advance(self):
        st = self.state
        while not st.is_terminal():
            if st.is_chance_node():
                st.apply_action(sample_chance_from_stream(st, self.stream))
            elif st.current_player() == self.seat:
                return
            else:
                st.apply_action(self.agents[st.current_player()].step(st))

    def obs(self):
        return observation_array(self.state, self.seat)

    def mask(self):
        return action_mask(self.game, self.state, self.seat)


def play_along(env_id, game_id, options, seat, opponents, num=6, steps=300, seed=11, illegal_every=0):
    """Step the vector env and one kernel per environment side by side; the episodes seen."""
    envs = gymnasium.make_vec(env_id, num_envs=num, seat=seat, opponents=opponents, **options)
    module = __import__(type(envs.unwrapped).__module__, fromlist=["stream_seeds"])
    obs, info = envs.reset(seed=seed)
    kernels = [KernelEnv(game_id, options, seat, opponents, s) for s in module.stream_seeds(seed, num)]
    for k in kernels:
        k.new()
    # a game over before the seat's first decision (a turn limit): the next step starts anew
    pending_reset = [k.state.is_terminal() for k in kernels]
    picker = random.Random(5)
    episodes = illegal = 0
    for step in range(steps):
        for e, k in enumerate(kernels):
            np.testing.assert_array_equal(obs[e], k.obs(), err_msg=f"step {step} env {e}")
            np.testing.assert_array_equal(info["action_mask"][e], k.mask(), err_msg=f"step {step} env {e}")
        masks = envs.unwrapped.action_masks()
        actions = np.array([picker.choice(np.flatnonzero(m).tolist()) if m.any() else 0 for m in masks])
        if illegal_every and step % illegal_every == 3:  # an id in range but not legal now
            e = step % num
            if masks[e].any() and not masks[e].all():
                actions[e] = int(np.flatnonzero(~masks[e])[0])
        obs, rewards, terminated, truncated, info = envs.step(actions)
        for e, k in enumerate(kernels):
            if pending_reset[e]:
                k.new()
                pending_reset[e] = k.state.is_terminal()
                assert rewards[e] == 0 and not terminated[e] and not truncated[e]
                continue
            if not masks[e][actions[e]]:
                # the single environment's rule: the state stays, the episode ends as a loss
                assert terminated[e] and rewards[e] == -1.0 and info["illegal_action"][e]
                illegal += 1
                pending_reset[e] = True
                continue
            k.state.apply_action(int(actions[e]))
            k.advance()
            if k.state.is_terminal():
                episodes += 1
                pending_reset[e] = True
                assert truncated[e] == k.state.is_truncated()
                assert terminated[e] == (not k.state.is_truncated())
                assert rewards[e] == k.state.returns()[seat]
            else:
                assert rewards[e] == 0 and not terminated[e] and not truncated[e]
    return episodes, illegal


# --- Last Mouse Lost ---------------------------------------------------------------------------
lml_built = trapworks.make("last-mouse-lost").batched_agents


@pytest.mark.skipif(not lml_built, reason="the compiled Last Mouse Lost engine is not built")
@pytest.mark.parametrize(
    "options,seat,opponent",
    [
        ({}, 0, "random"),
        ({"rules": "advanced"}, 1, "heuristic"),
        ({"opener": "loser", "first_player": "random", "first_to": 2}, 0, "heuristic"),
        ({"rules": "advanced", "board": [16, 1, 9, 15], "opener": "winner", "first_player": 1}, 1, "random"),
        ({"board": [1, 2, 3], "first_to": 1, "opener": "same", "first_player": "random"}, 1, "heuristic"),
    ],
)
def test_last_mouse_lost_vector_env_is_the_kernel_step_for_step(options, seat, opponent):
    from trapworks.games.last_mouse_lost.vector_env import LastMouseLostVectorEnv

    assert isinstance(
        gymnasium.make_vec("trapworks/LastMouseLost-v0", num_envs=2).unwrapped, LastMouseLostVectorEnv
    )
    episodes, illegal = play_along(
        "trapworks/LastMouseLost-v0", "last-mouse-lost", options, seat, [opponent], illegal_every=17
    )
    assert episodes >= 3 and illegal >= 1


@pytest.mark.skipif(not lml_built, reason="the compiled Last Mouse Lost engine is not built")
def test_last_mouse_lost_match_over_before_the_seat_moves():
    """Board 1, one round, seat 1 second: the opponent presses the only mouse and the match is
    over at reset (the single environment's reset returns that end); the vector environment shows
    the final position with no legal action and starts a new match at the next step."""
    options = {"board": [1], "first_to": 1, "first_player": 0}
    episodes, illegal = play_along(
        "trapworks/LastMouseLost-v0", "last-mouse-lost", options, 1, ["random"], num=2, steps=5
    )
    assert episodes == 0 and illegal == 0
    envs = gymnasium.make_vec("trapworks/LastMouseLost-v0", num_envs=2, seat=1, **options)
    obs, info = envs.reset(seed=1)
    assert not info["action_mask"].any() and (obs[:, -1] == 1.0).all()  # the match-over flag


@pytest.mark.skipif(not lml_built, reason="the compiled Last Mouse Lost engine is not built")
def test_last_mouse_lost_engine_refuses_wrong_buffers_by_name():
    from trapworks.games.last_mouse_lost.game import _fastlml

    envs = gymnasium.make_vec("trapworks/LastMouseLost-v0", num_envs=2)
    u = envs.unwrapped
    envs.reset(seed=0)
    acts = np.zeros(2, np.int64)
    bufs = [u._obs, u._mask, u._rewards, u._terminated, u._truncated, u._illegal]
    with pytest.raises(ValueError, match="actions: one int64 per environment"):
        _fastlml.vector_step(u._spec, u._config, u._S, np.zeros(3, np.int64), *bufs)
    with pytest.raises(ValueError, match="obs: one float32 row"):
        _fastlml.vector_step(u._spec, u._config, u._S, acts, np.zeros((2, 3), np.float32), *bufs[1:])
    with pytest.raises(ValueError, match="rewards: one float64"):
        _fastlml.vector_step(u._spec, u._config, u._S, acts, *bufs[:2], np.zeros(2, np.float32), *bufs[3:])
    with pytest.raises(ValueError, match="learning seat is 0 or 1"):
        _fastlml.vector_step(u._spec, u._config[:6] + (2,), u._S, acts, *bufs)
    with pytest.raises(ValueError, match="policy is 0"):
        _fastlml.vector_reset(u._spec, u._config[:4] + (5, 0, 0), u._S, np.zeros(2, np.uint64), *bufs[:2])
    with pytest.raises(ValueError, match="seeds: one uint64"):
        _fastlml.vector_reset(u._spec, u._config, u._S, np.zeros(3, np.uint64), *bufs[:2])
    with pytest.raises(TypeError, match="config"):
        _fastlml.vector_reset(u._spec, (1, 2), u._S, np.zeros(2, np.uint64), *bufs[:2])


@pytest.mark.skipif(not lml_built, reason="the compiled Last Mouse Lost engine is not built")
def test_last_mouse_lost_vector_env_errors_name_the_problem():
    envs = gymnasium.make_vec("trapworks/LastMouseLost-v0", num_envs=2)
    with pytest.raises(RuntimeError, match="reset"):
        envs.step(np.array([0, 0]))
    envs.reset(seed=0)
    n = envs.unwrapped.single_action_space.n
    with pytest.raises(ValueError, match=f"action {n} for environment 1 is out of range"):
        envs.step(np.array([0, n]))
    with pytest.raises(ValueError, match="out of range"):
        envs.step(np.array([-1, 0]))
    with pytest.raises(ValueError, match="one per environment"):
        envs.step(np.array([0]))
    with pytest.raises(ValueError, match="one per environment"):
        envs.step(np.array([0.5, 1.0]))
    with pytest.raises(ValueError, match="'perfect'.*sync"):
        gymnasium.make_vec("trapworks/LastMouseLost-v0", num_envs=2, opponents="perfect")
    with pytest.raises(ValueError, match="seat"):
        gymnasium.make_vec("trapworks/LastMouseLost-v0", num_envs=2, seat=2)
    with pytest.raises(ValueError, match="num_envs"):
        gymnasium.make_vec("trapworks/LastMouseLost-v0", num_envs=0)


@pytest.mark.skipif(not lml_built, reason="the compiled Last Mouse Lost engine is not built")
def test_last_mouse_lost_same_seed_same_matches():
    def run(seed):
        envs = gymnasium.make_vec("trapworks/LastMouseLost-v0", num_envs=4, opponents="heuristic")
        obs, info = envs.reset(seed=seed)
        out = [obs]
        for _ in range(60):
            acts = np.array([np.flatnonzero(m)[-1] if m.any() else 0 for m in info["action_mask"]])
            obs, r, term, trunc, info = envs.step(acts)
            out.append(obs)
        return np.stack(out)

    np.testing.assert_array_equal(run(3), run(3))
    assert not np.array_equal(run(3), run(4))
    sync = gymnasium.make_vec("trapworks/LastMouseLost-v0", num_envs=2, vectorization_mode="sync")
    assert isinstance(sync, gymnasium.vector.SyncVectorEnv)


@pytest.mark.skipif(not lml_built, reason="the compiled Last Mouse Lost engine is not built")
def test_the_training_example_runs_on_last_mouse_lost():
    import subprocess
    import sys
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "examples" / "mouse_trap_vector_pg.py"
    args = ["--game", "last-mouse-lost", "--updates", "2", "--num-envs", "16", "--steps", "40"]
    out = subprocess.run([sys.executable, str(example), *args], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "win rate" in out.stdout and "Warning" not in out.stderr


# --- 13 Dead End Drive ----------------------------------------------------------------------
numba = pytest.importorskip("numba")


@pytest.mark.parametrize(
    "options,seat,illegal_every",
    [
        ({"players": 4}, 0, 23),
        ({"players": 2}, 1, 23),
        ({"players": 3, "first_player": 2, "blocked_die": "lose-turn", "after_draw": "none"}, 2, 23),
        ({"players": 2, "traps_per_kind": 1, "wild_cards": 0, "detective_cards": 24}, 0, 0),
        ({"players": 3, "traps_per_kind": 5, "wild_cards": 4, "detective_cards": 0}, 1, 0),
        ({"players": 4, "passage_hops": 3, "passage_start_hop": True, "turn_limit": 12}, 3, 23),
        ({"players": 2, "turn_limit": 1, "first_player": 1}, 1, 0),  # over before seat 1 decides
    ],
    ids=str,
)
def test_dead_end_drive_vector_env_is_the_kernel_step_for_step(options, seat, illegal_every):
    from trapworks.games.dead_end_drive.vector_env import DeadEndDriveVectorEnv

    envs = gymnasium.make_vec("trapworks/DeadEndDrive-v0", num_envs=2, players=options["players"])
    assert isinstance(envs.unwrapped, DeadEndDriveVectorEnv)
    others = ["random"] * (options["players"] - 1)
    episodes, illegal = play_along(
        "trapworks/DeadEndDrive-v0",
        "dead-end-drive",
        options,
        seat,
        others,
        num=4,
        steps=400,
        illegal_every=illegal_every,
    )
    if illegal_every:
        assert illegal >= 1
    elif options.get("turn_limit") != 1:
        assert episodes >= 1  # games played to their end, rewards compared


@pytest.mark.parametrize(
    "options,seat,opponents,illegal_every",
    [
        ({"players": 4}, 0, ["heuristic"] * 3, 23),
        ({"players": 2}, 1, ["heuristic"], 0),
        ({"players": 3, "blocked_die": "lose-turn", "after_draw": "none"}, 2, ["heuristic", "random"], 23),
        (
            {"players": 4, "traps_per_kind": 5, "wild_cards": 4, "detective_cards": 0, "passage_hops": 2},
            1,
            ["random", "heuristic", "heuristic"],
            0,
        ),
        ({"players": 2, "traps_per_kind": 1, "wild_cards": 0, "detective_cards": 24}, 0, ["heuristic"], 0),
    ],
    ids=str,
)
def test_dead_end_drive_vector_env_heuristic_opponents_step_for_step(options, seat, opponents, illegal_every):
    """opponents="heuristic" (or a list mixing it with random): the engine's heuristic
    (batch._heuristic) in each environment plays as the kernel's HeuristicAgent that make_agent
    makes, drawing its jitter and bluffs from the environment's stream: the same games."""
    episodes, illegal = play_along(
        "trapworks/DeadEndDrive-v0",
        "dead-end-drive",
        options,
        seat,
        opponents,
        num=4,
        steps=400,
        illegal_every=illegal_every,
    )
    if illegal_every:
        assert illegal >= 1
    assert episodes >= 1  # games played to their end, rewards compared


def test_dead_end_drive_vector_env_errors_name_the_problem():
    envs = gymnasium.make_vec("trapworks/DeadEndDrive-v0", num_envs=2, players=3)
    with pytest.raises(RuntimeError, match="reset"):
        envs.step(np.array([0, 0]))
    obs, info = envs.reset(seed=0)
    n = envs.unwrapped.single_action_space.n
    with pytest.raises(ValueError, match=f"action {n} for environment 1 is out of range"):
        envs.step(np.array([0, n]))
    with pytest.raises(ValueError, match="one per environment"):
        envs.step(np.array([0, 0, 0]))
    with pytest.raises(ValueError, match="'mcts'.*random, heuristic.*sync"):
        gymnasium.make_vec("trapworks/DeadEndDrive-v0", num_envs=2, opponents="mcts")
    with pytest.raises(ValueError, match="opponents: 1 given for 2"):
        gymnasium.make_vec("trapworks/DeadEndDrive-v0", num_envs=2, players=3, opponents=["random"])
    # an id in range but not legal now: that episode ends as a loss, the other plays on
    bad = int(np.flatnonzero(info["action_mask"][0] == 0)[0])
    good = int(np.flatnonzero(info["action_mask"][1])[0])
    obs2, rewards, terminated, truncated, info2 = envs.step(np.array([bad, good]))
    assert terminated.tolist() == [True, False] and rewards[0] == -1.0 and info2["illegal_action"][0]
    np.testing.assert_array_equal(obs2[0], obs[0])  # the game was left as it was


def test_dead_end_drive_same_seed_same_games():
    def run(seed):
        envs = gymnasium.make_vec("trapworks/DeadEndDrive-v0", num_envs=3, players=4)
        obs, info = envs.reset(seed=seed)
        out = [obs]
        for _ in range(40):
            acts = np.array([np.flatnonzero(m)[-1] if m.any() else 0 for m in info["action_mask"]])
            obs, r, term, trunc, info = envs.step(acts)
            out.append(obs)
        return np.stack(out)

    np.testing.assert_array_equal(run(3), run(3))
    assert not np.array_equal(run(3), run(4))


def test_dead_end_drive_results_do_not_depend_on_the_number_of_threads(monkeypatch):
    # The step runs the environments in chunks, one per thread (vector_env.vector_step): each
    # reads and writes only its own rows and draws from its own stream. Chunks of 4 here, so
    # that 13 environments are split (a real run splits from 64 on).
    import numba

    from trapworks.core.batch import in_threads
    from trapworks.games.dead_end_drive import vector_env

    most = numba.config.NUMBA_NUM_THREADS
    if most < 2:
        pytest.skip("numba has one thread here")
    monkeypatch.setattr(vector_env, "_ENVS_PER_THREAD", 4)
    split: list[int] = []  # the thread count of each step

    def counted(count, threads, play):
        split.append(threads)
        in_threads(count, threads, play)

    monkeypatch.setattr(vector_env, "in_threads", counted)

    def run(threads):
        previous = numba.get_num_threads()
        numba.set_num_threads(threads)
        try:
            envs = gymnasium.make_vec("trapworks/DeadEndDrive-v0", num_envs=13, players=3, opponents="random")
            obs, info = envs.reset(seed=5)
            rng = np.random.default_rng(4)
            out = [obs, info["action_mask"]]
            for i in range(60):
                m = info["action_mask"]
                acts = np.argmax(m * rng.random(m.shape), axis=1)
                if i % 20 == 0:  # some illegal actions too
                    acts = rng.integers(0, m.shape[1], m.shape[0])
                obs, rewards, terminated, truncated, info = envs.step(acts)
                out += [obs, info["action_mask"], rewards, terminated, truncated]
            return out
        finally:
            numba.set_num_threads(previous)

    one = run(1)
    assert set(split) == {1}
    split.clear()
    for a, b in zip(one, run(most), strict=True):
        np.testing.assert_array_equal(a, b)
    assert set(split) == {min(most, 13 // 4)}  # the environments were split across threads
