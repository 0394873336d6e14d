"""How ``gamedb serve`` meets many connections at once, slow clients ("slowloris") among them.

At the open-file limit a server accepts no one and logs each failed accept with a traceback. So the limit is raised,
at most ``max_connections`` are open (a new one closes the one waiting longest for headers, or gets 503 when all are
busy), headers must come within ``header_timeout`` seconds, and what was closed is logged once a minute at most.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from typing import Any

#: the listening socket's backlog, also how many connections asyncio accepts in one pass before closed ones free theirs
ACCEPT_BURST = 128
#: open files kept free beyond the connections: a burst of accepts, the database's (with journal or WAL), static files
#: being sent, the event loop's own; running out makes asyncio (3.11) retry and log every pending accept
RESERVED_FILES = ACCEPT_BURST + 128
#: at most this many connections by default (fewer when the open-file limit is lower and cannot be raised)
MAX_CONNECTIONS = 4096
#: seconds a connection has to send a request's headers
HEADER_TIMEOUT = 10.0
#: at most one line a minute says how many connections were closed or refused
REPORT_EVERY = 60.0

_SERVICE_UNAVAILABLE = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\ncontent-length: 21\r\n\r\ntoo many connections\n"
)
_WHY = {
    "late": "sent no request headers within {timeout:g} s",
    "evicted": "waited longest for headers when the limit of {limit:,} connections was reached",
    "refused": "came beyond the limit of {limit:,} connections, all busy",
    "accept": "could not be accepted: no file descriptor left",
    "invalid": "sent something other than an HTTP request (answered 400)",
}
#: what uvicorn logs, one line per connection, for a request that is not HTTP: counted instead
_INVALID_REQUEST = "Invalid HTTP request received."


def raise_open_file_limit(wanted: int) -> int:
    """Raise this process's soft limit of open files to ``wanted`` (at most the hard limit, where the system allows);
    the soft limit now (``wanted`` on Windows, which has no such limit)."""
    try:
        import resource
    except ImportError:
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
    return wanted if soft == resource.RLIM_INFINITY else soft


class ConnectionGuard:
    """The open connections of one server, those waiting for a request's headers (oldest first), and
    a count of the connections closed or refused, reported through ``logger`` once a minute at most."""

    def __init__(self, max_connections: int, header_timeout: float, logger: logging.Logger | None = None):
        if max_connections < 1 or header_timeout <= 0:
            raise ValueError("max_connections and header_timeout must be positive")
        self.max_connections, self.header_timeout = max_connections, header_timeout
        self.logger = logger or logging.getLogger("uvicorn.error")
        self.open: set[Any] = set()
        self.waiting: dict[Any, None] = {}  # insertion order: the oldest wait first
        self.closed: Counter[str] = Counter()  # since the last report
        self._reported = float("-inf")

    @classmethod
    def for_this_process(cls, max_connections: int = MAX_CONNECTIONS, header_timeout: float = HEADER_TIMEOUT) -> ConnectionGuard:
        """A guard whose limit fits the open files this process may have (the soft limit raised first)."""
        files = raise_open_file_limit(max_connections + RESERVED_FILES)
        return cls(max(1, min(max_connections, files - RESERVED_FILES)), header_timeout)

    def admit(self, conn: Any) -> bool:
        """Count a new connection in; False if it must be refused (every other one is busy with a request)."""
        self.open.add(conn)
        if len(self.open) <= self.max_connections:
            return True
        oldest = next(iter(self.waiting), None)
        if oldest is None:
            self.forget(conn)
            self.note("refused")
            return False
        self.forget(oldest)
        oldest.close_waiting()
        self.note("evicted")
        return True

    def forget(self, conn: Any) -> None:
        self.open.discard(conn)
        self.waiting.pop(conn, None)

    def note(self, why: str) -> None:
        """Count a connection closed or refused for ``why`` (a key of :data:`_WHY`); report them once a minute at most."""
        self.closed[why] += 1
        if time.monotonic() - self._reported >= REPORT_EVERY:
            self.report("the next count in a minute at most")

    def report(self, when: str) -> None:
        """Log one line counting the connections closed or refused since the last line (if any were)."""
        if not self.closed:
            return
        self._reported = time.monotonic()
        parts = [f"{n:,} {_WHY[k].format(timeout=self.header_timeout, limit=self.max_connections)}" for k, n in sorted(self.closed.items())]
        self.logger.warning("gamedb serve closed connections (%s): %s", when, "; ".join(parts))
        self.closed.clear()

    def filter(self, record: logging.LogRecord) -> bool:
        """A logging filter for uvicorn's logger: its line per invalid request is counted instead."""
        if record.getMessage() == _INVALID_REQUEST:
            self.note("invalid")
            return False
        return True

    def loop_exception(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """The event loop's exception handler: a failed accept (no file descriptor left) is counted, not logged with a traceback."""
        if str(context.get("message", "")).startswith("socket.accept() out of system resource"):
            self.note("accept")
        else:
            loop.default_exception_handler(context)


def protocol_class(guard: ConnectionGuard) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol, with ``guard`` admitting each connection and timing its wait for headers."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedH11Protocol(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _awaited: object = None  # the request cycle that was current when the wait for headers began

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if guard.admit(self):
                self._await_headers()
            else:
                transport.write(_SERVICE_UNAVAILABLE)
                transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_clock()
            guard.forget(self)
            super().connection_lost(exc)

        def handle_events(self) -> None:
            super().handle_events()
            if self._deadline is not None and self.cycle is not self._awaited:  # a request's headers came
                self._stop_clock()
                guard.waiting.pop(self, None)

        def on_response_complete(self) -> None:
            if not self.transport.is_closing():
                self._await_headers()  # first: the parent may read a pipelined request at once
            super().on_response_complete()

        def _await_headers(self) -> None:
            self._stop_clock()
            self._awaited = self.cycle
            guard.waiting.pop(self, None)
            guard.waiting[self] = None
            self._deadline = self.loop.call_later(guard.header_timeout, self._headers_late)

        def _stop_clock(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _headers_late(self) -> None:
            self._deadline = None
            if self.cycle is self._awaited and not self.transport.is_closing():
                guard.forget(self)
                guard.note("late")
                self.close_waiting()

        def close_waiting(self) -> None:
            """Close a connection that has no request in progress."""
            self._stop_clock()
            if not self.transport.is_closing():
                self.transport.close()

    return GuardedH11Protocol
