"""Moves of two-token games kept as the players' move lists on the board.

In cat and mouse each player moves its own token along the board's edges,
so every move of the game follows from two short lists per node. A family
says so through :meth:`Game.token_moves <gamedb.games.base.Game.token_moves>`;
its positions are coded ``(token0 * nodes + token1) * 2 + turn`` with the
player to move (0 or 1) moving its own token. For such a game the database
keeps those lists (``token_board``, ``token_move``: a few thousand rows)
instead of one ``move`` row per move of every position (8 million on a
1,000-node graph): the solved file is about half the size and is written in
a fraction of the time. The ``moves`` view generates the moves with one
join, and the SQL engine's level statements find a position's parents and
children by arithmetic on the codes through these lists
(:data:`gamedb.engine.TOKEN_MOVES`). Only the Grundy statements of an
impartial game need move rows: for such a game the SQL engine generates them
with one join per page as working rows and drops them when the game is
solved.
"""

from __future__ import annotations

import sqlalchemy as sa

from .games.base import TokenMoves
from .store.bulk import insert_rows
from .store.schema import token_board, token_move

# the moves of the stored positions named by a SELECT of one column ``code``:
# the mover's token is token0 = code / 2 / nodes (player 0) or token1 = code / 2 mod nodes (player 1)
_INSERT_MOVES = """
INSERT INTO move (game_id, parent, ord, child, label)
SELECT p.game_id, p.code, t.ord,
       CASE p.player WHEN 0 THEN (t.target * b.nodes + p.code / 2 - p.code / 2 / b.nodes * b.nodes) * 2 + 1
                     ELSE (p.code / 2 / b.nodes * b.nodes + t.target) * 2 END,
       t.label
FROM {source}
CROSS JOIN token_board b
CROSS JOIN token_move t
WHERE p.game_id = {g} {join} AND p.degree > 0
  AND b.game_id = {g}
  AND t.game_id = {g} AND t.player = p.player
  AND t.node = CASE p.player WHEN 0 THEN p.code / 2 / b.nodes ELSE p.code / 2 - p.code / 2 / b.nodes * b.nodes END
ORDER BY p.code, t.ord
ON CONFLICT DO NOTHING
"""

_DROP_MOVES = sa.text("DELETE FROM move WHERE game_id = :g")


def lists_only(game) -> bool:
    """Whether the SQL engine solves ``game`` from its move lists alone, without move rows."""
    return game.token_moves() is not None and not game.impartial


def store(conn, game_id: int, tokens: TokenMoves) -> None:
    """Write the game's move lists (once: a resumed solve finds them there)."""
    if conn.execute(sa.select(token_board.c.nodes).where(token_board.c.game_id == game_id)).first() is not None:
        return
    insert_rows(conn, token_board, [{"game_id": game_id, "nodes": tokens.nodes}])
    insert_rows(
        conn,
        token_move,
        [{"game_id": game_id, "player": p, "node": a, "ord": o, "target": b, "label": label} for p, a, o, b, label in tokens.rows],
    )


def insert_moves(conn, game_id: int, codes_sql: str | None = None) -> None:
    """Insert the ``move`` rows of stored positions of ``game_id`` by one join with its move lists.

    ``codes_sql`` is a SELECT of one column ``code`` naming the parents
    (stored already); None means every stored position of the game. Rows
    already there are kept.
    """
    g = int(game_id)
    if codes_sql is None:
        source, join = "position p", ""
    else:
        source, join = f"({codes_sql}) s CROSS JOIN position p", "AND p.code = s.code"
    conn.exec_driver_sql(_INSERT_MOVES.format(source=source, join=join, g=g))


def drop_working_moves(conn, game_id: int) -> None:
    """Delete the move rows the SQL engine generated for its levels (the move lists stay)."""
    conn.execute(_DROP_MOVES, {"g": game_id})
