"""The community's tables (issue 41), on their own metadata; made by migration 0008.

Accounts are referred to by id (accounts.id); a deleted account's rows go with it (ON DELETE
CASCADE where the row is about that account). Nothing secret is stored in the clear: an e-mail
link's token is stored as its SHA-256, as sessions are.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from ..accounts.models import AccountRow  # referred to by id (its own metadata)


class CommunityBase(DeclarativeBase):
    pass


def _account(primary: bool = False, index: bool = True) -> Mapped[int]:
    if primary:
        return mapped_column(ForeignKey(AccountRow.id, ondelete="CASCADE"), primary_key=True)
    return mapped_column(ForeignKey(AccountRow.id, ondelete="CASCADE"), index=index)


class FollowRow(CommunityBase):
    """`follower` follows `followee` (one way, as on lichess); friends are the players you follow."""

    __tablename__ = "community_follows"

    follower_id: Mapped[int] = _account(primary=True)
    followee_id: Mapped[int] = _account(primary=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class BlockRow(CommunityBase):
    """`blocker` blocks `blocked`: no challenge, no pairing, no follow between them."""

    __tablename__ = "community_blocks"

    blocker_id: Mapped[int] = _account(primary=True)
    blocked_id: Mapped[int] = _account(primary=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MuteRow(CommunityBase):
    """`muter` hides `muted`'s chat lines from their own screen (a personal mute; a moderator's
    mute, which silences a player everywhere, is a SanctionRow)."""

    __tablename__ = "community_mutes"

    muter_id: Mapped[int] = _account(primary=True)
    muted_id: Mapped[int] = _account(primary=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PresenceRow(CommunityBase):
    """When an account was last seen by a community page (seconds since the epoch: one clock for
    every node)."""

    __tablename__ = "community_presence"

    account_id: Mapped[int] = _account(primary=True)
    seen: Mapped[float] = mapped_column(Float)


class ChallengeRow(CommunityBase):
    """A challenge from one player to another. `status`: open, accepted, declined, cancelled or
    expired (an open challenge past `expires` reads as expired; it is written so on the next look).
    Answered by a conditional UPDATE ... WHERE status = 'open': answered once, on any node."""

    __tablename__ = "community_challenges"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    challenger_id: Mapped[int] = _account()
    challenged_id: Mapped[int] = _account()
    game: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict] = mapped_column(JSON)
    rated: Mapped[bool] = mapped_column(Boolean)
    clock: Mapped[dict | None] = mapped_column(JSON, nullable=True)  # {mode, seconds} or None
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the challenger's seat
    status: Mapped[str] = mapped_column(String(16), index=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    answered: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    challenger_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)


class ReportRow(CommunityBase):
    """A player's report of another: a reason and, where given, the game and the chat line."""

    __tablename__ = "community_reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter_id: Mapped[int] = _account()
    target_id: Mapped[int] = _account()
    reason: Mapped[str] = mapped_column(String(32))
    details: Mapped[str] = mapped_column(Text, default="")
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    chat_line: Mapped[int | None] = mapped_column(Integer, nullable=True)
    chat_text: Mapped[str | None] = mapped_column(Text, nullable=True)  # the line as it was reported
    status: Mapped[str] = mapped_column(String(16), index=True)  # open, closed
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    closed_by: Mapped[int | None] = mapped_column(Integer, nullable=True)
    resolution: Mapped[str | None] = mapped_column(String(200), nullable=True)


class RoleRow(CommunityBase):
    """A role held by an account (`moderator`), granted with `trapworks admin grant-moderator`."""

    __tablename__ = "community_roles"

    account_id: Mapped[int] = _account(primary=True)
    role: Mapped[str] = mapped_column(String(16), primary_key=True)
    granted: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SanctionRow(CommunityBase):
    """A moderator's action on a player: warn (a notice), mute (no chat until `until`), ban (no
    log-in until `until`, or for good when None). `lifted`: ended early by a moderator."""

    __tablename__ = "community_sanctions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = _account()
    kind: Mapped[str] = mapped_column(String(8))
    reason: Mapped[str] = mapped_column(String(300))
    by_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    lifted: Mapped[bool] = mapped_column(Boolean, default=False)
    seen: Mapped[bool] = mapped_column(Boolean, default=False)  # a warning read by its player


class AuditRow(CommunityBase):
    """Every moderation action, kept for audit (never deleted with an account: ids only)."""

    __tablename__ = "community_audit"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    actor_id: Mapped[int | None] = mapped_column(Integer, nullable=True)  # None: the command line
    actor: Mapped[str] = mapped_column(String(64))  # the name at the time
    action: Mapped[str] = mapped_column(String(32))
    target_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    target: Mapped[str | None] = mapped_column(String(64), nullable=True)
    detail: Mapped[dict] = mapped_column(JSON)


