"""Benchmark: `gamedb serve` under load, and while a crowd of idle connections is held open.

    .venv/bin/python bench/serve_load.py
    .venv/bin/python bench/serve_load.py --clients 30 --requests 1500 --idle 1000 --files 1024   # the defaults
    bash .ci/postgres.sh sh -c '.venv/bin/python bench/serve_load.py --postgres "$GAMEDB_TEST_PG"'

Solves tic-tac-toe, Connect-Four 4x3 and Nim (``--max 20``) into a new
SQLite file (and with ``--postgres URL`` into that database too), starts
``gamedb serve`` on it as a user does (a child process on 127.0.0.1, a free
port) and sends ``--requests`` requests from ``--clients`` threads, each
with a keep-alive connection of its own, over the page's mixed endpoints:
the page, its static files, the game list, one game, and positions reached
from each game's start (a fixed random sample, the same for every run).
It prints requests per second, the median (p50) and 99th percentile (p99)
latency and the number of errors (an answer other than 200 or a connection
failure; a reused keep-alive connection that the server closed is retried
once on a new one, as browsers do, and counted apart). Then the same load
again while ``--idle`` connections are held open that send half a request
line and never finish their headers (re-opened whenever the server closes
one, so that as many are open all along).

The server starts with a soft limit of ``--files`` open files (1024, the
usual default on Linux, where the issue's server ran out), which it may
raise; then once more with that hard limit too, so that it cannot, and
1,000 idle connections are more than it lets in: it has to close the
oldest waiting ones to answer the clients. Each server is stopped with
Ctrl+C (SIGINT) at the end; its exit status and what it logged are shown.

Nothing here is a test (tests/test_serve_load.py holds the same load to zero
errors, without timing it); the load generator below is shared with it.
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import json
import os
import random
import re
import resource
import selectors
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

#: what the bench solves: (family and options, the stored name)
GAMES = [(("tictactoe",), "tictactoe"), (("connect4", "--width", "4", "--height", "3"), "connect4-4x3"), (("nim", "--max", "20"), "nim")]
STATIC = ["/", "/static/app.js", "/static/style.css", "/static/boards.js", "/static/favicon.svg"]


def gamedb_command() -> list[str]:
    """`gamedb` as installed beside this Python (the console script), else `python -m gamedb`."""
    script = Path(sys.executable).with_name("gamedb")
    return [str(script)] if script.exists() else [sys.executable, "-m", "gamedb"]


def raise_own_file_limit() -> None:
    """This process holds the idle crowd: let it open as many files as it may."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 65536
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


