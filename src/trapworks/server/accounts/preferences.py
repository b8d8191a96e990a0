"""An account's preferences (issue 39, account page): what a player chose in one browser (theme,
language, board size, animation speed, sound, default computer level) follows them to every
device they log in on, as on lichess or Board Game Arena.

The browser keeps its settings (web/static/js/settings.js) and sends them here when they change
while logged in; GET /api/account/me carries the stored ones, which every page adopts
(js/preferences.js). Each value is one of a closed set: anything else is refused with the field
named (422), nothing stored.

PUT /api/account/preferences {theme?, language?, boardSize?, speed?, sound?, level?}: the given
values replace the stored ones (the others are kept); the answer holds them all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..i18n import languages
from .base import _now
from .models import PreferencesRow

if TYPE_CHECKING:
    from .core import Accounts


class Preferences(BaseModel):
    """The preferences a browser sends; each field optional (None: not changed)."""

    model_config = ConfigDict(extra="forbid")

    theme: Literal["system", "light", "dark"] | None = None
    language: str | None = Field(None, max_length=8, description='"system" or a language code (en, fr)')
    boardSize: Literal["normal", "large"] | None = None  # noqa: N815 (the browser's own key)
    speed: Literal["normal", "fast", "off"] | None = None
    sound: bool | None = None
    level: Literal["easy", "medium", "hard"] | None = Field(None, description="default computer level")

    @field_validator("language")
    @classmethod
    def _known_language(cls, value: str | None) -> str | None:
        if value is not None and value != "system" and value not in languages():
            raise ValueError(f"language {value!r}: one of system, {', '.join(languages())}")
        return value


def preferences_of(accounts: Accounts, account_id: int) -> dict[str, Any] | None:
    """The stored preferences of an account; None where it never saved any."""
    with accounts.db() as s:
        row = s.get(PreferencesRow, account_id)
    return dict(row.values) if row is not None else None


def save_preferences(accounts: Accounts, account_id: int, given: Preferences) -> dict[str, Any]:
    """The given values over the stored ones; the whole set stored and returned."""
    with accounts.db.begin() as s:
        row = s.get(PreferencesRow, account_id)
        values = {**(row.values if row is not None else {}), **given.model_dump(exclude_none=True)}
        if row is None:
            s.add(PreferencesRow(account_id=account_id, values=values, updated=_now()))
        else:
            row.values = values
            row.updated = _now()
    return values


def add_preferences_routes(router: APIRouter, accounts: Accounts, gate: Any) -> None:
    # gate: routes.Gate (who asks, the CSRF check, the hashing queue); not imported: routes imports this
    @router.get("/api/account/preferences", summary="Your preferences, kept for every device")
    async def get_preferences(request: Request):
        who = gate.current(request, required=True)
        assert who is not None
        return {"ok": True, "preferences": preferences_of(accounts, who.account_id) or {}}

    @router.put("/api/account/preferences", summary="Keep these preferences for every device")
    async def put_preferences(body: Preferences, request: Request):
        who = gate.acting(request, required=True)
        assert who is not None
        return {"ok": True, "preferences": save_preferences(accounts, who.account_id, body)}


__all__ = ["Preferences", "add_preferences_routes", "preferences_of", "save_preferences"]
