"""Retrograde propagation as batched, set-based SQL, one transaction per level."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from ..errors import GamedbError
from ..progress import Progress
from ..store.bulk import create_missing_indexes
from ..store.catalog import load_progress, save_progress
from ..store.database import refresh_statistics
from ..store.record import GameRecord
from ..store.schema import position as position_table
from ..values import DRAW, LOSE, RESULT_CODES, RESULT_WORDS, WIN
from . import capabilities, graph_verify, token_moves
from .enumeration import enumerate_game
from .protocol import Solved, SolveJob, solve_in_stages

# How the level statements reach the moves: ``into_*`` joins a frontier position ``c`` to the moves ``m`` into it (``parent``:
# their parent's code), ``out_*`` a position ``p`` to its own moves (``child``), ``label`` reads move ``w.ord``'s label.
# From the move rows, or from a two-token game's move lists (:mod:`gamedb.solvers.token_moves`: codes computed).
MOVE_ROWS = {
    "into_join": "CROSS JOIN move m {m_hint}",
    "into_where": "AND m.game_id = :g AND m.child = c.code",
    "parent": "m.parent",
    "out_join": "CROSS JOIN move m",
    "out_where": "AND m.game_id = :g AND m.parent = p.code",
    "child": "m.child",
    "label": "(SELECT l.id FROM move b JOIN move_label l ON l.game_id = b.game_id AND l.name = b.label "
    "WHERE b.game_id = :g AND b.parent = w.code AND b.ord = w.ord)",
    "labels": "SELECT DISTINCT label FROM move WHERE game_id = :g",
}

TOKEN_MOVES = {
    # the player who moved into c (1 - c.player) moved its own token to where it now stands
    "into_join": "CROSS JOIN token_move m {t_hint}",
    "into_where": f"AND m.game_id = :g AND m.player = 1 - c.player AND m.target = {token_moves.moved_token_sql('c')}",
    "parent": token_moves.parent_sql("c", "m.node"),
    "out_join": "CROSS JOIN token_move m",
    "out_where": f"AND m.game_id = :g AND m.player = p.player AND m.node = {token_moves.mover_token_sql('p')}",
    "child": token_moves.child_sql("p", "m.target"),
    "label": "(SELECT l.id FROM token_move b JOIN move_label l ON l.game_id = b.game_id AND l.name = b.label WHERE b.game_id = :g "
    f"AND b.player = position.player AND b.node = {token_moves.mover_token_sql('position')} AND b.ord = w.ord)",
    "labels": "SELECT DISTINCT label FROM token_move WHERE game_id = :g",
}

# best move of each parent of the frontier: its lowest-ordered move into it (driven from the frontier through
# the index on the moves' child; the label's id is read only for the parents that are decided)
_RANKED_INTO_FRONTIER = """
    SELECT {parent} AS code, MIN(m.ord) AS ord
    FROM position c {c_hint} {into_join} {extra_join}
    WHERE c.game_id = :g AND c.remoteness = :k AND c.result = {child_result}
      {into_where} {extra_where}
    GROUP BY {parent}
"""

_DECIDE = """
UPDATE position SET result = {result}, remoteness = :k1, best_move = {label}
FROM ({ranked}) AS w
WHERE position.game_id = :g AND position.code = w.code AND position.result IS NULL
"""

_COUNT_STEP = """
UPDATE solve_counter SET pending = solve_counter.pending - d.n
FROM (
    SELECT {parent} AS code, COUNT(*) AS n
    FROM position c {c_hint} {into_join}
    WHERE c.game_id = :g AND c.remoteness = :k AND c.result = {win}
      {into_where}
    GROUP BY {parent}
) AS d
WHERE solve_counter.game_id = :g AND solve_counter.code = d.code
"""

# what is undecided after the levels is a draw, its best move its lowest-ordered move to an undecided child (there
# always is one); one statement sets both: the grouped subquery is complete before any row changes
_DRAWS = """
UPDATE position SET result = {draw}, best_move = {label}
FROM (
    SELECT p.code AS code, MIN(m.ord) AS ord
    FROM position p {out_join} CROSS JOIN position c
    WHERE p.game_id = :g AND p.result IS NULL
      {out_where}
      AND c.game_id = :g AND c.code = {child} AND c.result IS NULL
    GROUP BY p.code
) AS w
WHERE position.game_id = :g AND position.code = w.code
"""

# SQLite's planner, before ANALYZE, may scan the whole move table every level; INDEXED BY pins the frontier-driven
# plan (other servers plan well from their statistics and do not know the syntax)
_HINTS = {
    "sqlite": {"c_hint": "INDEXED BY ix_position_remoteness", "m_hint": "INDEXED BY ix_move_child", "t_hint": "INDEXED BY ix_token_move_target"},
    None: {"c_hint": "", "m_hint": "", "t_hint": ""},
}


def statements(dialect: str, moves: dict[str, str] | None = None) -> dict[str, sa.TextClause]:
    """The level statements for a source of moves (:data:`MOVE_ROWS` by default), with planner hints for the dialect."""
    hints = _HINTS.get(dialect, _HINTS[None])
    src = {key: value.format(**hints) for key, value in (moves or MOVE_ROWS).items()}
    ranked = {"parent": src["parent"], "into_join": src["into_join"], "into_where": src["into_where"], "c_hint": hints["c_hint"]}

    def decide(result: str, child_result: str, extra_join: str = "", extra_where: str = "") -> str:
        into = _RANKED_INTO_FRONTIER.format(child_result=RESULT_CODES[child_result], extra_join=extra_join, extra_where=extra_where, **ranked)
        return _DECIDE.format(result=RESULT_CODES[result], label=src["label"], ranked=into)

    sql = {
        "win": decide("win", "lose"),
        "count": _COUNT_STEP.format(win=RESULT_CODES[WIN], **ranked),
        "lose": decide("lose", "win", "CROSS JOIN solve_counter s", f"AND s.game_id = :g AND s.code = {src['parent']} AND s.pending = 0"),
        "tie": decide("tie", "tie"),
        "draws": _DRAWS.format(draw=RESULT_CODES[DRAW], label=src["label"], out_join=src["out_join"], out_where=src["out_where"], child=src["child"]),
    }
    return {name: sa.text(text) for name, text in sql.items()}


# the game's move labels numbered in name order (position.best_move holds their ids: revision 0008)
_LABELS = """
INSERT INTO move_label (game_id, id, name)
SELECT :g, row_number() OVER (ORDER BY d.label) - 1, d.label FROM ({labels}) AS d
"""

START_COUNTERS = sa.text(
    """
