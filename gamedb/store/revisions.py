"""The newest schema revision, read from the migration files without importing Alembic.

Opening a database checks its revision against the newest one. Alembic's
``ScriptDirectory`` finds it too, but importing Alembic costs a query
process about 80 ms, so the revision ids are read from the files'
``revision = ...`` / ``down_revision = ...`` lines; anything unusual
returns None and the caller asks Alembic (a test checks that both agree).
"""

from __future__ import annotations

import re
from pathlib import Path

#: older schema revisions whose files differ from the newest revision's in their views only (the tables and
#: indexes every read goes through are the same): such a file still answers every read -- query, stats,
#: verify, export, list, serve -- without an upgrade; writing to it (solve, compact, db index) asks for
#: `gamedb db upgrade` first. 0005 changed only the positions view. A revision that changes a table or an
#: index empties this (tests/test_first_hour.py compares the tables and indexes of such a file with the newest).
READABLE_OLDER = frozenset({"0004"})


def readable(found: str | None, head: str | None) -> bool:
    """Whether a file at schema revision ``found`` answers reads with the code of revision ``head``."""
    return found is not None and (found == head or found in READABLE_OLDER)


_REVISION = re.compile(r"^revision(?:\s*:\s*[\w\[\], |]+)?\s*=\s*['\"]([^'\"]+)['\"]\s*$", re.MULTILINE)
_DOWN = re.compile(r"^down_revision(?:\s*:\s*[\w\[\], |]+)?\s*=\s*(None|['\"]([^'\"]+)['\"])\s*$", re.MULTILINE)


def head_from_files(directory: str | Path) -> str | None:
    """The single head of the revision files in ``directory/versions``, or None if unsure."""
    revisions, parents = set(), set()
    try:
        files = sorted(Path(directory, "versions").glob("*.py"))
        for path in files:
            if path.name == "__init__.py":
                continue
            text = path.read_text(encoding="utf-8")
            rev, down = _REVISION.findall(text), _DOWN.findall(text)
            if len(rev) != 1 or len(down) != 1:
                return None
            revisions.add(rev[0])
            if down[0][0] != "None":
                parents.add(down[0][1])
    except OSError:
        return None
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 and parents <= revisions else None
