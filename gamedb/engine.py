"""Retrograde propagation as batched, set-based SQL, one transaction per level.

The engine knows nothing about any game: it reads the ``position`` and
``move`` tables that :mod:`gamedb.enumerate` filled and writes result,
remoteness and best move (values for the player to move, Gamesman
conventions, see :mod:`gamedb.values`).

1. Win/lose levels. The frontier of level k is the positions decided with
   remoteness k (level 0: the primitive ones). An undecided parent of a
   ``lose`` frontier position becomes ``win`` with remoteness k+1; its best
   move is its lowest-ordered move to such a child. Every undecided parent of
   a ``win`` frontier position has its pending counter (``solve_counter``,
   started at the degree) lowered by the number of such moves; at zero it is
   ``lose`` with remoteness k+1, best move the lowest-ordered move into the
   frontier (its children of greatest remoteness).
2. Tie levels: an undecided parent of a tie child of remoteness t becomes a
   tie with remoteness t+1, best move the lowest-ordered such move.
3. What is still undecided is a ``draw``; its best move is the
   lowest-ordered move to a drawing child.

Every statement is driven from the (small) frontier: ``CROSS JOIN`` fixes
the join order in SQLite, and the move table is indexed by child. Each level
commits together with a progress marker in ``game.progress``, so a killed
solve resumes from the last finished level.
"""

from __future__ import annotations

from typing import Callable

import sqlalchemy as sa

from .catalog import load_progress, save_progress
from .errors import GamedbError
from .store.database import refresh_statistics

Progress = Callable[[str, int, "int | None"], None]

# best move of each parent of the frontier: its lowest-ordered move into it
# (one row per parent, from the covering index on move.child; the label is
# read only for the parents that are decided)
_RANKED_INTO_FRONTIER = """
    SELECT m.parent AS code, MIN(m.ord) AS ord
    FROM position c {c_hint} CROSS JOIN move m {m_hint} {extra_join}
    WHERE c.game_id = :g AND c.remoteness = :k AND c.result = '{child_result}'
      AND m.game_id = :g AND m.child = c.code {extra_where}
    GROUP BY m.parent
"""

_DECIDE = """
UPDATE position SET result = '{result}', remoteness = :k1,
       best_move = (SELECT b.label FROM move b WHERE b.game_id = :g AND b.parent = w.code AND b.ord = w.ord)
FROM ({ranked}) AS w
WHERE position.game_id = :g AND position.code = w.code AND position.result IS NULL
"""

WIN_STEP = _DECIDE.format(
    result="win", ranked=_RANKED_INTO_FRONTIER.format(extra_join="", extra_where="", child_result="lose", c_hint="{c_hint}", m_hint="{m_hint}")
)

TIE_STEP = _DECIDE.format(
    result="tie", ranked=_RANKED_INTO_FRONTIER.format(extra_join="", extra_where="", child_result="tie", c_hint="{c_hint}", m_hint="{m_hint}")
)

COUNT_STEP = (
    """
UPDATE solve_counter SET pending = solve_counter.pending - d.n
FROM (
    SELECT m.parent AS code, COUNT(*) AS n
    FROM position c {c_hint} CROSS JOIN move m {m_hint}
    WHERE c.game_id = :g AND c.remoteness = :k AND c.result = 'win'
      AND m.game_id = :g AND m.child = c.code
    GROUP BY m.parent
) AS d
WHERE solve_counter.game_id = :g AND solve_counter.code = d.code
"""
)

LOSE_STEP = _DECIDE.format(
    result="lose",
    ranked=_RANKED_INTO_FRONTIER.format(
        extra_join="CROSS JOIN solve_counter s",
        extra_where="AND s.game_id = :g AND s.code = m.parent AND s.pending = 0",
        child_result="win",
        c_hint="{c_hint}",
        m_hint="{m_hint}",
    ),
)

# SQLite's planner, before ANALYZE has run, may scan the whole move table for
# every level; INDEXED BY pins the frontier-driven plan (other servers plan
# well from their statistics and do not know the syntax).
_HINTS = {
    "sqlite": {"c_hint": "INDEXED BY ix_position_remoteness", "m_hint": "INDEXED BY ix_move_child"},
    None: {"c_hint": "", "m_hint": ""},
}


