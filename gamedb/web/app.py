"""The ASGI application behind ``gamedb serve``: the page and its JSON API, read-only.

    GET /                                        the page (static/index.html)
    GET /api/games                               `gamedb list --json`, with counts by result and the start value
    GET /api/games/{name}                        one game: family, parameters, players, position syntax, play start
    GET /api/games/{name}/positions?position=T   `gamedb query NAME T --json` (the start without T)

A mistake is a 4xx whose JSON ``error`` is the message the CLI prints after ``Error:``.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..api import Database
from ..errors import (
    DatabaseError,
    FamilyLoadError,
    GamedbError,
    GameNotFound,
    InputError,
    PositionNotFound,
    StoredCodeRefused,
    UnknownFamily,
    command_line_text,
    marked_text,
)
from ..stats import stats
from ..store.damage import DamagedGame
from ..store.file_check import driver_error_message, read_budget
from ..store.location import locate
from ..store.record import GameRecord
from ..store.status import DAMAGED

STATIC = Path(__file__).with_name("static")
#: the page loads only its own files, and no other site frames it (on every answer: hardening.Hardened)
CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


def answers(fn: Callable[..., Any]) -> Callable[[Request], JSONResponse]:
    """A route answering ``fn(request)`` as JSON; an error a user can cause as a one-line 4xx or 503, a bug left to the 500."""

    def endpoint(request: Request) -> JSONResponse:
        try:
            return JSONResponse(fn(request))
        except (GameNotFound, PositionNotFound) as exc:
            return JSONResponse({"error": command_line_text(exc)}, status_code=404)
        except DatabaseError as exc:  # the file served is gone or unreadable (removed, replaced by another): not the request's fault
            return JSONResponse({"error": command_line_text(exc)}, status_code=503)
        except GamedbError as exc:  # malformed input (exit 2 in the CLI) or a game not usable (exit 1)
            return JSONResponse({"error": command_line_text(exc)}, status_code=400 if exc.exit_code == 2 else 409)
        except Exception as exc:  # noqa: BLE001 - the database's errors answered as the CLI says them, any other re-raised
            said = driver_error_message(exc)
            if said is None:
                raise
            return JSONResponse({"error": said}, status_code=503)

    endpoint.__name__ = fn.__name__
    return endpoint


class Explorer:
    """The API's answers, from one read-only :class:`Database`."""

    def __init__(self, database: Database):
        self.database = database
        #: counts by result cost a scan of the game's positions: kept while its row is unchanged
        self._summaries: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {}

    def games(self, request: Request) -> list[dict[str, Any]]:
        return [self._summary(record) for record in self.database.games()]

    def _summary(self, record: GameRecord) -> dict[str, Any]:
        row = record.list_json()
        key = tuple(row.values())
        cached = self._summaries.get(record.name)
        if cached is not None and cached[0] == key:
            return cached[1]
        summary = {**row, "impartial": bool(record.impartial), "results": None, "start_value": None, "play_start": None, "play_start_value": None}
        if record.solved:
            try:
                with self.database.read(scan=True) as reader:  # a scan of the game: as long as it is large
                    data = stats(reader, record)
            except DamagedGame as exc:  # listed as damaged, as `gamedb list` shows it; the other games still list
                summary.update(status=DAMAGED, problem=str(exc))
            else:
                summary["results"] = data["results"]
                summary["start_value"] = {k: data["start"][k] for k in ("result", "remoteness")}
                summary.update(self._play_start(record, summary["start_value"]))
        self._summaries[record.name] = (key, summary)
        return summary

    def _play_start(self, record: GameRecord, start_value: dict[str, Any]) -> dict[str, Any]:
        """Where the page opens the game (as ``gamedb play``: a heap game's stored start is one heap of --max, its play start
        heaps 3 4 5) and its value, for the list to show the position a click on the game opens; the stored start without rules."""
        try:
            _, rules = self.database.rules(record.name)
        except (StoredCodeRefused, UnknownFamily, FamilyLoadError, DamagedGame):  # (the page says why when it opens the game)
            return {"play_start": record.start_position, "play_start_value": start_value}
        play_start = rules.format(rules.play_start())
        if play_start == record.start_position:
            return {"play_start": play_start, "play_start_value": start_value}
        try:
            answer = self.database.query_json(record.name, play_start)
        except DatabaseError:
            raise
        except GamedbError:  # (the page says why when it opens the game)
            return {"play_start": play_start, "play_start_value": None}
        return {"play_start": play_start, "play_start_value": {k: answer[k] for k in ("result", "remoteness")}}

    def game(self, request: Request) -> dict[str, Any]:
        name = request.path_params["name"]
        try:
            record, rules = self.database.rules(name)
        except (StoredCodeRefused, UnknownFamily, FamilyLoadError) as exc:
            # the rules are not available here (a plugin not installed, a class not trusted): the stored rows still
            # answer, as `gamedb query` does (the page then shows positions as text), and the reason is said
            record = self.database.game(name)
            with self.database.read() as reader:
                players = reader.player_names(record.id)
            return {
                **record.list_json(),
                "impartial": bool(record.impartial),
                "parameters": record.parameters,
                "players": players,
                "position_syntax": None,
                "summary": None,
                "play_start": None,
                "rules_missing": command_line_text(exc),  # (in the command line's words, as the page's errors)
            }
        return {
            **record.list_json(),
            "impartial": bool(record.impartial),
            "parameters": record.parameters,
            "players": [rules.player_name(0), rules.player_name(1)],
            "position_syntax": rules.position_syntax,
            "summary": rules.summary,
            # where the page opens and `gamedb play` starts: a heap game's stored start is one heap of --max (the end of
            # the solved range, heap 1000 by default), not an opening; its play start is heaps 3 4 5
            "play_start": rules.format(rules.play_start()),
        }

    def position(self, request: Request) -> dict[str, Any]:
        other = next((key for key in request.query_params if key != "position"), None)
        if other is not None:  # (?pos=3 answered the start, as if no position were given)
            raise InputError(f"unknown parameter {other!r}: this address takes position=TEXT (without it, the start)")
        given = request.query_params.getlist("position")
        if len(given) > 1:  # (the last one was answered, as if the others were not there)
            raise InputError(f"position is given {len(given)} times: give one (each answer is one request)")
        text = given[0] if given else None
        try:
            return self.database.query_json(request.path_params["name"], text)
        except InputError as exc:  # (position= empty, as a form's empty box sends it: the family's message alone did not say)
            if text is None or text.strip():
                raise
            raise InputError(f"{marked_text(exc)}; for the game's start leave position out") from None


