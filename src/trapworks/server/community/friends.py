"""Friends (issue 41): follow and unfollow a player; the players you follow with their presence
(online: seen by a community page in the last ONLINE_S seconds) and their games going on, each
with its spectator link (following a friend's game; spectators see only what spectators may)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse
from sqlalchemy import delete, select

from ..accounts.models import AccountGameRow, AccountSeatRow
from ..errors import ErrorCode, ServiceError
from ..store import GameRow
from .core import Community, Named, now, refusal
from .models import FollowRow
from .pages import page

MAX_FOLLOWS = 500
MAX_ONLINE_LISTED = 30


class Friends:
    def __init__(self, community: Community):
        self.c = community

    def follow(self, account_id: int, username: str) -> str:
        target, name = self.c.other(
            account_id, username, refusal(ErrorCode.FOLLOW_SELF, "you cannot follow yourself")
        )
        if self.c.blocked_between(account_id, target):
            raise refusal(
                ErrorCode.BLOCKED, "you cannot follow {name}: one of you blocks the other", name=name
            )
        with self.c.db.begin() as s:
            if s.get(FollowRow, (account_id, target)) is not None:
                return name
            count = len(
                s.scalars(select(FollowRow.followee_id).where(FollowRow.follower_id == account_id)).all()
            )
            if count >= MAX_FOLLOWS:
                raise ServiceError(
                    ErrorCode.TOO_MANY_FOLLOWS,
                    "you follow {MAX_FOLLOWS} players already: unfollow some first",
                    MAX_FOLLOWS=MAX_FOLLOWS,
                )
            s.add(FollowRow(follower_id=account_id, followee_id=target, created=now()))
        return name

    def unfollow(self, account_id: int, username: str) -> str:
        target, name = self.c.player(username)
        with self.c.db.begin() as s:
            gone = s.execute(
                delete(FollowRow).where(FollowRow.follower_id == account_id, FollowRow.followee_id == target)
            )
        if not gone.rowcount:
            raise refusal(ErrorCode.NOT_FOLLOWING, "you do not follow {name}", name=name)
        return name

    def following_ids(self, account_id: int) -> list[int]:
        with self.c.db() as s:
            return list(
                s.scalars(select(FollowRow.followee_id).where(FollowRow.follower_id == account_id)).all()
            )

    def live_games(self, ids: set[int]) -> dict[int, list[dict[str, Any]]]:
        """The games going on of these accounts, each with its spectator link."""
        if not ids:
            return {}
        with self.c.db() as s:
            rows = s.execute(
                select(
                    AccountSeatRow.account_id,
                    AccountGameRow.game_id,
                    AccountGameRow.game,
                    GameRow.spectator_token,
                )
                .join(AccountGameRow, AccountGameRow.game_id == AccountSeatRow.game_id)
                .join(GameRow, GameRow.id == AccountSeatRow.game_id)
                .where(AccountSeatRow.account_id.in_(ids), AccountGameRow.status == "on")
                .order_by(AccountGameRow.created.desc())
            ).all()
        out: dict[int, list[dict[str, Any]]] = {}
        for account_id, gid, game, spectator in rows:
            out.setdefault(account_id, []).append(
                {"id": gid, "game": game, "watch": f"/g/{gid}#t={spectator}"}
            )
        return out

    def online_friends(self, account_id: int) -> list[dict[str, Any]]:
        """The players you follow who are online now (by name), each with their games going on
        (spectator links): the home page's row and the top of the friends page."""
        following = set(self.following_ids(account_id))
        online = self.c.online(following)
        names = self.c.names(online)
        games = self.live_games(online)
        out = [{"username": names[i], "games": games.get(i, [])[:3]} for i in online if i in names]
        out.sort(key=lambda f: str(f["username"]).casefold())
        return out[:MAX_ONLINE_LISTED]

    def listing(self, account_id: int) -> dict[str, Any]:
        following = self.following_ids(account_id)
        with self.c.db() as s:
            followers = list(
                s.scalars(select(FollowRow.follower_id).where(FollowRow.followee_id == account_id)).all()
            )
        ids = set(following) | set(followers)
        names = self.c.names(ids)
        online = self.c.online(set(following))
        games = self.live_games(set(following))
        friends: list[dict[str, Any]] = [
            {
                "username": names[i],
                "online": i in online,
                "games": games.get(i, [])[:5],
                "follows_you": i in followers,
            }
            for i in following
            if i in names
        ]
        friends.sort(key=lambda f: (not f["online"], str(f["username"]).casefold()))
        return {
            "following": friends,
            "followers": sorted((names[i] for i in followers if i in names), key=str.casefold),
        }


def build_router(community: Community, friends: Friends) -> APIRouter:
    router = APIRouter(tags=["community: friends"])

    @router.get("/friends", include_in_schema=False)
    async def friends_page() -> FileResponse:
        return page("friends.html")

    @router.post("/api/community/follow", summary="Follow a player")
    async def follow(body: Named, request: Request):
        who = community.acting(request)
        return {"ok": True, "following": friends.follow(who.account_id, body.username)}

    @router.post("/api/community/unfollow", summary="Stop following a player")
    async def unfollow(body: Named, request: Request):
        who = community.acting(request)
        return {"ok": True, "unfollowed": friends.unfollow(who.account_id, body.username)}

    @router.get("/api/community/friends/online", summary="The players you follow who are online now")
    async def online(request: Request):
        # Asked by the home page of everyone: nobody logged in is an answer, not a refusal.
        try:
            who = community.current(request)
        except ServiceError:
            return {"player": False, "online": []}
        return {"player": True, "online": friends.online_friends(who.account_id)}

    @router.get(
        "/api/community/friends", summary="The players you follow (presence, games to watch), your followers"
    )
    async def listing(request: Request):
        who = community.current(request)
        return friends.listing(who.account_id)

    return router
