"""A database URL checked before anything is opened: a port that is a port; each mistake said in one line, the URL shown
without its password."""

from __future__ import annotations

from ..errors import InputError

#: what a user may give as ``--db``, for a message
FORMS = (
    "give a file path (games.sqlite, or games.duckdb for DuckDB), sqlite:///PATH, duckdb:///PATH "
    "or postgresql://USER[:PASSWORD]@HOST[:PORT]/DBNAME"
)


def hide_password(text: str) -> str:
    """A URL as it may be shown, its password (what follows ``user:`` up to the last ``@`` of its address) as ``***``;
    for a URL SQLAlchemy cannot read (SQLAlchemy hides the password of one it reads)."""
    scheme, sep, rest = text.partition("://")
    address = rest.split("?", 1)[0]
    at = address.rfind("@")
    user, colon, _password = address[:at].partition(":") if at > 0 else ("", "", "")
    if not sep or not colon or "/" in user:
        return text
    return f"{scheme}://{user}:***{rest[at:]}"


def check_url(text: str) -> None:
    """Refuse, as an :class:`~gamedb.errors.InputError`, a URL gamedb cannot store games through (``text`` has ``://``)."""
    scheme = text.split("://", 1)[0]
    lowered = scheme.lower()
    shown = hide_password(text)
    if lowered.startswith("postgres"):
        _check_port(text, shown)


def _check_port(text: str, shown: str) -> None:
    """Refuse a server URL whose port is not a number from 1 to 65535 (SQLAlchemy's parse fails on it, or libpq takes 0
    for 5432)."""
    import sqlalchemy as sa

    try:
        port = sa.engine.make_url(text).port
    except (sa.exc.ArgumentError, ValueError):
        given = _port_text(text)
        if given is None:
            raise InputError(f"{shown} is not a database URL: {FORMS}") from None
        raise InputError(f"the port {given!r} in {shown} is not a number (HOST:5432, or leave it out for 5432)") from None
    if port is not None and not 1 <= port <= 65535:
        raise InputError(f"the port {port} in {shown} is not between 1 and 65535")


def _port_text(text: str) -> str | None:
    """The port of a server URL as written (None: none written), read as SQLAlchemy reads it."""
    address = text.split("://", 1)[1].split("?", 1)[0]
    address = address[address.rfind("@") + 1 :].split("/", 1)[0]  # host[:port]
    host_end = address.find("]") + 1 if address.startswith("[") else 0
    _host, colon, port = address[host_end:].partition(":")
    return port if colon else None
