"""Error codes in one place (issue 38): every code is in server/errors.py's `ErrorCode` with its
HTTP status and meaning; every refusal names its code from there (no bare string, no status of
its own); the refusals written before the app (limits, bounds) use registered codes with the
registry's status; docs/error-codes.md is the registry's table."""

from __future__ import annotations

import ast
from pathlib import Path

from trapworks.server.errors import ErrorCode, ServiceError, table

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "src" / "trapworks" / "server"
# The middleware's own refusal helpers (status, code, message, ...): answered before the app.
RAW_HELPERS = {"_refuse", "_refuse_http", "_json_reply"}


def calls(name_test):
    for path in sorted(SERVER.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                f = node.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
                if name_test(name):
                    yield path, node


def test_every_service_error_names_its_code_from_the_registry():
    bare = []
    sites = 0
    for path, node in calls(lambda n: n == "ServiceError"):
        sites += 1
        first = node.args[0] if node.args else None
        if isinstance(first, ast.Constant):  # ServiceError(409, "stale", ...): a code of its own
            bare.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert sites > 100  # the scan sees the server's refusals
    assert bare == [], "use ServiceError(ErrorCode.X, message)"


def test_the_middlewares_refusals_use_registered_codes_with_their_status():
    wrong = []
    found = 0
    for path, node in calls(lambda n: n in RAW_HELPERS):
        args = [a for a in node.args if not (isinstance(a, ast.Name) and a.id == "send")]
        status, code = (args + [None, None])[:2]
        if not (isinstance(status, ast.Constant) and isinstance(code, ast.Constant)):
            continue  # the helper's own definition passes its parameters on
        found += 1
        registered = ErrorCode._value2member_map_.get(code.value)
        if registered is None or registered.status != status.value:
            wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} {status.value} {code.value}")
    assert found >= 10
    assert wrong == []


def test_every_code_string_in_an_answer_is_registered():
    unknown = []
    for path in sorted(SERVER.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values, strict=True):
                    if isinstance(k, ast.Constant) and k.value == "code" and isinstance(v, ast.Constant):
                        if isinstance(v.value, str) and v.value not in ErrorCode._value2member_map_:
                            unknown.append(f"{path.relative_to(ROOT)}:{node.lineno} {v.value}")
    assert unknown == []


def test_every_registered_code_is_used_somewhere():
    registry = SERVER / "errors.py"
    source = "\n".join(p.read_text(encoding="utf-8") for p in SERVER.rglob("*.py") if p != registry)
    unused = [
        c.value for c in ErrorCode if f"ErrorCode.{c.name}" not in source and f'"{c.value}"' not in source
    ]
    assert unused == []


def test_a_refusal_takes_its_status_from_its_code():
    e = ServiceError(ErrorCode.STALE, "someone moved first")
    assert (e.status, e.code, e.message) == (409, "stale", "someone moved first")
    assert ServiceError(ErrorCode.NOT_YOUR_TURN).message == ErrorCode.NOT_YOUR_TURN.meaning
    # The older form reads the same (a worker process sends it back that way).
    old = ServiceError(503, "busy", "try again")
    assert (old.status, old.code, old.message) == (503, "busy", "try again")
    assert ErrorCode.of("wrong_token") is ErrorCode.WRONG_TOKEN


def test_the_api_answers_with_the_registry(client):
    r = client.get("/api/games/nope", params={"token": "x"})
    assert r.status_code == ErrorCode.NO_SUCH_GAME.status == 404
    assert r.json() == {
        "ok": False,
        "code": "no_such_game",
        "error": "no game 'nope' on this server",
        # typed (issue 37): the page words it from the catalog's message and these values
        "msg": "no game {gid} on this server",
        "args": {"gid": "'nope'"},
    }
    assert client.get("/no/such/page").json()["code"] == ErrorCode.NOT_FOUND


def test_the_docs_table_is_the_registry():
    published = (ROOT / "docs" / "error-codes.md").read_text(encoding="utf-8")
    assert published == table(), (
        "docs/error-codes.md is stale: python -m trapworks.server.errors docs/error-codes.md"
    )
    assert "| `stale` | 409 |" in published
