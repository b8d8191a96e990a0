"""The example game (this folder, docs/adding-a-game.md) plays everywhere with no edit outside
its folder: the terminal, the browser (the generic renderer), `simulate`, OpenSpiel, PettingZoo
and Gymnasium. Its registration is the folder's conftest.py."""

from __future__ import annotations

import json
import random

import pytest
from rich.console import Console
from typer.testing import CliRunner

import trapworks
from trapworks.core.spec import spec_of

from . import SPEC
from .game import HOLD, ROLL

runner = CliRunner()


def test_the_registry_lists_it_and_makes_it_from_its_spec():
    assert "pig" in trapworks.available_games()
    game = trapworks.make("pig", target=12)
    assert spec_of(game) is SPEC
    state = game.new_initial_state(seed=1)
    assert state.position() == "0,0 0 1 0"
    assert game.state_from_position("3,4 5 2 7 die").position() == "3,4 5 2 7 die"


def test_it_plays_in_the_terminal(tmp_path, monkeypatch):
    from trapworks.cli.terminal import TerminalSession

    monkeypatch.setenv("TRAPWORKS_HOME", str(tmp_path))
    console = Console(record=True, width=100)
    answers = iter(["roll", "hold"] + ["hold"] * 200)
    session = TerminalSession(
        trapworks.make("pig", target=5, turn_limit=6),
        ["human", "hold-at"],
        seed=3,
        console=console,
        save_dir=tmp_path,
        ask=lambda prompt: next(answers),
    )
    final = session.run()
    text = console.export_text()
    assert "Pig to 5" in text and "Player 1: " in text  # its own drawing (SPEC.render_text)
    assert final.is_terminal()
    assert final.history()[0] == ROLL  # "roll", typed, was the first action


def test_the_play_command_takes_its_options_and_agents(tmp_path, monkeypatch):
    from trapworks.cli import app

    monkeypatch.setenv("TRAPWORKS_HOME", str(tmp_path))
    result = runner.invoke(
        app,
        [
            "play",
            "pig",
            "--seats",
            "hold-at,random",
            "-o",
            "target=6",
            "--seed",
            "2",
            "--save",
            str(tmp_path / "r.json"),
        ],
    )
    assert result.exit_code == 0, result.output
    record = json.loads((tmp_path / "r.json").read_text())
    assert record["game"] == "pig" and record["options"]["target"] == 6
    bad = runner.invoke(app, ["play", "pig", "-o", "target=3"])
    assert bad.exit_code != 0 and "target" in bad.output


def test_it_plays_in_simulate(tmp_path):
    from trapworks.cli import app

    out = tmp_path / "pig.csv"
    result = runner.invoke(
        app,
        ["simulate", "pig", "-n", "12", "--agents", "hold-at,random", "-o", "target=10", "--out", str(out)],
    )
    assert result.exit_code == 0, result.output
    rows = out.read_text().splitlines()
    assert len(rows) == 13 and "top_score" in rows[0]  # its stats hook's column


def test_it_plays_over_the_web_api_and_websocket(tmp_path):
    from fastapi.testclient import TestClient

    from trapworks.server import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.sqlite'}")) as client:
        catalog = {g["id"]: g for g in client.get("/api/catalog").json()["games"]}
        pig = catalog["pig"]
        assert pig["renderer"] == "/static/renderers/generic.js"
        assert pig["agent_words"]["hold-at"] == "Banks its points at 8 a turn"
        assert pig["howto"] == list(SPEC.howto)
        assert [o["name"] for o in pig["options_schema"]] == ["players", "target", "turn_limit"]
        r = client.post(
            "/api/games",
            json={
                "game": "pig",
                "options": {"target": 6},
                "seats": [{"kind": "human"}, {"kind": "agent", "agent": "hold-at"}],
            },
        )
        assert r.status_code == 201, r.text
        created = r.json()
        gid, token = created["id"], created["seats"][0]["token"]
        with client.websocket_connect(f"/ws/games/{gid}?token={token}") as ws:
            assert ws.receive_json()["type"] == "hello"
            ply, ref, msg = 0, 1, None
            while True:
                frame = ws.receive_json()
                for m in frame if isinstance(frame, list) else [frame]:
                    if m.get("type") == "state":
                        msg, ply = m, m["ply"]
                if msg and msg["terminal"]:
                    break
                if msg and msg["to_move"] == 0 and "hold" in msg["view"]["legal_actions"]:
                    ws.send_text(json.dumps({"type": "move", "action": "hold", "ply": ply, "ref": ref}))
                    ref += 1
                    msg = None
        assert msg["terminal"]


