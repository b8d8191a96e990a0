"""Failed log-ins in the database (issue 24, item 4): the log-in limiter's window is shared by every
node of a cluster (a guesser spreading attempts over the nodes behind a balancer gets no more
tries). Each row is one failure under a key: the SHA-256 of the account name or the address, so
neither is stored in the clear.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("login_failures"):
        return  # made by the models' create_all of a database stamped only now (server/schema.py)
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_login_failures_key_hash", "login_failures", ["key_hash"])
    op.create_index("ix_login_failures_at", "login_failures", ["at"])


def downgrade() -> None:
    op.drop_table("login_failures")
