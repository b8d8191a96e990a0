"""E-mail (issue 41): players' addresses, single-use links (confirm, reset), the outbox queue and
the "your move" reminders sent (server/community/models.py, server/community/mail.py).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
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


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("community_mail_outbox"):
        return  # made by a create_all of a database stamped only now (server/schema.py)
    op.create_table(
        "community_mail_addresses",
        _account("account_id", True),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("confirmed", sa.Boolean(), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("unsubscribed", sa.Boolean(), nullable=False),
        sa.Column("unsubscribe_hash", sa.String(64), nullable=False),
        sa.Column("base", sa.String(200), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "ix_community_mail_addresses_unsubscribe_hash", "community_mail_addresses", ["unsubscribe_hash"]
    )
    op.create_table(
        "community_mail_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        _account("account_id"),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_community_mail_tokens_account_id", "community_mail_tokens", ["account_id"])
    op.create_table(
        "community_mail_outbox",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("to_address", sa.String(254), nullable=False),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_try", sa.Float(), nullable=False),
        sa.Column("claim", sa.String(32), nullable=True),
        sa.Column("claimed_until", sa.Float(), nullable=True),
        sa.Column("last_error", sa.String(300), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_community_mail_outbox_status", "community_mail_outbox", ["status"])
    op.create_index("ix_community_mail_outbox_next_try", "community_mail_outbox", ["next_try"])
    op.create_table(
        "community_reminders",
        _account("account_id", True),
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("ply", sa.Integer(), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    for table in (
        "community_reminders",
        "community_mail_outbox",
        "community_mail_tokens",
        "community_mail_addresses",
    ):
        op.drop_table(table)
