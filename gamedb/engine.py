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

import json
from typing import Callable

import sqlalchemy as sa

Progress = Callable[[str, int, "int | None"], None]

# best move among the moves from undecided parents into the frontier
_RANKED_INTO_FRONTIER = """
    SELECT m.parent AS code, m.label AS label,
           ROW_NUMBER() OVER (PARTITION BY m.parent ORDER BY m.ord) AS rn
    FROM position c {c_hint} CROSS JOIN move m {m_hint} {extra_join}
    WHERE c.game_id = :g AND c.remoteness = :k AND c.result = '{child_result}'
      AND m.game_id = :g AND m.child = c.code {extra_where}
"""

_DECIDE = """
UPDATE position SET result = '{result}', remoteness = :k1, best_move = w.label
FROM ({ranked}) AS w
WHERE position.game_id = :g AND position.code = w.code AND w.rn = 1 AND position.result IS NULL
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
UPDATE position SET best_move = d.label
FROM (
    SELECT m.parent AS code, m.label AS label,
           ROW_NUMBER() OVER (PARTITION BY m.parent ORDER BY m.ord) AS rn
    FROM position p CROSS JOIN move m CROSS JOIN position c
    WHERE p.game_id = :g AND p.result = 'draw'
      AND m.game_id = :g AND m.parent = p.code
      AND c.game_id = :g AND c.code = m.child AND c.result = 'draw'
) AS d
WHERE position.game_id = :g AND position.code = d.code AND d.rn = 1
"""
)

_SAVE_PROGRESS = sa.text("UPDATE game SET progress = :p WHERE id = :g")


def _load_progress(conn, game_id: int) -> dict:
    raw = conn.execute(sa.text("SELECT progress FROM game WHERE id = :g"), {"g": game_id}).scalar()
    if raw is None:
        return {}
    return raw if isinstance(raw, dict) else json.loads(raw)


def _save(conn, game_id: int, progress: dict) -> None:
    conn.execute(_SAVE_PROGRESS, {"p": json.dumps(progress), "g": game_id})


def propagate(engine: sa.Engine, game_id: int, *, progress: Progress | None = None) -> dict:
    """Decide every position of ``game_id``; returns the number of levels of each phase."""
    sql = statements(engine.dialect.name)
    with engine.begin() as conn:
        state = _load_progress(conn, game_id)
        if "phase" not in state:
            conn.execute(sa.text("DELETE FROM solve_counter WHERE game_id = :g"), {"g": game_id})
            conn.execute(START_COUNTERS, {"g": game_id})
            state = {"phase": "winlose", "level": 0}
            _save(conn, game_id, state)

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
                _save(conn, game_id, state)
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
                _save(conn, game_id, state)
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
            _save(conn, game_id, state)
    return state
