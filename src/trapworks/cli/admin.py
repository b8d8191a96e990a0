"""`trapworks admin ...`: the server's administration from the command line (issue 41): grant or
revoke the moderator role. Acts on the database the server uses (--db, or the data folder's
SQLite file), migrated first; every change is written to the moderation audit log."""

from __future__ import annotations

import typer


def _directory(db: str | None):
    from trapworks.server.community.core import Directory
    from trapworks.server.store import Store, default_url

    from .options import data_dir

    store = Store(db or default_url(data_dir()))  # migrated to the newest schema on opening
    return store, Directory(store.engine)


def register(app: typer.Typer) -> None:
    admin = typer.Typer(help="Administer a trapworks server's accounts (moderators).", no_args_is_help=True)
    app.add_typer(admin, name="admin")

    db_option = typer.Option(
        None, "--db", help="Database URL (SQLAlchemy); default: the data folder's SQLite file."
    )

    @admin.command("grant-moderator")
    def grant_moderator(
        username: str = typer.Argument(..., help="The player's username."), db: str | None = db_option
    ) -> None:
        """Make a player a moderator: the moderation page (/mod) and its actions open to them."""
        _set_role(username, db, grant=True)

    @admin.command("revoke-moderator")
    def revoke_moderator(
        username: str = typer.Argument(..., help="The player's username."), db: str | None = db_option
    ) -> None:
        """Take the moderator role back."""
        _set_role(username, db, grant=False)


def _set_role(username: str, db: str | None, grant: bool) -> None:
    from trapworks.server.errors import ServiceError

    from . import fail

    store, community = _directory(db)
    try:
        try:
            account_id, name = community.player(username)
        except ServiceError as e:
            fail(e.message)
        changed = community.grant(account_id) if grant else community.revoke(account_id)
    finally:
        store.close()
    if grant:
        typer.echo(f"{name} is a moderator" + ("" if changed else " already"))
    else:
        typer.echo(f"{name} is no longer a moderator" if changed else f"{name} was not a moderator")
