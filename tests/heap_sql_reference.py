"""The SQL level engine that solved heap games before the in-memory one (gamedb b1817a7), kept as a reference.

One statement per heap computes its options' values from the stored smaller
heaps by joins, the mex by window functions, and the remoteness and best
move under the rule that every sum of two live heaps has unknown
remoteness. The in-memory engine (:mod:`gamedb.solvers.heaps.values`) must give the
same rows with its sum search switched off, and the same everywhere this
engine gives a remoteness; tests compare them row for row on both backends.
"""

from __future__ import annotations

import sqlalchemy as sa

from gamedb.games.heaps import HeapGame
from gamedb.store.schema import heap_rule, position

_OPTIONS = """
    SELECT 0 AS v, 0 AS r, CAST(r.idx AS BIGINT) * :stride AS ord
    FROM heap_rule r
    WHERE r.game_id = :g AND r.parts = 0 AND r.take = :n
    UNION ALL
    SELECT c.grundy, c.remoteness, CAST(r.idx AS BIGINT) * :stride
    FROM heap_rule r CROSS JOIN position c
    WHERE r.game_id = :g AND r.parts = 1 AND r.take BETWEEN 1 AND :n - 1
      AND c.game_id = :g AND c.code = :n - r.take
    UNION ALL
    SELECT (a.grundy | b.grundy) - (a.grundy & b.grundy),
           CASE WHEN a.degree = 0 THEN b.remoteness WHEN b.degree = 0 THEN a.remoteness END,
           CAST(r.idx AS BIGINT) * :stride + a.code
    FROM heap_rule r CROSS JOIN position a CROSS JOIN position b
    WHERE r.game_id = :g AND r.parts = 2 AND r.take <= :n - 2
      AND a.game_id = :g AND a.code BETWEEN 1 AND (:n - r.take - r.unequal) / 2
      AND b.game_id = :g AND b.code = :n - r.take - a.code
"""

# per distinct value: unknown remoteness count, first option, and the packed
# keys of the quickest (r * span + ord) and slowest ((rmax - r) * span + ord) option
_BY_VALUE = f"""
    SELECT o.v AS v,
           SUM(CASE WHEN o.r IS NULL THEN 1 ELSE 0 END) AS unknown,
           MIN(o.ord) AS first,
           MIN(CAST(o.r AS BIGINT) * :span + o.ord) AS fast,
           MIN((:rmax - CAST(o.r AS BIGINT)) * :span + o.ord) AS slow
    FROM ({_OPTIONS}) AS o
    GROUP BY o.v
"""

_SUMMARY = f"""
    SELECT COALESCE(MIN(CASE WHEN w.v <> w.rn - 1 THEN w.rn - 1 END), COUNT(*)) AS mex,
           COUNT(*) AS n_values,
           SUM(w.unknown) AS unknown,
           MIN(w.first) AS first,
           MIN(w.slow) AS slow,
           MAX(CASE WHEN w.v = 0 THEN w.unknown END) AS zero_unknown,
           MAX(CASE WHEN w.v = 0 THEN w.first END) AS zero_first,
           MAX(CASE WHEN w.v = 0 THEN w.fast END) AS zero_fast
    FROM (SELECT d.*, ROW_NUMBER() OVER (ORDER BY d.v) AS rn FROM ({_BY_VALUE}) AS d) AS w
"""

LEVEL = sa.text(
    f"""
UPDATE position
SET grundy = t.mex,
    result = CASE WHEN t.mex = 0 THEN 2 ELSE 1 END,  -- the stored codes (gamedb.values.RESULT_CODES)
    remoteness = CASE
        WHEN t.n_values = 0 THEN 0
        WHEN t.mex > 0 THEN CASE WHEN t.zero_unknown = 0 THEN 1 + t.zero_fast / :span END
        WHEN t.unknown = 0 THEN 1 + :rmax - t.slow / :span
    END,
    best_move = CASE  -- (a move's key, an integer: decoded to its label below)
        WHEN t.n_values = 0 THEN NULL
        WHEN t.mex > 0 THEN CASE WHEN t.zero_unknown = 0 THEN t.zero_fast % :span ELSE t.zero_first END
        WHEN t.unknown = 0 THEN t.slow % :span
        ELSE t.first
    END
FROM ({_SUMMARY}) AS t
WHERE position.game_id = :g AND position.code = :n
"""
)



def solve_by_sql(engine: sa.Engine, game_id: int, game: HeapGame) -> list[tuple]:
    """Write the rules and heaps of ``game`` under ``game_id``, solve them level by level; return the rows by code."""
    params = {"g": game_id, "stride": game.stride, "span": game.order_span, "rmax": game.max_remoteness}
    with engine.begin() as conn:
        conn.execute(heap_rule.delete().where(heap_rule.c.game_id == game_id))
        conn.execute(position.delete().where(position.c.game_id == game_id))
        conn.execute(
            heap_rule.insert(),
            [{"game_id": game_id, "parts": r.parts, "take": r.take, "idx": i, "unequal": int(r.unequal)} for i, r in enumerate(game.rules)],
        )
        conn.execute(
            position.insert(),
            [
                {"game_id": game_id, "code": n, "text": game.format(game.heap_state(n)), "player": 0, "degree": game.heap_degree(n)}
                for n in range(game.max_heap + 1)
            ],
        )
        for n in range(game.max_heap + 1):
            conn.execute(LEVEL, dict(params, n=n))
        rows = conn.execute(
            sa.text("SELECT code, text, CASE result WHEN 1 THEN 'win' WHEN 2 THEN 'lose' END, remoteness, degree, best_move, grundy "
                    "FROM position WHERE game_id = :g ORDER BY code"),
            {"g": game_id},
        ).all()
    labelled = []
    for code, text, result, remoteness, degree, key, grundy in rows:
        if key is not None:
            idx, smaller = divmod(int(key), game.stride)
            key = game.option_move(game.heap_state(code), 0, idx, game.option_parts(code, idx, smaller))[0]
        labelled.append((code, text, result, remoteness, degree, key, grundy))
    return labelled