def statements(dialect: str) -> dict[str, sa.TextClause]:
    """The level statements, with planner hints for the dialect."""
    hints = _HINTS.get(dialect, _HINTS[None])
    return {name: sa.text(sql.format(**hints)) for name, sql in (("win", WIN_STEP), ("count", COUNT_STEP), ("lose", LOSE_STEP), ("tie", TIE_STEP))}

START_COUNTERS = sa.text(
    """
INSERT INTO solve_counter (game_id, code, pending)
SELECT game_id, code, degree FROM position WHERE game_id = :g AND result IS NULL
"""
)

DRAW_RESULT = sa.text("UPDATE position SET result = 'draw' WHERE game_id = :g AND result IS NULL")

DRAW_BEST = sa.text(
    """
UPDATE position SET best_move = (SELECT b.label FROM move b WHERE b.game_id = :g AND b.parent = d.code AND b.ord = d.ord)
FROM (
    SELECT m.parent AS code, MIN(m.ord) AS ord
    FROM position p CROSS JOIN move m CROSS JOIN position c
    WHERE p.game_id = :g AND p.result = 'draw'
      AND m.game_id = :g AND m.parent = p.code
      AND c.game_id = :g AND c.code = m.child AND c.result = 'draw'
    GROUP BY m.parent
) AS d
WHERE position.game_id = :g AND position.code = d.code
"""
)



def propagate(engine: sa.Engine, game_id: int, *, progress: Progress | None = None) -> dict:
    """Decide every position of ``game_id``; returns the number of levels of each phase."""
    sql = statements(engine.dialect.name)
    with engine.begin() as conn:
        state = load_progress(conn, game_id)
        if "phase" not in state:
            conn.execute(sa.text("DELETE FROM solve_counter WHERE game_id = :g"), {"g": game_id})
            conn.execute(START_COUNTERS, {"g": game_id})
            state = {"phase": "winlose", "level": 0}
            save_progress(conn, game_id, state)
    refresh_statistics(engine)

    if state["phase"] == "winlose":
        k = state["level"]
        while True:
            with engine.begin() as conn:
                params = {"g": game_id, "k": k, "k1": k + 1}
                decided = conn.execute(sql["win"], params).rowcount
                conn.execute(sql["count"], params)
                decided += conn.execute(sql["lose"], params).rowcount
                k += 1
                state = {"phase": "winlose", "level": k} if decided else {"phase": "tie", "level": 0, "winlose_levels": k}
                save_progress(conn, game_id, state)
            if progress:
                progress("win/lose levels", k, None)
            if not decided:
                break

    if state["phase"] == "tie":
        t = state["level"]
        while True:
            with engine.begin() as conn:
                decided = conn.execute(sql["tie"], {"g": game_id, "k": t, "k1": t + 1}).rowcount
                t += 1
                if decided:
                    state = dict(state, level=t)
                else:
                    state = {"phase": "draw", "winlose_levels": state.get("winlose_levels"), "tie_levels": t}
                save_progress(conn, game_id, state)
            if progress:
                progress("tie levels", t, None)
            if not decided:
                break

    if state["phase"] == "draw":
        with engine.begin() as conn:
            conn.execute(DRAW_RESULT, {"g": game_id})
            conn.execute(DRAW_BEST, {"g": game_id})
            conn.execute(sa.text("DELETE FROM solve_counter WHERE game_id = :g"), {"g": game_id})
            state = {"phase": "done", "winlose_levels": state.get("winlose_levels"), "tie_levels": state.get("tie_levels")}
            save_progress(conn, game_id, state)
    return state


# --- Sprague-Grundy values of impartial games ---------------------------------------
#
# After the win/lose levels, an impartial game (normal play) gets its grundy
# values by the same counters: a position is ready when all its children have
# a value. Level 0 is the positions without moves; each level stores the mex
# of the ready positions' children values -- the first gap in their ranked
# distinct values (no gap: their count) -- then lowers the counters of their
# parents; parents at zero form the next level (kept in ``solve_queue``).
# Positions on a cycle never become ready and keep grundy NULL.

