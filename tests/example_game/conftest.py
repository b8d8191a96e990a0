"""The example game is registered here, by the tests alone (an installed package would declare
it in the `trapworks.games` entry-point group instead): nothing outside this folder names it."""

from __future__ import annotations

import sys

import pytest

from trapworks.core.registry import register_spec, unregister

from . import SPEC


@pytest.fixture(autouse=True, scope="module")
def pig_registered():
    register_spec(SPEC)
    yield SPEC
    unregister(SPEC.game_id)
    # The adapters' tables list the games they registered: the example leaves them as it found
    # them (pyspiel and gymnasium keep their own registrations, under names no other test reads).
    openspiel = sys.modules.get("trapworks.adapters.openspiel")
    if openspiel is not None:
        openspiel.GAMES.pop("trapworks_pig", None)
        openspiel.GAME_CLASSES.pop("trapworks_pig", None)
    gym = sys.modules.get("trapworks.adapters.gymnasium")
    if gym is not None:
        gym.ENV_IDS.pop(SPEC.game_id, None)


@pytest.fixture(scope="module")
def pig_server(tmp_path_factory, pig_registered):
    """The web app under uvicorn in a thread of this process (so it knows the registered game),
    on a free loopback port; its URL."""
    from tests.web.web_helpers import serve_in_thread

    from trapworks.server import create_app

    folder = tmp_path_factory.mktemp("pig-web")
    base, stop = serve_in_thread(create_app(f"sqlite:///{folder / 'trapworks.db'}", data_dir=folder))
    yield base
    stop()
