"""The community (issue 41): follows, blocks, personal mutes, presence, challenges, reports,
moderator roles, sanctions (warn, mute, ban) and the moderation audit log
(server/community/models.py).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def _account(name: str, primary: bool = False) -> sa.Column:
    return sa.Column(
        name,
        sa.Integer(),
        sa.ForeignKey("accounts.id", ondelete="CASCADE"),
        primary_key=primary,
        nullable=False,
    )


def _when(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("community_follows"):
        return  # made by a create_all of a database stamped only now (server/schema.py)
    for table, first, second in (
        ("community_follows", "follower_id", "followee_id"),
        ("community_blocks", "blocker_id", "blocked_id"),
        ("community_mutes", "muter_id", "muted_id"),
    ):
        op.create_table(table, _account(first, True), _account(second, True), _when("created"))
    op.create_table(
        "community_presence", _account("account_id", True), sa.Column("seen", sa.Float(), nullable=False)
    )
    op.create_table(
        "community_challenges",
        sa.Column("id", sa.String(16), primary_key=True),
        _account("challenger_id"),
        _account("challenged_id"),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("clock", sa.JSON(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        _when("created"),
        _when("expires"),
        _when("answered", nullable=True),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("challenger_seat", sa.Integer(), nullable=True),
    )
    op.create_index("ix_community_challenges_challenger_id", "community_challenges", ["challenger_id"])
    op.create_index("ix_community_challenges_challenged_id", "community_challenges", ["challenged_id"])
    op.create_index("ix_community_challenges_status", "community_challenges", ["status"])
    op.create_table(
        "community_reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _account("reporter_id"),
        _account("target_id"),
        sa.Column("reason", sa.String(32), nullable=False),
        sa.Column("details", sa.Text(), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("chat_line", sa.Integer(), nullable=True),
        sa.Column("chat_text", sa.Text(), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        _when("created"),
        sa.Column("closed_by", sa.Integer(), nullable=True),
        sa.Column("resolution", sa.String(200), nullable=True),
    )
    op.create_index("ix_community_reports_reporter_id", "community_reports", ["reporter_id"])
    op.create_index("ix_community_reports_target_id", "community_reports", ["target_id"])
    op.create_index("ix_community_reports_status", "community_reports", ["status"])
    op.create_table(
        "community_roles",
        _account("account_id", True),
        sa.Column("role", sa.String(16), primary_key=True),
        _when("granted"),
    )
    op.create_table(
        "community_sanctions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _account("account_id"),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("reason", sa.String(300), nullable=False),
        sa.Column("by_id", sa.Integer(), nullable=True),
        _when("created"),
        _when("until", nullable=True),
        sa.Column("lifted", sa.Boolean(), nullable=False),
        sa.Column("seen", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_community_sanctions_account_id", "community_sanctions", ["account_id"])
    op.create_table(
        "community_audit",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _when("at"),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("target_id", sa.Integer(), nullable=True),
        sa.Column("target", sa.String(64), nullable=True),
        sa.Column("detail", sa.JSON(), nullable=False),
    )
    op.create_index("ix_community_audit_at", "community_audit", ["at"])


def downgrade() -> None:
    for table in (
        "community_audit",
        "community_sanctions",
        "community_roles",
        "community_reports",
        "community_challenges",
        "community_presence",
        "community_mutes",
        "community_blocks",
        "community_follows",
    ):
        op.drop_table(table)
