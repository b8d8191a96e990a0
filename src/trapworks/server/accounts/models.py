"""The accounts' tables, on their own metadata (created beside the store's tables on start).

Tables (migrations 0003, 0005, 0006 and 0014): accounts, account_sessions, account_seats,
account_games, ratings, rating_history, login_failures, quick_seeks, account_preferences. Nothing
here holds a secret in the clear: passwords are argon2 hashes, sessions and seeks are stored as
the SHA-256 of their handle.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class AccountsBase(DeclarativeBase):
    pass


class AccountRow(AccountsBase):
    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    username: Mapped[str] = mapped_column(String(24))  # as typed (shown)
    # Lowercased, compatibility-folded: the unique key (no "Alice" beside "alice").
    username_key: Mapped[str] = mapped_column(String(24), unique=True, index=True)
    password_hash: Mapped[str] = mapped_column(String(255))  # argon2id, PHC string format
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SessionRow(AccountsBase):
    """A logged-in browser. The cookie holds a random value; only its SHA-256 is stored, so the
    table read by someone else opens no session."""

    __tablename__ = "account_sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))  # sent back in the X-CSRF-Token header
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AccountSeatRow(AccountsBase):
    """A seat of a game held by an account: any device logged in as it may open the seat."""

    __tablename__ = "account_seats"
    __table_args__ = (UniqueConstraint("game_id", "seat", name="one_account_per_seat"),)

    pk: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[str] = mapped_column(String(32), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(64))  # game kind, e.g. mouse-trap (for filters)
    joined: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Filled when the game ends: won, lost, drawn or aborted.
    result: Mapped[str | None] = mapped_column(String(16), nullable=True)


class AccountGameRow(AccountsBase):
    """A game with at least one account seat: whether it is rated, and its end once known."""

    __tablename__ = "account_games"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    variant: Mapped[str] = mapped_column(String(64))
    rated: Mapped[bool] = mapped_column(Boolean, default=False)  # chosen at creation
    # on, rated, unrated (over, not every seat an account), aborted
    status: Mapped[str] = mapped_column(String(16), default="on")
    why_unrated: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    returns: Mapped[list | None] = mapped_column(JSON, nullable=True)
    winners: Mapped[list | None] = mapped_column(JSON, nullable=True)


class RatingRow(AccountsBase):
    """An account's rating in one game at one player count (OpenSkill Plackett-Luce mu, sigma)."""

    __tablename__ = "ratings"
    __table_args__ = (UniqueConstraint("account_id", "game", "players", name="one_rating_per_pool"),)

    pk: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingHistoryRow(AccountsBase):
    """One rated game's change to one account's rating."""

    __tablename__ = "rating_history"
    __table_args__ = (UniqueConstraint("account_id", "game_id", name="one_change_per_game"),)

    pk: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    game_id: Mapped[str] = mapped_column(String(32))
    seat: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int] = mapped_column(Integer)  # 1: best of the game
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LoginFailureRow(AccountsBase):
    """A failed log-in, kept for the limiter's window (throttle.LoginThrottle) and shared by every node
    of a cluster. `key_hash`: SHA-256 of "account:<name>" or "address:<address>" (neither in the
    clear); rows older than the window are deleted as new ones come."""

    __tablename__ = "login_failures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key_hash: Mapped[str] = mapped_column(String(64), index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class LoginKnownRow(AccountsBase):
    """An address an account has logged in (or signed up) from, for the log-in throttle
    (server/throttle.py, migration 0007): `key_hash` is SHA-256 of
    "known:<name>:<address>"; `at` its last use."""

    __tablename__ = "login_known"

    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class SeekRow(AccountsBase):
    """A quick-game seek (accounts/matchmaking.py), shared by every node of a cluster: a seek made
    on one node is paired with one made on another. `id_hash`: SHA-256 of the seeker's handle (the
    handle itself is never stored). `status`: waiting, claimed (a node is making its game: the
    claim is `claim`, taken by a conditional UPDATE, so one seek is never paired twice), matched
    or failed (`result`: the seat's link, or the error). `pool`: SHA-256 of what must be equal to
    pair (game, options, rated, clock). Times are seconds since the epoch; a seek not polled for
    a while (its page gone) is deleted."""

    __tablename__ = "quick_seeks"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    public_id: Mapped[str] = mapped_column(String(16), unique=True)  # shown in the lobby's list
    pool: Mapped[str] = mapped_column(String(64), index=True)
    game: Mapped[str] = mapped_column(String(64))
    title: Mapped[str] = mapped_column(String(128))
    options: Mapped[dict] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    username: Mapped[str | None] = mapped_column(String(24), nullable=True)
    name: Mapped[str] = mapped_column(String(24))
    rating: Mapped[int] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean)
    ai_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    ai_level: Mapped[str] = mapped_column(String(32))
    days_per_move: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created: Mapped[float] = mapped_column(Float)
    polled: Mapped[float] = mapped_column(Float, index=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    claim: Mapped[str | None] = mapped_column(String(32), nullable=True)
    claimed_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    result: Mapped[dict | None] = mapped_column(JSON, nullable=True)


class PreferencesRow(AccountsBase):
    """An account's preferences (issue 39, migration 0014): language, theme, board size, animation
    speed, sound, default computer level; the browser's settings, kept for every device."""

    __tablename__ = "account_preferences"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    values: Mapped[dict] = mapped_column(JSON)  # checked by server/accounts/preferences.py
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))
