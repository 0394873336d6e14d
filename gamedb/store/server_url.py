"""A database URL checked before anything is opened: a kind of database gamedb stores games in, a driver it reaches it
through, a port that is a port; each mistake said in one line, the URL shown without its password."""

from __future__ import annotations

import difflib

from ..errors import InputError

#: what a user may give as ``--db``, for a message
FORMS = (
    "give a file path (games.sqlite, or games.duckdb for DuckDB), sqlite:///PATH, duckdb:///PATH "
    "or postgresql://USER[:PASSWORD]@HOST[:PORT]/DBNAME"
)
STORES = f"SQLite or DuckDB files or a PostgreSQL server: {FORMS}"
#: the URL schemes gamedb reaches a database through (``postgresql``/``postgres``: psycopg, version 3)
SCHEMES = ("sqlite", "sqlite+pysqlite", "duckdb", "postgresql", "postgres", "postgresql+psycopg")
#: SQLAlchemy's other dialects, by the name a message gives them
OTHERS = {
    "mysql": "MySQL", "mariadb": "MariaDB", "oracle": "Oracle", "mssql": "Microsoft SQL Server", "sybase": "Sybase",
    "firebird": "Firebird", "db2": "Db2", "ibm_db_sa": "Db2", "snowflake": "Snowflake", "bigquery": "BigQuery",
    "redshift": "Amazon Redshift", "cockroachdb": "CockroachDB", "clickhouse": "ClickHouse", "trino": "Trino",
    "hana": "SAP HANA", "teradatasql": "Teradata", "access": "Microsoft Access", "mongodb": "MongoDB",
}


def hide_password(text: str) -> str:
    """A URL as it may be shown, its password (what follows ``user:`` up to the last ``@`` of its address) as ``***``;
    for a URL SQLAlchemy cannot read (SQLAlchemy hides the password of one it reads)."""
    scheme, sep, rest = text.partition("://")
    address = rest.split("?", 1)[0]
    at = address.rfind("@")
    user, colon, _password = address[:at].partition(":") if at > 0 else ("", "", "")
    if not sep or not colon or "/" in user:
        return text
    return f"{scheme}://{user}:***{rest[at:]}"


def check_url(text: str) -> None:
    """Refuse, as an :class:`~gamedb.errors.InputError`, a URL gamedb cannot store games through (``text`` has ``://``)."""
    scheme = text.split("://", 1)[0]
    lowered = scheme.lower()
    shown = hide_password(text)
    if lowered in SCHEMES:
        if lowered.startswith("postgres"):
            _check_port(text, shown)
        return
    dialect, _plus, driver = lowered.partition("+")
    if dialect in ("postgresql", "postgres"):
        raise InputError(f"{shown}: gamedb reaches PostgreSQL through psycopg (version 3), not {driver}: begin the URL with "
                         "postgresql:// (or postgresql+psycopg://)")
    if dialect == "sqlite":
        raise InputError(f"{shown}: gamedb opens SQLite files with Python's sqlite3, not {driver}: write sqlite:///PATH, "
                         "or the file's path itself")
    if dialect in OTHERS:
        raise InputError(f"{shown}: gamedb does not store games in {OTHERS[dialect]}, only in {STORES}")
    if lowered == "file":
        raise InputError(f"{shown}: give the file's path itself, or sqlite:///PATH (duckdb:///PATH for a DuckDB file)")
    near = difflib.get_close_matches(lowered, ["postgresql", "postgres", "sqlite", "duckdb"], n=1, cutoff=0.6)
    meant = f" (did you mean {'postgresql' if near[0] == 'postgres' else near[0]}://?)" if near else ""
    raise InputError(f"'{scheme}://' is no kind of database gamedb knows{meant}; it stores games only in {STORES}")


def _check_port(text: str, shown: str) -> None:
    """Refuse a server URL whose port is not a number from 1 to 65535 (SQLAlchemy's parse fails on it, or libpq takes 0
    for 5432)."""
    import sqlalchemy as sa

    try:
        port = sa.engine.make_url(text).port
    except (sa.exc.ArgumentError, ValueError):
        given = _port_text(text)
        if given is None:
            raise InputError(f"{shown} is not a database URL: {FORMS}") from None
        raise InputError(f"the port {given!r} in {shown} is not a number (HOST:5432, or leave it out for 5432)") from None
    if port is not None and not 1 <= port <= 65535:
        raise InputError(f"the port {port} in {shown} is not between 1 and 65535")


def _port_text(text: str) -> str | None:
    """The port of a server URL as written (None: none written), read as SQLAlchemy reads it."""
    address = text.split("://", 1)[1].split("?", 1)[0]
    address = address[address.rfind("@") + 1 :].split("/", 1)[0]  # host[:port]
    host_end = address.find("]") + 1 if address.startswith("[") else 0
    _host, colon, port = address[host_end:].partition(":")
    return port if colon else None
