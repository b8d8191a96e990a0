"""Profiles: a player's public profile, their games across devices, and the export of
everything stored about them."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from ..service import ServiceError
from . import ratings
from .models import (
    AccountGameRow,
    AccountRow,
    AccountSeatRow,
    RatingHistoryRow,
    RatingRow,
)

if TYPE_CHECKING:
    pass


from ..features.clock import Clock
from .base import _iso, _seat_result, variant_parts
from .rated import Ratings

log = logging.getLogger("trapworks.accounts")


class Profiles(Ratings):
    def profile(self, username: str) -> dict[str, Any]:
        account_id, name = self.account_id(username)
        with self.db() as s:
            rating_rows = s.scalars(select(RatingRow).where(RatingRow.account_id == account_id)).all()
            history = s.scalars(
                select(RatingHistoryRow)
                .where(RatingHistoryRow.account_id == account_id)
                .order_by(RatingHistoryRow.pk)
            ).all()
            seats = s.execute(
                select(AccountSeatRow, AccountGameRow)
                .join(AccountGameRow, AccountGameRow.game_id == AccountSeatRow.game_id)
                .where(AccountSeatRow.account_id == account_id)
                .order_by(AccountSeatRow.joined.desc(), AccountSeatRow.pk.desc())
            ).all()
            created = s.get(AccountRow, account_id).created  # type: ignore[union-attr]
            # i40: a public profile lists finished games only: the id of a game still being played
            # would let anyone find (and watch, or pester) the player in it.
            finished = [(seat, game) for seat, game in seats if game.status != "on"]
            others = self._seat_names(s, [g.game_id for _, g in finished[:20]])
            from ..store import GameRow  # the seats' kinds (a computer and its level); never a token

            kinds: dict[str, list[Any]] = dict(
                s.execute(
                    select(GameRow.id, GameRow.seats).where(
                        GameRow.id.in_([g.game_id for _, g in finished[:20]])
                    )
                ).all()
            )
            forfeits = _forfeits(s, [g.game_id for _, g in finished[:20]])
        rating_list = []
        for r in sorted(rating_rows, key=lambda r: (r.game, r.players)):
            points = [
                {
                    "game_id": h.game_id,
                    "at": _iso(h.at),
                    "rating": ratings.display(h.mu),
                    "before": ratings.display(h.mu_before),
                    "rank": h.rank,
                }
                for h in history
                if h.game == r.game and h.players == r.players
            ]
            rating_list.append(
                {
                    "game": r.game,
                    "players": r.players,
                    **ratings.describe(r.mu, r.sigma, r.games),
                    "history": points,
                }
            )
        stats: dict[tuple[str, str], dict[str, Any]] = {}
        for seat, game in seats:
            if game.status == "on":
                continue
            key = (game.game, game.variant)
            st = stats.setdefault(
                key,
                {
                    "game": game.game,
                    "variant": game.variant,
                    "variant_parts": variant_parts(game.variant, game.game),
                    "played": 0,
                    "won": 0,
                    "lost": 0,
                    "drawn": 0,
                    "aborted": 0,
                },
            )
            if seat.result == "aborted" or game.status == "aborted":
                st["aborted"] += 1
                continue
            st["played"] += 1
            if seat.result in ("won", "lost", "drawn"):
                st[seat.result] += 1
        recent = []
        for seat, game in finished[:20]:
            recent.append(
                {
                    "id": game.game_id,
                    "game": game.game,
                    "variant": game.variant,
                    "variant_parts": variant_parts(game.variant, game.game),
                    "seat": seat.seat,
                    "rated": game.status == "rated" or (game.rated and game.status == "on"),
                    "status": "on" if game.status == "on" else "over",
                    "result": seat.result,
                    "how": _how(
                        seat.seat, seat.result, forfeits.get(game.game_id), len(kinds.get(game.game_id) or [])
                    ),
                    "ended": _iso(game.ended),
                    "opponents": [
                        n for (gid, st), n in others.items() if gid == game.game_id and st != seat.seat
                    ],
                    "others": [
                        self._other_seat(i, others.get((game.game_id, i)), stored)
                        for i, stored in enumerate(kinds.get(game.game_id) or [])
                        if i != seat.seat
                    ],
                    "replay": f"/replay/{game.game_id}" if game.status != "on" else None,
                }
            )
        return {
            "username": name,
            "joined": _iso(created),
            # How many games the player is in now: a count, never their ids (i40); the profile
            # page shows those a spectator may watch from the live list (/api/community/live).
            "playing": sum(1 for _seat, game in seats if game.status == "on"),
            "ratings": rating_list,
            "stats": sorted(stats.values(), key=lambda x: (x["game"], x["variant"])),
            "recent": recent,
        }

    @staticmethod
    def _seat_names(s: Any, gids: list[str]) -> dict[tuple[str, int], str]:
        if not gids:
            return {}
        rows = s.execute(
            select(AccountSeatRow.game_id, AccountSeatRow.seat, AccountRow.username)
            .join(AccountRow, AccountRow.id == AccountSeatRow.account_id)
            .where(AccountSeatRow.game_id.in_(gids))
        ).all()
        return {(gid, seat): name for gid, seat, name in rows}

    def my_games(self, account_id: int, game: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """The account's seats: your turn first, then waiting for others, then finished (newest
        first), each with its link (the seat's token: only ever sent to the account itself)."""
        from ..store import GameRow  # read the seats' tokens without replaying a finished game

        with self.db() as s:
            q = (
                select(AccountSeatRow, AccountGameRow)
                .join(AccountGameRow, AccountGameRow.game_id == AccountSeatRow.game_id)
                .where(AccountSeatRow.account_id == account_id)
            )
            if game:
                q = q.where(AccountSeatRow.game == game)
            rows = s.execute(
                q.order_by(AccountSeatRow.joined.desc(), AccountSeatRow.pk.desc()).limit(limit)
            ).all()
            gids = [g.game_id for _, g in rows]
            tokens = {
                gid: seats
                for gid, seats in s.execute(
                    select(GameRow.id, GameRow.seats).where(GameRow.id.in_(gids))
                ).all()
            }
            names = self._seat_names(s, gids)
            forfeits = _forfeits(s, [g.game_id for _, g in rows if g.status != "on"])
        out = []
        for seat, g in rows:
            stored_seats = tokens.get(g.game_id) or []
            token = stored_seats[seat.seat].get("token") if seat.seat < len(stored_seats) else None
            # Every other seat as a player names it (issue 39: a computer opponent was "—"): the
            # account's name, the computer and its level, or the name a guest gave.
            others = [
                self._other_seat(i, names.get((g.game_id, i)), stored)
                for i, stored in enumerate(stored_seats)
                if i != seat.seat
            ]
            entry: dict[str, Any] = {
                "id": g.game_id,
                "game": g.game,
                "variant": g.variant,
                "variant_parts": variant_parts(g.variant, g.game),
                "seat": seat.seat,
                "rated": g.rated,
                "status": g.status,
                "result": seat.result,
                "how": _how(seat.seat, seat.result, forfeits.get(g.game_id), len(stored_seats)),
                "link": f"/g/{g.game_id}#t={token}" if token else None,
                "replay": f"/replay/{g.game_id}" if g.status != "on" else None,
                "opponents": [n for (gid, st), n in names.items() if gid == g.game_id and st != seat.seat],
                "others": others,
                "ended": _iso(g.ended),
                "state": "finished",
                "deadline": None,
            }
            if g.status == "on":
                entry.update(self._live_state(g.game_id, seat.seat))
            out.append(entry)
        order = {"your_turn": 0, "waiting": 1, "finished": 2}
        out.sort(key=lambda e: order.get(e["state"], 2))  # stable: newest first within each group
        return out

    @staticmethod
    def _other_seat(seat: int, account: str | None, stored: dict[str, Any]) -> dict[str, Any]:
        if account:
            return {"seat": seat, "kind": "account", "name": account}
        if stored.get("kind") == "agent":
            return {"seat": seat, "kind": "computer", "level": stored.get("agent")}
        return {"seat": seat, "kind": "guest", "name": stored.get("name") or None}

    def _live_state(self, gid: str, seat: int) -> dict[str, Any]:
        try:
            live = self.service.get(gid)
        except ServiceError:
            # Not loadable here (another node's, or its record unreadable): what the accounts'
            # store says now, read afresh; a game it has seen end shows its result, never
            # "waiting" (issue 39: a finished rated game was listed as Waiting).
            return self._stored_state(gid, seat)
        self.game_changed(live)  # an ended game found here gets its result now
        if live.ended():
            stored = self._stored_state(gid, seat)
            if stored.get("result"):
                return stored
            outcome = live.outcome()  # its results not stored (yet): the game's own
            winners = list(outcome.winners)
            result = _seat_result(seat, outcome.returns, winners, len(live.stored.seats))
            return {"state": "finished", "result": "aborted" if outcome.aborted else result}
        deadline = self.service.feature(Clock).deadline(live)
        to_move = live.state.current_player()
        return {
            "state": "your_turn" if to_move == seat else "waiting",
            "ply": live.ply(),
            "deadline": datetime.fromtimestamp(deadline, UTC).isoformat(timespec="seconds")
            if deadline
            else None,
        }

    def _stored_state(self, gid: str, seat: int) -> dict[str, Any]:
        with self.db() as s:
            game = s.get(AccountGameRow, gid)
            result = s.scalar(
                select(AccountSeatRow.result).where(
                    AccountSeatRow.game_id == gid, AccountSeatRow.seat == seat
                )
            )
        if game is None or game.status == "on":
            return {"state": "unavailable", "deadline": None}
        return {
            "state": "finished",
            "status": game.status,
            "result": result,
            "ended": _iso(game.ended),
            "replay": f"/replay/{gid}",
        }

    def export(self, account_id: int) -> dict[str, Any]:
        """Everything stored about the account, with its games as records (where the game allows:
        a game with hidden information still on keeps its record until it ends)."""
        with self.db() as s:
            account = s.get(AccountRow, account_id)
            assert account is not None
            rating_rows = s.scalars(select(RatingRow).where(RatingRow.account_id == account_id)).all()
            history = s.scalars(
                select(RatingHistoryRow).where(RatingHistoryRow.account_id == account_id)
            ).all()
        games = []
        for g in self.my_games(account_id, limit=10_000):
            token = g["link"].split("#t=", 1)[1] if g["link"] else None
            entry: dict[str, Any] = {
                k: g[k]
                for k in ("id", "game", "variant", "variant_parts", "seat", "rated", "status", "result")
            }
            try:
                entry["record"] = self.service.record_dict(g["id"], token)
            except ServiceError as e:
                entry["record"] = None
                # typed like every refusal (issue 37): its code, message id and values, and the
                # English for a person reading the file
                entry["why_no_record"] = {"code": e.code, **e.typed, "error": e.message}
            games.append(entry)
        return {
            "format": "trapworks-account-export",
            "username": account.username,
            "joined": _iso(account.created),
            "ratings": [
                {"game": r.game, "players": r.players, **ratings.describe(r.mu, r.sigma, r.games)}
                for r in rating_rows
            ],
            "rating_history": [
                {
                    "game": h.game,
                    "players": h.players,
                    "game_id": h.game_id,
                    "seat": h.seat,
                    "rank": h.rank,
                    "mu_before": h.mu_before,
                    "sigma_before": h.sigma_before,
                    "mu": h.mu,
                    "sigma": h.sigma,
                    "at": _iso(h.at),
                }
                for h in history
            ],
            "games": games,
        }


def _forfeits(s: Any, gids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """The finished games' forfeits (who resigned, ran out of time or left: the control document's
    `forfeits`), by game."""
    from ..store import ControlRow

    if not gids:
        return {}
    rows = s.execute(select(ControlRow.game_id, ControlRow.data).where(ControlRow.game_id.in_(gids))).all()
    return {gid: list((data or {}).get("forfeits") or []) for gid, data in rows}


def _how(seat: int, result: str | None, forfeits: list[dict[str, Any]] | None, players: int) -> str | None:
    """How a finished game was won or lost off the board, where the record knows it (judge 5: a loss
    on time showed as a plain "lost"): the seat's own forfeit's reason for a loss ("out_of_time":
    "lost on time"); for a win, the reason every other seat left by (the last one's). None: on the
    board (or an abort, which is its own result)."""
    if not forfeits or result not in ("won", "lost"):
        return None
    reasons = {int(f.get("seat", -1)): str(f.get("reason")) for f in forfeits if f.get("reason") != "aborted"}
    if result == "lost":
        return reasons.get(seat)
    others = [other for other in range(players) if other != seat]
    if others and all(other in reasons for other in others):
        return str([f for f in forfeits if int(f.get("seat", -1)) in others][-1].get("reason"))
    return None
