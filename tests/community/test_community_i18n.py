"""The community's refusals in the player's language (issue 41): each refusal the community words
is a message of the catalog with its values (names, numbers, dates), sent as "msg" and "args" for
the page to put in its language; no English word is put into a French sentence (a ban "for good",
a challenge's status, a mailed link's kind each have their own sentence)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from trapworks.server.i18n import catalog

from .helpers import SMALL_LML, app_client, make_moderator, players

COMMUNITY = Path(__file__).resolve().parents[2] / "src" / "trapworks" / "server" / "community"
PLACE = re.compile(r"\{(\w+)\}")


def community_refusals() -> list[str]:
    """Every sentence the community refuses with: refusal(code, template, ...) calls (either
    branch of a conditional template), and the tables of whole sentences (ANSWERED_ALREADY,
    LINK_WORDS) and the sanctions' templates."""
    found: list[str] = []
    for path in sorted(COMMUNITY.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            nodes: list[ast.AST] = []
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "refusal":
                nodes.append(node.args[1])
            elif isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") in (
                "ANSWERED_ALREADY",
                "LINK_WORDS",
                "template",
            ):
                nodes.append(node.value)
            for n in nodes:
                for leaf in ast.walk(n):
                    if isinstance(leaf, ast.Constant) and isinstance(leaf.value, str) and " " in leaf.value:
                        found.append(leaf.value)
    return list(dict.fromkeys(found))


def test_every_community_refusal_has_a_french_sentence_with_the_same_values():
    fr = catalog("fr")["messages"]
    sentences = community_refusals()
    assert "this account is banned for good: {reason}" in sentences and len(sentences) > 25
    missing = [s for s in sentences if s not in fr]
    assert not missing, missing
    for s in sentences:
        assert set(PLACE.findall(fr[s])) == set(PLACE.findall(s)), (s, fr[s])


@pytest.fixture
def app(tmp_path):
    with app_client(tmp_path) as c:
        yield c.app


def french(reply: dict) -> str:
    """The refusal as a French page says it (js/community-api.js refused: t(msg, args))."""
    text = catalog("fr")["messages"][reply["msg"]]
    return PLACE.sub(lambda m: str(reply["args"][m.group(1)]), text)


def test_refusals_carry_their_message_and_values_and_read_in_french_without_english(app):
    (a, alice), (b, bob), (m, mod) = players(app, "alice", "bob", "mod")
    nobody = a.post("/api/community/follow", {"username": "nobody-here"}, status=404)
    assert nobody["msg"] == "no player is called '{name}'" and nobody["args"] == {"name": "nobody-here"}
    assert french(nobody) == "aucun joueur ne s'appelle « nobody-here »"
    # a challenge answered twice: the status is a sentence of its own, not an English word
    sent = a.post(
        "/api/community/challenges",
        {"username": bob, "game": "last-mouse-lost", "options": SMALL_LML},
        status=201,
    )["challenge"]
    b.post(f"/api/community/challenges/{sent['id']}/decline")
    again = b.post(f"/api/community/challenges/{sent['id']}/accept", status=409)
    assert again["error"] == "this challenge was declined already"
    # a ban for good and a mute until a date: each its own sentence, the date as a value
    make_moderator(app, mod)
    m.post(f"/api/mod/players/{bob}/ban", {"reason": "insultes"})
    banned = b.login(bob, status=403)
    assert banned["msg"] == "this account is banned for good: {reason}"
    assert french(banned) == "ce compte est banni définitivement : insultes"
    m.post(f"/api/mod/players/{bob}/lift")
    b.login(bob)
    m.post(f"/api/mod/players/{bob}/mute", {"reason": "grossier", "minutes": 10})
    from trapworks.server.errors import ServiceError

    gid = a.post(
        "/api/community/challenges",
        {"username": bob, "game": "last-mouse-lost", "options": SMALL_LML},
        status=201,
    )["challenge"]["id"]
    game = b.post(f"/api/community/challenges/{gid}/accept")
    with pytest.raises(ServiceError) as muted:
        app.state.moderation.check_chat(game["game_id"], game["seat"])
    typed = muted.value.typed  # type: ignore[attr-defined]
    assert typed["msg"] == "a moderator muted you until {until} UTC: {reason}"
    said = french(typed)
    assert said.startswith("un modérateur vous a réduit au silence jusqu'au 20") and said.endswith(
        ": grossier"
    )
    for english in ("for good", "until", "declined", "accepted"):
        assert english not in french(banned) + said