API = "/api/games, /api/games/NAME, /api/games/NAME/positions?position=TEXT (NAME percent-encoded, / as %2F)"
#: the methods the API routes take, to answer the ones it does not with a JSON 405
API_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


def api_paths(explorer: Explorer) -> Callable[[Request], JSONResponse]:
    """The endpoint of every address under ``/api/``: the game's name is read from the path as sent (``raw_path``),
    so a name with a ``/`` in it (``ttt%2Fv2``) is one segment, as the page writes it; any other address a JSON 404."""
    games, game, position = answers(explorer.games), answers(explorer.game), answers(explorer.position)

    def endpoint(request: Request) -> JSONResponse:
        if request.method not in ("GET", "HEAD"):  # (Starlette's own 405 is plain text)
            return JSONResponse({"error": f"{request.method} is not answered here: the API only reads (GET)"}, status_code=405,
                                headers={"Allow": "GET, HEAD"})
        raw = request.scope.get("raw_path") or urllib.parse.quote(request.url.path).encode()
        segments = raw.decode("latin-1").split("/")[2:]  # ["", "api", ...]: what follows /api/
        if segments[:1] == ["games"] and len(segments) in (2, 3) and segments[1] and segments[2:] in ([], ["positions"]):
            request.scope["path_params"] = {"name": urllib.parse.unquote(segments[1], errors="replace")}
            return (game if len(segments) == 2 else position)(request)
        if segments in (["games"], ["games", ""]):
            return games(request)
        return JSONResponse({"error": f"no such address {request.url.path!r}; the API: {API}"}, status_code=404)

    return endpoint


def page(request: Request) -> FileResponse:
    return FileResponse(STATIC / "index.html", headers={"Content-Security-Policy": CSP, "Cache-Control": "no-cache"})


def create_app(db: str) -> Starlette:
    """The explorer of database ``db``: a SQLite file (opened read-only) or a SQLAlchemy URL."""
    location = locate(db)
    # each request's reads are short, and read the file at the path then (SQLite or DuckDB) (one moved into its place is read from then on)
    database = Database(location, readonly=location.is_file or location.is_duckdb, budget=read_budget(), follow_path=True)
    explorer = Explorer(database)
    app = Starlette(
        routes=[
            Route("/", page),
            Route("/api", api_paths(explorer), methods=API_METHODS),
            Route("/api/{rest:path}", api_paths(explorer), methods=API_METHODS),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]
    )
    app.state.database = database
    app.state.location = location.shown
    return app
