"""Arenas (issue 41): arenas, their players and games, and trophies (server/community/arena.py).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
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


def _arena(primary: bool = False) -> sa.Column:
    return sa.Column(
        "arena_id",
        sa.String(16),
        sa.ForeignKey("community_arenas.id", ondelete="CASCADE"),
        primary_key=primary,
        nullable=False,
    )


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("community_arenas"):
        return  # made by a create_all of a database stamped only now (server/schema.py)
    op.create_table(
        "community_arenas",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("clock", sa.JSON(), nullable=True),
        sa.Column("starts", sa.DateTime(timezone=True), nullable=False),
        sa.Column("minutes", sa.Integer(), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("wave", sa.Integer(), nullable=False),
        sa.Column("wave_node", sa.String(32), nullable=True),
        sa.Column("wave_at", sa.Float(), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "community_arena_players",
        _arena(True),
        _account("account_id", True),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("streak", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("last_opponent", sa.Integer(), nullable=True),
        sa.Column("joined", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "community_arena_games",
        sa.Column("game_id", sa.String(32), primary_key=True),
        _arena(),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("wave", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("scored", sa.Boolean(), nullable=False),
        sa.Column("points", sa.JSON(), nullable=True),
    )
    op.create_index("ix_community_arena_games_arena_id", "community_arena_games", ["arena_id"])
    op.create_table(
        "community_trophies",
        _account("account_id", True),
        sa.Column("event_id", sa.String(16), primary_key=True),
        sa.Column("event_name", sa.String(80), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    for table in (
        "community_trophies",
        "community_arena_games",
        "community_arena_players",
        "community_arenas",
    ):
        op.drop_table(table)
