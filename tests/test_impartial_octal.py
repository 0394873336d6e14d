"""Octal games: values against a plain implementation, published periods, huge heaps."""

import time

import pytest

from gamedb import make_game
from gamedb.errors import PositionNotFound

from oracles.impartial import kayles_moves, octal_values, periodic_value

CODES = ["0.07", "0.77", "0.137", "0.6", "4.07", "0.007", "0.16", "0.4", "0.51", "0.72", "0.123", "0.777", "4.7"]


@pytest.fixture(scope="module")
def octal_db(tmp_path_factory):
    from gamedb import Database

    db = Database(tmp_path_factory.mktemp("octal") / "octal.sqlite", create=True)
    for code in CODES:
        db.solve(make_game("octal", code=code, max=500))
    yield db
    db.close()


@pytest.mark.parametrize("code", CODES)
def test_values_up_to_500_match_a_plain_implementation(octal_db, code):
    expected = octal_values(code, 500)
    rows = list(octal_db.positions(f"octal-{code}"))
    assert [row["grundy"] for row in rows] == expected
    assert all(row["result"] == ("win" if row["grundy"] else "lose") for row in rows)


def test_kayles_is_periodic_with_period_12_after_70(octal_db):
    info = octal_db.stats("octal-0.77")["periodicity"]
    assert (info["proven"], info["period"], info["preperiod"], info["last_exceptional"]) == (True, 12, 71, 70)


def test_dawsons_chess_has_period_34(octal_db):
    info = octal_db.stats("octal-0.137")["periodicity"]
    assert (info["proven"], info["period"], info["last_exceptional"]) == (True, 34, 51)


def test_stats_show_period_lines(octal_db):
    extra = octal_db.stats("octal-0.77")["extra"]
    assert (extra["period"], extra["pre-period"], extra["last exceptional"]) == (12, 71, 70)
    assert "not proven" in octal_db.stats("octal-0.6")["extra"]["period"]


@pytest.mark.parametrize("code", ["0.77", "0.137", "0.07"])
def test_a_heap_of_10_12_plus_7_answers_at_once(octal_db, code):
    info = octal_db.stats(f"octal-{code}")["periodicity"]
    values = octal_values(code, 500)
    n = 10**12 + 7
    started = time.perf_counter()
    answer = octal_db.probe(f"octal-{code}", str(n))
    assert time.perf_counter() - started < 1.0
    g = periodic_value(values, info["preperiod"], info["period"], n)
    assert answer.grundy == g and answer.result == ("win" if g else "lose")
    assert answer.moves_complete is False and answer.remoteness is None
    if g:  # the best move leaves heaps whose values cancel
        left = 0
        for part in answer.best_move.split(":")[1].split("+"):
            left ^= periodic_value(values, info["preperiod"], info["period"], int(part))
        assert left == 0 and answer.moves[0].grundy == 0


def test_sum_of_huge_heaps(octal_db):
    values = octal_values("0.77", 500)
    heaps = [10**12 + 7, 10**15 + 3, 42]
    answer = octal_db.probe("octal-0.77", " ".join(map(str, heaps)))
    expected = 0
    for h in heaps:
        expected ^= periodic_value(values, 71, 12, h)
    assert answer.grundy == expected


def test_unproven_game_refuses_larger_heaps(octal_db):
    with pytest.raises(PositionNotFound, match="not proven periodic") as info:
        octal_db.probe("octal-0.6", "501")
    assert info.value.exit_code == 1
    assert octal_db.probe("octal-0.6", "500").grundy == octal_values("0.6", 500)[500]


def test_kayles_sum_lists_exactly_the_legal_moves(octal_db):
    values = octal_values("0.77", 60)
    for heaps in [(3, 5, 7), (1, 1), (12,), (2, 9, 4, 4)]:
        answer = octal_db.probe("octal-0.77", " ".join(map(str, heaps)))
        expected = kayles_moves(heaps)
        assert {m.move: m.position for m in answer.moves} == expected
        for m in answer.moves:
            g = 0
            for h in (int(x) for x in m.position.split() if x != "0"):
                g ^= values[h]
            assert m.grundy == g and m.result == ("win" if g else "lose")


def test_single_heap_probe_agrees_with_the_stored_row(octal_db):
    for code in ("0.77", "0.137", "4.07"):
        rows = {row["code"]: row for row in octal_db.positions(f"octal-{code}")}
        for n in range(0, 120):
            answer = octal_db.probe(f"octal-{code}", str(n))
            row = rows[n]
            assert (answer.grundy, answer.result, answer.remoteness, answer.best_move, answer.degree) == (
                row["grundy"], row["result"], row["remoteness"], row["best_move"], row["degree"]
            ), (code, n)


def test_verify_passes_and_catches_a_wrong_grundy(octal_db, tmp_path):
    import sqlalchemy as sa

    from gamedb.errors import VerifyError

    octal_db.verify("octal-0.137")
    record = octal_db.game("octal-0.137")
    with octal_db.engine.begin() as conn:
        conn.execute(sa.text("UPDATE position SET grundy = grundy + 1 WHERE game_id = :g AND code = 40"), {"g": record.id})
    try:
        with pytest.raises(VerifyError, match="'40'.*grundy"):
            octal_db.verify("octal-0.137")
    finally:
        with octal_db.engine.begin() as conn:
            conn.execute(sa.text("UPDATE position SET grundy = grundy - 1 WHERE game_id = :g AND code = 40"), {"g": record.id})


@pytest.mark.parametrize("code, message", [("0.8", "octal digit"), ("2.07", "0 or 4"), ("77", "octal code"), ("0.7.7", "octal code")])
def test_bad_codes_are_input_errors(code, message):
    from gamedb.errors import InputError

    with pytest.raises(InputError, match=message):
        make_game("octal", code=code, max=10)


def test_kayles_proof_needs_exactly_the_heaps_the_theorem_names(tmp_path):
    """Guy and Smith: with pre-period n0, period p and at most t tokens taken, values agreeing for
    n0 <= n < 2*n0 + p + t prove the period; that compares heaps up to 2*n0 + 2*p + t - 1 (167 for Kayles)."""
    from gamedb import Database

    n0, p, t = 71, 12, 2
    needed = 2 * n0 + 2 * p + t - 1
    db = Database(tmp_path / "kayles.sqlite", create=True)
    db.solve(make_game("octal", code="0.77", max=needed - 1), "short")
    db.solve(make_game("octal", code="0.77", max=needed), "enough")
    assert db.stats("short")["periodicity"]["proven"] is False
    enough = db.stats("enough")["periodicity"]
    assert (enough["proven"], enough["period"], enough["preperiod"]) == (True, p, n0)
    with pytest.raises(PositionNotFound, match="not proven periodic"):
        db.probe("short", str(10**12 + 7))
    assert db.probe("enough", str(10**12 + 7)).grundy == periodic_value(octal_values("0.77", needed), n0, p, 10**12 + 7)
    db.close()
