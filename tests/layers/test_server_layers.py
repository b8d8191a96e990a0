"""The server package is rooms and features (issue 24), with no import cycle, importing nothing
from the CLI above it: `server/service.py` and `server/control.py` used to import each other, and
`server/app.py` took its data folder from `cli.options`. The graph is read from the source,
imports inside functions included (test_import_layers.runtime_imports).

The layout: a Room (server/room.py) owns one live game and the one path of its actions; each
off-board feature is one module of server/features/, one class implementing the `Feature`
protocol (its commands as pydantic models, the hooks the room calls), reaching the rest of the
server only through the room and its host (never importing the service)."""

from __future__ import annotations

import graphlib
import importlib
import inspect

import pytest
from pydantic import BaseModel

from layers.test_import_layers import SRC, import_graph, module_name, runtime_imports

SERVER = SRC / "trapworks" / "server"
FEATURES = SERVER / "features"
# Every module of server/features/ is one feature (found by features.discover, listed nowhere).
FEATURE_MODULES = sorted(p.stem for p in FEATURES.glob("*.py") if p.stem != "__init__")
# The hooks a feature may answer, and those that are coroutines (the socket's and the server's).
ASYNC_HOOKS = {"on_message", "hello", "socket_closed", "heard_elsewhere", "start", "shutdown"}
HOOKS = [
    name
    for name, member in vars(importlib.import_module("trapworks.server.features").Feature).items()
    if inspect.isfunction(member) and not name.startswith("_") and name not in ("local", "socket_commands")
]


def test_the_server_package_has_no_import_cycle() -> None:
    graph = import_graph(SERVER)
    expected = {"trapworks.server.service", "trapworks.server.room", "trapworks.server.features.clock"}
    assert expected <= set(graph)
    graphlib.TopologicalSorter(graph).prepare()  # raises CycleError naming the cycle


def test_the_server_imports_nothing_from_the_cli() -> None:
    upward = {
        module_name(path): sorted(i for i in runtime_imports(path) if i.startswith("trapworks.cli"))
        for path in SERVER.rglob("*.py")
    }
    assert {m: found for m, found in upward.items() if found} == {}


def test_the_reader_sees_the_server_edges_and_skips_type_checking_imports() -> None:
    """A control: the graph has clock -> room and service -> hint, and the room imports no
    feature (it names what it asks of them and of the service as Protocols, Hooks and Host); an
    edge room -> clock would be reported as a cycle."""
    graph = import_graph(SERVER)
    assert "trapworks.server.room" in graph["trapworks.server.features.clock"]
    assert "trapworks.server.features.hint" in graph["trapworks.server.service"]
    room = [name for name in graph if name.startswith("trapworks.server.room")]
    assert len(room) == 5  # the room and its seams
    assert not any(m.startswith("trapworks.server.features") for name in room for m in graph[name])
    looped = {
        **graph,
        "trapworks.server.room": graph["trapworks.server.room"] | {"trapworks.server.features.clock"},
    }
    with pytest.raises(graphlib.CycleError):
        graphlib.TopologicalSorter(looped).prepare()


def test_server_control_py_and_live_py_are_gone_the_room_holds_the_game() -> None:
    """No catch-all control class is left: the features replaced it (moved, not wrapped)."""
    assert not (SERVER / "control.py").exists() and not (SERVER / "live.py").exists()
    from trapworks.server.room import Room

    assert inspect.iscoroutinefunction(Room.play)
    assert list(inspect.signature(Room.play).parameters)[:3] == ["self", "seat", "action"]
    assert "by" in inspect.signature(Room.play).parameters


def test_each_feature_is_one_module_under_server_features() -> None:
    """The issue's features are there, each one module, and the service runs exactly the
    features the package holds (a new module is a new feature: nothing else lists it)."""
    from trapworks.server.service import FEATURES as REGISTERED

    expected = {"clock", "resign", "rematch", "handover", "undo", "hint"}
    expected |= {"chat", "presence", "names", "tables"}
    assert expected <= set(FEATURE_MODULES)
    assert sorted(c.__module__.rsplit(".", 1)[1] for c in REGISTERED) == FEATURE_MODULES


@pytest.mark.parametrize("module", FEATURE_MODULES)
def test_each_feature_module_implements_the_one_protocol(module: str) -> None:
    from trapworks.server.features import Feature
    from trapworks.server.service import FEATURES as REGISTERED

    mod = importlib.import_module(f"trapworks.server.features.{module}")
    mine = [
        c
        for c in vars(mod).values()
        if inspect.isclass(c) and issubclass(c, Feature) and c is not Feature and c.__module__ == mod.__name__
    ]
    assert len(mine) == 1, "exactly one feature class in the module"
    (cls,) = mine
    assert cls in REGISTERED, "the service runs its hooks"
    assert cls.name, "a feature has a name"
    # Its commands are pydantic models (server/messages.py: the one validation at the boundary).
    assert cls.commands and all(issubclass(c, BaseModel) for c in cls.commands)
    # It answers at least one of the room's hooks, each with the protocol's signature (a method of
    # the same name with other parameters, or a coroutine where the room calls it plainly, would
    # be called wrongly).
    overridden = [h for h in HOOKS if h in vars(cls)]
    assert overridden, f"{cls.__name__} implements none of the hooks {HOOKS}"
    for hook in overridden:
        mine_sig = inspect.signature(getattr(cls, hook))
        proto_sig = inspect.signature(getattr(Feature, hook))
        assert list(mine_sig.parameters) == list(proto_sig.parameters), (cls.__name__, hook)
        is_async = inspect.iscoroutinefunction(getattr(cls, hook))
        assert is_async == (hook in ASYNC_HOOKS), (cls.__name__, hook)
    # A socket message it declares is one it answers.
    if cls.socket_commands():
        assert "on_message" in vars(cls), f"{cls.__name__} declares socket messages but answers none"


def test_the_socket_and_the_routes_name_no_feature() -> None:
    """The dispatch is one line: the app, its routers and the service's socket wiring import no
    feature by name (the service finds them; hint's agent for the catalog aside), and no
    `Undo`/`Hint` branch is left in the app."""
    graph = import_graph(SERVER)
    wiring = [
        name
        for name in graph
        if name in ("trapworks.server.app", "trapworks.server.cluster", "trapworks.server.protocol")
        or name.startswith("trapworks.server.routers")
        or name.startswith("trapworks.server.room")
    ]
    named = {n: sorted(m for m in graph[n] if m.startswith("trapworks.server.features.")) for n in wiring}
    assert {n: found for n, found in named.items() if found} == {}
    assert "trapworks.server.routers.socket" in wiring and "trapworks.server.room.pipeline" in wiring
    app_text = (SERVER / "app.py").read_text() + (SERVER / "routers" / "socket.py").read_text()
    assert "Undo" not in app_text and "Hint" not in app_text
    assert not (SERVER / "social.py").exists()


def test_the_features_reach_the_service_only_through_their_host() -> None:
    """No feature module imports the service, the app or the socket wiring (each is told of the
    room and its host, like lichess's round features are told of the round)."""
    graph = import_graph(SERVER)
    above = {"trapworks.server.service", "trapworks.server.app", "trapworks.server.protocol"}
    above |= {name for name in graph if name.startswith("trapworks.server.routers")}
    upward = {
        name: sorted(graph[name] & above) for name in graph if name.startswith("trapworks.server.features")
    }
    assert {m: found for m, found in upward.items() if found} == {}
