"""``gamedb serve``: a read-only web explorer (``static/``: the page, no build step) over the JSON API of :mod:`.app`."""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
import threading
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import GamedbError, InputError
from ..plural import counted
from .connections import ACCEPT_BURST, GatedSocket


class MissingExtra(GamedbError):
    """The web server's dependencies are not installed."""


def require_web_extra() -> None:
    """Raise :class:`MissingExtra` (one line naming what to install) unless Starlette and uvicorn import."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        raise MissingExtra(f"gamedb serve needs the web extra ({exc.name} is missing): pip install 'gamedb[web]'") from None


#: seconds a stop (Ctrl+C, SIGTERM) waits for answers in progress before cancelling them
STOP_WAIT = 5


def listen(host: str, port: int) -> GatedSocket:
    """A listening TCP socket on ``host``:``port`` (0: any free port), or a one-line error."""
    if not 0 <= port <= 65535:
        raise InputError(f"cannot listen on port {port}: a port is 0 to 65535 (0: any free port)")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise GamedbError(f"cannot listen on {host}:{port}: {getattr(exc, 'strerror', None) or exc}") from None
    family, kind, proto, _, address = infos[0]
    sock = GatedSocket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(ACCEPT_BURST)
    except OSError as exc:
        sock.close()
        raise GamedbError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def open_page(url: str, announce: Callable[[str], None]) -> None:
    """Open ``url`` in the user's web browser, or say in one line that none could be started."""
    import webbrowser

    try:
        opened = webbrowser.open(url)
    except webbrowser.Error:
        opened = False
    if not opened:
        announce(f"No web browser could be started here: open {url} in one")


def serve(
    db: str, *, host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False, allow_hosts: Sequence[str] = (),
    max_connections: int | None = None, header_timeout: float | None = None, announce: Callable[[str], None] = lambda line: None,
) -> None:
    """Serve the games of ``db`` (a SQLite path, opened read-only, or a URL) until Ctrl+C or SIGTERM; ``announce`` gets the
    address once it listens. Hosts: :mod:`.hardening`; connections and their header timeout: :mod:`.connections`."""
    require_web_extra()
    import uvicorn

    from .app import CSP, create_app
    from .connections import HEADER_TIMEOUT, MAX_CONNECTIONS, ConnectionGuard, protocol_class
    from .hardening import Hardened, HostRule, hardening_headers

    web_app = create_app(db)  # opens the database first: a missing file is reported before listening
    guard = ConnectionGuard.for_this_process(max_connections or MAX_CONNECTIONS, header_timeout or HEADER_TIMEOUT)
    sock = listen(host, port)
    sock.guard = guard
    rule = HostRule.bound(sock.getsockname()[0], sock.getsockname()[1], allow_hosts)
    url = f"http://{rule.shown()}/"
    count = len(web_app.state.database.games())
    config = uvicorn.Config(
        Hardened(web_app, rule, hardening_headers(CSP)), http=protocol_class(guard), loop="asyncio", log_level="warning", access_log=False,
        lifespan="off", backlog=ACCEPT_BURST, timeout_graceful_shutdown=STOP_WAIT,  # backlog: asyncio listens again with it
    )
    server = uvicorn.Server(config)

    async def run() -> None:
        asyncio.get_running_loop().set_exception_handler(guard.loop_exception)  # a failed accept is counted, not a traceback
        await server.serve(sockets=[sock])

    # uvicorn stops, then raises the signal again with the handler it found: KeyboardInterrupt for both, here
    previous = _on_sigterm(_interrupt)
    uvicorn_log = logging.getLogger("uvicorn.error")
    uvicorn_log.addFilter(guard)
    try:  # from the announcement on, Ctrl+C is the normal end
        every = ", listening on every address of this machine" if rule.any_address else ""
        announce(f"Serving {counted(count, 'game')} from {web_app.state.location} at {url} (read-only{every}; Ctrl+C stops)")
        if open_browser:
            threading.Thread(target=open_page, args=(url, announce), daemon=True).start()
        asyncio.run(run())
    except KeyboardInterrupt:
        pass
    finally:
        _on_sigterm(signal.SIG_DFL if previous is None else previous)
        uvicorn_log.removeFilter(guard)
        guard.report("since the last count, until the server stopped")
        sock.close()
        web_app.state.database.close()


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _on_sigterm(handler: Any) -> Any:
    """Set SIGTERM's handler (in the main thread only: elsewhere Python cannot); the one it had."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, handler)
