"""The connections of a database file read without SQLAlchemy (a SQLite file through ``sqlite3``, a DuckDB file through
``duckdb``), for :class:`gamedb.api.Database` opened ``readonly``."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from .file_connections import FileConnections
from .location import Location

if TYPE_CHECKING:
    from .duckdb_file import DuckDBConnections
    from .duckdb_follow import FollowedDuckDBFile

    #: the connections of a file read without SQLAlchemy
    Files: TypeAlias = FileConnections | DuckDBConnections | FollowedDuckDBFile


def file_at_newest(where: Location, *, budget: float | None, follow_path: bool = False) -> Files | None:
    """The file's connections when it holds gamedb's newest schema; else None (the full check then says why)."""
    from .sqlite_file import readable
    files: Files
    if where.is_duckdb:
        from .duckdb_file import DuckDBConnections
        from .duckdb_follow import FollowedDuckDBFile
        files = FollowedDuckDBFile(where, budget=budget) if follow_path else DuckDBConnections(where, budget=budget)
    else:
        files = FileConnections(where, budget=budget, follow_path=follow_path)
    if readable(files.revision):  # the newest, or an older one the readers know (checked against its own objects)
        return files
    files.close()
    return None
