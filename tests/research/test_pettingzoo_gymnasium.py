"""PettingZoo's api_test and seed_test, Gymnasium's check_env, on every game and variant."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import trapworks.adapters.gymnasium  # noqa: F401 (registers the ids)
from research.variants import case_id, cases
from trapworks.adapters.gymnasium import ENV_IDS
from trapworks.adapters.pettingzoo import env as pz_env
from trapworks.core.errors import IllegalActionError

CASES = cases()


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_pettingzoo_api_and_seed_tests(case):
    game_id, options = case
    with warnings.catch_warnings():
        # api_test warns that a dict observation is "not a NumPy array" for any environment not on
        # its own list of classic games; the dict is PettingZoo's classic format.
        warnings.simplefilter("ignore", UserWarning)
        api_test(pz_env(game_id, **options), num_cycles=60 if game_id == "booby-trap" else 200)
        seed_test(lambda: pz_env(game_id, **options), num_cycles=40 if game_id == "booby-trap" else 100)


def test_pettingzoo_plays_to_the_end_with_masks_and_rewards():
    e = pz_env("last-mouse-lost", board=[1, 2, 3], first_to=2, first_player="random")
    e.reset(seed=7)
    rng = np.random.default_rng(7)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        assert obs["action_mask"].sum() >= 1
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sorted(totals.values()) == [-1.0, 1.0]


def test_pettingzoo_illegal_action_is_refused_and_named():
    e = pz_env("last-mouse-lost", board=[1, 2, 3], first_to=1)
    e.reset(seed=1)
    e.step(5)  # row c, all three mice
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="row c"):
        e.step(illegal)
    assert e.unwrapped.tw_state.move_number() == 1  # unchanged


def test_pettingzoo_render_text():
    e = pz_env("mouse-trap", render_mode="ansi", players=2)
    e.reset(seed=3)
    text = e.render()
    assert "Mouse Trap" in text


GYM_CASES = [
    ("last-mouse-lost", {"board": [1, 2, 3], "first_to": 2, "first_player": "random", "opponents": "hard"}),
    ("last-mouse-lost", {"rules": "advanced", "first_to": 1, "seat": 1}),
    ("mouse-trap", {"players": 3, "turn_limit": 12, "opponents": ["heuristic", "easy"]}),
    ("mouse-trap", {"players": 2, "variant": "original", "turn_limit": 12, "opponents": "hard"}),
    ("booby-trap", {"pieces_per_size": 2, "opponents": "hard"}),
    ("booby-trap", {"pieces_per_size": 2, "variant": "solitaire"}),
    ("dead-end-drive", {"players": 2, "turn_limit": 8, "opponents": "medium"}),
    ("dead-end-drive", {"players": 4, "turn_limit": 6, "seat": 2}),
]


@pytest.mark.parametrize("case", GYM_CASES, ids=[case_id(c) for c in GYM_CASES])
def test_gymnasium_check_env(case):
    game_id, kwargs = case
    env = gymnasium.make(ENV_IDS[game_id], **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # e.g. Booby Trap's unbounded readings
        check_env(env.unwrapped, skip_render_check=False)
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    done = False
    steps = 0
    while not done:
        assert env.observation_space.contains(obs)
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
        steps += 1
    assert steps >= 1


def test_gymnasium_illegal_action_ends_the_episode_as_a_loss():
    env = gymnasium.make("trapworks/LastMouseLost-v0", board=[1, 2, 3], first_to=1)
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(5)  # row c, all three mice
    assert not terminated  # rows a and b keep 3 mice: the opponent cannot press them all
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert terminated and reward == -1.0 and info["illegal_action"]


def test_gymnasium_bad_arguments_are_named():
    with pytest.raises(Exception, match="opponents"):
        gymnasium.make("trapworks/MouseTrap-v0", players=3, opponents=["easy"])
    with pytest.raises(Exception, match="nonsense"):
        gymnasium.make("trapworks/MouseTrap-v0", opponents="nonsense")
    with pytest.raises(Exception, match="seat"):
        gymnasium.make("trapworks/LastMouseLost-v0", seat=2)


def test_gymnasium_same_seed_same_episode():
    def run():
        env = gymnasium.make("trapworks/DeadEndDrive-v0", players=2, turn_limit=6, opponents="easy")
        obs, info = env.reset(seed=11)
        trace = [obs.tobytes()]
        done = False
        while not done:
            obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            trace.append(obs.tobytes())
            done = terminated or truncated
        return trace

    assert run() == run()


# --- issue 30: masks, errors, one reward scale; eliminations, placement, state(), infos ----------


@pytest.mark.parametrize("game_id", list(ENV_IDS))
def test_gymnasium_action_masks_match_the_info_mask(game_id):
    kwargs = {"booby-trap": {"pieces_per_size": 2}, "dead-end-drive": {"players": 2, "turn_limit": 6}}
    env = gymnasium.make(
        ENV_IDS[game_id], **kwargs.get(game_id, {"turn_limit": 20} if game_id == "mouse-trap" else {})
    )
    obs, info = env.reset(seed=3)
    for _ in range(5):
        masks = env.unwrapped.action_masks()
        assert masks.dtype == bool and np.array_equal(masks, info["action_mask"].astype(bool))
        obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(masks)[0]))
        if terminated or truncated:
            break


def test_gymnasium_out_of_range_action_is_an_error_naming_the_range():
    env = gymnasium.make("trapworks/LastMouseLost-v0", board=[1, 2, 3], first_to=1)
    env.reset(seed=0)
    n = env.action_space.n
    for bad in (n, -1, 2.5, "3"):
        with pytest.raises(ValueError, match=f"0..{n - 1}"):
            env.step(bad)
    obs, reward, terminated, truncated, info = env.step(np.int64(5))  # numpy ids are ids
    assert not info.get("illegal_action")


def test_gymnasium_one_reward_scale():
    """Booby Trap's net scores are divided by its largest absolute utility: rewards lie in -1..1,
    an illegal action costs -1 as in every game."""
    env = gymnasium.make("trapworks/BoobyTrap-v0", pieces_per_size=2)
    assert env.unwrapped.reward_scale == max(
        -env.unwrapped.game.min_utility(), env.unwrapped.game.max_utility()
    )
    obs, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    assert env.step(illegal)[1] == -1.0
    rng = np.random.default_rng(2)
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            obs, reward, terminated, truncated, info = env.step(
                int(rng.choice(np.flatnonzero(info["action_mask"])))
            )
            done = terminated or truncated
            assert -1.0 <= reward <= 1.0


def test_gymnasium_refuses_the_oracle_as_an_opponent():
    with pytest.raises(ValueError, match="oracle"):
        gymnasium.make("trapworks/BoobyTrap-v0", pieces_per_size=2, opponents="oracle")


def _play_until_eliminated(make, seeds):
    for seed in seeds:
        e = make()
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in e.agent_iter(max_iter=4000):
            obs, reward, terminated, truncated, info = e.last()
            raw = e.unwrapped
            if terminated and raw.tw_state is not None and not raw.tw_state.is_terminal():
                return e, agent, reward
            e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    raise AssertionError("no seat was eliminated in these games")


@pytest.mark.parametrize("reward", ["return", "placement"])
def test_pettingzoo_eliminated_agent_is_terminated_and_leaves(reward):
    def make():
        return pz_env("mouse-trap", players=3, turn_limit=400, reward=reward, trap_reliability=1.0)

    e, agent, got = _play_until_eliminated(make, range(20))
    seat = e.unwrapped.agent_name_mapping[agent]
    assert e.unwrapped.tw_state.mice[seat] is None  # its mouse was caught
    assert got == (-0.5 if reward == "return" else -1.0)  # last place of three
    e.step(None)
    assert agent not in e.agents and len(e.agents) == 2  # the game goes on without it


def test_pettingzoo_placement_rewards_rank_the_seats():
    e = pz_env("mouse-trap", players=3, turn_limit=400, reward="placement", trap_reliability=1.0)
    rng = np.random.default_rng(1)
    for seed in range(10):
        e.reset(seed=seed)
        totals = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter(max_iter=6000):
            obs, reward, terminated, truncated, info = e.last()
            totals[agent] += reward
            e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        state = e.unwrapped.tw_state
        if state.is_terminal() and not state.is_truncated():
            assert sorted(totals.values()) in ([-1.0, 0.0, 1.0], [-0.5, -0.5, 1.0])
            return
    raise AssertionError("no game ended with a winner")


def test_pettingzoo_state_and_infos():
    e = pz_env("dead-end-drive", players=3, turn_limit=10)
    e.reset(seed=4)
    raw = e.unwrapped
    assert raw.state().shape == raw.state_space.shape
    assert raw.state_space.contains(raw.state())
    chance, events = [], []
    rng = np.random.default_rng(4)
    for _agent in e.agent_iter(max_iter=60):
        obs, reward, terminated, truncated, info = e.last()
        chance += info["chance"]
        events += info["events"]
        e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert any(c.startswith("roll") for c in chance), chance[:5]
    assert events and all("type" in ev for ev in events)
    # A private event reaches only its seat.
    for a, seat in raw.agent_name_mapping.items():
        for ev in raw.infos.get(a, {}).get("events", []):
            assert "to" not in ev or seat in ev["to"]


def test_pettingzoo_reward_mode_is_checked():
    with pytest.raises(ValueError, match="placement"):
        pz_env("last-mouse-lost", reward="rank")


@pytest.mark.parametrize("reward", ["return", "placement"])
def test_pettingzoo_api_test_with_eliminations(reward):
    """PettingZoo's api_test and seed_test on configurations where seats can be eliminated mid-game
    (a caught mouse with a trap that always works, a 4-player 13 Dead End Drive)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for game_id, options in [
            ("mouse-trap", {"players": 4, "turn_limit": 300, "trap_reliability": 1.0}),
            ("dead-end-drive", {"players": 4, "turn_limit": 60}),
        ]:
            api_test(pz_env(game_id, reward=reward, **options), num_cycles=3000)
            seed_test(lambda g=game_id, o=options: pz_env(g, reward=reward, **o), num_cycles=500)


