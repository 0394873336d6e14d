"""``python -m gamedb.store.duckdb_schema`` writes :data:`gamedb.store.duckdb_file.DDL`: the catalog of a migrated DuckDB file."""

from __future__ import annotations

from .duckdb_file import DDL, catalog, connect


def generated_ddl() -> str:
    """The text of :data:`DDL`: the catalog of a DuckDB database in memory after every migration and ``db index``, in creation order."""
    import sqlalchemy as sa
    from duckdb_engine import ConnectionWrapper

    from .bulk import create_missing_indexes
    from .database import upgrade
    from .schema import position

    memory = ConnectionWrapper(connect(":memory:", read_only=False))
    engine = sa.create_engine("duckdb://", creator=lambda: memory, poolclass=sa.pool.StaticPool)
    with engine.begin() as conn:
        upgrade(conn)
        create_missing_indexes(conn, [position])
        found = catalog(conn.connection.driver_connection)
    order = ("sequence", "table", "index", "view")
    statements = [f"CREATE SEQUENCE {name}" if sql is None else str(sql).rstrip(";") for kind in order for (k, name), sql in sorted(found.items()) if k == kind]
    return "".join(f"{statement};\n" for statement in statements)


if __name__ == "__main__":
    DDL.write_text(generated_ddl(), encoding="utf-8")
