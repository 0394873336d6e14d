"""`gamedb serve`'s JSON API (no browser): the same answers as the CLI, one-line 4xx for mistakes,
read-only, and the `serve` command as a user types it."""

from __future__ import annotations

import hashlib
import json
import selectors
import sys
import time
import urllib.error
import urllib.request

import pytest

pytest.importorskip("starlette", reason="gamedb serve needs the web extra")
from starlette.testclient import TestClient  # noqa: E402
from web_games import PLUGIN_DIR, Server, busy_port  # noqa: E402


@pytest.fixture(scope="module")
def plugin_importable():
    """The example plugin's module on the path, as for a user who installed it."""
    sys.path.insert(0, str(PLUGIN_DIR))
    yield
    sys.path.remove(str(PLUGIN_DIR))


@pytest.fixture(scope="module")
def client(web_db, plugin_importable):
    from gamedb.web.app import create_app

    with TestClient(create_app(str(web_db[0]))) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def gamedb(web_db, plugin_importable):
    """gamedb("query", "tictactoe", "--json") runs the CLI, in-process, on the same database (the plugin importable)."""
    from typer.testing import CliRunner

    from gamedb.cli.app import app

    from conftest import Run

    runner = CliRunner()

    def run(*args: str) -> Run:
        result = runner.invoke(app, ["--db", str(web_db[0]), *args])
        return Run(result.exit_code, result.stdout, result.stderr)

    return run


def test_games_lists_what_gamedb_list_knows_with_counts_and_start_value(client, gamedb, web_db):
    games = client.get("/api/games").json()
    listed = json.loads(gamedb("list", "--json").stdout)
    assert [g["name"] for g in games] == [row["name"] for row in listed] == sorted(web_db[1])
    for game, row in zip(games, listed, strict=True):
        assert {k: game[k] for k in row} == row
        stats = json.loads(gamedb("stats", game["name"], "--json").stdout)
        assert game["results"] == stats["results"]
        assert sum(game["results"].values()) == game["positions"]
        assert game["start_value"] == {"result": stats["start"]["result"], "remoteness": stats["start"]["remoteness"]}
        assert game["impartial"] == (game["family"] in ("flip", "nim", "subtraction", "octal", "grundy"))


def test_games_list_the_start_the_page_opens_at_with_its_value(client):
    # the list showed a heap game's stored start (one heap of --max: nim's "5") while its page opens at heaps 3 4 5
    for game in client.get("/api/games").json():
        info = client.get(f"/api/games/{game['name']}").json()
        assert game["play_start"] == (info["play_start"] or game["start"]), game["name"]
        answer = client.get(f"/api/games/{game['name']}/positions", params={"position": game["play_start"]}).json()
        assert game["play_start_value"] == {"result": answer["result"], "remoteness": answer["remoteness"]}, game["name"]
        if game["family"] in ("nim", "subtraction", "octal", "grundy"):
            assert (game["start"], game["play_start"]) == ("5" if game["family"] == "nim" else "12", "3 4 5"), game["name"]
        elif game["family"] == "flip":  # one run of --max + also
            assert game["start"] == "+" * 12 and game["play_start"] == info["play_start"] != game["start"]
        else:
            assert (game["play_start"], game["play_start_value"]) == (game["start"], game["start_value"]), game["name"]


@pytest.mark.parametrize(
    "name, position",
    [
        ("tictactoe", None),
        ("tictactoe", "X...O...."),
        ("connect4-4x3", "2213"),
        ("cat-mouse", "mouse=3,cat=2,turn=cat"),
        ("cat-mouse-grid", None),  # with the family's verdict (turn limit)
        ("flip", "++-+++"),  # a sum: XOR of components
        ("nim", "3 5 4"),
        ("stone-ix", "5,1,2,4,3"),  # a stones list, answered as its canonical state
        ("graph-tug-of-war", "1L"),
        ("takeaway", None),  # a plugin game
    ],
)
def test_position_is_the_object_query_json_prints(client, gamedb, name, position):
    args = [name] if position is None else [name, position]
    run = gamedb("query", *args, "--json")
    assert run.exit_code == 0, run.stderr
    params = {} if position is None else {"position": position}
    response = client.get(f"/api/games/{name}/positions", params=params)
    assert response.status_code == 200
    assert response.json() == json.loads(run.stdout)


