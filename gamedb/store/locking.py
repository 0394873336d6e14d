"""What a solve holds on a database: its lock (one solver per game, released by the operating system), its connection
settings, and the finish that leaves the file ready to read."""

from __future__ import annotations

import errno
import hashlib
import os
import secrets
import struct
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event

from ..errors import GamedbError
from ..sizes import default_memory_limit
from .sqlite_file import ANALYSIS_LIMIT, file_of, journal_is_wal


class SolveInProgress(GamedbError):
    """Another process is solving the same game right now."""


#: first byte of the game locks in the database file: past SQLite's own lock bytes
#: (1 GiB .. 1 GiB + 512) and past any file SQLite will write before it
LOCK_BASE = 1 << 40
#: bytes of the lock range (one per game name hash)
LOCK_SPAN = 1 << 31


def _key(name: str) -> int:
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


def _offset(name: str) -> int:
    return _key(name) & (LOCK_SPAN - 1)


def _db_path(engine: sa.Engine) -> str | None:
    db_path = engine.url.database
    return None if not db_path or db_path == ":memory:" else db_path


def _ofd_supported() -> bool:
    import fcntl

    return hasattr(fcntl, "F_OFD_SETLK")


def _flock(kind: int, start: int, length: int) -> bytes:
    # struct flock: short l_type, short l_whence, off_t l_start, off_t l_len, pid_t l_pid (0 for OFD locks)
    return struct.pack("hhqqi4x", kind, os.SEEK_SET, start, length, 0)


#: this process's part of the solve tags: the pid alone could be reused by a later process
_PROCESS = f"{os.getpid()}.{secrets.token_hex(3)}"


def solve_tag(name: str, *, mine: bool = True) -> str:
    """The ``application_name`` of this process's connections solving game ``name`` (``mine=False``: of any process)."""
    game = f"gamedb solve {_key(name) & (2**48 - 1):012x} "
    return game + _PROCESS if mine else game


#: how long the lock waits for terminated backends of a killed solve to go
ORPHAN_WAIT = 30.0


def _end_orphans(conn: sa.Connection, name: str) -> None:
    """Terminate the backends of a killed solve of game ``name`` and wait (briefly) until they are gone."""
    find = sa.text(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() "
        "AND application_name LIKE :game AND application_name <> :mine"
    )
    tags = {"game": solve_tag(name, mine=False) + "%", "mine": solve_tag(name)}
    orphans = conn.execute(find, tags).scalars().all()
    conn.commit()
    if not orphans:
        return
    for pid in orphans:
        try:
            conn.execute(sa.text("SELECT pg_terminate_backend(:p)"), {"p": pid})
            conn.commit()
        except sa.exc.DBAPIError:  # not ours to signal
            conn.rollback()
    deadline = time.monotonic() + ORPHAN_WAIT
    while conn.execute(find, tags).first() is not None and time.monotonic() < deadline:
        conn.commit()
        time.sleep(0.1)
    conn.commit()


@contextmanager
def solve_lock(engine: sa.Engine, name: str, verb: str = "solve") -> Iterator[None]:
    """Hold the solve lock of game ``name`` for ``verb`` (``solve``, ``compact``, ``copy``); raise :class:`SolveInProgress` if taken."""
    busy = SolveInProgress(f"game {name!r} is being solved by another process right now; wait for it to finish")
    if engine.dialect.name == "sqlite":
        db_path = _db_path(engine)
        if db_path is None:
            yield
            return
        lock = _ofd_lock if _ofd_supported() else _file_lock
        with lock(db_path, _offset(name), busy, f"{verb} {name}"):
            yield
    elif engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            got = conn.execute(sa.text("SELECT pg_try_advisory_lock(:k)"), {"k": _key(name)}).scalar()
            conn.commit()
            if not got:
                raise busy
            try:
                _end_orphans(conn, name)
                yield
            finally:
                conn.execute(sa.text("SELECT pg_advisory_unlock(:k)"), {"k": _key(name)})
                conn.commit()
    else:
        yield


