"""SQLite settings for the duration of a solve, and memory sizes."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..safe_text import shown

if TYPE_CHECKING:  # (a solve into a new file asks default_memory_limit without SQLAlchemy)
    import sqlalchemy as sa

#: the page cache a solve uses at most (SQLite's default is 2 MiB)
MAX_CACHE = 256 << 20

#: the largest --memory-limit taken (1 PiB): beyond it a number is a typo, not a machine
MAX_MEMORY_LIMIT = 1 << 50

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$", re.IGNORECASE)


def parse_size(text: str | int) -> int:
    """Bytes from ``2G``, ``512M``, ``300k``, ``1.5GiB`` or a plain number of bytes (more than 0)."""
    if isinstance(text, bool) or not isinstance(text, (int, str)):
        raise InputError(f"--memory-limit must be a size such as 2G, 512M or 300000000, got {text!r}")
    if isinstance(text, int):
        size = text
    else:
        match = _SIZE.match(text)
        if not match:
            raise InputError(f"--memory-limit must be a size such as 2G, 512M or 300000000, got {shown(text)}")
        from fractions import Fraction  # exact: a number of 400 digits is not a float overflow

        number, unit = Fraction(match.group(1)), match.group(2).lower()
        size = int(number * {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}[unit])
    if size <= 0:
        raise InputError(f"--memory-limit must be more than 0 bytes, got {shown(text)}")
    if size > MAX_MEMORY_LIMIT:
        raise InputError(f"--memory-limit must be at most {human_size(MAX_MEMORY_LIMIT)}, got {shown(text)}")
    return size


def human_size(n: float) -> str:
    """``512 B``, ``1.5 kB``, ``120 MB``, ``2.3 GB`` (powers of 1000)."""
    for unit in ("B", "kB", "MB", "GB", "TB", "PB"):
        if n < 1000 or unit == "PB":
            return f"{n:,.0f} {unit}" if unit == "B" or n >= 100 else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n} B"  # not reached


def default_memory_limit() -> int:
    """Half of the memory available now (Linux), else 2 GiB."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024 // 2
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2
    except (ValueError, OSError, AttributeError):
        return 2 << 30


#: the sort and hash memory a solve asks of PostgreSQL at most (the server's default is 4 MB)
MAX_WORK_MEM = 128 << 20


@contextmanager
def solve_settings(engine: sa.Engine, memory_limit: int | None = None, tag: str | None = None) -> Iterator[None]:
    """Settings for every connection of a solve, sized to ``memory_limit``."""
    import sqlalchemy as sa

    limit = memory_limit if memory_limit is not None else default_memory_limit()
    if engine.dialect.name == "postgresql":
        settings = [f"SET work_mem = '{max(4 << 10, min(MAX_WORK_MEM, limit // 16) >> 10)}kB'"]
        if tag is not None:
            settings.append(f"SET application_name = '{tag}'")  # made of hex digits, a pid and spaces
        with _on_checkout(engine, settings):
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
    from sqlalchemy import event

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
