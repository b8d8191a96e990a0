"""Alembic's environment: the server hands it an open connection (server/schema.py holds the
migration lock on it), so migrations never open a database of their own."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None, transaction_per_migration=False)
with context.begin_transaction():
    context.run_migrations()