def cannot_write(doing: str, db_path: str, exc: OSError, lock_path: Path | None = None) -> GamedbError:
    """One line: ``doing`` (``compact tictactoe``) cannot be done because the file (or its folder) cannot be written."""
    where = f"the folder of {db_path}" if lock_path is not None else db_path
    creating = f" creating {lock_path}" if lock_path is not None else ""
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return GamedbError(f"cannot {doing}: {where} is read-only here ({exc.strerror}{creating})")
    return GamedbError(f"cannot {doing}: {exc.strerror}{creating}: {db_path}")


@contextmanager
def _ofd_lock(db_path: str, offset: int, busy: SolveInProgress, doing: str) -> Iterator[None]:
    """A write lock on byte ``LOCK_BASE + offset`` of the database file, for as long as the block runs."""
    import fcntl

    try:
        fd = os.open(db_path, os.O_RDWR | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise cannot_write(doing, db_path, exc) from None
    try:
        try:
            fcntl.fcntl(fd, fcntl.F_OFD_SETLK, _flock(fcntl.F_WRLCK, LOCK_BASE + offset, 1))
        except OSError:
            raise busy from None
        yield  # closing the descriptor releases the lock
    finally:
        os.close(fd)


@contextmanager
def _file_lock(db_path: str, offset: int, busy: SolveInProgress, doing: str) -> Iterator[None]:
    """The same lock on byte ``offset`` of ``NAME.lock`` beside the database; the file goes when no lock is left in it."""
    import fcntl

    lock_path = Path(db_path).with_name(Path(db_path).name + ".lock")
    while True:
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise cannot_write(doing, db_path, exc, lock_path) from None
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, offset)
        except OSError:
            os.close(fd)
            raise busy from None
        try:
            current = os.stat(lock_path).st_ino
        except FileNotFoundError:
            current = None
        if current == os.fstat(fd).st_ino:
            break
        os.close(fd)  # removed by a finishing solve in the meantime: lock the new file
    try:
        yield
    finally:
        try:
            # no lock of any other solve left in the file: remove it (while holding all of it)
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 0, 0)
        except OSError:
            pass
        else:
            try:
                os.unlink(lock_path)
            except OSError:
                pass
        os.close(fd)


def others_solving(engine: sa.Engine, name: str) -> bool:
    """Whether another solve (of a game other than ``name``) holds a lock on this SQLite file right now."""
    path = _db_path(engine)
    if engine.dialect.name != "sqlite" or path is None or not _ofd_supported():
        return False
    import fcntl

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return False
    try:
        mine = _offset(name)
        for start, end in ((0, mine), (mine + 1, LOCK_SPAN)):
            if start < end:
                found = fcntl.fcntl(fd, fcntl.F_OFD_GETLK, _flock(fcntl.F_WRLCK, LOCK_BASE + start, end - start))
                if struct.unpack("hhqqi4x", found)[0] != fcntl.F_UNLCK:
                    return True
        return False
    except OSError:
        return False
    finally:
        os.close(fd)


@contextmanager
def solving(engine: sa.Engine, name: str, memory_limit: int) -> Iterator[None]:
    """The solve lock of game ``name`` held, and the connections tuned for a solve within ``memory_limit``."""
    with solve_lock(engine, name), solve_settings(engine, memory_limit, solve_tag(name)):
        yield


def finish(engine: sa.Engine, name: str, *, if_unfinished: bool = False) -> None:
    """Finish the file after a solve of ``name``, not waiting for other connections while another game is being solved
    into it (that solve finishes it); ``if_unfinished``: only a file a killed solve left unfinished, where it can be written."""
    if if_unfinished and not file_unfinished(engine):
        return
    try:
        if others_solving(engine, name):
            finish_file(engine, wait=0.0)
        else:
            finish_file(engine)
    except sa.exc.OperationalError:
        if not if_unfinished:
            raise


#: the page cache a solve uses at most (SQLite's default is 2 MiB)
MAX_CACHE = 256 << 20

#: the sort and hash memory a solve asks of PostgreSQL at most (the server's default is 4 MB)
MAX_WORK_MEM = 128 << 20


