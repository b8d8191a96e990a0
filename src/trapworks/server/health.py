"""Health for the balancer (issue 40): `GET /healthz` (the process answers) and `GET /readyz` (it
can serve: the database answers a query and the cluster bus is connected; 503 otherwise, so that
HAProxy's `option httpchk GET /readyz` takes the node out of the rotation until it can)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from sqlalchemy import text

CHECK_TIMEOUT_S = 2.0


def _database_answers(engine: Any) -> None:
    with engine.connect() as conn:
        conn.execute(text("SELECT 1"))


async def readiness(store: Any, bus: Any) -> dict[str, str]:
    """What is not reachable (empty: ready)."""
    problems: dict[str, str] = {}
    try:
        await asyncio.wait_for(asyncio.to_thread(_database_answers, store.engine), CHECK_TIMEOUT_S)
    except TimeoutError:
        problems["database"] = f"no answer within {CHECK_TIMEOUT_S:g} s"
    except Exception as e:  # any driver's error: the database cannot be used now
        problems["database"] = type(e).__name__
    if not getattr(bus, "connected", True):
        problems["bus"] = f"the {bus.kind} bus is not connected"
    return problems


def add_health_routes(app: FastAPI, store: Any, bus: Any) -> None:
    @app.get("/healthz", summary="Liveness: the process answers")
    async def healthz() -> dict[str, Any]:
        return {"ok": True}

    @app.get("/readyz", summary="Readiness: the database and the cluster bus are reachable (else 503)")
    async def readyz() -> JSONResponse:
        problems = await readiness(store, bus)
        if problems:
            return JSONResponse(
                {
                    "ok": False,
                    "code": "not_ready",
                    "error": "; ".join(f"{k}: {v}" for k, v in problems.items()),
                    "problems": problems,
                },
                status_code=503,
            )
        return JSONResponse({"ok": True})
