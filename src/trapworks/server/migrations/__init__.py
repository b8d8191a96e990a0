"""Alembic migrations of the server's database (run at start-up by server/schema.py)."""
