"""The in-memory heap engine: row for row against the old SQL engine, remoteness against a brute-force search."""

import json

import pytest
from heap_sql_reference import solve_by_sql

from gamedb import make_game
from gamedb.solvers.heaps.values import compute

from oracles.impartial import (
    grundy_game_children,
    grundy_game_values,
    octal_children,
    octal_values,
    one_heap_table,
    remoteness_by_search,
    subtraction_children,
)

GAMES = [
    ("octal", {"code": "0.77", "max": 150}),
    ("octal", {"code": "0.137", "max": 150}),
    ("octal", {"code": "4.07", "max": 120}),
    ("octal", {"code": "0.6", "max": 150}),
    ("grundy", {"max": 150}),
    ("subtraction", {"set": "1,2,5", "max": 300}),
    ("nim", {"max": 40}),
    ("flip", {"max": 120}),
]


def _label(game, n, best):
    """The label of the best option (rule index, smaller part) as the family's move from heap ``n``."""
    if best is None:
        return None
    return game.option_move(game.heap_state(n), 0, best[0], game.option_parts(n, *best))[0]


def _rows(game, values):
    return [
        (
            n,
            game.format(game.heap_state(n)),
            "win" if values.grundy[n] else "lose",
            values.remoteness[n],
            values.degree[n],
            _label(game, n, values.best[n]),
            values.grundy[n],
        )
        for n in range(game.max_heap + 1)
    ]


@pytest.mark.parametrize("family, params", GAMES, ids=[f"{f}-{'-'.join(map(str, p.values()))}" for f, p in GAMES])
def test_rows_are_those_of_the_old_sql_engine(backend_db, family, params):
    from gamedb.store import catalog

    if backend_db.backend == "duckdb":
        pytest.skip("the old SQL engine does not run on DuckDB")
    db = backend_db()
    game = make_game(family, **params)
    with db.engine.begin() as conn:
        record = catalog.create(conn, "reference", game, "heaps")
    old = solve_by_sql(db.engine, record.id, game)
    # without the sum search: every row identical
    assert _rows(game, compute(game, search_budget=0)) == old
    # with it: identical wherever the old engine knew the remoteness; more remoteness known, never less
    new = _rows(game, compute(game))
    for new_row, old_row in zip(new, old, strict=True):
        if old_row[3] is not None:
            assert new_row == old_row
        else:
            assert new_row[:3] + new_row[4:5] + new_row[6:] == old_row[:3] + old_row[4:5] + old_row[6:]
    # and the engine writes exactly these rows
    db.solve(game, "solved")
    stored = [tuple(row[k] for k in ("code", "text", "result", "remoteness", "degree", "best_move", "grundy")) for row in db.positions("solved")]
    assert stored == new
    db.verify("solved")


# games whose options leave at most one heap: (family, params, takes of the whole heap, takes leaving a heap)
ONE_HEAP = [
    ("subtraction", {"set": "1,2,5"}, (1, 2, 5), (1, 2, 5)),
    ("subtraction", {"set": "2,3,7"}, (2, 3, 7), (2, 3, 7)),
    ("subtraction", {"set": "3,5,11,12"}, (3, 5, 11, 12), (3, 5, 11, 12)),
    ("subtraction", {"set": "1"}, (1,), (1,)),
    ("octal", {"code": "0.123"}, (1, 3), (2, 3)),
    ("octal", {"code": "0.0312"}, (2, 3), (2, 4)),
]


@pytest.mark.parametrize("family, params, whole, leave", ONE_HEAP, ids=[f"{o[0]}-{'-'.join(o[1].values())}" for o in ONE_HEAP])
def test_one_heap_games_repeat_a_proven_window_and_agree_with_the_oracle_heap_by_heap(family, params, whole, leave):
    top = 1500
    oracle = one_heap_table(whole, leave, top)
    game = make_game(family, max=top, **params)
    values = compute(game)
    assert values.repeated_from is not None and values.repeated_from < 200  # the loop stopped early: the repeat is tested
    got = [(g, bool(g), r, _label(game, n, b)) for n, (g, r, b) in enumerate(zip(values.grundy, values.remoteness, values.best, strict=True))]
    assert got == oracle
    assert values.degree == [len(set(whole) & {n}) + sum(n > k for k in leave) for n in range(top + 1)]
    # every size around where the repeat starts: the lists end at the right heap, equal to the oracle's
    for small in range(1, values.repeated_from + 30):
        short = compute(make_game(family, max=small, **params))
        expected = (values.grundy[: small + 1], list(values.remoteness[: small + 1]), values.best[: small + 1])
        assert (short.grundy, list(short.remoteness), short.best) == expected


