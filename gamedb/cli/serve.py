"""``gamedb serve``: the web explorer (:mod:`gamedb.web`), read-only, until Ctrl+C."""

from __future__ import annotations

from typing import Annotated

import typer

from .common import err, handle_errors, settings


@handle_errors
def serve_command(
    ctx: typer.Context,
    host: Annotated[str, typer.Option("--host", help="Address to listen on (127.0.0.1: this machine only).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on (0: any free port).")] = 8000,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the page in a web browser.")] = False,
) -> None:
    """Explore the solved games in a web browser (read-only): boards, every move's value, a JSON API. Needs gamedb[web]."""
    from ..web import serve

    serve(settings(ctx).db, host=host, port=port, open_browser=open_browser, announce=err)


def register(app: typer.Typer) -> None:
    app.command("serve", epilog="Example:  gamedb --db games.sqlite serve --open")(serve_command)
