"""The game socket's protocol as the features make it: which feature answers each message type,
the client's and the server's message unions and the whole state message (the core's fields plus
each feature's `state_fields`), and the JSON Schemas served at /api/schema/<name> (with the HTTP
messages of server/messages.py) and written to docs/schema/ by scripts/write-schemas.py.
"""

from __future__ import annotations

import functools
import json
import operator
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, Field, TypeAdapter, create_model

from . import messages
from .features import Feature, discover

# The socket messages that are the game's own, not a feature's (answered by the socket session).
CORE_COMMANDS: tuple[type[BaseModel], ...] = (
    messages.MoveMessage,
    messages.SyncMessage,
    messages.PingMessage,
)
CORE_REPLIES: tuple[type[BaseModel], ...] = (
    messages.AckMessage,
    messages.ErrorMessage,
    messages.HelloMessage,
    messages.PongMessage,
)


def _union(models: Iterable[type[BaseModel]]) -> TypeAdapter[Any]:
    """One socket message of these models, told apart by its `type`."""
    either = functools.reduce(operator.or_, models)
    return TypeAdapter(Annotated[either, Field(discriminator="type")])  # type: ignore[arg-type]


def _type_of(model: type[BaseModel]) -> str:
    return str(model.model_fields["type"].annotation.__args__[0])  # type: ignore[union-attr]


class Protocol:
    """The socket protocol of a set of features (classes or instances)."""

    def __init__(self, features: Iterable[type[Feature] | Feature]):
        kinds = [f if isinstance(f, type) else type(f) for f in features]
        # message type -> the feature (class) that declares it
        self.owners: dict[str, type[Feature]] = {}
        for kind in kinds:
            for name in kind.socket_commands():
                assert name not in self.owners, f"socket message {name!r} declared twice"
                self.owners[name] = kind
        core = {_type_of(m): m for m in CORE_COMMANDS}
        clash = set(core) & set(self.owners)
        assert not clash, f"features declare the game's own socket messages {sorted(clash)}"
        self.types: tuple[str, ...] = (*core, *self.owners)
        commands = [*CORE_COMMANDS, *(m for k in kinds for m in k.socket_commands().values())]
        self.client_message = _union(commands)
        fields: dict[str, Any] = {}
        for kind in kinds:
            fields.update(kind.state_fields)
        self.state_message: type[BaseModel] = create_model(
            "StateMessage", __base__=messages.StateCore, **fields
        )
        replies = [m for k in kinds for m in k.replies]
        self.server_message = _union([self.state_message, *CORE_REPLIES, *replies])
        self.schemas: dict[str, Any] = {
            **messages.SCHEMAS,
            "socket-client-message": self.client_message,
            "socket-server-message": self.server_message,
        }

    def schema(self, name: str) -> dict[str, Any]:
        """The JSON Schema of one message (KeyError: no such name)."""
        model = self.schemas[name]
        out: dict[str, Any] = (
            model.json_schema() if isinstance(model, TypeAdapter) else model.model_json_schema()
        )
        out.setdefault("title", name)
        return out


@functools.cache
def default() -> Protocol:
    """The protocol of every feature of the package."""
    return Protocol(discover())


def write_schemas(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    protocol = default()
    for name in protocol.schemas:
        path = folder / f"{name}.json"
        path.write_text(json.dumps(protocol.schema(name), indent=2, sort_keys=True) + "\n")
        written.append(path)
    return written


if __name__ == "__main__":
    for p in write_schemas(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/schema")):
        print("wrote", p)
