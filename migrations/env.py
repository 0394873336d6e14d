"""Alembic environment for gamedb.

gamedb runs migrations itself with an open connection passed in
``config.attributes["connection"]``; developers can also run the ``alembic``
command with ``-x db=PATH_OR_URL`` (see alembic.ini).
"""

from alembic import context
from alembic.ddl.postgresql import PostgresqlImpl
from sqlalchemy import create_engine, pool

from gamedb.store.duckdb_file import install_ddl_rules
from gamedb.store.schema import metadata

config = context.config


class DuckDBImpl(PostgresqlImpl):
    """DuckDB (duckdb-engine) speaks PostgreSQL's DDL for what the revisions do; Alembic has no impl of its own for it."""

    __dialect__ = "duckdb"


install_ddl_rules()


def _include_object(obj, name, type_, reflected, compare_to):
    # views are created by hand in the revisions; they are not tables
    return not (type_ == "table" and reflected and compare_to is None and name in ("positions", "moves"))


def _run(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=True,
        include_object=_include_object,
    )
    with context.begin_transaction():
        context.run_migrations()


def _url() -> str:
    db = context.get_x_argument(as_dictionary=True).get("db")
    if not db:
        return config.get_main_option("sqlalchemy.url")
    return db if "://" in db else f"sqlite:///{db}"


connection = config.attributes.get("connection")
if connection is not None:
    _run(connection)
elif context.is_offline_mode():
    context.configure(url=_url(), target_metadata=metadata, literal_binds=True, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    engine = create_engine(_url(), poolclass=pool.NullPool)
    with engine.connect() as conn:
        _run(conn)