@pytest.mark.browser
def test_it_plays_in_the_browser_with_the_generic_renderer(pig_server):
    import httpx

    sync_api = pytest.importorskip("playwright.sync_api")
    from web.web_helpers import CHROMIUM, CHROMIUM_ARGS

    r = httpx.post(
        pig_server + "/api/games",
        json={
            "game": "pig",
            "options": {"target": 5},
            "seats": [{"kind": "human"}, {"kind": "agent", "agent": "hold-at"}],
        },
    )
    assert r.status_code == 201, r.text
    link = r.json()["seats"][0]["link"]
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1366, "height": 768})
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(link + "&fast")
            for _ in range(200):
                page.wait_for_selector("[data-controls=generic]", state="attached")
                if "Game over." in page.locator("p.muted").first.inner_text():
                    break
                button = page.locator("[data-controls=generic] button:not([disabled])")
                if button.count():
                    # Hold when offered with points banked this turn, else roll.
                    texts = [button.nth(i).inner_text() for i in range(button.count())]
                    view = json.loads(page.locator("pre.view").inner_text())
                    pick = (
                        "hold"
                        if "hold" in texts and (view["turn_total"] > 0 or "roll" not in texts)
                        else texts[0]
                    )
                    page.locator(f"[data-controls=generic] button[data-action='{pick}']").click()
                page.wait_for_timeout(100)
            assert "Game over." in page.locator("p.muted").first.inner_text()
            page.screenshot(path=str(pig_server_shot()))
            assert not errors, errors
        finally:
            browser.close()


def pig_server_shot():
    import tempfile
    from pathlib import Path

    return Path(tempfile.gettempdir()) / "pig-generic-renderer.png"


def test_it_plays_in_openspiel():
    pyspiel = pytest.importorskip("pyspiel")
    from trapworks.adapters import openspiel

    name = openspiel.register(SPEC)
    assert name == "trapworks_pig"
    game = pyspiel.load_game(name, {"target": 8, "turn_limit": 20})
    assert game.num_distinct_actions() == 2 and game.max_chance_outcomes() == 6
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert game.get_type().max_num_players == 4  # from the players option's range
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    assert str(pyspiel.load_game(str(game))) == str(game)


def test_it_plays_in_pettingzoo_and_gymnasium():
    pytest.importorskip("pettingzoo")
    gymnasium = pytest.importorskip("gymnasium")
    from trapworks.adapters.gymnasium import register_env
    from trapworks.adapters.pettingzoo import env as aec_env

    env = aec_env("pig", target=8)
    env.reset(seed=1)
    rng = random.Random(1)
    for _agent in env.agent_iter(max_iter=500):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = [i for i, ok in enumerate(obs["action_mask"]) if ok]
        env.step(rng.choice(legal))
    assert not env.agents

    env_id = register_env(SPEC)
    assert env_id == "trapworks/Pig-v0"
    g = gymnasium.make(env_id, target=8, opponents="hold-at")
    obs, info = g.reset(seed=2)
    assert obs.shape == (9,)
    done = False
    while not done:
        mask = info["action_mask"]
        action = HOLD if mask[HOLD] else ROLL
        obs, reward, terminated, truncated, info = g.step(action)
        done = terminated or truncated
    assert reward in (-1.0, 0.0, 1.0)
