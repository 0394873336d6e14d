"""Issue 20: concurrent readers and `gamedb serve` under load, as the issue writes each case.

- eight threads querying one read-only ``Database`` (SIGSEGV or "Cannot operate on
  a closed database" before: the engine's pool closed other threads' connections);
- a real `gamedb serve` answering 30 concurrent clients on mixed endpoints for
  1,500 requests with no error, and others while 1,000 idle connections are held
  (with the usual soft limit of 1,024 open files, and with a hard one);
- a connection that does not send its headers in time is closed;
- a port outside 0..65535 is refused; a Host header that does not name the server
  is a 400 (DNS rebinding); every answer carries the hardening headers;
- Ctrl+C and SIGTERM stop a server promptly, while clients are connected, and while an
  answer is still being computed in a worker thread.

The load generator is bench/serve_load.py's (which also times it); nothing here is timed.
"""

from __future__ import annotations

import http.client
import json
import resource
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="gamedb serve needs the web extra")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from serve_load import IdleCrowd, Served, mixed_paths, raise_own_file_limit, run_load  # noqa: E402
from serve_load import solve as solve_bench_games  # noqa: E402

ISSUE_COMMAND = (
    "import threading;from gamedb.api import Database;db=Database({db!r},readonly=True);"
    "T=[threading.Thread(target=lambda:[db.query_json('tictactoe','X...O....') for _ in range(300)]) for _ in range(8)];"
    "[t.start() for t in T];[t.join() for t in T]"
)

#: eight threads on one Database, each asking the same mixed questions 50 times and comparing every
#: answer with the one a single thread got first: games, rules, stats, positions of three families
CHECKED_THREADS = textwrap.dedent(
    """
    import json, sys, threading
    from gamedb.api import Database
    db = Database(sys.argv[1], readonly=True)
    asks = [("games", lambda: [g.name for g in db.games()]), ("stats", lambda: db.stats("tictactoe")["results"]),
            ("rules", lambda: db.rules("connect4-4x3")[1].position_syntax)]
    for name, position in [("tictactoe", "X...O...."), ("tictactoe", None), ("nim", "3 5 7"), ("connect4-4x3", "2213"),
                           ("connect4-4x3", "1122"), ("connect4-4x3", None), ("nim", "20")]:
        asks.append((name, lambda n=name, p=position: db.query_json(n, p)))
    expected = [json.dumps(ask(), sort_keys=True) for _, ask in asks]
    wrong, done = [], []
    def work():
        for _ in range(50):
            for (what, ask), want in zip(asks, expected):
                if json.dumps(ask(), sort_keys=True) != want:
                    wrong.append(what)
        done.append(1)
    threads = [threading.Thread(target=work) for _ in range(8)]
    [t.start() for t in threads]; [t.join() for t in threads]
    print(json.dumps({"done": len(done), "answers": 8 * 50 * len(asks), "wrong": wrong}))
    """
)


@pytest.fixture(scope="module")
def sqlite_games(tmp_path_factory) -> str:
    """A SQLite file with the bench's games solved: tic-tac-toe, Connect-Four 4x3, Nim."""
    db = str(tmp_path_factory.mktemp("served") / "served.sqlite")
    solve_bench_games(db)
    return db


@pytest.fixture(params=["sqlite", "postgresql"])
def served_db(request, sqlite_games) -> str:
    """The bench's games on the parametrised backend (a PostgreSQL database needs GAMEDB_TEST_PG)."""
    if request.param == "sqlite":
        return sqlite_games
    url = request.getfixturevalue("pg_url")
    solve_bench_games(url)
    return url


@pytest.fixture(scope="module", autouse=True)
def file_limit():
    """This process holds 1,000 idle connections besides its clients."""
    raise_own_file_limit()
    if resource.getrlimit(resource.RLIMIT_NOFILE)[0] < 1200:
        pytest.fail("these tests hold 1,000 connections: raise the hard limit of open files (ulimit -Hn)")


def _python(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=300)


# --- one Database, many threads --------------------------------------------------------------


def test_the_issues_eight_threads_on_one_readonly_database(served_db):
    run = _python("-c", ISSUE_COMMAND.format(db=served_db))
    assert (run.returncode, run.stderr) == (0, "")


def test_threads_sharing_a_database_get_the_answers_one_thread_gets(served_db):
    run = _python("-c", CHECKED_THREADS, served_db)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["done"] == 8 and result["wrong"] == [] and result["answers"] == 4000


