"""verify's fast array pass on a game stored one row per symmetry class (Dōbutsu with the chick): it agrees on the
solved file without the exact pass, and a result changed by hand is refused with its position named."""

from __future__ import annotations

import sqlite3

import pytest
from typer.testing import CliRunner

from gamedb.cli.app import app
from gamedb.games.dobutsu import Dobutsu
from gamedb.solvers import graph_verify

runner = CliRunner()


@pytest.fixture(params=["sqlite", "duckdb"])
def solved(request, tmp_path):
    if request.param == "duckdb":
        pytest.importorskip("duckdb")
    path = tmp_path / f"d.{request.param}"
    result = runner.invoke(app, ["solve", "dobutsu", "--pieces", "C", "--db", str(path), "-q"])
    assert result.exit_code == 0, result.output
    return path


def _exact_pass_rows(monkeypatch) -> list[int]:
    """Counts the rows the exact pass expands."""
    seen: list[int] = []
    expanded = graph_verify._expanded
    monkeypatch.setattr(graph_verify, "_expanded", lambda game, record, row: seen.append(row.code) or expanded(game, record, row))
    return seen


def _sql(path, statement: str) -> list[tuple]:
    if path.suffix == ".duckdb":
        from gamedb.store.duckdb_file import connect

        con = connect(path, read_only=False)  # as gamedb opens it (an open file's configuration must match)
        try:
            return con.execute(statement).fetchall()
        finally:
            con.close()
    with sqlite3.connect(path) as con:
        return con.execute(statement).fetchall()


def test_classes_agree_on_arrays_alone(solved, monkeypatch):
    stored = _sql(solved, "SELECT COUNT(*), MAX(code) FROM position")[0]
    seen = _exact_pass_rows(monkeypatch)
    result = runner.invoke(app, ["verify", "dobutsu-C", "--db", str(solved)])
    assert result.exit_code == 0, result.output
    assert f"OK: {stored[0]:,} positions" in result.output and seen == []
    assert stored[0] < 1 << 16 < stored[1]  # one row per class, sparse codes


def test_a_result_changed_by_hand_is_refused_with_its_position(solved, monkeypatch):
    code, result = _sql(solved, "SELECT code, result FROM position WHERE result IN (1, 2) AND remoteness > 2 ORDER BY code LIMIT 1")[0]
    _sql(solved, f"UPDATE position SET result = {3 - result} WHERE code = {code}")
    seen = _exact_pass_rows(monkeypatch)
    answer = runner.invoke(app, ["verify", "dobutsu-C", "--db", str(solved)])
    assert answer.exit_code == 1 and seen  # the exact pass names it
    game = Dobutsu("C")
    assert f"position {game.format(code)!r}: stored {['win', 'lose'][2 - result]}" in answer.output, answer.output