_GRUNDY_MEX = """
UPDATE position SET grundy = x.mex
FROM (
    SELECT f.code AS code, COALESCE(MIN(CASE WHEN w.v <> w.rn - 1 THEN w.rn - 1 END), COUNT(w.v)) AS mex
    FROM solve_queue f
    LEFT JOIN (
        SELECT d.code AS code, d.v AS v, ROW_NUMBER() OVER (PARTITION BY d.code ORDER BY d.v) AS rn
        FROM (
            SELECT DISTINCT q.code AS code, c.grundy AS v
            FROM solve_queue q CROSS JOIN move m CROSS JOIN position c
            WHERE q.game_id = :g AND q.depth = :k AND m.game_id = :g AND m.parent = q.code
              AND c.game_id = :g AND c.code = m.child
        ) AS d
    ) AS w ON w.code = f.code
    WHERE f.game_id = :g AND f.depth = :k
    GROUP BY f.code
) AS x
WHERE position.game_id = :g AND position.code = x.code
"""

_GRUNDY_COUNT = """
UPDATE solve_counter SET pending = solve_counter.pending - d.n
FROM (
    SELECT m.parent AS code, COUNT(*) AS n
    FROM solve_queue q CROSS JOIN move m {m_hint}
    WHERE q.game_id = :g AND q.depth = :k AND m.game_id = :g AND m.child = q.code
    GROUP BY m.parent
) AS d
WHERE solve_counter.game_id = :g AND solve_counter.code = d.code
"""

_GRUNDY_NEXT = """
INSERT INTO solve_queue (game_id, code, depth)
SELECT DISTINCT s.game_id, s.code, :k1
FROM solve_queue q CROSS JOIN move m {m_hint} CROSS JOIN solve_counter s
WHERE q.game_id = :g AND q.depth = :k AND m.game_id = :g AND m.child = q.code
  AND s.game_id = :g AND s.code = m.parent AND s.pending = 0
"""

_GRUNDY_START = (
    "DELETE FROM solve_counter WHERE game_id = :g",
    "DELETE FROM solve_queue WHERE game_id = :g",
    "INSERT INTO solve_counter (game_id, code, pending) SELECT game_id, code, degree FROM position WHERE game_id = :g AND degree > 0",
    "INSERT INTO solve_queue (game_id, code, depth) SELECT game_id, code, 0 FROM position WHERE game_id = :g AND degree = 0",
)

_NOT_NORMAL_PLAY = sa.text("SELECT text, result FROM position WHERE game_id = :g AND degree = 0 AND result <> 'lose' LIMIT 1")


def propagate_grundy(engine: sa.Engine, game_id: int, *, progress: Progress | None = None) -> dict:
    """Store the Sprague-Grundy value of every position of an impartial game, level by level.

    Runs after :func:`propagate` (which gives result, remoteness and best
    move); resumes like it from ``game.progress``.
    """
    hints = _HINTS.get(engine.dialect.name, _HINTS[None])
    mex, count, nxt = (sa.text(sql.format(**hints)) for sql in (_GRUNDY_MEX, _GRUNDY_COUNT, _GRUNDY_NEXT))
    with engine.begin() as conn:
        state = load_progress(conn, game_id)
        if state.get("phase") == "done" and "grundy_levels" not in state:
            bad = conn.execute(_NOT_NORMAL_PLAY, {"g": game_id}).first()
            if bad is not None:
                raise GamedbError(
                    f"impartial game with a terminal position {bad.text!r} valued {bad.result!r}: "
                    "Sprague-Grundy values need normal play (the player who cannot move loses)"
                )
            for sql in _GRUNDY_START:
                conn.execute(sa.text(sql), {"g": game_id})
            state = dict(state, phase="grundy", level=0)
            save_progress(conn, game_id, state)
    if state.get("phase") == "grundy":
        refresh_statistics(engine)
        k = state["level"]
        while True:
            with engine.begin() as conn:
                params = {"g": game_id, "k": k, "k1": k + 1}
                conn.execute(mex, params)
                conn.execute(count, params)
                more = conn.execute(nxt, params).rowcount
                k += 1
                if more:
                    state = dict(state, level=k)
                else:
                    conn.execute(sa.text("DELETE FROM solve_queue WHERE game_id = :g"), {"g": game_id})
                    conn.execute(sa.text("DELETE FROM solve_counter WHERE game_id = :g"), {"g": game_id})
                    state = {key: value for key, value in state.items() if key != "level"}
                    state.update(phase="done", grundy_levels=k)
                save_progress(conn, game_id, state)
            if progress:
                progress("grundy levels", k, None)
            if not more:
                break
    return state