def test_a_solved_subtraction_game_past_its_repeat_verifies_and_a_changed_row_beyond_it_does_not(fresh_db):
    import sqlalchemy as sa

    from gamedb.errors import VerifyError

    db = fresh_db()
    db.solve(make_game("subtraction", set="2,3,7", max=10007), "s")
    db.verify("s")
    oracle = one_heap_table((2, 3, 7), (2, 3, 7), 10007)
    assert [(row["grundy"], row["remoteness"], row["best_move"]) for row in db.positions("s")] == [(g, r, b) for g, _, r, b in oracle]
    with db.engine.begin() as conn:
        conn.execute(sa.text("UPDATE position SET remoteness = remoteness + 3 WHERE code = 9999"))
    with pytest.raises(VerifyError, match="'9999'.*remoteness"):
        db.verify("s")


ORACLES = [
    ("octal", {"code": "0.77"}, octal_children("0.77"), lambda top: octal_values("0.77", top)),
    ("octal", {"code": "0.137"}, octal_children("0.137"), lambda top: octal_values("0.137", top)),
    ("octal", {"code": "4.07"}, octal_children("4.07"), lambda top: octal_values("4.07", top)),
    ("grundy", {}, grundy_game_children, grundy_game_values),
    ("subtraction", {"set": "1,2,5"}, subtraction_children((1, 2, 5)), None),
]


@pytest.mark.parametrize("family, params, children, grundy", ORACLES, ids=[f"{o[0]}-{'-'.join(o[1].values())}" for o in ORACLES])
def test_remoteness_of_each_heap_is_that_of_a_search_of_whole_positions(fresh_db, family, params, children, grundy):
    top = 20
    db = fresh_db()
    game = make_game(family, max=top, **params)
    db.solve(game, "g")
    rows = list(db.positions("g"))
    searched_to = db.game("g").info["remoteness_searched_to"]
    assert searched_to == top  # small heaps: the search reaches them all
    if grundy:
        assert [row["grundy"] for row in rows] == grundy(top)
    for row in rows:
        wins, remoteness = remoteness_by_search(children, (row["code"],) if row["code"] else ())
        assert (row["result"], row["remoteness"]) == ("win" if wins else "lose", remoteness), row["code"]
        if row["best_move"]:  # the best move leads where the search says: a quickest win, a slowest loss
            child = db.probe("g", row["text"]).moves[0]
            assert child.move == row["best_move"]
            child_wins, child_remoteness = remoteness_by_search(children, tuple(int(h) for h in child.position.split() if h != "0"))
            assert (child_wins, child_remoteness + 1) == (not wins, remoteness)


def test_sums_are_searched_at_query_time_and_agree_with_the_search(fresh_db):
    db = fresh_db()
    db.solve(make_game("octal", code="0.77", max=30), "k")
    children = octal_children("0.77")
    for heaps in [(3, 5), (1, 1), (2, 2, 3), (4, 7), (1, 2, 3, 4)]:
        answer = db.probe("k", " ".join(map(str, heaps)))
        wins, remoteness = remoteness_by_search(children, heaps)
        assert (answer.result, answer.remoteness) == ("win" if wins else "lose", remoteness), heaps
        for m in answer.moves:
            parts = tuple(int(h) for h in m.position.split() if h != "0")
            assert m.remoteness == remoteness_by_search(children, parts)[1], (heaps, m.move)


