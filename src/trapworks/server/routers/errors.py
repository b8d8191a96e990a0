"""The API's one error format for every refusal: {"ok": false, "error": message, "code": code}."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..errors import ErrorCode, ServiceError
from .pages import STATIC_DIR

MISSING_PLY = "a move needs 'ply': the move count you saw (a repeat is then answered, not applied)"


def error_reply(code: ErrorCode | str, message: str, status: int | None = None, **args: Any) -> JSONResponse:
    """The API's error answer, typed (the message is the catalog's id, filled from `args`: see
    ServiceError); its status the code's (or `status`, where FastAPI chose one)."""
    return service_reply(ServiceError(ErrorCode.of(str(code)), message, **args), status)


def service_reply(exc: ServiceError, status: int | None = None) -> JSONResponse:
    """A refusal as the API sends it: the English in "error", and the message id and values the
    page words in the viewer's language ("msg", "args")."""
    body = {"ok": False, "error": exc.message, "code": str(exc.code), **exc.typed}
    return JSONResponse(body, status_code=status or exc.status)


async def service_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ServiceError)
    if exc.status == 404 and wants_page(request):  # a page of nobody (/u/nobody): the 404 page
        return FileResponse(STATIC_DIR / "404.html", status_code=404)
    return service_reply(exc)


def wants_page(request: Request) -> bool:
    """A browser asking for a page (not the API, not a file a page loads): it is shown the site's
    404 page, not JSON (issue 39: /leaderboards answered raw JSON to a player)."""
    path = request.url.path
    if path.startswith(("/api/", "/static/", "/ws")) or request.method not in ("GET", "HEAD"):
        return False
    return "text/html" in request.headers.get("accept", "")


async def http_error(request: Request, exc: Exception) -> Response:
    """FastAPI's own refusals (an unparsable body, an unknown path): the API's error format; an
    unknown page asked for by a browser: the styled 404 page (with the 404 status all the same)."""
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 404 and wants_page(request):
        return FileResponse(STATIC_DIR / "404.html", status_code=404)
    codes = {404: ErrorCode.NOT_FOUND, 405: ErrorCode.METHOD_NOT_ALLOWED}
    code = codes.get(exc.status_code, ErrorCode.BAD_REQUEST)
    reply = error_reply(code, str(exc.detail), exc.status_code)
    reply.headers.update(getattr(exc, "headers", None) or {})  # i26: 405's Allow
    return reply


async def validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    for e in errors:
        if e.get("type") == "json_invalid":
            detail = e.get("ctx", {}).get("error", "")
            return error_reply(
                ErrorCode.BAD_JSON, "the request body is not valid JSON: {detail}", detail=detail
            )
    first = errors[0] if errors else {}
    # i26: as on the socket (and in the docs): a move whose first fault is no ply is a 400.
    if first.get("type") == "missing" and tuple(first.get("loc", ())) == ("body", "ply"):
        return error_reply(ErrorCode.MISSING_PLY, MISSING_PLY)
    if tuple(first.get("loc", ())) == ("body", "action"):
        # As on the socket: a move's action text refused by the model is a 400 bad_action.
        return error_reply(ErrorCode.BAD_ACTION, "action: {why}", why=first.get("msg"))
    parts = []
    for e in errors[:5]:
        where = ".".join(str(x) for x in e.get("loc", ()) if x != "body") or "body"
        parts.append(f"{where}: {e.get('msg')}")
    return error_reply(ErrorCode.BAD_REQUEST, "bad request: {fields}", fields="; ".join(parts))


def install(app: FastAPI) -> None:
    app.add_exception_handler(ServiceError, service_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(RequestValidationError, validation_error)
