"""``export --output FILE``: checked before the database is read, and written whole or not at all."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from ..errors import GamedbError, InputError
from ..safe_text import shown
from ..store.file_check import database_kind


def checked_output(text: str) -> Path:
    """The file ``--output`` names, refused (one line) where writing it would fail or would write over a database."""
    if not text.strip():
        raise InputError("--output is empty: give a file name, or leave --output out to write to stdout")
    path = Path(text).expanduser()
    if path.is_dir():
        raise GamedbError(f"cannot write {text}: it is a directory (give a file name in it)")
    if not path.absolute().parent.is_dir():  # (else the half file's name would be the one said)
        raise GamedbError(f"cannot write {text}: there is no folder {shown(str(path.absolute().parent))} (make it first, or give another path)")
    if path.is_file() and database_kind(path) is not None:  # (one that cannot be read: the open for writing says why)
        raise InputError(f"--output {text} is a database file: export writes CSV or JSON lines, never over a database (give another file name)")
    return path


@contextmanager
def written_whole(path: Path) -> Iterator[TextIO]:
    """``path`` opened for writing; a new or regular file is written beside it and put in its place only when the block
    ends well (an interrupted or failed export leaves no half file, and an older file as it was)."""
    try:
        whole = stat.S_ISREG(os.lstat(path).st_mode)  # (not a symbolic link, a FIFO, /dev/stdout: written as they are)
    except FileNotFoundError:
        whole = True
    if not whole:
        with open(path, "w", encoding="utf-8", newline="") as handle:
            yield handle
        return
    temp = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        with open(temp, "w", encoding="utf-8", newline="") as handle:
            yield handle
        os.replace(temp, path)
    finally:
        temp.unlink(missing_ok=True)
