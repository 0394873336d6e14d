"""``python -m gamedb.store.duckdb_schema`` writes :data:`gamedb.store.duckdb_file.DDL`: the catalog of a migrated DuckDB file."""

from __future__ import annotations

from .duckdb_file import DDL, catalog, connect, older_ddl


def generated_ddl(revision: str | None = None) -> str:
    """The catalog of a DuckDB database in memory after every migration (to ``revision``; None: all) and ``db index``, in creation order."""
    import sqlalchemy as sa
    from alembic import command
    from duckdb_engine import ConnectionWrapper

    from .bulk import create_index_sql
    from .database import alembic_config
    from .schema import position

    memory = ConnectionWrapper(connect(":memory:", read_only=False))
    with sa.create_engine("duckdb://", creator=lambda: memory, poolclass=sa.pool.StaticPool).begin() as conn:
        command.upgrade(alembic_config(conn), revision or "head")
        for index in sorted(position.indexes, key=lambda ix: str(ix.name)):  # what `db index` builds
            if conn.exec_driver_sql("SELECT 1 FROM duckdb_indexes() WHERE index_name = ?", (index.name,)).first() is None:
                conn.exec_driver_sql(create_index_sql(conn, index))
        found = catalog(conn.connection.driver_connection)
    ordered = sorted(found.items(), key=lambda item: (("sequence", "table", "index", "view").index(item[0][0]), item[0][1]))
    return "".join(f"CREATE SEQUENCE {name};\n" if sql is None else f"{str(sql).rstrip(';')};\n" for (_, name), sql in ordered)


if __name__ == "__main__":
    from .sqlite_file import READABLE_OLDER

    DDL.write_text(generated_ddl(), encoding="utf-8")
    for rev in READABLE_OLDER:
        older_ddl(rev).write_text(generated_ddl(rev), encoding="utf-8")
