"""What :mod:`gamedb.store.file_check` checks in a SQLite file, on a server (PostgreSQL): read from ``pg_catalog``."""

from __future__ import annotations

import sqlalchemy as sa

from ..errors import DatabaseError
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


_MAY_CREATE = sa.text(
    "SELECT current_user, current_schema(), current_setting('search_path'), "
    "current_schema() IS NOT NULL AND has_schema_privilege(current_schema(), 'CREATE')"
)


def check_may_create(conn: sa.Connection, where: str) -> None:
    """Refuse, in words that say what to do, a server database where the role may not create gamedb's tables: since
    PostgreSQL 15 only a database's owner may create in its schema public unless granted; or no schema to create in."""
    role, schema, search_path, may = conn.execute(_MAY_CREATE).one()
    role = _name(role)
    if schema is None:
        raise DatabaseError(
            f"{where}: no schema of the search_path ({search_path}) exists, so gamedb has nowhere to create its tables: "
            f"create one, or run ALTER ROLE {role} SET search_path = public"
        )
    if not may:
        raise DatabaseError(
            f"the role {role} may not create gamedb's tables in schema {_name(schema)} of {where} (since PostgreSQL 15 "
            f"only the database's owner may): as its owner run GRANT CREATE ON SCHEMA {_name(schema)} TO {role}, or "
            "use a database the role owns"
        )


def read_advice(role: str | None) -> str:
    """What a role that may not read gamedb's tables (``permission denied for table alembic_version``, the first one read)
    is told to do: they belong to the role that made them, which grants the others what they may do."""
    who = _name(role) if role else "ROLE"
    return (f" (the role {who} may not read gamedb's tables here: as their owner, the role that made them, run "
            f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {who}, or use that role)")


def _name(identifier: str) -> str:
    """An SQL identifier as it is typed in a statement (quoted unless plain lowercase)."""
    import re

    return identifier if re.fullmatch(r"[a-z_][a-z0-9_$]*", identifier) else '"' + identifier.replace('"', '""') + '"'