class Served:
    """`gamedb --db DB serve --port 0 ARGS` in a child process; ``host``, ``port`` once it listens."""

    def __init__(self, db: str, *args: str, files: int | None = None, hard: bool = False):
        self._start([*gamedb_command(), "--db", db, "serve", "--port", "0", *args], files, hard)

    @classmethod
    def command(cls, cmd: list[str], files: int | None = None, hard: bool = False) -> Served:
        """Any command that serves and announces its address as `gamedb serve` does."""
        served = cls.__new__(cls)
        served._start(cmd, files, hard)
        return served

    def _start(self, cmd: list[str], files: int | None, hard: bool) -> None:
        def limit() -> None:  # in the child, before it runs: the open-file limit a user's shell may give
            if files is not None:
                _, old_hard = resource.getrlimit(resource.RLIMIT_NOFILE)
                resource.setrlimit(resource.RLIMIT_NOFILE, (files, files if hard else old_hard))

        fd, name = tempfile.mkstemp(prefix="gamedb-serve-", suffix=".log")
        self.log_path, self._log = Path(name), os.fdopen(fd, "w+")  # one descriptor, closed by stop()
        self._text: str | None = None
        env = {k: v for k, v in os.environ.items() if k != "GAMEDB_DB"}
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=self._log, text=True, env=env, preexec_fn=limit)
        deadline = time.monotonic() + 60
        while True:
            announced = self.log_path.read_text()
            found = re.search(r"at http://([^/\s]+):(\d+)/ ", announced)
            if found:
                break
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise SystemExit(f"gamedb serve did not start: {announced}")
            time.sleep(0.05)
        self.announced = announced.splitlines()[0]
        self.host, self.port = found.group(1), int(found.group(2))
        self.url = f"http://{self.host}:{self.port}/"

    def log(self) -> str:
        """What the server wrote after its first line (so far, or until it stopped)."""
        text = self._text if self._text is not None else self.log_path.read_text()
        return "".join(text.splitlines(keepends=True)[1:])

    def stop(self, sig: int = signal.SIGINT, timeout: float = 30) -> int:
        """Ctrl+C (``sig``), and the exit status once it ended (killed if it does not within ``timeout`` s)."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self._text is None:
            self._log.close()
            self._text = self.log_path.read_text()
            self.log_path.unlink(missing_ok=True)
        return self.proc.returncode


def mixed_paths(host: str, port: int, count: int = 200, seed: int = 1) -> list[str]:
    """The requests the clients make, in a fixed random order: the page and its files, the game list,
    each game, and positions of every game reached by random play from its start (read from the API)."""
    rng = random.Random(seed)
    conn = http.client.HTTPConnection(host, port, timeout=30)

    def get(path: str) -> object:
        conn.request("GET", path)
        response = conn.getresponse()
        body = response.read()
        if response.status != 200:
            raise SystemExit(f"GET {path}: {response.status} {body[:200]!r}")
        return json.loads(body)

    games = get("/api/games")
    assert isinstance(games, list)
    positions: list[str] = []
    for game in games:
        name = urllib.parse.quote(game["name"], safe="")
        base = f"/api/games/{name}/positions"
        while len(positions) < count * (games.index(game) + 1) // len(games):
            answer = get(base)
            assert isinstance(answer, dict)
            for _ in range(40):  # a random game from the start, each position on the way
                positions.append(f"{base}?position={urllib.parse.quote(answer['position'], safe='')}")
                moves = [m for m in answer.get("moves", []) if m.get("position")]
                if not moves or len(positions) % 7 == 0:
                    break
                answer = get(f"{base}?position={urllib.parse.quote(rng.choice(moves)['position'], safe='')}")
                assert isinstance(answer, dict)
    conn.close()
    others = STATIC + ["/api/games"] + [f"/api/games/{urllib.parse.quote(g['name'], safe='')}" for g in games]
    paths = positions + others * (len(positions) // (2 * len(others)) + 1)
    rng.shuffle(paths)
    return paths


@dataclass
class Load:
    """What the clients met: latency per answered request, errors, retries, the answers' statuses, and
    the digests of the bodies each path was answered (one each, unless answers differed under load)."""

    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    retried: int = 0
    bodies: dict[str, set[str]] = field(default_factory=dict)

    @property
    def requests(self) -> int:
        return len(self.latencies) + len(self.errors)

    def percentile(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else float("nan")

    def summary(self) -> str:
        if not self.latencies:
            return f"no request answered in {self.seconds:.1f} s, {len(self.errors)} errors"
        return (
            f"{self.requests / self.seconds:,.0f} requests/s, p50 {1000 * statistics.median(self.latencies):.1f} ms, "
            f"p99 {1000 * self.percentile(0.99):.1f} ms, {len(self.errors)} errors, {self.retried} retried"
        )


def run_load(host: str, port: int, paths: list[str], *, clients: int, requests: int, timeout: float = 60) -> Load:
    """``requests`` GETs of ``paths`` (in turn) from ``clients`` threads, each on a keep-alive connection of its own."""
    load = Load()
    lock = threading.Lock()
    counter = iter(range(requests))
    start = threading.Barrier(clients + 1)

    def client() -> None:
        conn = http.client.HTTPConnection(host, port, timeout=timeout)
        start.wait()
        while True:
            with lock:
                i = next(counter, None)
            if i is None:
                break
            path = paths[i % len(paths)]
            t0 = time.perf_counter()
            for attempt in (1, 2):
                reused = conn.sock is not None
                try:
                    conn.request("GET", path)
                    response = conn.getresponse()
                    body = response.read()
                except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError) as exc:
                    conn.close()
                    if reused and attempt == 1:  # the server closed a kept-alive connection: a new one, as browsers do
                        with lock:
                            load.retried += 1
                        continue
                    with lock:
                        load.errors.append(f"GET {path}: {type(exc).__name__}: {exc}")
                    break
                except (OSError, http.client.HTTPException) as exc:  # refused, timed out, cut short
                    conn.close()
                    with lock:
                        load.errors.append(f"GET {path}: {type(exc).__name__}: {exc}")
                    break
                seconds = time.perf_counter() - t0
                with lock:
                    load.statuses[response.status] += 1
                    load.bodies.setdefault(path, set()).add(hashlib.sha256(body).hexdigest())
                    if response.status == 200:
                        load.latencies.append(seconds)
                    else:
                        load.errors.append(f"GET {path}: {response.status}")
                if response.will_close:
                    conn.close()
                break
        conn.close()

    threads = [threading.Thread(target=client, daemon=True) for _ in range(clients)]
    for thread in threads:
        thread.start()
    start.wait()
    t0 = time.perf_counter()
    for thread in threads:
        thread.join()
    load.seconds = time.perf_counter() - t0
    return load


class IdleCrowd:
    """``count`` connections that send half a request line and never finish their headers (a slow
    client, or a slowloris attack), re-opened as the server closes them, held while in a ``with`` block."""

    PARTIAL = b"GET / HTTP/1.1\r\nHost: "

    def __init__(self, host: str, port: int, count: int):
        self.host, self.port, self.count = host, port, count
        self.opened = 0  # connections made (the first ``count``, then re-opened ones)
        self.closed_by_server = 0
        self.failed = 0  # connections that could not be made (refused, reset, timed out)
        self.selector = selectors.DefaultSelector()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._hold, daemon=True)

    def _open_one(self) -> None:
        sock = socket.socket()
        sock.settimeout(10)
        try:
            sock.connect((self.host, self.port))
            sock.sendall(self.PARTIAL)
        except OSError:
            sock.close()
            self.failed += 1
            time.sleep(0.01)
            return
        sock.setblocking(False)
        self.selector.register(sock, selectors.EVENT_READ)
        self.opened += 1

    def open_now(self) -> int:
        """How many of the crowd's connections are open."""
        return len(self.selector.get_map())

    def _hold(self) -> None:
        while not self._stop.is_set():
            for key, _ in self.selector.select(timeout=0.05):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                try:
                    data = sock.recv(4096)
                except OSError:
                    data = b""
                if not data:  # closed (or answered and closed) by the server
                    self.selector.unregister(sock)
                    sock.close()
                    self.closed_by_server += 1
            while self.open_now() < self.count and not self._stop.is_set():
                self._open_one()
                if self.failed and self.opened + self.failed > 20 * self.count:  # the server refuses all: stop trying
                    return

    def __enter__(self) -> IdleCrowd:
        try:
            while self.open_now() < self.count:
                self._open_one()
                if self.failed > self.count:
                    break
            self._thread.start()
        except BaseException:  # released here: __exit__ is not called when __enter__ fails
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        for key in list(self.selector.get_map().values()):
            self.selector.unregister(key.fileobj)
            key.fileobj.close()  # type: ignore[union-attr]
        self.selector.close()