# --- gamedb serve under load -----------------------------------------------------------------


def _check_quiet_stop(served: Served) -> str:
    assert served.stop() == 0  # Ctrl+C
    log = served.log()
    assert "Traceback" not in log and "Exception" not in log and "ERROR" not in log, log[:3000]
    return log


def _check_load(load, requests: int) -> None:
    assert load.errors == [] and load.requests == requests and load.statuses == {200: requests}
    differing = {path: bodies for path, bodies in load.bodies.items() if len(bodies) > 1}
    assert differing == {}  # every path answered the same body every time


def test_serve_answers_30_clients_for_1500_requests_without_an_error(served_db):
    served = Served(served_db)
    try:
        paths = mixed_paths(served.host, served.port)
        assert {p.split("?")[0] for p in paths} >= {"/", "/static/app.js", "/api/games", "/api/games/tictactoe/positions"}
        load = run_load(served.host, served.port, paths, clients=30, requests=1500)
        _check_load(load, 1500)
    finally:
        log = _check_quiet_stop(served)
    assert log == ""


@pytest.mark.parametrize("hard", [False, True], ids=["soft-1024", "hard-1024"])
def test_serve_answers_others_while_1000_idle_connections_are_held(served_db, hard):
    """The server starts with 1,024 open files (Linux's usual soft limit; with ``hard`` also its hard limit,
    so that 1,000 idle connections are more than it lets in and it must close the oldest)."""
    served = Served(served_db, files=1024, hard=hard)
    try:
        paths = mixed_paths(served.host, served.port)
        with IdleCrowd(served.host, served.port, 1000) as crowd:
            assert crowd.opened >= 1000 and crowd.failed == 0
            assert hard or crowd.open_now() == 1000  # all let in (the header timeout, 10 s, is still to come)
            load = run_load(served.host, served.port, paths, clients=30, requests=600)
            _check_load(load, 600)
        if hard:
            assert crowd.closed_by_server > 0  # the limit (1,024 - 256 files) closed the oldest waiting ones
    finally:
        log = _check_quiet_stop(served)
    # no line per connection: at most a count when the first was closed (with the hard limit, or the header
    # timeout on a slow machine) and one at the stop
    assert len(log.splitlines()) <= 2, log[:3000]


def test_the_listening_socket_makes_room_at_each_accept():
    """asyncio accepts a whole backlog before it makes any connection (where the guard used to count it, after the
    burst had taken the files): each accept beyond the limit closes the connection waiting longest at once."""
    from gamedb.web import listen
    from gamedb.web.connections import ConnectionGuard

    class Waiting:
        def close_waiting(self):
            closed.append(self)

    closed: list[Waiting] = []
    guard = ConnectionGuard(2, 10.0)
    waiting = [Waiting(), Waiting()]
    for conn in waiting:
        assert guard.admit(conn)
        guard.waiting[conn] = None
    server = listen("127.0.0.1", 0)
    server.guard = guard
    clients = [socket.create_connection(server.getsockname()) for _ in range(3)]
    accepted = []
    try:
        accepted = [server.accept()[0] for _ in range(2)]
        assert closed == waiting and guard.accepting == 2 and guard.open == set()
        accepted.append(server.accept()[0])  # none left to close: let in, then refused with a 503
        assert guard.accepting == 3 and not guard.admit(object()) and guard.closed["refused"] == 1
    finally:
        for sock in [*clients, *accepted, server]:
            sock.close()


def test_a_connection_that_sends_no_headers_in_time_is_closed(sqlite_games, tmp_path):
    """With a header timeout of 1 s: a connection that sends nothing, one that sends half a request
    line, and a kept-alive one that starts a second request and stops are closed; answers go on."""
    script = tmp_path / "serve.py"
    script.write_text(
        "import sys\nfrom gamedb.web import serve\n"
        "serve(sys.argv[1], port=0, header_timeout=1, announce=lambda line: print(line, file=sys.stderr, flush=True))\n"
    )
    served = Served.command([sys.executable, str(script), sqlite_games])
    try:
        silent = socket.create_connection((served.host, served.port))
        half = socket.create_connection((served.host, served.port))
        half.sendall(b"GET /api/games HTTP/1.1\r\nHo")
        kept = http.client.HTTPConnection(served.host, served.port)
        kept.request("GET", "/api/games")
        assert kept.getresponse().read()
        kept.sock.sendall(b"GET /api/games HTTP/1.1\r\n")
        for sock in (silent, half, kept.sock):
            sock.settimeout(30)
            assert sock.recv(100) == b""  # closed by the server, without an answer
        fresh = http.client.HTTPConnection(served.host, served.port, timeout=30)
        fresh.request("GET", "/api/games/nim")
        assert fresh.getresponse().status == 200
    finally:
        log = _check_quiet_stop(served)
    assert len(log.splitlines()) <= 2 and "sent no request headers within 1 s" in log, log


