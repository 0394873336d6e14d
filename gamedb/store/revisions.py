"""The newest schema revision, read from the migration files without importing Alembic."""

from __future__ import annotations

import re
from pathlib import Path

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
