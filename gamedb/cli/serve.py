"""``gamedb serve``: the web explorer (:mod:`gamedb.web`), read-only, until Ctrl+C."""

from __future__ import annotations

import os
import sys
import threading
from typing import Annotated

import typer

from .common import err, handle_errors, settings


@handle_errors
def serve_command(
    ctx: typer.Context,
    host: Annotated[str, typer.Option("--host", help="Address to listen on (127.0.0.1: this machine only; 0.0.0.0: every address).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port to listen on (0: any free port).")] = 8000,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the page in a web browser.")] = False,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-host",
            metavar="NAME",
            help="Also answer requests whose Host header is NAME (any port; repeatable; '*': any). "
            "Without it only the address listened on is answered (and localhost, or for 0.0.0.0 this machine's name and IP addresses).",
        ),
    ] = None,
) -> None:
    """Explore the solved games in a web browser (read-only): boards, every move's value, a JSON API. Needs gamedb[web]."""
    from ..web import serve

    serve(settings(ctx).db, host=host, port=port, open_browser=open_browser, allow_hosts=allow_host or (), announce=err)
    if any(t.is_alive() and not t.daemon for t in threading.enumerate() if t is not threading.main_thread()):
        # an answer still being computed when the server stopped (it waited STOP_WAIT seconds): its worker
        # thread would keep the process alive until it ends; nothing is left to write (the file is read-only)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


def register(app: typer.Typer) -> None:
    app.command("serve", epilog="Example:  gamedb --db games.sqlite serve --open")(serve_command)
