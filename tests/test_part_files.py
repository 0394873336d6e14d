"""A cluster worker's SQLite part file loaded by the writer (gamedb/store/part_files.py)."""

import sqlite3

import numpy as np
import pytest
import sqlalchemy as sa

from gamedb.store.part_files import part_loaded, write_part


class _InterruptedCommit(sqlite3.Connection):
    """A connection whose next commit is where a Ctrl-C lands (as in `solve --workers 2` into SQLite, mid-write)."""

    interrupt = False

    def commit(self) -> None:
        if _InterruptedCommit.interrupt:
            _InterruptedCommit.interrupt = False
            raise KeyboardInterrupt
        super().commit()


def test_a_ctrl_c_in_the_commit_of_a_part_is_the_interrupt(tmp_path):
    """SQLAlchemy closes a connection whose commit a KeyboardInterrupt ended: the part's cleanup then raised
    'Cannot operate on a closed database' in its place (the command said 'Error: database error: ...', exit 1, not
    'Interrupted. ...', exit 130)."""
    part = tmp_path / "rows.sqlite"
    write_part(part, {"code": np.array([1, 2, 3]), "result": np.array([1, 2, 1])})
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'db.sqlite'}", connect_args={"factory": _InterruptedCommit})
    with engine.connect() as conn:
        conn.exec_driver_sql("CREATE TABLE position (game_id INTEGER, code INTEGER, result INTEGER)")
        conn.commit()
        with pytest.raises(KeyboardInterrupt), part_loaded(conn, "position", part, 7) as rows:
            assert rows == 3
            _InterruptedCommit.interrupt = True
            conn.commit()
        assert conn.invalidated
    with engine.connect() as conn:  # nothing of the part committed, and the next load works
        assert conn.exec_driver_sql("SELECT count(*) FROM position").scalar() == 0
        with part_loaded(conn, "position", part, 7) as rows:
            conn.commit()
        assert conn.exec_driver_sql("SELECT game_id, code, result FROM position ORDER BY code").all() == [(7, 1, 1), (7, 2, 2), (7, 3, 1)]
    engine.dispose()