class MailAddressRow(CommunityBase):
    """A player's e-mail address (one per account): confirmed once its link is opened; `language`
    of the mails (en, fr); `unsubscribed`: no reminders or notices (a password reset still
    comes); `unsubscribe_hash`: SHA-256 of the key in every mail's unsubscribe link; `base`: the
    site's address the player set it on (for links in mails sent later, by any node)."""

    __tablename__ = "community_mail_addresses"

    account_id: Mapped[int] = _account(primary=True)
    address: Mapped[str] = mapped_column(String(254))
    confirmed: Mapped[bool] = mapped_column(Boolean, default=False)
    language: Mapped[str] = mapped_column(String(8))
    unsubscribed: Mapped[bool] = mapped_column(Boolean, default=False)
    unsubscribe_hash: Mapped[str] = mapped_column(String(64), index=True)
    base: Mapped[str] = mapped_column(String(200))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MailTokenRow(CommunityBase):
    """A single-use link sent by mail (confirm an address, reset a password): its SHA-256 only."""

    __tablename__ = "community_mail_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = _account()
    purpose: Mapped[str] = mapped_column(String(16))  # confirm, reset
    address: Mapped[str] = mapped_column(String(254))
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class OutboxRow(CommunityBase):
    """A mail waiting to be sent (or sent): the queue survives a restart; a node claims a row
    (`claim`, until `claimed_until`) before sending it, so a mail goes out once; a failure is
    retried at `next_try` (seconds since the epoch), with a growing wait."""

    __tablename__ = "community_mail_outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    to_address: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    kind: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(8), index=True)  # waiting, sent, failed
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_try: Mapped[float] = mapped_column(Float, index=True)
    claim: Mapped[str | None] = mapped_column(String(32), nullable=True)
    claimed_until: Mapped[float | None] = mapped_column(Float, nullable=True)
    last_error: Mapped[str | None] = mapped_column(String(300), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    sent: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ReminderRow(CommunityBase):
    """A "your move" reminder sent for one move of one game (never twice, on any node)."""

    __tablename__ = "community_reminders"

    account_id: Mapped[int] = _account(primary=True)
    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ArenaRow(CommunityBase):
    """An arena (lichess's): from `starts` for `minutes`, players join and leave at any time and
    are paired again as soon as they are free. `wave`/`wave_node`/`wave_at`: the last pairing wave
    and the node that claimed it (a conditional UPDATE: one node pairs each wave; a claim older
    than a few waves is taken over, so a node lost stops nothing). `finished`: results written
    and trophies given, once."""

    __tablename__ = "community_arenas"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict] = mapped_column(JSON)
    clock: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    starts: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    minutes: Mapped[int] = mapped_column(Integer)
    created_by: Mapped[int | None] = mapped_column(Integer, nullable=True)
    wave: Mapped[int] = mapped_column(Integer, default=0)
    wave_node: Mapped[str | None] = mapped_column(String(32), nullable=True)
    wave_at: Mapped[float] = mapped_column(Float, default=0.0)
    finished: Mapped[bool] = mapped_column(Boolean, default=False)


class ArenaPlayerRow(CommunityBase):
    """A player of an arena: `active` (in the pairing pool; leaving pauses), the score, the
    current streak of wins (two in a row: later wins and draws count double), games played and the
    last opponent (never paired again at once)."""

    __tablename__ = "community_arena_players"

    arena_id: Mapped[str] = mapped_column(
        ForeignKey("community_arenas.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[int] = _account(primary=True)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    score: Mapped[int] = mapped_column(Integer, default=0)
    streak: Mapped[int] = mapped_column(Integer, default=0)
    games: Mapped[int] = mapped_column(Integer, default=0)
    last_opponent: Mapped[int | None] = mapped_column(Integer, nullable=True)
    joined: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ArenaGameRow(CommunityBase):
    """A game of an arena: its two players (seat order) and whether its result was scored (once)."""

    __tablename__ = "community_arena_games"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    arena_id: Mapped[str] = mapped_column(ForeignKey("community_arenas.id", ondelete="CASCADE"), index=True)
    players: Mapped[list] = mapped_column(JSON)  # account ids by seat
    wave: Mapped[int] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    scored: Mapped[bool] = mapped_column(Boolean, default=False)
    points: Mapped[list | None] = mapped_column(JSON, nullable=True)  # by seat, once scored


class TrophyRow(CommunityBase):
    """A place on an event's podium, shown on the player's profile."""

    __tablename__ = "community_trophies"

    account_id: Mapped[int] = _account(primary=True)
    event_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    event_name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(64))
    place: Mapped[int] = mapped_column(Integer)
    score: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SwissRow(CommunityBase):
    """A Swiss tournament for correspondence play: `rounds` rounds, every game a correspondence
    game (`days_per_move`); round r+1 is paired once every game of round r has ended (claimed by
    a conditional UPDATE of `round`: once in a cluster). `status`: open (joining), running,
    pairing (a round's games being made), finished."""

    __tablename__ = "community_swiss"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict] = mapped_column(JSON)
    days_per_move: Mapped[int] = mapped_column(Integer)
    rounds: Mapped[int] = mapped_column(Integer)
    round: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16))
    created_by: Mapped[int] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # While "pairing": the node making the round's games holds it until then (epoch seconds);
    # past it, another node takes the pairing over (a node lost mid-pairing stalls nothing).
    pairing_until: Mapped[float | None] = mapped_column(Float, nullable=True)


class SwissPlayerRow(CommunityBase):
    """A player of a Swiss tournament: points counted in halves (win 2, draw 1), the opponents
    met (no rematch), and byes had (one point each; at most one per player where possible)."""

    __tablename__ = "community_swiss_players"

    swiss_id: Mapped[str] = mapped_column(
        ForeignKey("community_swiss.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[int] = _account(primary=True)
    halves: Mapped[int] = mapped_column(Integer, default=0)
    opponents: Mapped[list] = mapped_column(JSON)
    byes: Mapped[int] = mapped_column(Integer, default=0)


class SwissGameRow(CommunityBase):
    """A game of a Swiss round: its two players (seat order), scored once."""

    __tablename__ = "community_swiss_games"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    swiss_id: Mapped[str] = mapped_column(ForeignKey("community_swiss.id", ondelete="CASCADE"), index=True)
    round: Mapped[int] = mapped_column(Integer)
    players: Mapped[list] = mapped_column(JSON)
    scored: Mapped[bool] = mapped_column(Boolean, default=False)
    halves: Mapped[list | None] = mapped_column(JSON, nullable=True)
