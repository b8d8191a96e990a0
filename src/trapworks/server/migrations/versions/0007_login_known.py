"""Addresses an account has logged in from (issue 40): the log-in throttle slows a name under
attack down for every other address, never for the addresses its owner uses (server/throttle.py).
Each row is the SHA-256 of the account and the address (neither in the clear) and when it was
last used.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("login_known"):
        return  # made by the models' create_all of a database stamped only now (server/schema.py)
    op.create_table(
        "login_known",
        sa.Column("key_hash", sa.String(64), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_login_known_at", "login_known", ["at"])


def downgrade() -> None:
    op.drop_index("ix_login_known_at", table_name="login_known")
    op.drop_table("login_known")
