"""About the API and this server: the messages' JSON Schemas and this node."""

from __future__ import annotations

import os
from typing import Any

from fastapi import APIRouter, Request

from ..errors import ErrorCode, ServiceError
from . import Service

router = APIRouter(tags=["meta"])


def _record_schema() -> Any:
    """core.record's JSON Schema function, where that version of the kernel has one."""
    from trapworks.core import record

    return getattr(record, "record_json_schema", None)


def rss_mib() -> float:
    """This process's resident memory in MiB (Linux: /proc; elsewhere the peak from getrusage)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@router.get("/api/schema", summary="Names of the API's message schemas")
async def schema_names(service: Service) -> dict[str, Any]:
    names = sorted(service.protocol.schemas)
    if _record_schema() is None and "record" in names:
        names.remove("record")
    return {"schemas": names}


@router.get("/api/schema/{name}", summary="JSON Schema of one API message (HTTP body or socket message)")
async def schema_of(name: str, service: Service) -> Any:
    if name == "record" and _record_schema():
        return _record_schema()()
    try:
        return service.protocol.schema(name)
    except KeyError:
        raise ServiceError(
            ErrorCode.NO_SCHEMA, "no schema {name}; see /api/schema for the names", name=repr(name[:64])
        ) from None


@router.get("/api/node", summary="This server process: its cluster node, games and sockets held")
async def node_info(request: Request, service: Service) -> dict[str, Any]:
    bus = request.app.state.bus
    return {
        "node": bus.node,
        "bus": bus.kind,
        "schema": request.app.state.store.revision,
        "games": len(service.live),
        "sockets": sum(len(live.connections) for live in service.live.values()),
        "rss_mib": round(rss_mib(), 1),
        "catch_ups": service.catch_ups,
        "published": bus.published,
        "heard": bus.heard,
    }


@router.get("/api/activity", summary="How lively this server is now: games being played, players here")
async def activity(service: Service) -> dict[str, int]:
    """The home page's live line (issue 39: lichess's "N players, N games in play"). Counts only,
    no game or seat named. `playing`: games not over with a player's page open; `online`: the
    seats with a page open (a player at two tables counts twice), on this node of a cluster."""
    playing = online = 0
    for room in list(service.live.values()):
        seats = {c.seat for c in list(room.connections) if c.seat is not None}
        online += len(seats)
        if seats and not room.state.is_terminal():
            playing += 1
    return {"playing": playing, "online": online}