def solve(db: str) -> None:
    for options, _name in GAMES:
        subprocess.run([*gamedb_command(), "--db", db, "solve", *options, "-q"], check=True)


def measure(db: str, label: str, args: argparse.Namespace, *, hard: bool, plain: bool = True) -> None:
    """The rows of one server: the load alone (``plain``), then with the idle crowd held."""
    limit = f"open files {args.files} soft and hard" if hard else f"open files {args.files} soft"
    served = Served(db, files=args.files, hard=hard)
    try:
        paths = mixed_paths(served.host, served.port)
        run_load(served.host, served.port, paths, clients=args.clients, requests=min(300, args.requests))  # warm up
        if plain:
            load = run_load(served.host, served.port, paths, clients=args.clients, requests=args.requests)
            print(f"  {label} ({limit}), {args.clients} clients x {args.requests:,} requests: {load.summary()}", flush=True)
            for error in load.errors[:5]:
                print(f"    {error}")
        with IdleCrowd(served.host, served.port, args.idle) as crowd:
            held = crowd.open_now()
            load = run_load(served.host, served.port, paths, clients=args.clients, requests=args.requests)
        print(
            f"  {label} ({limit}), the same with {args.idle:,} idle connections held: {load.summary()}; "
            f"{held:,} idle open at the start, {crowd.closed_by_server:,} closed by the server meanwhile",
            flush=True,
        )
        for error in load.errors[:5]:
            print(f"    {error}")
    finally:
        status = served.stop()
        log = served.log()
    lines = log.splitlines()
    print(f"    the server stopped on Ctrl+C with exit status {status} and logged {len(lines)} line(s){': ' + lines[0][:160] if lines else ''}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=30)
    parser.add_argument("--requests", type=int, default=1500)
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--files", type=int, default=1024, help="the server's soft limit of open files (default: 1024, Linux's usual)")
    parser.add_argument("--postgres", help="a PostgreSQL URL: also serve the games from there")
    args = parser.parse_args()
    raise_own_file_limit()
    print(f"gamedb serve under load (load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores)")
    with tempfile.TemporaryDirectory(prefix="gamedb-serve-") as tmp:
        db = str(Path(tmp) / "served.sqlite")
        solve(db)
        measure(db, "SQLite", args, hard=False)
        measure(db, "SQLite", args, hard=True, plain=False)
    if args.postgres:
        solve(args.postgres)
        measure(args.postgres, "PostgreSQL", args, hard=False)
        measure(args.postgres, "PostgreSQL", args, hard=True, plain=False)


if __name__ == "__main__":
    main()