INSERT INTO solve_counter (game_id, code, pending)
SELECT game_id, code, degree FROM position WHERE game_id = :g AND result IS NULL
"""
)

# a safety net after the draws: every undecided position has a drawing child, so this finds nothing
DRAW_RESULT = sa.text(f"UPDATE position SET result = {RESULT_CODES[DRAW]} WHERE game_id = :g AND result IS NULL")


def propagate(engine: sa.Engine, game_id: int, *, progress: Progress | None = None, move_lists: bool = False) -> dict[str, Any]:
    """Decide every position of ``game_id``; returns the number of levels of each phase."""
    sql = statements(engine.dialect.name, TOKEN_MOVES if move_lists else MOVE_ROWS)
    with engine.begin() as conn:
        create_missing_indexes(conn, [position_table], only=["ix_position_remoteness"])  # the levels read it (a large tier solve leaves it out)
        # every statement gets the game id and, for move lists, the board's node count (:n, see token_moves)
        base = {"g": game_id, "n": token_moves.board_nodes(conn, game_id) if move_lists else None}
        state = load_progress(conn, game_id)
        if "phase" not in state:
            conn.execute(sa.text("DELETE FROM solve_counter WHERE game_id = :g"), {"g": game_id})
            conn.execute(START_COUNTERS, {"g": game_id})
            conn.execute(sa.text("DELETE FROM move_label WHERE game_id = :g"), {"g": game_id})
            conn.execute(sa.text(_LABELS.format(labels=(TOKEN_MOVES if move_lists else MOVE_ROWS)["labels"])), {"g": game_id})
            state = {"phase": "winlose", "level": 0}
            save_progress(conn, game_id, state)
    refresh_statistics(engine)

    if state["phase"] == "winlose":
        k = state["level"]
        while True:
            with engine.begin() as conn:
                params = dict(base, k=k, k1=k + 1)
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
                decided = conn.execute(sql["tie"], dict(base, k=t, k1=t + 1)).rowcount
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
            conn.execute(sql["draws"], base)
            conn.execute(DRAW_RESULT, {"g": game_id})
            conn.execute(sa.text("DELETE FROM solve_counter WHERE game_id = :g"), {"g": game_id})
            state = {"phase": "done", "winlose_levels": state.get("winlose_levels"), "tie_levels": state.get("tie_levels")}
            save_progress(conn, game_id, state)
    return state


# --- Sprague-Grundy values of impartial games: level 0 is the positions without moves; each level stores the mex of
# its positions' children's values (the first gap in their ranks), then lowers its parents' counters; parents at zero
# form the next level (in ``solve_queue``). Positions on a cycle never become ready and keep grundy NULL.

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

_NOT_NORMAL_PLAY = sa.text(f"SELECT text, result FROM position WHERE game_id = :g AND degree = 0 AND result <> {RESULT_CODES[LOSE]} LIMIT 1")


def propagate_grundy(engine: sa.Engine, game_id: int, *, progress: Progress | None = None) -> dict[str, Any]:
    """Store the Sprague-Grundy value of every position of an impartial game, level by level."""
    hints = _HINTS.get(engine.dialect.name, _HINTS[None])
    mex, count, nxt = (sa.text(sql.format(**hints)) for sql in (_GRUNDY_MEX, _GRUNDY_COUNT, _GRUNDY_NEXT))
    with engine.begin() as conn:
        state = load_progress(conn, game_id)
        if state.get("phase") == "done" and "grundy_levels" not in state:
            bad = conn.execute(_NOT_NORMAL_PLAY, {"g": game_id}).first()
            if bad is not None:
                raise GamedbError(
                    f"impartial game with a terminal position {bad.text!r} valued {RESULT_WORDS.get(bad.result, bad.result)!r}: "
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


class GraphSql:
    """The ``graph-sql`` strategy (see :mod:`gamedb.solvers.protocol`): enumerate into SQL, then the levels above."""

    verify = staticmethod(graph_verify.verify_graph)

    def solve(self, db: sa.Engine, job: SolveJob) -> Solved:
        game, progress = job.game, job.progress
        # a page of positions and their moves takes a few kB per position
        batch = min(job.batch, max(500, job.memory_limit // 8192))

        def fill(record: GameRecord) -> Solved:
            return Solved(*enumerate_game(db, record.id, game, batch=batch, memory_limit=job.memory_limit, progress=progress))

        def levels(record: GameRecord) -> None:
            propagate(db, record.id, progress=progress, move_lists=capabilities.move_lists(game) is not None)
            if game.impartial:
                propagate_grundy(db, record.id, progress=progress)

        return solve_in_stages(db, job, fill, levels)
