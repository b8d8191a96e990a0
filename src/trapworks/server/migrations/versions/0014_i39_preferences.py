"""An account's preferences (issue 39, account page): language, theme, board size, animation
speed, sound and default computer level, kept on the server for every device
(server/accounts/preferences.py).

Revision ID: 0014_i39_preferences
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_i39_preferences"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("account_preferences"):
        return  # made by a create_all of a database stamped only now (server/schema.py)
    op.create_table(
        "account_preferences",
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
            nullable=False,
        ),
        sa.Column("values", sa.JSON(), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("account_preferences")
