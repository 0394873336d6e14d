"""A solved game in a SQLite file, opened for reading with the standard library only.

The light paths of the console script read through this: ``gamedb query``
(:mod:`gamedb.cli.quick`) to answer, and a small solve into a new file
(:mod:`gamedb.cli.quick_solve`) to report the start's value, both through the
same code that builds every answer (:mod:`gamedb.query`, :mod:`gamedb.answers`).
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from ..store.location import locate

if TYPE_CHECKING:
    from ..games.base import Game
    from ..store.record import GameRecord
    from ..store.rows import Reader

    #: what a light path needs to answer: the open file, its reader, the game's row and rules
    Prepared = tuple[sqlite3.Connection, Reader, GameRecord, Game]


def open_solved(db: str, name: str) -> Prepared | None:
    """(connection, reader, record, rules) of the solved game ``name`` (or of the one game of the family ``name``:
    ``record.name`` says which) in the SQLite file ``db``, opened read-only;
    None when only the full path can read it: a server URL, no such file, an older or newer schema, no such
    game, an unsolved one, a plugin's family or a ``module:Class`` the file names."""
    location = locate(db)
    path = location.path
    if not location.is_file or path is None or not path.is_file():
        return None
    from ..games import BUILTIN
    from ..store.file_check import check_file, check_schema, read_budget
    from ..store.record import record_from_mapping
    from ..store.rows import Reader
    from ..store.sqlite_file import check_sqlite_version, newest_revision, readonly_uri

    check_sqlite_version()
    head = newest_revision()
    if head is None:
        return None
    check_file(path, db)  # a stray -wal beside it: refused (the full path says so)
    conn = sqlite3.connect(readonly_uri(path), uri=True, timeout=30)
    try:
        revision = check_schema(conn, db, budget=read_budget())  # only gamedb's objects, before any row is read
        reader = Reader(conn)
        current = revision == head
        row = reader.game_row(name) if current else None
        if row is None and current:  # a family's name: its one game
            same_family = reader.names_of_family(name)
            row = reader.game_row(same_family[0]) if len(same_family) == 1 else None
        record = record_from_mapping(row) if row is not None else None  # checked: a damaged row raises
        if record is None or not record.solved or record.family not in BUILTIN:
            conn.close()  # a plugin's game, or a module:Class the file names: the full path decides
            return None
        return conn, reader, record, record.rules()  # the one loader of stored families (gamedb.games.stored_family)
    except BaseException:
        conn.close()
        raise