# --- port, Host header, hardening headers ----------------------------------------------------


@pytest.mark.parametrize("port", ["70000", "65536", "-1"])
def test_a_port_outside_0_to_65535_is_refused(cli, sqlite_games, port):
    run = cli("serve", "--port", port, db=sqlite_games)
    assert run.exit_code == 2 and run.stdout == ""
    assert run.stderr.startswith("Error: Invalid value for '--port'") and run.stderr.count("\n") == 1


def test_the_library_refuses_such_a_port_too(sqlite_games):
    from gamedb.errors import InputError
    from gamedb.web import listen

    with pytest.raises(InputError, match="a port is 0 to 65535"):
        listen("127.0.0.1", 70000)  # before: bound port 70000 % 65536 = 4464


def _raw(served: Served, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``request`` as it is; the status, headers (lower-case names) and body of the answer."""
    with socket.create_connection((served.host, served.port), timeout=30) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value for name, value in (line.split(": ", 1) for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def _get(served: Served, path: str, host: str | None) -> tuple[int, dict[str, str], bytes]:
    if host is None:  # HTTP/1.0 may leave the Host out (HTTP/1.1 without one is refused by h11 already)
        return _raw(served, b"GET " + path.encode() + b" HTTP/1.0\r\n\r\n")
    return _raw(served, b"GET " + path.encode() + b" HTTP/1.1\r\nHost: " + host.encode() + b"\r\nConnection: close\r\n\r\n")


HARDENING = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
}


@pytest.fixture(scope="module")
def server(sqlite_games):
    served = Served(sqlite_games)
    yield served
    _check_quiet_stop(served)


@pytest.mark.parametrize(
    "host, status",
    [
        ("{address}:{port}", 200),
        ("localhost:{port}", 200),
        ("LOCALHOST:{port}", 200),
        ("evil.example:{port}", 400),  # DNS rebinding: the attacker's name, resolved to 127.0.0.1
        ("evil.example", 400),
        ("{address}:{other}", 400),
        ("{address}", 400),  # port 80 is not the bound port
        ("127.0.0.2:{port}", 400),
        ("[::1]:{port}", 400),  # bound to 127.0.0.1 only
        ("localhost:{port}:{port}", 400),
        ("", 400),
        (None, 400),  # no Host header at all
    ],
)
def test_host_header_must_name_the_server(server, host, status):
    if host is not None:
        host = host.format(address=server.host, port=server.port, other=server.port + 1 if server.port < 65535 else 1)
    for path in ("/api/games", "/"):
        code, headers, body = _get(server, path, host)
        assert code == status, (host, path, body[:200])
        if status == 400:
            error = json.loads(body)["error"]
            assert "\n" not in error and f"{server.host}:{server.port}" in error
            assert "Host" in error


def test_http_1_1_without_host_and_garbage_are_400_without_a_log_line_each(sqlite_games):
    served = Served(sqlite_games)
    try:
        for _ in range(50):
            assert _raw(served, b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n")[0] == 400
            assert _raw(served, b"\x16\x03\x01 not http\r\n\r\n")[0] == 400
    finally:
        log = _check_quiet_stop(served)
    assert len(log.splitlines()) <= 2, log  # a count, not a warning per request


def test_allow_host_adds_a_name(sqlite_games):
    served = Served(sqlite_games, "--allow-host", "games.example.org")
    try:
        assert _get(served, "/api/games", "games.example.org")[0] == 200  # any port: behind a proxy
        assert _get(served, "/api/games", f"games.example.org:{served.port}")[0] == 200
        assert _get(served, "/api/games", f"localhost:{served.port}")[0] == 200
        assert _get(served, "/api/games", "other.example.org")[0] == 400
    finally:
        _check_quiet_stop(served)


def test_host_rule_for_every_address_and_others():
    from gamedb.web.hardening import HostRule, split_host

    every = HostRule.bound("0.0.0.0", 8000)
    assert every.accepts("192.168.1.7:8000") and every.accepts("[fe80::1]:8000") and every.accepts("localhost:8000")
    assert every.accepts(f"{socket.gethostname()}:8000")
    assert not every.accepts("192.168.1.7:8001") and not every.accepts("evil.example:8000")
    assert every.shown() == "localhost:8000" and HostRule.bound("::", 8000).shown() == "localhost:8000"  # (a browser may not open 0.0.0.0)
    assert HostRule.bound("127.0.0.1", 8000).shown() == "127.0.0.1:8000" and HostRule.bound("::1", 8000).shown() == "[::1]:8000"
    six = HostRule.bound("::1", 8000)
    assert six.accepts("[::1]:8000") and six.accepts("localhost:8000") and not six.accepts("127.0.0.1:8000")
    lan = HostRule.bound("192.168.1.7", 80)
    assert lan.accepts("192.168.1.7") and lan.accepts("192.168.1.7:80") and not lan.accepts("localhost")
    assert HostRule.bound("127.0.0.1", 8000, ["*"]).accepts("anything.example")
    assert split_host("[::1]:80") == ("::1", 80) and split_host("a:b") is None and split_host("[x]:1") is None


@pytest.mark.parametrize(
    "path, status",
    [
        ("/", 200),
        ("/static/app.js", 200),
        ("/static/style.css", 200),
        ("/api/games", 200),
        ("/api/games/tictactoe/positions?position=X...O....", 200),
        ("/api/games/tictactoe/positions?position=XXXX", 400),
        ("/api/games/nope", 404),
        ("/nope", 404),
        ("/static/nope.js", 404),
    ],
)
def test_every_answer_carries_the_hardening_headers(server, path, status):
    code, headers, _ = _get(server, path, f"{server.host}:{server.port}")
    assert code == status
    assert {name: headers.get(name) for name in HARDENING} == HARDENING
    policy = headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy and "default-src 'self'" in policy


def test_a_refused_host_gets_the_headers_too(server):
    code, headers, _ = _get(server, "/", "evil.example")
    assert code == 400 and {name: headers.get(name) for name in HARDENING} == HARDENING


# --- stopping -------------------------------------------------------------------------------


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_serve_stops_promptly_on_a_signal_while_clients_are_connected(sqlite_games, sig):
    served = Served(sqlite_games)
    kept = http.client.HTTPConnection(served.host, served.port, timeout=30)
    kept.request("GET", "/api/games")
    assert kept.getresponse().read()  # a kept-alive connection
    idle = [socket.create_connection((served.host, served.port)) for _ in range(20)]
    idle[0].sendall(b"GET / HTTP/1.1\r\n")  # one in the middle of its headers
    try:
        started = time.monotonic()
        status = served.stop(sig, timeout=20)  # killed if it is still running then
        waited = time.monotonic() - started
    finally:
        for sock in idle:
            sock.close()
        kept.close()
    assert status == 0, (status, waited)  # ended by the signal, not killed after 20 s
    log = served.log()
    assert "Traceback" not in log, log


def test_serve_stops_while_an_answer_is_still_being_computed(sqlite_games, tmp_path):
    """A request stuck in its worker thread (here a query made to sleep ten minutes) does not keep the
    server alive: after a few seconds it is answered 503 and the process ends, exit status 0, no traceback."""
    started = tmp_path / "started"
    script = tmp_path / "slow_serve.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import pathlib, sys, time
            import gamedb.api
            def slow(self, *args):
                pathlib.Path({str(started)!r}).touch()
                time.sleep(600)
            gamedb.api.Database.query_json = slow
            from gamedb.cli.app import main
            sys.argv = ["gamedb", "--db", sys.argv[1], "serve", "--port", "0"]
            main()
            """
        )
    )
    served = Served.command([sys.executable, str(script), sqlite_games])
    answer: list[int] = []

    def ask() -> None:
        conn = http.client.HTTPConnection(served.host, served.port, timeout=120)
        conn.request("GET", "/api/games/nim/positions")
        answer.append(conn.getresponse().status)

    client = threading.Thread(target=ask)
    client.start()
    deadline = time.monotonic() + 60
    while not started.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert started.exists()
    assert served.stop(signal.SIGINT, timeout=60) == 0  # killed (-9) if it were still running after 60 s
    client.join(timeout=60)
    assert answer == [503]
    assert "Traceback" not in served.log(), served.log()
