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
    quote = conn.dialect.identifier_preparer.quote  # (quoted only where the server needs it)
    role = quote(role)
    if schema is None:
        raise DatabaseError(
            f"{where}: no schema of the search_path ({search_path}) exists, so gamedb has nowhere to create its tables: "
            f"create one, or run ALTER ROLE {role} SET search_path = public"
        )
    if not may:
        raise DatabaseError(
            f"the role {role} may not create gamedb's tables in schema {quote(schema)} of {where} (since PostgreSQL 15 "
            f"only the database's owner may): as its owner run GRANT CREATE ON SCHEMA {quote(schema)} TO {role}, or "
            "use a database the role owns"
        )


#: gamedb's tables and the sequences of their ids in the current schema, and what the role may do with each: read
#: (SELECT), write (a table: INSERT, UPDATE, DELETE; a sequence: USAGE, for a new row's id)
_PRIVILEGES = sa.text(
    "SELECT current_user, current_schema(), c.relname, c.relkind = 'S', "
    "c.relkind = 'S' OR has_table_privilege(c.oid, 'SELECT'), "
    "CASE WHEN c.relkind = 'S' THEN has_sequence_privilege(c.oid, 'USAGE') "
    "ELSE has_table_privilege(c.oid, 'INSERT') AND has_table_privilege(c.oid, 'UPDATE') AND has_table_privilege(c.oid, 'DELETE') END "
    "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
    "WHERE n.nspname = current_schema() AND ("
    "(c.relkind IN ('r', 'p') AND c.relname = ANY(:names)) OR (c.relkind = 'S' AND EXISTS ("
    "SELECT 1 FROM pg_depend d JOIN pg_class t ON t.oid = d.refobjid WHERE d.objid = c.oid AND d.deptype IN ('a', 'i') "
    "AND t.relnamespace = n.oid AND t.relname = ANY(:names)))) "
    "ORDER BY c.relkind = 'S', c.relname"
)


def check_privileges(conn: sa.Connection, where: str, *, write: bool) -> None:
    """Refuse, in words that say what to grant, a server database whose gamedb tables the role may not read (a table
    without SELECT was 'permission denied for table X' alone), or when ``write`` not write (nor take ids from their
    sequences)."""
    tables = sorted(name for kind, name in head_objects() if kind == "table" and not name.startswith("sqlite_"))
    rows = conn.execute(_PRIVILEGES, {"names": tables}).all()
    if not rows:
        return
    quote = conn.dialect.identifier_preparer.quote
    role, schema = quote(rows[0][0]), quote(rows[0][1])
    unread = [f"table {shown(name)}" for _, _, name, sequence, may_read, _ in rows if not sequence and not may_read]
    unwritten = [  # (alembic_version: written by `gamedb db upgrade` alone, which needs the tables' owner anyway)
        f"{'sequence' if sequence else 'table'} {shown(name)}" for _, _, name, sequence, _, may_write in rows
        if write and not may_write and name != "alembic_version"
    ]
    if not unread and not unwritten:
        return
    grants = [f"GRANT {'SELECT, INSERT, UPDATE, DELETE' if write else 'SELECT'} ON ALL TABLES IN SCHEMA {schema} TO {role}"]
    if write:
        grants.append(f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA {schema} TO {role}")
    missing = unread or unwritten
    more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
    raise DatabaseError(
        f"cannot {'read' if unread else 'write'} gamedb's {missing[0]}{more} in {where} (permission denied): as their owner, "
        f"{'; '.join(grants)}"
    )

