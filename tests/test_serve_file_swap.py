"""A running `gamedb serve` whose SQLite file is replaced (a new one moved into its place) or removed.

Each of the server's worker threads has its own connection: before, a thread that had read the old file kept
answering from it and a thread that had not opened the new one, so the same request answered 200 and 404 by
turns; a removed file answered from the old connections and `database error: unable to open database file` (503)
from new threads. Now every answer comes from the file at the path: the new one once it is in place, and a
removed file is one 503 saying so.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import pytest
from web_games import Server, get_json

pytest.importorskip("starlette")



def _many(url: str, times: int = 24) -> list[tuple[int, dict]]:
    """``url`` asked ``times`` times at once (so that many of the server's threads answer it)."""
    with ThreadPoolExecutor(times) as pool:
        return list(pool.map(get_json, [url] * times))


def _solve(path, *games: tuple[str, dict]) -> None:
    from gamedb import Database, make_game

    with Database(path, create=True) as db:
        for name, options in games:
            db.solve(make_game(name, **options))


@pytest.mark.parametrize("suffix", [".sqlite", ".duckdb"])
def test_a_replaced_file_is_answered_by_every_thread_and_a_removed_one_says_so(tmp_path, suffix):
    if suffix == ".duckdb":
        pytest.importorskip("duckdb")
    served, new = tmp_path / f"games{suffix}", tmp_path / f"new{suffix}"
    _solve(served, ("nim", {"max": 5}))
    _solve(new, ("tictactoe", {}))
    server = Server(served)
    try:
        assert {status for status, _ in _many(server.url + "api/games/nim/positions?position=3")} == {200}
        os.replace(new, served)  # as `mv new.sqlite games.sqlite` does
        answers = _many(server.url + "api/games/tictactoe/positions?position=X........")
        assert {status for status, _ in answers} == {200}, answers
        answers = _many(server.url + "api/games/nim/positions?position=3")
        assert {status for status, _ in answers} == {404}, answers
        status, games = get_json(server.url + "api/games")
        assert status == 200 and [g["name"] for g in games] == ["tictactoe"], games
        served.unlink()
        answers = _many(server.url + "api/games/tictactoe/positions")
        assert {status for status, _ in answers} == {503}, answers
        error = answers[0][1]["error"]
        assert "was removed" in error and served.name in error, error
        (tmp_path / f"garbage{suffix}").write_bytes(b"not a database at all" * 100)
        os.replace(tmp_path / f"garbage{suffix}", served)
        status, body = get_json(server.url + "api/games")
        assert status == 503 and "cannot open" in body["error"], body
        _solve(new, ("nim", {"max": 4}))
        os.replace(new, served)  # a good file again: answered again
        status, body = get_json(server.url + "api/games/nim/positions?position=4")
        assert status == 200 and body["position"] == "4", body
    finally:
        assert server.stop() == 0
    assert "Traceback" not in server.errors, server.errors


def test_a_duckdb_file_moved_in_waits_for_the_reads_in_progress(tmp_path):
    """DuckDB answers a path from the file it has open there until every connection to it is closed: the switch waits
    for the read in progress (its cursor is not closed under it), and a read begun meanwhile answers from the new file."""
    pytest.importorskip("duckdb")
    from gamedb import Database

    served, new = tmp_path / "games.duckdb", tmp_path / "new.duckdb"
    _solve(served, ("nim", {"max": 5}))
    _solve(new, ("tictactoe", {}))
    with Database(served, readonly=True, follow_path=True) as db, ThreadPoolExecutor(1) as pool:
        with db.read() as reader:
            os.replace(new, served)
            later = pool.submit(db.games)
            assert [g.name for g in reader.all_games()] == ["nim"]  # the read begun before the switch, to its end
            assert not later.done()
        assert [g.name for g in later.result(timeout=30)] == ["tictactoe"]
        assert db.probe("tictactoe", "X........").result == "tie"
