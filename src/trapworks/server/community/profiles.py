"""What a profile adds from the community (issue 41): results against each opponent (two-player
and many-player games alike: every other account seat of a finished game is an opponent) and the
trophies won in events (arena.py). The rating history chart per game is the accounts' profile's."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter
from fastapi.responses import RedirectResponse
from sqlalchemy import select
from sqlalchemy.orm import aliased

from ..accounts.models import AccountGameRow, AccountRow, AccountSeatRow
from .arena import Arenas
from .core import Community


class Records:
    def __init__(self, community: Community):
        self.c = community

    def by_opponent(self, username: str) -> list[dict[str, Any]]:
        account_id, _ = self.c.player(username)
        mine, theirs = aliased(AccountSeatRow), aliased(AccountSeatRow)
        with self.c.db() as s:
            rows = s.execute(
                select(AccountRow.username, mine.result, AccountGameRow.game)
                .select_from(mine)
                .join(AccountGameRow, AccountGameRow.game_id == mine.game_id)
                .join(theirs, (theirs.game_id == mine.game_id) & (theirs.seat != mine.seat))
                .join(AccountRow, AccountRow.id == theirs.account_id)
                .where(
                    mine.account_id == account_id,
                    theirs.account_id != account_id,
                    AccountGameRow.status.in_(("rated", "unrated")),
                )
            ).all()
        table: dict[str, dict[str, Any]] = {}
        for name, result, game in rows:
            entry = table.setdefault(
                name, {"username": name, "played": 0, "won": 0, "lost": 0, "drawn": 0, "games": set()}
            )
            entry["played"] += 1
            if result in ("won", "lost", "drawn"):
                entry[result] += 1
            entry["games"].add(game)
        out = [{**e, "games": sorted(e["games"])} for e in table.values()]
        out.sort(key=lambda e: (-e["played"], e["username"].casefold()))
        return out


def build_router(community: Community, records: Records, arenas: Arenas) -> APIRouter:
    router = APIRouter(tags=["community: profiles"])

    @router.get("/api/community/players/{username}/record", summary="Results against each opponent, trophies")
    async def record(username: str):
        return {"opponents": records.by_opponent(username), "trophies": arenas.trophies(username)}

    @router.get("/@/{username}", include_in_schema=False)
    async def short_profile(username: str) -> RedirectResponse:
        # lichess's address of a player: their profile; nobody of that name is the site's 404 page
        # (routers/errors.py: NO_SUCH_PLAYER is a 404).
        _id, name = community.player(username)
        return RedirectResponse(f"/u/{quote(name)}", status_code=302)

    return router
