"""`gamedb serve`'s API addresses, as a browser or a script sends them to a running server.

A game's name is one path segment, percent-encoded as the page writes it (`encodeURIComponent`): a name with a `/`
(`solve --name ttt/v2`) was listed by `/api/games` but `/api/games/ttt%2Fv2` answered `Not Found` in plain text,
so the page could not open it. An address under `/api/` that is not the API's is a JSON 404 saying what is.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request

import pytest
from web_games import Server, get_json

pytest.importorskip("starlette")

NAMES = ["ttt/v2", "x/positions", "100%", "sp ace", "é☃"]



@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from gamedb import Database, make_game

    path = tmp_path_factory.mktemp("names") / "games.sqlite"
    with Database(path, create=True) as db:
        for name in NAMES:
            db.solve(make_game("nim", max=4), name=name)
    running = Server(path)
    yield running
    assert running.stop() == 0
    assert "Traceback" not in running.errors, running.errors


@pytest.mark.parametrize("name", NAMES)
def test_every_listed_name_opens_as_the_page_asks_for_it(server, name):
    status, games = get_json(server.url + "api/games")
    assert status == 200 and name in [g["name"] for g in games]
    segment = urllib.parse.quote(name, safe="")
    status, game = get_json(server.url + f"api/games/{segment}")
    assert status == 200 and game["name"] == name, game
    status, answer = get_json(server.url + f"api/games/{segment}/positions?position=3")
    assert status == 200 and answer["game"] == name and answer["position"] == "3", answer


@pytest.mark.parametrize("path", ["api", "api/", "api/nope", "api/games/nim/nope", "api/games/ttt/v2", "api/games/nim/positions/3"])
def test_an_address_that_is_not_the_apis_is_a_json_404(server, path):
    status, body = get_json(server.url + path)
    assert status == 404 and set(body) == {"error"}, body
    assert "/api/games" in body["error"], body


@pytest.mark.parametrize("module", ["sqlite3", "duckdb"])
def test_a_driver_error_is_a_503_saying_so_not_a_500(module):
    """A database's own error while a request reads (a damaged page, an I/O error) is answered as the CLI says it: a
    one-line 503 (a DuckDB file's errors were left to the 500)."""
    import importlib

    from starlette.requests import Request

    from gamedb.web.app import answers

    error = importlib.import_module(module).Error

    def reads(request):
        raise error("IO Error: could not read block 7")

    response = answers(reads)(Request({"type": "http", "method": "GET", "path": "/api/games", "headers": [], "query_string": b""}))
    assert response.status_code == 503 and json.loads(response.body) == {"error": "database error: IO Error: could not read block 7"}


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE"])
def test_a_method_the_api_does_not_take_is_a_json_405(server, method):
    request = urllib.request.Request(server.url + "api/games", data=b"{}" if method != "DELETE" else None, method=method)
    try:
        urllib.request.urlopen(request, timeout=30)
    except urllib.error.HTTPError as error:
        assert error.code == 405 and error.headers.get_content_type() == "application/json", error.read()
        assert error.headers["Allow"] == "GET, HEAD" and "the API only reads" in json.load(error)["error"]
    else:
        raise AssertionError(f"{method} was answered")


def test_a_position_given_twice_is_a_400(server):
    game = server.url + "api/games/" + urllib.parse.quote(NAMES[0], safe="") + "/positions"
    status, body = get_json(game + "?position=3&position=4")
    assert status == 400 and body == {"error": "position is given 2 times: give one (each answer is one request)"}, body
    assert get_json(game + "?position=3")[0] == 200


@pytest.mark.parametrize("query", ["pos=3", "Position=3", "position=3&move=1:0"])
def test_an_unknown_parameter_is_a_400_naming_it(server, query):
    """?pos=3 (a typo of position) answered the start position, 200, as if no position had been asked."""
    game = server.url + "api/games/" + urllib.parse.quote(NAMES[0], safe="") + "/positions"
    status, body = get_json(f"{game}?{query}")
    unknown = query.split("&")[-1].split("=")[0]
    assert status == 400 and body == {"error": f"unknown parameter {unknown!r}: this address takes position=TEXT (without it, the start)"}, body
