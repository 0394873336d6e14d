"""Nim, subtraction games, Grundy's game; sums by XOR; the move-table grundy engine; resuming."""

import pytest

from gamedb import make_game
from gamedb.errors import InputError, PositionNotFound

from flip_string import FlipString
from oracles.impartial import flip_run_values, grundy_game_values, nim_moves, remoteness_by_search, subtraction_children, subtraction_values


def test_nim_sum_is_the_xor_and_lists_every_legal_move(fresh_db):
    db = fresh_db()
    db.solve(make_game("nim", max=20))
    assert [row["grundy"] for row in db.positions("nim")] == list(range(21))
    answer = db.probe("nim", "3 5 7")
    assert (answer.grundy, answer.result, answer.winner, answer.degree) == (3 ^ 5 ^ 7, "win", "next", 15)
    assert answer.outcome == "N-position" and answer.to_dict()["outcome"] == "N-position"
    assert {m.move: m.position for m in answer.moves} == nim_moves((3, 5, 7))
    for m in answer.moves:
        g = 0
        for h in m.position.split():
            g ^= int(h)
        assert (m.grundy, m.result) == (g, "win" if g else "lose")
    assert answer.moves[0].move == answer.best_move
    assert answer.moves[0].grundy == 0
    assert answer.to_dict(impartial=True)["moves"][0]["grundy"] == 0
    # a lost sum: every move wins for the opponent
    lost = db.probe("nim", "1 2 3")
    assert lost.result == "lose" and lost.winner == "previous" and lost.outcome == "P-position" and all(m.result == "win" for m in lost.moves)
    # Nim's rules grow with the heap: no period, larger heaps are refused
    with pytest.raises(PositionNotFound, match="does not apply to Nim"):
        db.probe("nim", "21")


def test_nim_remoteness_of_single_heaps_and_sums(fresh_db):
    db = fresh_db()
    db.solve(make_game("nim", max=10))
    assert db.probe("nim", "7").remoteness == 1  # take the whole heap
    assert db.probe("nim", "0").remoteness == 0
    # a sum of two live heaps: not determined by the parts' values, found by searching the sum
    assert db.probe("nim", "3 5").remoteness == remoteness_by_search(subtraction_children(range(1, 11)), (3, 5))[1] == 7
    # a sum too large for a query's search: not determined (null)
    assert db.probe("nim", "10 10 10 9 9 8 8 7").remoteness is None


def test_subtraction_game_values_and_period(fresh_db):
    db = fresh_db()
    db.solve(make_game("subtraction", set="2, 5,3", max=300))
    record = db.game("subtraction-2,3,5")
    assert record.parameters == {"set": "2,3,5", "max": 300}
    expected = subtraction_values([2, 3, 5], 300)
    assert [row["grundy"] for row in db.positions(record.name)] == expected
    info = db.stats(record.name)["periodicity"]
    assert info["proven"]
    p, n0 = info["period"], info["preperiod"]
    n = 10**13 + 11
    assert db.probe(record.name, str(n)).grundy == expected[n0 + (n - n0) % p]
    answer = db.probe(record.name, f"{n} 4")
    assert answer.degree == 3 + 2 and answer.moves_complete
    assert {m.move for m in answer.moves} == {"1:10000000000009", "1:10000000000008", "1:10000000000006", "2:2", "2:1"}
    db.verify(record.name)


def test_grundys_game(fresh_db):
    db = fresh_db()
    db.solve(make_game("grundy", max=400))
    assert [row["grundy"] for row in db.positions("grundy")] == grundy_game_values(400)
    answer = db.probe("grundy", "7")
    assert {m.move for m in answer.moves} == {"1:1+6", "1:2+5", "1:3+4"}
    assert db.stats("grundy")["extra"]["period"].startswith("not looked for")
    with pytest.raises(PositionNotFound, match="Grundy's game"):
        db.probe("grundy", "401")
    db.verify("grundy")


def test_remoteness_is_gamesman_where_determined(fresh_db):
    """Subtraction heaps have single-heap options only: remoteness is the plain Gamesman value."""
    db = fresh_db()
    db.solve(make_game("subtraction", set="1,2,5", max=200))
    result, remoteness = {}, {}
    for n in range(201):
        children = [n - s for s in (1, 2, 5) if s <= n]
        if not children:
            result[n], remoteness[n] = "lose", 0
        elif any(result[c] == "lose" for c in children):
            result[n], remoteness[n] = "win", 1 + min(remoteness[c] for c in children if result[c] == "lose")
        else:
            result[n], remoteness[n] = "lose", 1 + max(remoteness[c] for c in children)
    for row in db.positions("subtraction-1,2,5"):
        assert (row["result"], row["remoteness"]) == (result[row["code"]], remoteness[row["code"]])


def test_a_killed_solve_resumes_to_identical_tables(fresh_db, monkeypatch):
    import sqlalchemy as sa

    from gamedb.solvers.heaps import solver as heap_engine

    whole = fresh_db()
    whole.solve(make_game("octal", code="0.137", max=400))

    monkeypatch.setattr(heap_engine, "WRITE_BATCH", 50)  # commit every 50 heaps
    calls = []

    def kill(phase, done, total):
        calls.append(done)
        if phase == "heaps" and done > 150:
            raise KeyboardInterrupt

    broken = fresh_db()
    with pytest.raises(KeyboardInterrupt):
        broken.solve(make_game("octal", code="0.137", max=400), progress=kill)
    assert calls == [50, 100, 150, 200]
    assert broken.game("octal-0.137").status != "solved"
    with broken.engine.connect() as conn:  # four batches committed, the rest to write
        written = conn.execute(sa.text("SELECT COUNT(*) FROM position")).scalar()
    assert written == 200
    report = broken.solve(make_game("octal", code="0.137", max=400))
    assert report.resumed
    assert list(broken.positions("octal-0.137")) == list(whole.positions("octal-0.137"))
    assert broken.game("octal-0.137").info == whole.game("octal-0.137").info


def test_move_table_engine_gives_grundy_values(backend_db):
    import sqlalchemy as sa

    from gamedb.errors import VerifyError
    from gamedb.solvers.checks import verify

    db = backend_db()
    game = FlipString("+++++++-++++++")
    if backend_db.backend == "duckdb":  # only the SQL strategy takes this game
        with pytest.raises(InputError, match="does not run on a DuckDB file"):
            db.solve(game, name="strings")
        return
    db.solve(game, name="strings")
    runs = flip_run_values(20)
    rows = list(db.positions("strings"))
    assert len(rows) > 100
    for row in rows:
        expected = 0
        for run in row["text"].split("-"):
            expected ^= runs[len(run)]
        assert row["grundy"] == expected, row["text"]
        assert (row["grundy"] == 0) == (row["result"] == "lose")
    answer = db.probe("strings")
    assert answer.grundy == runs[7] ^ runs[6]
    assert all(m.grundy is not None for m in answer.moves)
    verify(db.engine, db.game("strings"), game)
    with db.engine.begin() as conn:  # a wrong grundy value is caught
        assert conn.execute(sa.text("UPDATE position SET grundy = 5 WHERE text = '+++++---++++++'")).rowcount == 1
    with pytest.raises(VerifyError, match="'[+]{5}---[+]{6}'.*grundy 5"):
        verify(db.engine, db.game("strings"), game)
