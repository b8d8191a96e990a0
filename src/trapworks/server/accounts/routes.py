"""HTTP routes of the accounts: sign-up, log-in, my games, profiles, leaderboards, quick game.

Session cookie `tw_session`: HttpOnly, SameSite=Lax, Secure when the request came over HTTPS.
CSRF: every state-changing request of these routes carries the header `X-CSRF-Token`. With a
session it must equal the session's own token (given by GET /api/account/me and at log-in);
without one (sign-up, log-in, an anonymous seek) it must equal the `tw_csrf` cookie
(double-submit: a page of another site can neither read that cookie nor set the header).
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, Field

from ..errors import ErrorCode
from ..service import ServiceError, create_request
from . import ratings
from .clocks import ClockChoice
from .core import Accounts, Current
from .credentials import username_key
from .matchmaking import MAX_WAIT_S, Matchmaker
from .password import add_password_routes
from .preferences import add_preferences_routes, preferences_of
from .throttle import HashQueue

STATIC_DIR = Path(__file__).resolve().parent.parent.parent / "web" / "static"
SESSION_COOKIE = "tw_session"
CSRF_COOKIE = "tw_csrf"
CSRF_HEADER = "x-csrf-token"
SESSION_MAX_AGE = 30 * 86400
# argon2 takes about half a second of CPU and 64 MiB per hash: never on the event loop (every game
# would stall), at most HASH_THREADS at once, and a bounded queue behind them.
HASH_THREADS = 2


class Credentials(BaseModel):
    username: str = Field(max_length=200)
    password: str = Field(max_length=1024)
    seats: list[dict[str, Any]] = Field(
        default_factory=list, max_length=200, description="seats this browser holds ({game, token}) to join"
    )


class SeatList(BaseModel):
    seats: list[dict[str, Any]] = Field(max_length=200)


class Password(BaseModel):
    password: str = Field(max_length=1024)


class Challenge(ClockChoice):
    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    rated: bool = True
    seat: int | None = Field(None, ge=0, le=15, description="your seat (default: random)")


class SeekBody(BaseModel):
    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    rated: bool | None = None
    ai_after: float | None = Field(
        30, description="seconds before the computer takes the other seat; null: never"
    )
    ai_level: str = Field("easy", max_length=32)
    days_per_move: int | None = None
    name: str | None = Field(None, max_length=24)


def _secure(request: Request) -> bool:
    # i40: the scheme only: X-Forwarded-Proto is believed from the trusted proxies alone, which
    # set the request's scheme from it (server/proxy.py); from anyone else it means nothing.
    return request.url.scheme == "https"


def _set_cookies(response: Response, request: Request, cookie: str | None, csrf: str) -> None:
    secure = _secure(request)
    if cookie is not None:
        response.set_cookie(
            SESSION_COOKIE,
            cookie,
            max_age=SESSION_MAX_AGE,
            httponly=True,
            samesite="lax",
            secure=secure,
            path="/",
        )
    response.set_cookie(
        CSRF_COOKIE, csrf, max_age=SESSION_MAX_AGE, httponly=False, samesite="strict", secure=secure, path="/"
    )


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


class Gate:
    """Who is asking: the session's account, the CSRF check of a state-changing request, and
    password hashing off the event loop (a few at a time: i40, log-ins first, a sign-up holding at
    most one of the threads; throttle.py)."""

    def __init__(self, accounts: Accounts):
        self.accounts = accounts
        self.hashing = HashQueue(slots=HASH_THREADS, signup_slots=1)

    def current(self, request: Request, *, required: bool = False) -> Current | None:
        who = self.accounts.session(request.cookies.get(SESSION_COOKIE))
        if who is None and required:
            raise ServiceError(
                ErrorCode.LOGIN_NEEDED, "log in first (or sign up): this is for players with an account"
            )
        return who

    def check_csrf(self, request: Request, who: Current | None) -> None:
        sent = request.headers.get(CSRF_HEADER) or ""
        expected = who.csrf if who is not None else (request.cookies.get(CSRF_COOKIE) or "")
        if not sent or not expected or not secrets.compare_digest(sent.encode(), expected.encode()):
            raise ServiceError(
                ErrorCode.CSRF_FAILED,
                "this request's CSRF token is missing or wrong: reload the page and try again",
            )

    def acting(self, request: Request, *, required: bool = False) -> Current | None:
        """The account of a state-changing request, after its CSRF check."""
        who = self.current(request, required=required)
        self.check_csrf(request, who)
        return who

    def owner(self, request: Request, username: str) -> Current:
        who = self.current(request, required=True)
        assert who is not None
        if who.username.casefold() != username.casefold():
            raise ServiceError(ErrorCode.NOT_YOURS, "this is another player's private data")
        return who


def build_router(accounts: Accounts, matchmaker: Matchmaker) -> APIRouter:
    """The accounts' routes: pages, the account itself, players, and new games (challenges and
    quick games)."""
    router = APIRouter()
    gate = Gate(accounts)
    _page_routes(router)
    _account_routes(router, accounts, gate)
    add_password_routes(router, accounts, gate)  # issue 39: change your password
    add_preferences_routes(router, accounts, gate)  # issue 39: preferences for every device
    _player_routes(router, accounts, gate)
    _new_game_routes(router, accounts, matchmaker, gate)
    return router


def _page_routes(router: APIRouter) -> None:
    # --- pages ---------------------------------------------------------------------------------
    @router.get("/account", include_in_schema=False)
    async def account_page():
        return FileResponse(STATIC_DIR / "account.html")

    @router.get("/u/{username}", include_in_schema=False)
    async def profile_page(username: str, request: Request):
        request.app.state.accounts.account_id(username)  # nobody of that name: the 404 page (issue 41)
        return FileResponse(STATIC_DIR / "profile.html")

    @router.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page():
        return FileResponse(STATIC_DIR / "leaderboard.html")


def _account_routes(router: APIRouter, accounts: Accounts, gate: Gate) -> None:
    current, check_csrf, acting, hashing = gate.current, gate.check_csrf, gate.acting, gate.hashing

    # --- accounts ------------------------------------------------------------------------------
    @router.get("/api/account/me", summary="Who this browser is logged in as, and its CSRF token")
    async def me(request: Request):
        try:
            who = current(request)
        except ServiceError as e:  # an expired session: said, and the cookie dropped
            csrf = secrets.token_urlsafe(32)
            resp = JSONResponse(
                {"account": None, "csrf": csrf, "expired": True, "message": e.message, **e.typed}
            )
            resp.delete_cookie(SESSION_COOKIE, path="/")
            _set_cookies(resp, request, None, csrf)
            return resp
        if who is None:
            csrf = request.cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(32)
            resp = JSONResponse({"account": None, "csrf": csrf})
            _set_cookies(resp, request, None, csrf)
            return resp
        waiting = [g for g in accounts.my_games(who.account_id) if g["state"] == "your_turn"]
        return {
            "account": {"username": who.username},
            "csrf": who.csrf,
            "preferences": preferences_of(accounts, who.account_id),  # issue 39: every page adopts them
            "your_turn": [
                {"id": g["id"], "game": g["game"], "link": g["link"], "deadline": g["deadline"]}
                for g in waiting
            ],
        }

    def _logged_in(request: Request, account_id: int, username: str, extra: dict[str, Any]) -> JSONResponse:
        cookie, csrf = accounts.new_session(account_id, request.cookies.get(SESSION_COOKIE))
        resp = JSONResponse({"ok": True, "account": {"username": username}, "csrf": csrf, **extra})
        _set_cookies(resp, request, cookie, csrf)
        return resp

    @router.post("/api/account/signup", summary="Make an account; the browser's anonymous seats join it")
    async def signup(body: Credentials, request: Request):
        check_csrf(request, None)
        account_id = await hashing.signup(accounts.signup, body.username, body.password)
        accounts.limiter.remember(username_key(body.username.strip())[:64], _client(request))  # i40
        joined = accounts.attach_many(account_id, body.seats)
        return _logged_in(request, account_id, body.username.strip(), {"seats": joined})

    @router.post("/api/account/login", summary="Log in (a new session id every time)")
    async def login(body: Credentials, request: Request):
        check_csrf(request, None)
        account_id = await hashing.login(accounts.login, body.username, body.password, _client(request))
        _id, username = accounts.account_id(body.username.strip())
        joined = accounts.attach_many(account_id, body.seats)
        return _logged_in(request, account_id, username, {"seats": joined})

    @router.post("/api/account/logout", summary="End this browser's session")
    async def logout(request: Request):
        acting(request, required=True)
        accounts.end_session(request.cookies.get(SESSION_COOKIE) or "")
        resp = JSONResponse({"ok": True})
        resp.delete_cookie(SESSION_COOKIE, path="/")
        _set_cookies(resp, request, None, secrets.token_urlsafe(32))
        return resp

    @router.post("/api/account/delete", summary="Delete your account (your password again)")
    async def delete_account(body: Password, request: Request):
        who = acting(request, required=True)
        assert who is not None
        await hashing.login(accounts.delete_account, who, body.password)
        resp = JSONResponse({"ok": True})
        resp.delete_cookie(SESSION_COOKIE, path="/")
        return resp

    @router.post("/api/account/seats", summary="Seats this browser holds ({game, token}) join your account")
    async def attach(body: SeatList, request: Request):
        who = acting(request, required=True)
        assert who is not None
        done = accounts.attach_many(who.account_id, body.seats)
        # Everyone at those games sees the account's name (and rating) on the seat now.
        for seat in done["joined"]:
            await accounts.service.get(seat["game"]).tell_everyone()
        return {"ok": True, **done}


def _player_routes(router: APIRouter, accounts: Accounts, gate: Gate) -> None:
    owner = gate.owner

    # --- players ---------------------------------------------------------------------------------
    @router.get(
        "/api/players/{username}", summary="A player's public profile: ratings, results, recent games"
    )
    async def profile(username: str):
        return accounts.profile(username[:64])

    @router.get(
        "/api/players/{username}/games", summary="Your games (yours only): your turn, waiting, finished"
    )
    async def my_games(username: str, request: Request, game: str | None = Query(None, max_length=64)):
        who = owner(request, username)
        return {"games": accounts.my_games(who.account_id, game=game)}

    @router.get(
        "/api/players/{username}/export", summary="Everything stored about you, your games as records"
    )
    async def export(username: str, request: Request):
        who = owner(request, username)
        data = accounts.export(who.account_id)
        return JSONResponse(
            data, headers={"Content-Disposition": f'attachment; filename="trapworks-{who.username}.json"'}
        )

    @router.get("/api/leaderboard", summary="The best ratings of a game (per player count)")
    async def leaderboard(
        game: str = Query(..., max_length=64),
        players: int | None = Query(None, ge=1, le=16),
        active_days: int | None = Query(
            None, ge=1, le=3660, description="only players rated in these last days"
        ),
    ):
        return {
            "game": game,
            "players": players,
            "active_days": active_days,
            "provisional_games": ratings.PROVISIONAL_GAMES,
            "formula": f"{ratings.DISPLAY_BASE:g} + {ratings.DISPLAY_SCALE:g} x (mu - {ratings.MU0:g})",
            "rows": accounts.leaderboard(game, players, active_days=active_days),
        }


def _new_game_routes(router: APIRouter, accounts: Accounts, matchmaker: Matchmaker, gate: Gate) -> None:
    acting = gate.acting

    @router.post(
        "/api/account/games", status_code=201, summary="Create a game with invited seats, rated or casual"
    )
    async def challenge(body: Challenge, request: Request):
        who = acting(request, required=True)
        assert who is not None
        game = accounts.service.make_game(body.game, body.options)
        n = game.num_players()
        mine = body.seat if body.seat is not None else secrets.randbelow(n)
        if mine >= n:
            raise ServiceError(
                ErrorCode.BAD_SEAT,
                "seat {mine}: this game has seats 0 to {last_seat}",
                mine=mine,
                last_seat=n - 1,
            )
        seats = [
            {"kind": "human", "name": who.username} if i == mine else {"kind": "human", "invite": True}
            for i in range(n)
        ]
        clock = body.clock()
        live = await accounts.service.create(
            create_request(game=body.game, options=body.options, seats=seats, clock=clock)
        )
        accounts.register_game(live, rated=body.rated)
        token = live.stored.seats[mine]["token"]
        accounts.attach(who.account_id, live.id, token)
        return {
            "id": live.id,
            "seat": mine,
            "rated": body.rated,
            "link": f"/g/{live.id}#t={token}",
            "invites": [
                {"seat": i, "link": f"/g/{live.id}#i={s['invite']}"}
                for i, s in enumerate(live.stored.seats)
                if s.get("invite")
            ],
        }

    # --- quick game ----------------------------------------------------------------------------
    @router.get("/api/seeks", summary="Players waiting for a quick game (no secrets)")
    async def seeks():
        return {"seeks": matchmaker.listing()}

    @router.post("/api/seeks", status_code=201, summary="Quick game: wait to be paired (or get the computer)")
    async def seek(body: SeekBody, request: Request):
        who = acting(request)
        spec = body.model_dump()
        if spec["rated"] is None:
            spec["rated"] = who is not None
        return Matchmaker.describe(await matchmaker.seek(who, spec))

    @router.get("/api/seeks/{secret}", summary="Your seek: still waiting, or your seat's link")
    async def poll(
        secret: str,
        wait: float = Query(
            0.0, ge=0, le=MAX_WAIT_S, description="seconds to wait for a match before answering"
        ),
    ):
        return Matchmaker.describe(await matchmaker.poll(secret[:64], wait))

    @router.delete("/api/seeks/{secret}", summary="Stop waiting")
    async def cancel(secret: str):
        matchmaker.cancel(secret[:64])
        return {"ok": True}

    @router.post(
        "/api/seeks/accept/{public_id}", status_code=201, summary="Accept a seek from the lobby's list"
    )
    async def accept(public_id: str, request: Request):
        who = acting(request)
        return Matchmaker.describe(await matchmaker.accept(who, public_id[:32]))
