"""``python -m gamedb.store.duckdb_schema`` writes :data:`gamedb.store.duckdb_file.DDL`: the catalog of a migrated DuckDB file."""

from __future__ import annotations

from .duckdb_file import DDL, catalog, connect


def generated_ddl() -> str:
    """The catalog of a DuckDB database in memory after every migration and ``db index``, in creation order."""
    import sqlalchemy as sa
    from duckdb_engine import ConnectionWrapper

    from .bulk import create_missing_indexes
    from .database import upgrade
    from .schema import position

    memory = ConnectionWrapper(connect(":memory:", read_only=False))
    with sa.create_engine("duckdb://", creator=lambda: memory, poolclass=sa.pool.StaticPool).begin() as conn:
        upgrade(conn)
        create_missing_indexes(conn, [position])
        found = catalog(conn.connection.driver_connection)
    ordered = sorted(found.items(), key=lambda item: (("sequence", "table", "index", "view").index(item[0][0]), item[0][1]))
    return "".join(f"CREATE SEQUENCE {name};\n" if sql is None else f"{str(sql).rstrip(';')};\n" for (_, name), sql in ordered)


if __name__ == "__main__":
    DDL.write_text(generated_ddl(), encoding="utf-8")
