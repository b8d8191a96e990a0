"""A version on each game's control document (issue 24): a node writes the document only if it is
still the version it read, so that two nodes changing it at once (a resignation on one, a clock's
turn on the other) never lose one of the changes; the node that loses reloads and does its change
again on the stored document.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("game_control")}
    if "version" in columns:
        return  # made by the models' create_all of a database stamped only now (server/schema.py)
    with op.batch_alter_table("game_control") as batch:
        batch.add_column(sa.Column("version", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("game_control") as batch:
        batch.drop_column("version")
