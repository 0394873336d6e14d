"""Moves of two-token games kept as the players' move lists on the board."""

from __future__ import annotations

import sqlalchemy as sa

from ..errors import GamedbError
from ..games.base import TokenMoves
from ..games.two_tokens import code_sql, tokens_sql
from ..store.bulk import insert_rows
from ..store.schema import token_board, token_move
from .graph_solution import token_rows

# --- the code layout in SQL (gamedb.games.two_tokens.code_sql), ``nodes`` the bound parameter ``:n``
# (the board's node count, passed with every statement: a constant, so a server's planner can use
# the token_move indexes as soon as the position is known, with no join to token_board first)

NODES = ":n"


def _tokens(x: str) -> tuple[str, str]:
    """token0 and token1 of the position aliased ``x``."""
    return tokens_sql(f"{x}.code", NODES)


def _by_player(x: str, first: int, if_first: str, otherwise: str) -> str:
    """``if_first`` when the player to move at ``x`` is ``first``, else ``otherwise``."""
    return f"CASE {x}.player WHEN {first} THEN {if_first} ELSE {otherwise} END"


def mover_token_sql(x: str) -> str:
    """The token that the player to move at position ``x`` moves."""
    t0, t1 = _tokens(x)
    return _by_player(x, 0, t0, t1)


def child_sql(x: str, target: str) -> str:
    """The code after the player to move at ``x`` moves its token to ``target``."""
    t0, t1 = _tokens(x)
    return _by_player(x, 0, code_sql(target, t1, 1, NODES), code_sql(t0, target, 0, NODES))


def moved_token_sql(x: str) -> str:
    """Where the player who moved into position ``x`` (``1 - x.player``) now stands."""
    t0, t1 = _tokens(x)
    return _by_player(x, 1, t0, t1)


def parent_sql(x: str, node: str) -> str:
    """The code before the player who moved into ``x`` moved its token from ``node``."""
    t0, t1 = _tokens(x)
    return _by_player(x, 1, code_sql(node, t1, 0, NODES), code_sql(t0, node, 1, NODES))


def board_nodes(conn: sa.Connection, game_id: int) -> int:
    """The node count of the game's stored board (the ``:n`` of the SQL expressions here)."""
    nodes = conn.execute(sa.select(token_board.c.nodes).where(token_board.c.game_id == game_id)).scalar()
    if nodes is None:
        raise GamedbError(f"game id {game_id} keeps no move lists (no token_board row)")
    return int(nodes)


def store(conn: sa.Connection, game_id: int, tokens: TokenMoves) -> None:
    """Write the game's move lists (once: a resumed solve finds them there)."""
    if conn.execute(sa.select(token_board.c.nodes).where(token_board.c.game_id == game_id)).first() is not None:
        return
    board, moves = token_rows(game_id, tokens)
    insert_rows(conn, token_board, board)
    insert_rows(conn, token_move, moves)