@contextmanager
def solve_settings(engine: sa.Engine, memory_limit: int | None = None, tag: str | None = None) -> Iterator[None]:
    """Settings for every connection of a solve, sized to ``memory_limit``."""
    limit = memory_limit if memory_limit is not None else default_memory_limit()
    if engine.dialect.name == "postgresql":
        settings = [f"SET work_mem = '{max(4 << 10, min(MAX_WORK_MEM, limit // 16) >> 10)}kB'"]
        if tag is not None:
            settings.append(f"SET application_name = '{tag}'")  # made of hex digits, a pid and spaces
        with _on_checkout(engine, settings):
            yield
        return
    if engine.dialect.name == "duckdb":  # (the rest of the limit: the solver's own arrays)
        from .duckdb_file import limited

        with limited(engine, limit // 2):
            yield
        return
    if engine.dialect.name != "sqlite":
        yield
        return
    cache = max(8 << 20, min(MAX_CACHE, limit // 8))
    # temporary b-trees (the sorts of a large level) spill to files rather than grow without bound
    temp_store = "FILE"

    with engine.connect() as conn:
        before = conn.exec_driver_sql("PRAGMA journal_mode").scalar()
        try:
            conn.exec_driver_sql("PRAGMA journal_mode = WAL")
        except sa.exc.OperationalError:  # another process holds the file; the rollback journal works too
            pass
    try:
        with _on_checkout(engine, ["PRAGMA synchronous = NORMAL", f"PRAGMA cache_size = -{cache // 1024}", f"PRAGMA temp_store = {temp_store}"]):
            yield
    finally:
        if before and before.lower() != "wal":  # nothing solved (or a failure): leave the file as it was
            with engine.connect() as conn:
                try:
                    conn.exec_driver_sql(f"PRAGMA journal_mode = {before}")
                except sa.exc.OperationalError:  # another process has it open: it stays in WAL mode, still correct
                    pass
            engine.dispose()


@contextmanager
def _on_checkout(engine: sa.Engine, statements: list[str]) -> Iterator[None]:
    """Run ``statements`` on every connection the engine hands out meanwhile; afterwards the pool is emptied."""

    def tune(dbapi_conn: Any, _record: Any, _proxy: Any = None) -> None:
        cur = dbapi_conn.cursor()
        for statement in statements:
            cur.execute(statement)
        cur.close()
        dbapi_conn.commit()  # PostgreSQL's SET is transactional: keep it past the caller's first rollback

    event.listen(engine, "checkout", tune)
    try:
        yield
    finally:
        event.remove(engine, "checkout", tune)
        engine.dispose()


def file_unfinished(engine: sa.Engine) -> bool:
    """Whether a SQLite file was left unfinished by a killed solve (WAL mode, or no planner statistics); servers: False."""
    path = file_of(engine)
    if path is None:
        return False
    if journal_is_wal(path):
        return True
    with engine.connect() as conn:
        return conn.exec_driver_sql("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").first() is None


def finish_file(engine: sa.Engine, *, wait: float = 5.0) -> None:
    """Leave the database ready to be read or handed on."""
    if engine.dialect.name != "sqlite":
        with engine.begin() as conn:
            conn.exec_driver_sql("ANALYZE")
        return
    path = file_of(engine)
    if path is not None:
        engine.dispose()  # an idle pooled connection would block leaving WAL mode
    with engine.connect() as conn:
        # statistics from a sample of each index: a full ANALYZE reads every row of every index, minutes
        # for a game of 10^8 positions (docs/performance.md); the planner needs only their shape
        conn.exec_driver_sql(f"PRAGMA analysis_limit = {ANALYSIS_LIMIT}")
        conn.exec_driver_sql("ANALYZE")
        conn.commit()
        if path is None:
            return
        deadline = time.monotonic() + wait
        pause = 0.05
        conn.exec_driver_sql("PRAGMA busy_timeout = 1000")
        try:
            while True:
                try:
                    conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
                    mode = conn.exec_driver_sql("PRAGMA journal_mode = DELETE").scalar()
                except sa.exc.OperationalError:  # another process has the file open
                    mode = None
                conn.commit()
                if (mode or "").lower() == "delete" or time.monotonic() + pause > deadline:
                    break
                time.sleep(pause)
                pause = min(pause * 2, 0.5)
        finally:
            conn.exec_driver_sql("PRAGMA busy_timeout = 30000")
        conn.commit()
