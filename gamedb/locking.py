"""One solver per game at a time, with locks the operating system releases.

A solve holds an exclusive lock for its game until it ends: on SQLite an
``flock`` on a small lock file beside the database (``NAME.sqlite.lock``), on
PostgreSQL a session advisory lock. Both vanish with the process, so a killed
solve never leaves a stale lock behind, and the next ``gamedb solve`` of the
same game simply resumes.
"""

from __future__ import annotations

import hashlib
import os
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa

from .errors import GamedbError


class SolveInProgress(GamedbError):
    """Another process is solving the same game right now."""


def _key(name: str) -> int:
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


@contextmanager
def solve_lock(engine: sa.Engine, name: str):
    """Hold the solve lock of game ``name``; raise :class:`SolveInProgress` if taken."""
    busy = SolveInProgress(f"game {name!r} is being solved by another process right now; wait for it to finish")
    if engine.dialect.name == "sqlite":
        import fcntl

        db_path = engine.url.database
        if not db_path or db_path == ":memory:":
            yield
            return
        lock_path = Path(db_path).with_name(Path(db_path).name + ".lock")
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise GamedbError(f"cannot solve into {db_path}: {exc.strerror} creating {lock_path}") from None
        try:
            # one byte range per game name, so solves of different games do not block each other
            offset = _key(name) & 0x7FFFFFFF
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, offset)
            except OSError:
                raise busy from None
            try:
                yield
            finally:
                fcntl.lockf(fd, fcntl.LOCK_UN, 1, offset)
        finally:
            os.close(fd)
    elif engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            got = conn.execute(sa.text("SELECT pg_try_advisory_lock(:k)"), {"k": _key(name)}).scalar()
            conn.commit()
            if not got:
                raise busy
            try:
                yield
            finally:
                conn.execute(sa.text("SELECT pg_advisory_unlock(:k)"), {"k": _key(name)})
                conn.commit()
    else:
        yield
