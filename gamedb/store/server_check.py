"""What :mod:`gamedb.store.file_check` checks in a SQLite file, on a server (PostgreSQL): read from ``pg_catalog``."""

from __future__ import annotations

import sqlalchemy as sa

from ..safe_text import shown
from .file_check import head_objects, refuse

#: pg_class.relkind -> what it is called in a message
_KINDS = {"r": "table", "p": "table", "v": "view", "m": "materialized view", "i": "index", "I": "index",
          "S": "sequence", "f": "foreign table", "c": "composite type", "t": "TOAST table"}
#: what gamedb creates -> the relkinds that are it
_WANT = {"table": ("r", "p"), "view": ("v",), "index": ("i",)}

_RELATIONS = sa.text(
    "SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
    "WHERE n.nspname = current_schema() AND c.relname = ANY(:names)"
)
_ATTACHED = sa.text(
    "SELECT 'trigger', t.tgname, c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
    "JOIN pg_namespace n ON n.oid = c.relnamespace "
    "WHERE NOT t.tgisinternal AND n.nspname = current_schema() AND c.relname = ANY(:names) "
    "UNION ALL "
    "SELECT 'rule', r.rulename, c.relname FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class "
    "JOIN pg_namespace n ON n.oid = c.relnamespace "
    "WHERE r.rulename <> '_RETURN' AND n.nspname = current_schema() AND c.relname = ANY(:names) "
    "UNION ALL "
    "SELECT 'row-level security policy', p.polname, c.relname FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid "
    "JOIN pg_namespace n ON n.oid = c.relnamespace "
    "WHERE n.nspname = current_schema() AND c.relname = ANY(:names) "
    "ORDER BY 1, 2"
)


def check_server_schema(conn: sa.Connection, where: str) -> None:
    """Refuse a server database whose gamedb relations have triggers, rules or policies, or are of the wrong kind."""
    wanted = {name: kind for kind, name in head_objects() if not name.startswith("sqlite_")}
    names = sorted(wanted)
    problems = []
    for name, relkind in conn.execute(_RELATIONS, {"names": names}):
        if relkind not in _WANT[wanted[name]]:
            problems.append(f"it has a {_KINDS.get(relkind, 'relation')} {shown(name)} where gamedb creates a {wanted[name]}")
    for kind, name, table in conn.execute(_ATTACHED, {"names": names}):
        problems.append(f"it has a {kind} {shown(name)} on {shown(table)}, which gamedb never creates")
    if problems:
        raise refuse(where, problems)
