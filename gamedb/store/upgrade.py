"""`gamedb db upgrade`: bring an older database to the newest schema, after a backup."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa

from ..errors import DatabaseError
from .database import current_revision, head_revision, is_sqlite_url, to_url, upgrade
from .sqlite_file import check_sqlite_version


@dataclass
class UpgradeReport:
    location: str
    before: str | None
    after: str
    backup: str | None

    @property
    def changed(self) -> bool:
        return self.before != self.after


def upgrade_database(db: str) -> UpgradeReport:
    """Upgrade the schema of ``db`` to the newest revision; back a SQLite file up first."""
    url = to_url(db)
    path = None
    if is_sqlite_url(url):
        check_sqlite_version()
        path = Path(url.split("///", 1)[1])
        if not path.exists():
            raise DatabaseError(f"no database at {path}")
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            try:
                before = current_revision(conn)
            except sa.exc.DatabaseError as exc:
                raise DatabaseError(f"cannot open {db} as a gamedb database: {exc.orig}") from None
        head = head_revision()
        if before is None:
            raise DatabaseError(f"{db} is not a gamedb database (no schema version); nothing to upgrade")
        if before == head:
            return UpgradeReport(str(db), before, head, None)
        from alembic.script import ScriptDirectory

        from .database import alembic_config

        known = {rev.revision for rev in ScriptDirectory.from_config(alembic_config()).walk_revisions()}
        if before not in known:
            raise DatabaseError(f"{db} has schema revision {before}, newer than this gamedb knows ({head}); upgrade gamedb")
        backup = None
        if path is not None:
            backup = path.with_name(f"{path.name}.backup-{before}")
            n = 1
            while backup.exists():
                backup = path.with_name(f"{path.name}.backup-{before}.{n}")
                n += 1
            shutil.copy2(path, backup)
        with engine.begin() as conn:
            upgrade(conn)
        return UpgradeReport(str(db), before, head, str(backup) if backup else None)
    finally:
        engine.dispose()
