"""Enumerate the reachable positions of a game into the position and move tables."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from ..games.base import Game
from ..games.vector import VectorRules, stuck_error
from ..progress import Progress
from ..store.bulk import insert_new_rows, insert_rows
from ..store.database import refresh_statistics
from ..store.rows import columns_except
from ..store.schema import move, position, solve_queue
from ..values import RESULT_CODES
from . import capabilities, token_moves

if TYPE_CHECKING:
    from ..store.record import GameRecord

_PAGE = sa.text(
    "SELECT code FROM solve_queue WHERE game_id = :g AND depth = :d AND code > :after ORDER BY code LIMIT :n"
)

_NEXT = sa.text("SELECT 1 FROM solve_queue WHERE game_id = :g AND depth = :d LIMIT 1")

#: one page of enumeration: position rows, move rows, the distinct children
_Page = tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[int]]

# the columns of the rows expand_page returns (store.bulk.insert_new_rows adds game_id and the depth); solving fills the rest
_POSITION_COLUMNS = columns_except("best_move", "grundy")
_MOVE_COLUMNS = ("parent", "ord", "child", "label")


def enumerate_game(
    engine: sa.Engine, game_id: int, game: Game, *, batch: int = 20000, memory_limit: int | None = None, progress: Progress | None = None
) -> tuple[int, int]:
    """Fill ``position`` and ``move`` for ``game_id``; return (positions, moves)."""
    # a resume finds where it stopped by an anti join of the queue and the positions: planned from
    # statistics of before the game had rows, it ran in quadratic time (a killed Connect-Four 4x4
    # enumeration resumed in over 300 s on PostgreSQL, against 18 s uninterrupted)
    refresh_statistics(engine, ("position", "move", "solve_queue"))
    with engine.begin() as conn:
        starts = dict.fromkeys(game.encode(state) for state in game.starts())
        insert_rows(conn, solve_queue, [{"game_id": game_id, "code": code, "depth": 0} for code in starts], ignore=True)
        depth = conn.execute(
            sa.text(
                "SELECT MIN(q.depth) FROM solve_queue q WHERE q.game_id = :g AND NOT EXISTS "
                "(SELECT 1 FROM position p WHERE p.game_id = q.game_id AND p.code = q.code)"
            ),
            {"g": game_id},
        ).scalar()
        done = conn.execute(sa.text("SELECT COUNT(*) FROM position WHERE game_id = :g"), {"g": game_id}).scalar_one()
    vector = capabilities.vector_rules(game)
    queued_before = _Queued.fitting(vector, memory_limit)
    if queued_before is not None:
        queued_before.add(list(starts))
    tokens = capabilities.move_lists(game)
    if tokens is not None:  # a two-token game: its moves are its move lists, no move rows
        with engine.begin() as conn:
            token_moves.store(conn, game_id, tokens)
    while depth is not None:
        after = -1
        while True:
            with engine.begin() as conn:
                codes = conn.execute(_PAGE, {"g": game_id, "d": depth, "after": after, "n": batch}).scalars().all()
                if not codes:
                    break
                after = codes[-1]
                pos_rows, move_rows, queued = expand_page(game, vector, codes, with_moves=tokens is None)
                if queued_before is not None:  # most children were queued by earlier pages
                    queued = queued_before.unknown(queued)
                insert_new_rows(conn, position, _POSITION_COLUMNS, pos_rows, constants={"game_id": game_id})
                if tokens is None:
                    insert_new_rows(conn, move, _MOVE_COLUMNS, move_rows, constants={"game_id": game_id})
                insert_new_rows(conn, solve_queue, ("code",), [(c,) for c in queued], constants={"game_id": game_id, "depth": depth + 1})
            if queued_before is not None:  # committed: now they are queued for sure
                queued_before.add(codes)
                queued_before.add(queued)
            done += len(codes)
            if progress:
                progress("enumerate", done, None)
        with engine.connect() as conn:
            more = conn.execute(_NEXT, {"g": game_id, "d": depth + 1}).first()
        depth = depth + 1 if more else None
    with engine.begin() as conn:
        n_pos = conn.execute(sa.text("SELECT COUNT(*) FROM position WHERE game_id = :g"), {"g": game_id}).scalar_one()
        n_mov = conn.execute(sa.text("SELECT COALESCE(SUM(degree), 0) FROM position WHERE game_id = :g"), {"g": game_id}).scalar_one()
        conn.execute(sa.text("DELETE FROM solve_queue WHERE game_id = :g"), {"g": game_id})
    return n_pos, n_mov


class _Queued:
    """The codes this process saw committed to ``solve_queue``, one bit per code of a vector family's range."""

    #: the share of the memory limit the bitmap may take
    SHARE = 16

    def __init__(self, code_limit: int):
        import numpy as np

        self.bits = np.zeros((code_limit + 7) // 8, dtype=np.uint8)

    @classmethod
    def fitting(cls, vector: VectorRules | None, memory_limit: int | None) -> _Queued | None:
        if vector is None:
            return None
        from ..sizes import default_memory_limit

        limit = memory_limit if memory_limit is not None else default_memory_limit()
        return cls(vector.code_limit) if vector.code_limit // 8 <= limit // cls.SHARE else None

    def unknown(self, codes: Sequence[int]) -> list[int]:
        import numpy as np

        array = np.asarray(codes, dtype=np.int64)
        unknown: list[int] = array[((self.bits[array >> 3] >> (array & 7)) & 1) == 0].tolist()
        return unknown

    def add(self, codes: Sequence[int]) -> None:
        import numpy as np

        array = np.asarray(codes, dtype=np.int64)
        np.bitwise_or.at(self.bits, array >> 3, np.left_shift(1, array & 7).astype(np.uint8))


def expand_page(game: Game, vector: VectorRules | None, codes: Sequence[int], *, with_moves: bool = True) -> _Page:
    """Position rows, move rows (none unless ``with_moves``) and the distinct children of a page, as tuples (see :func:`~gamedb.store.bulk.insert_new_rows`)."""
    if vector is not None:
        return _expand_page_vector(game, vector, codes, with_moves)
    pos_rows: list[tuple[Any, ...]] = []
    move_rows: list[tuple[Any, ...]] = []
    queued: dict[int, None] = {}
    for code in codes:
        player, text, prim, moves = game.expand(code)
        if prim is None and not moves:
            raise stuck_error(game, text)
        pos_rows.append((code, text, player, None if prim is None else RESULT_CODES[prim], 0 if prim is not None else None, len(moves)))
        for order, (label, child) in enumerate(moves):
            if with_moves:
                move_rows.append((code, order, child, label))
            queued[child] = None
    return pos_rows, move_rows, list(queued)


def _expand_page_vector(game: Game, vector: VectorRules, codes: Sequence[int], with_moves: bool) -> _Page:
    import numpy as np

    from ..games.vector import check_moves, ranks_within

    page = np.array(codes, dtype=np.int64)
    exp = vector.expand(page)
    check_moves(game, page, exp.primitive, exp.degree)
    prims = [p or None for p in exp.primitive.tolist()]  # the stored codes (0: undecided, NULL)
    pos_rows = list(zip(codes, vector.texts(page), exp.player.tolist(), prims, [0 if p else None for p in prims], exp.degree.tolist(), strict=True))
    move_rows = []
    if with_moves:
        parents = np.repeat(page, exp.degree)
        orders = ranks_within(exp.degree)
        move_rows = list(zip(parents.tolist(), orders.tolist(), exp.children.tolist(), vector.labels(parents, exp.children), strict=True))
    return pos_rows, move_rows, np.unique(exp.children).tolist()


def nothing_enumerated(db: sa.Engine, record: GameRecord) -> bool:
    """Whether the unfinished SQL solve of ``record`` has written no position yet (another strategy may take it over)."""
    from ..store.status import ENUMERATING

    if record.status != ENUMERATING:
        return False
    with db.connect() as conn:
        return conn.execute(sa.text("SELECT 1 FROM solve_queue WHERE game_id = :g LIMIT 1"), {"g": record.id}).first() is None
