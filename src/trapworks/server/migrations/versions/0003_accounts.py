"""Accounts (issue 28): accounts, their sessions and seats, the games they play, ratings and
rating history (server/accounts/models.py).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    have = set(sa.inspect(op.get_bind()).get_table_names())
    if "accounts" not in have:
        op.create_table(
            "accounts",
            sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
            sa.Column("username", sa.String(24), nullable=False),
            sa.Column("username_key", sa.String(24), nullable=False),
            sa.Column("password_hash", sa.String(255), nullable=False),
            sa.Column("created", TZ, nullable=False),
        )
        op.create_index("ix_accounts_username_key", "accounts", ["username_key"], unique=True)
    if "account_sessions" not in have:
        op.create_table(
            "account_sessions",
            sa.Column("id_hash", sa.String(64), primary_key=True),
            sa.Column(
                "account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
            ),
            sa.Column("csrf", sa.String(64), nullable=False),
            sa.Column("created", TZ, nullable=False),
            sa.Column("expires", TZ, nullable=False),
        )
        op.create_index("ix_account_sessions_account_id", "account_sessions", ["account_id"])
    if "account_seats" not in have:
        op.create_table(
            "account_seats",
            sa.Column("pk", sa.Integer(), primary_key=True, autoincrement=True),
            sa.Column(
                "account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
            ),
            sa.Column("game_id", sa.String(32), nullable=False),
            sa.Column("seat", sa.Integer(), nullable=False),
            sa.Column("game", sa.String(64), nullable=False),
            sa.Column("joined", TZ, nullable=False),
            sa.Column("result", sa.String(16), nullable=True),
            sa.UniqueConstraint("game_id", "seat", name="one_account_per_seat"),
        )
        op.create_index("ix_account_seats_account_id", "account_seats", ["account_id"])
        op.create_index("ix_account_seats_game_id", "account_seats", ["game_id"])
    if "account_games" not in have:
        op.create_table(
            "account_games",
            sa.Column("game_id", sa.String(32), primary_key=True),
            sa.Column("game", sa.String(64), nullable=False),
            sa.Column("players", sa.Integer(), nullable=False),
            sa.Column("variant", sa.String(64), nullable=False),
            sa.Column("rated", sa.Boolean(), nullable=False),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("why_unrated", sa.String(200), nullable=True),
            sa.Column("created", TZ, nullable=False),
            sa.Column("ended", TZ, nullable=True),
            sa.Column("returns", sa.JSON(), nullable=True),
            sa.Column("winners", sa.JSON(), nullable=True),
        )
    if "ratings" not in have:
        op.create_table(
            "ratings",
            sa.Column("pk", sa.Integer(), primary_key=True, autoincrement=True),
            sa.Column(
                "account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
            ),
            sa.Column("game", sa.String(64), nullable=False),
            sa.Column("players", sa.Integer(), nullable=False),
            sa.Column("mu", sa.Float(), nullable=False),
            sa.Column("sigma", sa.Float(), nullable=False),
            sa.Column("games", sa.Integer(), nullable=False),
            sa.Column("updated", TZ, nullable=False),
            sa.UniqueConstraint("account_id", "game", "players", name="one_rating_per_pool"),
        )
        op.create_index("ix_ratings_account_id", "ratings", ["account_id"])
    if "rating_history" not in have:
        op.create_table(
            "rating_history",
            sa.Column("pk", sa.Integer(), primary_key=True, autoincrement=True),
            sa.Column(
                "account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
            ),
            sa.Column("game", sa.String(64), nullable=False),
            sa.Column("players", sa.Integer(), nullable=False),
            sa.Column("game_id", sa.String(32), nullable=False),
            sa.Column("seat", sa.Integer(), nullable=False),
            sa.Column("rank", sa.Integer(), nullable=False),
            sa.Column("mu_before", sa.Float(), nullable=False),
            sa.Column("sigma_before", sa.Float(), nullable=False),
            sa.Column("mu", sa.Float(), nullable=False),
            sa.Column("sigma", sa.Float(), nullable=False),
            sa.Column("at", TZ, nullable=False),
            sa.UniqueConstraint("account_id", "game_id", name="one_change_per_game"),
        )
        op.create_index("ix_rating_history_account_id", "rating_history", ["account_id"])


def downgrade() -> None:
    for table in (
        "rating_history",
        "ratings",
        "account_games",
        "account_seats",
        "account_sessions",
        "accounts",
    ):
        op.drop_table(table)
