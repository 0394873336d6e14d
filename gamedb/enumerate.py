"""Enumerate the reachable positions of a game into the position and move tables.

Breadth first from the start position, one depth at a time, in pages of
``batch`` positions read from the ``solve_queue`` table: memory holds one
page, never the whole game. Each page is expanded by the game's rules and
written in one transaction (positions, their moves, and newly discovered
children queued at the next depth), so a killed enumeration resumes where it
stopped: rows are inserted with ON CONFLICT DO NOTHING.
"""

from __future__ import annotations

from typing import Callable

import sqlalchemy as sa

from .errors import GamedbError
from .games.base import Game
from .store.bulk import insert_rows
from .store.schema import move, position, solve_queue

Progress = Callable[[str, int, "int | None"], None]

_PAGE = sa.text(
    "SELECT code FROM solve_queue WHERE game_id = :g AND depth = :d AND code > :after ORDER BY code LIMIT :n"
)

_NEXT = sa.text("SELECT 1 FROM solve_queue WHERE game_id = :g AND depth = :d LIMIT 1")


def enumerate_game(engine: sa.Engine, game_id: int, game: Game, *, batch: int = 20000, progress: Progress | None = None) -> tuple[int, int]:
    """Fill ``position`` and ``move`` for ``game_id``; return (positions, moves)."""
    with engine.begin() as conn:
        start = game.encode(game.start())
        insert_rows(conn, solve_queue, [{"game_id": game_id, "code": start, "depth": 0}], ignore=True)
        depth = conn.execute(
            sa.text(
                "SELECT MIN(q.depth) FROM solve_queue q WHERE q.game_id = :g AND NOT EXISTS "
                "(SELECT 1 FROM position p WHERE p.game_id = q.game_id AND p.code = q.code)"
            ),
            {"g": game_id},
        ).scalar()
        done = conn.execute(sa.text("SELECT COUNT(*) FROM position WHERE game_id = :g"), {"g": game_id}).scalar()
    while depth is not None:
        after = -1
        while True:
            with engine.begin() as conn:
                codes = conn.execute(_PAGE, {"g": game_id, "d": depth, "after": after, "n": batch}).scalars().all()
                if not codes:
                    break
                after = codes[-1]
                pos_rows, move_rows, queued = _expand_page(game, game_id, codes)
                insert_rows(conn, position, pos_rows, ignore=True)
                insert_rows(conn, move, move_rows, ignore=True)
                queue_rows = [{"game_id": game_id, "code": c, "depth": depth + 1} for c in queued]
                insert_rows(conn, solve_queue, queue_rows, ignore=True)
            done += len(codes)
            if progress:
                progress("enumerate", done, None)
        with engine.connect() as conn:
            more = conn.execute(_NEXT, {"g": game_id, "d": depth + 1}).first()
        depth = depth + 1 if more else None
    with engine.begin() as conn:
        n_pos = conn.execute(sa.text("SELECT COUNT(*) FROM position WHERE game_id = :g"), {"g": game_id}).scalar()
        n_mov = conn.execute(sa.text("SELECT COUNT(*) FROM move WHERE game_id = :g"), {"g": game_id}).scalar()
        conn.execute(sa.text("DELETE FROM solve_queue WHERE game_id = :g"), {"g": game_id})
    return n_pos, n_mov


def _expand_page(game: Game, game_id: int, codes):
    pos_rows, move_rows, queued = [], [], {}
    for code in codes:
        player, text, prim, moves = game.expand(code)
        if prim is None and not moves:
            raise GamedbError(f"position {text!r} has no legal moves but the game is not over; the {game.family} rules are incomplete")
        pos_rows.append(
            {
                "game_id": game_id,
                "code": code,
                "text": text,
                "player": player,
                "result": prim,
                "remoteness": 0 if prim is not None else None,
                "degree": len(moves),
                "best_move": None,
                "grundy": None,
            }
        )
        for order, (label, child) in enumerate(moves):
            move_rows.append({"game_id": game_id, "parent": code, "ord": order, "child": child, "label": label})
            queued[child] = None
    return pos_rows, move_rows, list(queued)
