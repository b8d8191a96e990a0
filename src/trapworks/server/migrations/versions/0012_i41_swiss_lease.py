"""A Swiss round's pairing lease (issue 41): the node pairing a round holds it until
`pairing_until`; past that, another node takes the pairing over (server/community/swiss.py).

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("community_swiss")}
    if "pairing_until" not in columns:  # made by a create_all of a database stamped only now
        op.add_column("community_swiss", sa.Column("pairing_until", sa.Float(), nullable=True))


def downgrade() -> None:
    op.drop_column("community_swiss", "pairing_until")
