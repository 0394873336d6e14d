"""The schema objects a file at an older revision holds, built by running the migrations up to it in memory."""

from __future__ import annotations

import functools

from .file_check import Objects, objects_of


@functools.cache
def objects_at(revision: str) -> Objects:
    """The objects of a SQLite file the migrations bring from empty to ``revision`` (every file below the newest
    revision was made so: new files were made by the migrations until revision 0004, the newest so far)."""
    import sqlalchemy as sa
    from alembic import command

    from .database import alembic_config

    engine = sa.create_engine("sqlite://", poolclass=sa.pool.StaticPool)
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), revision)
            driver = conn.connection.driver_connection
            assert driver is not None
            found = objects_of(driver)
    finally:
        engine.dispose()
    return found
