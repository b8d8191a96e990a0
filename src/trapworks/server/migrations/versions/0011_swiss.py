"""Swiss tournaments for correspondence play (issue 41): server/community/swiss.py.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def _swiss(primary: bool = False) -> sa.Column:
    return sa.Column(
        "swiss_id",
        sa.String(16),
        sa.ForeignKey("community_swiss.id", ondelete="CASCADE"),
        primary_key=primary,
        nullable=False,
    )


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("community_swiss"):
        return  # made by a create_all of a database stamped only now (server/schema.py)
    op.create_table(
        "community_swiss",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("days_per_move", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "community_swiss_players",
        _swiss(True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
            nullable=False,
        ),
        sa.Column("halves", sa.Integer(), nullable=False),
        sa.Column("opponents", sa.JSON(), nullable=False),
        sa.Column("byes", sa.Integer(), nullable=False),
    )
    op.create_table(
        "community_swiss_games",
        sa.Column("game_id", sa.String(32), primary_key=True),
        _swiss(),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("scored", sa.Boolean(), nullable=False),
        sa.Column("halves", sa.JSON(), nullable=True),
    )
    op.create_index("ix_community_swiss_games_swiss_id", "community_swiss_games", ["swiss_id"])


def downgrade() -> None:
    for table in ("community_swiss_games", "community_swiss_players", "community_swiss"):
        op.drop_table(table)
