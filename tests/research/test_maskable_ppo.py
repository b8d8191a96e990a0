"""The MaskablePPO example (examples/maskable_ppo.py) at a tiny budget: sb3-contrib trains through
the environment's own `action_masks()` (no ActionMasker wrapper), and the same seed gives the same
figures twice. Skipped where the `train` extra (sb3-contrib, torch) is not installed."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402

from trapworks.adapters.gymnasium import TrapworksEnv  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "maskable_ppo.py"

pytestmark = pytest.mark.slow


def load_example():
    spec = importlib.util.spec_from_file_location("maskable_ppo", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_uses_no_wrapper():
    source = EXAMPLE.read_text()
    assert "ActionMasker" not in source.replace("no `ActionMasker`", "").replace("no ActionMasker", "")
    example = load_example()
    env = example.make_env()
    assert not any(type(e).__name__ == "ActionMasker" for e in _wrappers(env))
    # What MaskablePPO checks before it trains: the environment itself has action_masks().
    assert is_masking_supported(env)


def _wrappers(env):
    while True:
        yield env
        if not hasattr(env, "env"):
            return
        env = env.env


def test_maskable_ppo_trains_through_action_masks_and_repeats_its_figures(monkeypatch):
    calls = {"n": 0}
    original = TrapworksEnv.action_masks

    def counted(self):
        # Count the calls made by MaskablePPO's rollouts (not the example's evaluation games).
        frame = sys._getframe(1)
        while frame is not None and frame.f_code.co_name != "collect_rollouts":
            frame = frame.f_back
        calls["n"] += frame is not None
        return original(self)

    monkeypatch.setattr(TrapworksEnv, "action_masks", counted)
    example = load_example()
    runs = []
    for _ in range(2):
        before = calls["n"]
        result = example.train(timesteps=256, eval_games=20, seed=3, n_steps=128)
        # Every one of training's 256 rollout steps asked the environment itself for its mask.
        assert calls["n"] - before == 256
        result.pop("train_seconds")
        runs.append(result)
    assert runs[0] == runs[1]
    assert 0.0 <= runs[0]["win_rate_after"] <= 1.0
    # The mask MaskablePPO reads is the environment's own: the legal actions, nothing else.
    env = example.make_env()
    env.reset(seed=0)
    mask = get_action_masks(env)
    state = env.unwrapped.state
    assert sorted(map(int, mask.nonzero()[0])) == sorted(state.legal_actions())
