"""A chat line's author (issue 41): the account that wrote it, seated or watching, so that a
personal mute hides every line of that account wherever it is written (server/features/chat.py).

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("chat_lines")}
    if "author_id" not in columns:  # made by a create_all of a database stamped only now
        op.add_column("chat_lines", sa.Column("author_id", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("chat_lines", "author_id")
