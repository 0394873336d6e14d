"""Where a database is: the ``--db`` text (or the API's argument) read once into one value."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

#: the database a command uses when neither ``--db`` nor ``GAMEDB_DB`` names one
DEFAULT_PATH = "gamedb.sqlite"
#: what the engines keep beside a database file NAME, as NAME + each: SQLite's write-ahead log, its index and its rollback
#: journal; DuckDB's write-ahead log
COMPANIONS = ("-wal", "-shm", "-journal", ".wal")


@dataclass(frozen=True)
class Location:
    """A database as given: a SQLite file path (``kind == "file"``), a DuckDB file (``"duckdb"``) or a SQLAlchemy URL (``"url"``)."""

    #: the text as the user gave it
    text: str
    #: "file": a plain path to a SQLite file; "duckdb": a DuckDB file (path or URL); "url": any other SQLAlchemy URL
    kind: str
    #: the SQLAlchemy URL that reaches it (a file's absolute path as ``sqlite:///...``; ``postgresql://`` means psycopg)
    url: str
    #: the SQLite or DuckDB file, absolute (a plain path, or the file a ``sqlite:///``/``duckdb:///`` URL names); None for a server
    path: Path | None

    @property
    def is_file(self) -> bool:
        """A plain path to a SQLite file: read through ``sqlite3``, opened read-only for reads."""
        return self.kind == "file"

    @property
    def is_sqlite(self) -> bool:
        """SQLite, as a plain path or as a ``sqlite`` URL."""
        return self.url.startswith("sqlite")

    @property
    def is_duckdb(self) -> bool:
        """A DuckDB file: read through ``duckdb`` itself, opened read-only for reads (:mod:`gamedb.store.duckdb_file`)."""
        return self.kind == "duckdb"

    @property
    def shown(self) -> str:
        """The database as it may be shown to a user: the path as given, or the URL with its password hidden."""
        if self.path is not None:
            return self.text
        import sqlalchemy as sa  # (a server is reached through SQLAlchemy anyway)

        try:
            return sa.engine.make_url(self.text).render_as_string(hide_password=True)
        except (sa.exc.ArgumentError, ValueError):
            from .server_url import hide_password

            return hide_password(self.text)


def locate(db: str | os.PathLike[str] | Location = DEFAULT_PATH) -> Location:
    """The :class:`Location` of a path or URL given by a user (a Location is returned as it is)."""
    if isinstance(db, Location):
        return db
    text = os.fspath(db)
    if not text.strip():
        from ..errors import InputError

        raise InputError("the database is given as an empty path: give a file path (games.sqlite, games.duckdb) or a URL")
    duck = text.removeprefix("duckdb:///").split("?", 1)[0] if text.startswith("duckdb:///") else text if text.lower().endswith(".duckdb") else ""
    if "://" not in duck and duck not in ("", ":memory:"):  # a DuckDB file, as a path or a URL
        path = Path(duck).expanduser().absolute()
        return Location(text, "duckdb", f"duckdb:///{path}", path)
    if "://" not in text:
        path = Path(text).expanduser().absolute()
        return Location(text, "file", f"sqlite:///{path}", path)
    from .server_url import check_url

    check_url(text)  # a kind of database, a driver and a port gamedb can use, or one line that says why not
    scheme, rest = text.split("://", 1)
    scheme = scheme.lower()  # (SQLAlchemy finds its dialects by lowercase name)
    url = f"postgresql+psycopg://{rest}" if scheme in ("postgresql", "postgres") else f"{scheme}://{rest}"
    named = None
    if url.startswith(("sqlite", "duckdb")) and "///" in url:
        head, tail = url.split("///", 1)
        file, mark, query = tail.partition("?")
        named = Path(file)
        if file and file != ":memory:" and not file.startswith("file:"):  # a file, as a plain path: ~ expanded, made absolute
            named = Path(file).expanduser().absolute()
            url = f"{head}///{named}{mark}{query}"
    return Location(text, "url", url, named)


def upgrade_command(where: str | os.PathLike[str]) -> str:
    """The command that upgrades the database ``where`` (as the user named it): `gamedb db upgrade` alone upgrades the
    default file, ./gamedb.sqlite."""
    import shlex

    return f"gamedb --db {shlex.quote(os.fspath(where))} db upgrade"


def upgrade_advice(where: str | os.PathLike[str]) -> str:
    """``run `gamedb --db ... db upgrade` `` for a message; a server URL is shown without its password: said where it goes."""
    hidden = " with the password in place of ***" if ":***@" in os.fspath(where) else ""
    return f"run `{upgrade_command(where)}`{hidden}"


def remove_file(path: Path) -> None:
    """A database file removed, and the :data:`COMPANIONS` beside it (those there)."""
    for leftover in (path, *(path.with_name(path.name + end) for end in COMPANIONS)):
        leftover.unlink(missing_ok=True)
