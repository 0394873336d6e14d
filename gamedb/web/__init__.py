"""``gamedb serve``: a read-only web explorer of the solved games in one database.

The page (``static/``: plain HTML, JavaScript and CSS shipped in the package,
no build step, nothing fetched from elsewhere) draws a position's board and
colours every move by its value; it reads the JSON API of :mod:`.app`.
Starlette and uvicorn come with the ``web`` extra (``pip install 'gamedb[web]'``).
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable

from ..errors import GamedbError

INSTALL_HINT = "pip install 'gamedb[web]'"


class MissingExtra(GamedbError):
    """The web server's dependencies are not installed."""


def require_web_extra() -> None:
    """Raise :class:`MissingExtra` (one line naming what to install) unless Starlette and uvicorn import."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        raise MissingExtra(f"gamedb serve needs the web extra ({exc.name} is missing): {INSTALL_HINT}") from None


def listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (0: any free port), or a one-line error."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise GamedbError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise GamedbError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def page_url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


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
    db: str,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    open_browser: bool = False,
    announce: Callable[[str], None] = lambda line: None,
) -> None:
    """Serve the games of ``db`` (a SQLite path, opened read-only, or a URL) until interrupted.

    ``announce`` receives one line with the address once the server listens.
    """
    require_web_extra()
    import uvicorn

    from .app import create_app

    web_app = create_app(db)  # opens the database first: a missing file is reported before listening
    sock = listen(host, port)
    url = page_url(sock)
    count = len(web_app.state.database.games())
    announce(f"Serving {count} game(s) from {web_app.state.location} at {url} (read-only; Ctrl+C stops)")
    if open_browser:
        threading.Thread(target=open_page, args=(url, announce), daemon=True).start()
    config = uvicorn.Config(web_app, log_level="warning", access_log=False, lifespan="off")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn shuts down on Ctrl+C, then raises it again: stopping is the normal end
        pass
    finally:
        sock.close()
