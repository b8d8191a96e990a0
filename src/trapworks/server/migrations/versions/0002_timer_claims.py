"""Timer claims: each timer of a game (a clock running out, chance or an AI to move) fires on one
node of a cluster. A node claims (game, kind, ply) before acting; the claim lapses at `until`, so
another node takes over the timers of a node that died.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("timer_claims"):
        return  # made by the models' create_all of a database stamped only now (server/schema.py)
    op.create_table(
        "timer_claims",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("ply", sa.Integer(), primary_key=True),
        sa.Column("node", sa.String(64), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("timer_claims")