def test_tictactoe_move_values_match_negamax(client):
    from test_tictactoe import _negamax

    memo: dict = {}
    for board in (".........", "XX.OO....", "XO.......", "XOX.O...."):
        answer = client.get("/api/games/tictactoe/positions", params={"position": board}).json()
        assert (answer["result"], answer["remoteness"]) == _negamax(board, memo)
        for move in answer["moves"]:
            assert (move["result"], move["remoteness"]) == _negamax(move["position"], memo)


@pytest.mark.parametrize(
    "name, position, status",
    [
        ("nope", None, 404),
        ("tictactoe", "XXXX", 400),
        ("tictactoe", "XXXOOO...", 400),
        ("connect4-4x3", "5", 400),
        ("cat-mouse", "mouse=1,cat=0,turn=mouse", None),
        ("stone-ix", "c0=9,c1=0,c2=0,sum=0,turn=alice", 404),
        ("nim", "3 x", 400),
        ("graph-tug-of-war", "9Q", None),
    ],
)
def test_bad_name_or_position_is_a_4xx_with_the_clis_message(client, gamedb, name, position, status):
    args = [name] if position is None else [name, position]
    run = gamedb("query", *args, "--json")
    assert run.exit_code in (1, 2) and run.stdout == ""
    params = {} if position is None else {"position": position}
    response = client.get(f"/api/games/{name}/positions", params=params)
    assert 400 <= response.status_code < 500
    assert status is None or response.status_code == status
    assert run.stderr == f"Error: {response.json()['error']}\n"
    assert (response.status_code == 400) == (run.exit_code == 2)  # malformed input: 400 and exit 2


@pytest.mark.parametrize("name", ["nim", "tictactoe", "cat-mouse", "flip"])
@pytest.mark.parametrize("position", ["", " "])
def test_an_empty_position_says_to_leave_it_out_for_the_start(client, gamedb, web_db, name, position):
    # ?position= (a form's empty box) was the family's message alone ("empty heap position ''"): the start is without it
    from gamedb import Database
    from gamedb.errors import InputError, command_line_text

    with Database(web_db[0], readonly=True) as db, pytest.raises(InputError) as refused:
        db.probe(name, position)  # the library's answer to the text: the family's message
    response = client.get(f"/api/games/{name}/positions", params={"position": position})
    assert response.status_code == 400
    assert response.json()["error"] == f"{command_line_text(refused.value)}; for the game's start leave position out"
    # (the command line, where a script's empty "$POS" is no mistake, answers the start: test_cli)
    assert gamedb("query", name, "--position", position, "--json").stdout == gamedb("query", name, "--json").stdout
    assert client.get("/api/games/nope/positions", params={"position": position}).status_code == 404  # no such game first


def test_game_whose_rules_cannot_load_answers_from_its_rows(web_db, monkeypatch):
    from gamedb.web.app import create_app

    monkeypatch.setitem(sys.modules, "gamedb_takeaway", None)  # the plugin's module cannot be imported
    with TestClient(create_app(str(web_db[0]))) as client:
        response = client.get("/api/games/takeaway/positions")
        assert response.status_code == 200  # the stored rows answer without the plugin (as gamedb query does)
        body = response.json()
        assert body["result"] in ("win", "lose") and "gamedb_takeaway" in body["rules_missing"]
        assert client.get("/api/games").status_code == 200  # the list still answers
        info = client.get("/api/games/takeaway")  # the game's own page: its stored players, and why no rules
        assert info.status_code == 200, info.text
        assert info.json()["players"] == ["alice", "bob"] and "gamedb_takeaway" in info.json()["rules_missing"]
        assert info.json()["position_syntax"] is None and info.json()["play_start"] is None


def test_postgresql_answers_as_sqlite(client, pg_url):
    from gamedb import Database, make_game
    from gamedb.web.app import create_app

    with Database(pg_url) as db:
        db.solve(make_game("tictactoe"))
    with TestClient(create_app(pg_url)) as on_server:
        (listed,) = on_server.get("/api/games").json()
        local = next(g for g in client.get("/api/games").json() if g["name"] == "tictactoe")
        assert {k: v for k, v in listed.items() if k != "solved_at"} == {k: v for k, v in local.items() if k != "solved_at"}
        for position in (None, "X...O....", "XX.OO...."):
            params = {} if position is None else {"position": position}
            assert on_server.get("/api/games/tictactoe/positions", params=params).json() == client.get("/api/games/tictactoe/positions", params=params).json()
        assert on_server.get("/api/games/tictactoe/positions", params={"position": "XXXX"}).status_code == 400


