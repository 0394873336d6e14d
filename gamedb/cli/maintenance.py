"""``gamedb db ...``: database maintenance."""

from __future__ import annotations

import typer

from .common import handle_write_errors, open_database, out, settings

db_app = typer.Typer(
    help="Database maintenance.", no_args_is_help=True, rich_markup_mode=None, epilog="Example:  gamedb --db old.sqlite db upgrade"
)


@db_app.command("upgrade", epilog="Example:  gamedb --db old.sqlite db upgrade")
@handle_write_errors
def db_upgrade_command(ctx: typer.Context) -> None:
    """Upgrade a database made by an older gamedb to the newest schema (a SQLite file is backed up first)."""
    from ..store.upgrade import upgrade_database

    report = upgrade_database(settings(ctx).db)
    if not report.changed:
        out(f"{report.location} is already at the newest schema revision ({report.after}).")
        return
    backup = f"; backup at {report.backup}" if report.backup else ""
    out(f"Upgraded {report.location} from schema revision {report.before} to {report.after}{backup}.")


@db_app.command("index", epilog="Example:  gamedb --db c4.sqlite db index")
@handle_write_errors
def db_index_command(ctx: typer.Context) -> None:
    """Build the indexes a large tier solve left out (on the position text, for lookups by text in plain SQL)."""
    db = open_database(ctx)
    try:
        built = db.build_indexes()
    finally:
        db.close()
    out(f"Built {', '.join(built)}." if built else "Every index is there already.")


def register(app: typer.Typer) -> None:
    app.add_typer(db_app, name="db")