def test_gymnasium_action_masks_reach_through_the_wrappers():
    """What MaskablePPO's vector environments call (`get_wrapper_attr("action_masks")`) works on
    the environment gym.make gives, with no wrapper of ours."""
    env = gymnasium.make("trapworks/DeadEndDrive-v0", players=2, turn_limit=6)
    obs, info = env.reset(seed=1)
    masks = env.get_wrapper_attr("action_masks")()
    assert np.array_equal(masks, info["action_mask"].astype(bool)) and masks.any()


# --- the parallel API (turn-based: the mover's action applies) -------------------------------
@pytest.mark.parametrize("case", cases(), ids=case_id)
def test_parallel_api_test(case):
    from pettingzoo.test import parallel_api_test

    from trapworks.adapters.pettingzoo import parallel_env

    game_id, options = case
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # PettingZoo's test warns where the API is bent
        parallel_api_test(parallel_env(game_id, **options), num_cycles=60 if game_id == "booby-trap" else 300)


def test_parallel_env_plays_the_aec_game_and_names_a_missing_mover():
    from trapworks.adapters.pettingzoo import parallel_env, raw_env

    par = parallel_env("mouse-trap", players=3, turn_limit=40)
    aec = raw_env("mouse-trap", players=3, turn_limit=40)
    obs, _ = par.reset(seed=5)
    aec.reset(seed=5)
    rng = np.random.default_rng(0)
    total = dict.fromkeys(par.possible_agents, 0.0)
    steps = 0
    while par.agents:
        mover = par.agent_to_move
        assert mover == aec.agent_selection
        assert all(not obs[a]["action_mask"].any() for a in par.agents if a != mover)
        assert np.array_equal(obs[mover]["observation"], aec.observe(mover)["observation"])
        legal = np.flatnonzero(obs[mover]["action_mask"])
        action = int(rng.choice(legal))
        # The others' entries are ignored, whatever they are.
        actions = {a: (action if a == mover else 0) for a in par.agents}
        obs, rewards, term, trunc, _ = par.step(actions)
        aec.step(action)
        assert rewards == {a: aec.rewards.get(a, 0.0) for a in rewards}
        assert term == {a: aec.terminations[a] for a in term}
        while aec.agents and (aec.terminations[aec.agent_selection] or aec.truncations[aec.agent_selection]):
            aec.step(None)
        for a, r in rewards.items():
            total[a] += r
        steps += 1
        assert set(par.agents) == set(aec.agents)
    assert steps > 10
    assert all(term.values()) or all(trunc.values())  # every agent finished in the last step
    par.reset(seed=1)
    with pytest.raises(ValueError, match=par.agent_to_move):
        par.step({a: 0 for a in par.agents if a != par.agent_to_move})
