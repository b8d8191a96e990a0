"""The schema as it was before migrations: games, their actions, seats taken, chat and control.

A database made before migrations existed is brought up to this revision by server/schema.py
(missing columns and tables added) and stamped with it; an empty one is created by it.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("start", sa.Text(), nullable=True),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("spectator_token", sa.String(64), nullable=False),
        sa.Column("hints", sa.Boolean(), nullable=False),
        sa.Column("practice", sa.Boolean(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("secret", sa.String(64), nullable=True),
        sa.Column("chosen_setup", sa.Boolean(), nullable=False),
        sa.Column("is_public", sa.Boolean(), nullable=False),
        sa.Column("spectator_chat", sa.Boolean(), nullable=False),
        sa.Column("open_seats", sa.Integer(), nullable=False),
    )
    op.create_table(
        "seat_joins",
        sa.Column("pk", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("joined", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("game_id", "seat", name="one_holder_per_seat"),
    )
    op.create_index("ix_seat_joins_game_id", "seat_joins", ["game_id"])
    op.create_table(
        "chat_lines",
        sa.Column("pk", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_lines_game_id", "chat_lines", ["game_id"])
    op.create_table(
        "actions",
        sa.Column("pk", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.UniqueConstraint("game_id", "ply", name="one_action_per_ply"),
    )
    op.create_index("ix_actions_game_id", "actions", ["game_id"])
    op.create_table(
        "game_control",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("data", sa.JSON(), nullable=False),
    )


def downgrade() -> None:
    for table in ("game_control", "actions", "chat_lines", "seat_joins", "games"):
        op.drop_table(table)
