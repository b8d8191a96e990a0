"""Quick-game seeks in the database (review of issue 24's caveat): every node of a cluster sees
every seek, so two players seeking on different nodes are paired, once (a seek is claimed by a
conditional UPDATE before its game is made; see server/accounts/matchmaking.py).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("quick_seeks"):
        return  # made by the models' create_all of a database stamped only now (server/schema.py)
    op.create_table(
        "quick_seeks",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("public_id", sa.String(16), nullable=False, unique=True),
        sa.Column("pool", sa.String(64), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("title", sa.String(128), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("username", sa.String(24), nullable=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("ai_after", sa.Float(), nullable=True),
        sa.Column("ai_level", sa.String(32), nullable=False),
        sa.Column("days_per_move", sa.Integer(), nullable=True),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("polled", sa.Float(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("claim", sa.String(32), nullable=True),
        sa.Column("claimed_at", sa.Float(), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
    )
    op.create_index("ix_quick_seeks_pool", "quick_seeks", ["pool"])
    op.create_index("ix_quick_seeks_account_id", "quick_seeks", ["account_id"])
    op.create_index("ix_quick_seeks_polled", "quick_seeks", ["polled"])
    op.create_index("ix_quick_seeks_status", "quick_seeks", ["status"])


def downgrade() -> None:
    op.drop_table("quick_seeks")