def test_game_describes_what_the_page_draws(client):
    info = client.get("/api/games/cat-mouse-grid").json()
    assert info["family"] == "cat-mouse-grid" and info["players"] == ["mouse", "cat"]
    assert info["parameters"]["grid"] == ["####F", "#C...", "M...."]
    assert "rRcC" in info["position_syntax"]
    assert client.get("/api/games/nope").status_code == 404


def test_page_and_its_files_are_served_from_the_package(client):
    page = client.get("/")
    assert page.status_code == 200 and "default-src 'self'" in page.headers["content-security-policy"]
    for name in ("app.js", "boards.js", "graph_board.js", "chart.js", "values.js", "style.css", "favicon.svg"):
        body = client.get(f"/static/{name}")
        assert body.status_code == 200, name
        # nothing fetched from elsewhere at run time (the SVG namespace is a name, not a fetch)
        assert "http" not in body.text.replace("http://www.w3.org/2000/svg", ""), name


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_serve_reads_only(tmp_path, web_db):
    """A real server on a copy of the database: answers, then leaves the file byte for byte as it was, with no side files."""
    import shutil

    db = tmp_path / "copy.sqlite"
    shutil.copy(web_db[0], db)
    before = _digest(db)
    server = Server(db)
    try:
        assert server.url.startswith("http://127.0.0.1:")  # this machine only, unless --host says otherwise
        assert "read-only" in server.announced
        games = json.load(urllib.request.urlopen(server.url + "api/games"))
        assert len(games) == len(web_db[1])
        answer = json.load(urllib.request.urlopen(server.url + "api/games/tictactoe/positions?position=X...O...."))
        assert answer["position"] == "X...O...."
        with pytest.raises(urllib.error.HTTPError) as bad:
            urllib.request.urlopen(server.url + "api/games/tictactoe/positions?position=XXXX")
        assert bad.value.code == 400
    finally:
        assert server.stop() == 0  # Ctrl+C stops it cleanly
    assert _digest(db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.sqlite"]


def test_open_starts_the_users_browser_on_the_page(tmp_path, web_db):
    opened = tmp_path / "opened.txt"
    browser = f"{sys.executable} -c \"import sys, pathlib; pathlib.Path(sys.argv[2]).write_text(sys.argv[1])\" %s {opened}"
    server = Server(web_db[0], "--open", env={"BROWSER": browser})  # the browser webbrowser.open starts
    try:
        deadline = time.monotonic() + 30
        while not opened.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert opened.read_text() == server.url
    finally:
        assert server.stop() == 0


def test_open_without_a_browser_says_so_in_one_line(tmp_path, web_db):
    # no display, nothing on PATH, and a BROWSER that cannot start: webbrowser.open returns False
    nothing = tmp_path / "empty-path"
    nothing.mkdir()
    env = {"BROWSER": str(tmp_path / "no-such-browser"), "PATH": str(nothing), "DISPLAY": "", "WAYLAND_DISPLAY": ""}
    server = Server(web_db[0], "--open", env=env)
    try:
        with selectors.DefaultSelector() as selector:  # epoll or kqueue: any descriptor, not only those below 1,024
            selector.register(server.proc.stderr, selectors.EVENT_READ)
            assert selector.select(30), "serve --open said nothing"
        line = server.proc.stderr.readline()
        assert line == f"No web browser could be started here: open {server.url} in one\n"
        assert urllib.request.urlopen(server.url).status == 200  # and it still serves
    finally:
        assert server.stop() == 0
    assert "Traceback" not in server.errors


def test_serve_on_a_busy_port_is_one_line(cli, web_db):
    sock = busy_port()
    try:
        run = cli("serve", "--port", str(sock.getsockname()[1]), db=web_db[0])
    finally:
        sock.close()
    assert run.exit_code == 1
    assert run.stderr.startswith("Error: cannot listen on 127.0.0.1:") and run.stderr.count("\n") == 1


def test_serve_without_a_database_is_one_line(cli, tmp_path):
    run = cli("serve", "--port", "0", db=tmp_path / "missing.sqlite")
    assert run.exit_code == 1
    assert run.stderr == f"Error: no database at {tmp_path / 'missing.sqlite'} (solve a game first, or pass --db)\n"


def test_serve_without_the_web_extra_says_what_to_install(cli, web_db, monkeypatch):
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if not installed: importing it fails
    run = cli("serve", db=web_db[0])
    assert run.exit_code == 1
    assert run.stderr.count("\n") == 1 and "pip install 'gamedb[web]'" in run.stderr