def test_large_heaps_of_a_splitting_game_keep_null_remoteness_and_stats_say_so(fresh_db):
    db = fresh_db()
    db.solve(make_game("octal", code="0.77", max=400), "k")
    record = db.game("k")
    searched_to = record.info["remoteness_searched_to"]
    assert 20 < searched_to < 400
    rows = list(db.positions("k"))
    assert all(row["remoteness"] is not None for row in rows[: searched_to + 1])
    assert rows[-1]["remoteness"] is None
    unknown = sum(row["remoteness"] is None for row in rows)
    line = db.stats("k")["extra"]["remoteness"]
    assert f"heaps 0..{searched_to}" in line and f"{unknown:,} larger heaps" in line
    # a game without splits knows every heap's remoteness
    db.solve(make_game("subtraction", set="1,2,5", max=1000), "s")
    assert db.game("s").info["remoteness_searched_to"] == 1000
    assert "every heap" in db.stats("s")["extra"]["remoteness"]


def test_cli_kayles_heap_3_has_a_remoteness_and_stats_qualify_the_max(cli):
    assert cli("solve", "octal", "--code", "0.77", "--max", "200", "--quiet").exit_code == 0
    q = cli("query", "octal-0.77", "3", "--json")
    data = json.loads(q.stdout)
    # heap 3: knock out the middle pin, leaving 1 + 1 (a loss in 2: each player takes one)
    assert (data["result"], data["remoteness"], data["best_move"]) == ("win", 3, "1:1+1")
    assert remoteness_by_search(octal_children("0.77"), (3,)) == (True, 3)
    stats = cli("stats", "octal-0.77").stdout
    assert "max remoteness" in stats and "of the positions with a known remoteness" in stats
    assert "remoteness" in stats and "exact for heaps 0.." in stats
    assert cli("verify", "octal-0.77").exit_code == 0
    assert cli("solve", "subtraction", "--set", "1,2,5", "--max", "50", "--quiet").exit_code == 0
    stats = cli("stats", "subtraction-1,2,5").stdout
    assert "known for every heap" in stats and "of the positions with a known" not in stats


@pytest.mark.parametrize(
    "change, message",
    [
        ("UPDATE position SET remoteness = remoteness + 2 WHERE game_id = :g AND code = 12", "'12'.*remoteness"),
        ("UPDATE position SET remoteness = NULL WHERE game_id = :g AND code = 20", "'20'.*remoteness None"),
        ("UPDATE position SET best_move = '1:2+8' WHERE game_id = :g AND code = 12", "'12'.*best move"),
        ({"remoteness_searched_to": 5}, "'6'.*remoteness"),  # claims less than is stored
        ({"remoteness_searched_to": 199}, "remoteness"),  # claims more than is stored (and than a search reaches)
        ({"remoteness_searched_to": "all"}, "remoteness_searched_to is not a whole number"),  # refused where the row is read
    ],
)
def test_verify_rederives_searched_remoteness(fresh_db, change, message):
    import sqlalchemy as sa

    from gamedb.errors import VerifyError
    from gamedb.store.schema import game as game_table

    db = fresh_db()
    db.solve(make_game("octal", code="0.77", max=200), "k")
    db.verify("k")
    record = db.game("k")
    with db.engine.begin() as conn:
        if isinstance(change, str):
            assert conn.execute(sa.text(change), {"g": record.id}).rowcount == 1
        else:
            conn.execute(game_table.update().where(game_table.c.id == record.id).values(info={**record.info, **change}))
    with pytest.raises(VerifyError, match=message):
        db.verify("k")


def test_one_live_component_takes_the_stored_best_move_wherever_it_stands(fresh_db):
    """The position's value is its live heap's; so is its best move, played on that heap where it stands."""
    db = fresh_db()
    db.solve(make_game("grundy", max=80), "g")
    db.solve(make_game("flip", max=80), "f")
    grundy_rows = {row["code"]: row for row in db.positions("g")}
    flip_rows = {row["code"]: row for row in db.positions("f")}
    for n in range(3, 81):
        row = grundy_rows[n]
        answer = db.probe("g", f"1 2 {n}")  # heaps 1 and 2 have no moves in Grundy's game
        assert (answer.remoteness, answer.best_move) == (row["remoteness"], "3:" + row["best_move"].split(":")[1]), n
        assert answer.moves[0].move == answer.best_move
    for n in range(2, 81):
        row = flip_rows[n]
        answer = db.probe("f", "+-" + "+" * n)  # a run of one has no moves; this run starts at index 2
        assert (answer.remoteness, answer.best_move) == (row["remoteness"], str(int(row["best_move"]) + 2)), n
