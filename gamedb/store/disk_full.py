"""A full disk, told in one line that says so: where gamedb was writing, and what is left behind."""

from __future__ import annotations

import errno
import shutil
from pathlib import Path

from ..errors import GamedbError

#: what a full disk (or a full quota) sets as errno
_FULL = (errno.ENOSPC, errno.EDQUOT)
#: SQLite's extended result code for a full disk (sqlite3.Error.sqlite_errorcode & 0xff)
_SQLITE_FULL = 13


class DiskFull(GamedbError):
    """No space left on the device gamedb was writing to."""


def is_disk_full(exc: BaseException, where: Path | None = None, wanted: int = 0) -> bool:
    """Whether ``exc`` is a full disk: ENOSPC, EDQUOT, SQLITE_FULL, or a short write without errno on a disk short of ``wanted``."""
    reason = getattr(exc, "orig", None) or exc  # SQLAlchemy wraps the driver's error
    code = getattr(reason, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF == _SQLITE_FULL:
        return True
    if not isinstance(reason, OSError):
        return False
    if reason.errno in _FULL:
        return True
    return reason.errno is None and where is not None and free_bytes(where) < max(wanted, 1)


def free_bytes(path: Path) -> int:
    """Free bytes on the disk that holds ``path`` (or its nearest existing parent); a large number if unknown."""
    for candidate in (path, *path.parents):
        try:
            return shutil.disk_usage(candidate).free
        except OSError:
            continue
    return 1 << 62


def folder_bytes(path: Path) -> int:
    """Bytes in the files of a folder (not below it: a work folder is flat); 0 if it is gone."""
    try:
        return sum(entry.stat().st_size for entry in path.iterdir() if entry.is_file())
    except OSError:
        return 0


def megabytes(size: int) -> str:
    return f"{size / 1e6:,.1f} MB"
