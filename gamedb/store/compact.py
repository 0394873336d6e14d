"""Compacting a solved game: drop what answering queries does not need."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa

from . import catalog
from .database import current_revision, vacuum
from .locking import solve_lock
from .record import GameRecord
from .rows import reader_of
from .schema import WORKING_TABLES, metadata, move
from .sqlite_file import file_of


@dataclass
class CompactReport:
    game: str
    moves_removed: int
    bytes_before: int | None  # SQLite file size; None on a server
    bytes_after: int | None


def compact(engine: sa.Engine, record: GameRecord, duckdb_file: Path | None = None) -> CompactReport:
    """Delete the move rows of a solved game and reclaim their space; a DuckDB file (``duckdb_file``) is written afresh,
    its position rows in the dense order (:mod:`gamedb.store.duckdb_rewrite`)."""
    record.require_solved()
    path = file_of(engine) or duckdb_file
    before = path.stat().st_size if path is not None else None
    with solve_lock(engine, record.name, "compact"):
        with engine.begin() as conn:
            if duckdb_file is not None:
                from .duckdb_rewrite import require_newest

                require_newest(current_revision(conn), duckdb_file)
            removed = conn.execute(move.delete().where(move.c.game_id == record.id)).rowcount
            for name in WORKING_TABLES:
                table = metadata.tables[name]
                conn.execute(table.delete().where(table.c.game_id == record.id))
            info = dict(reader_of(conn).get(record.name).info or {})
            info["compacted_at"] = catalog.now()
            catalog.update(conn, record, info=info)
        if duckdb_file is None:
            vacuum(engine)
        else:
            from .duckdb_rewrite import rewrite

            engine.dispose()  # the file closed: the rewrite attaches it read-only
            rewrite(duckdb_file)
    after = path.stat().st_size if path is not None else None
    return CompactReport(record.name, max(removed, 0), before, after)
