"""Answering from the graph solvers' tables: a position's stored row and its children's.

Read through a reader (:class:`gamedb.store.rows.Reader`), so the full path
(SQLAlchemy) and the light read path of ``gamedb query`` (plain sqlite3)
answer with this one code; no SQLAlchemy here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..answers import Answer, MoveValue, set_delta_remoteness
from ..errors import GamedbError, PositionNotFound
from ..games.base import Game, State
from ..store.damage import missing_child
from ..store.record import GameRecord
from ..store.rows import PositionRow, Reader, result_of
from ..values import move_sort_key


def probe_many(reader: Reader, record: GameRecord, game: Game, positions: Sequence[str | None], *, boards: bool = True) -> list[Answer | GamedbError]:
    """Answers for many positions (None: the start), with one lookup of the rows for the whole batch.

    A position that does not parse or is not stored gives its error in its
    place instead of an answer, so one bad line does not stop a batch.
    ``boards=False`` leaves out the board pictures.
    """
    from ..query import answer_from_row

    planned: list[tuple[State, int, list[tuple[str, Any]], list[int]] | GamedbError] = []
    wanted: list[int] = []
    parse, encode, primitive, legal = game.parse, game.encode, game.primitive, game.moves  # looked up once per batch
    for position in positions:
        try:
            state = game.start() if position is None else parse(position)
            code = encode(state)
            moves = legal(state) if primitive(state) is None else []
            children = [encode(child) for _, child in moves]
        except GamedbError as exc:
            planned.append(exc)
            continue
        planned.append((state, code, moves, children))
        wanted.append(code)
        wanted.extend(children)
    rows = reader.positions(record, wanted)  # each row checked
    answers: list[Answer | GamedbError] = []
    for plan in planned:
        if isinstance(plan, GamedbError):
            answers.append(plan)
            continue
        state, code, moves, children = plan
        row = rows.get(code)
        if row is None:
            answers.append(PositionNotFound(f"position {game.format(state)!r} is not reachable from the start of game {record.name!r}"))
            continue
        answer = answer_from_row(record, row, game.player_name, game.winner)
        answer.moves = _moves(record, row, rows, moves, children)
        answer.board = game.describe(state) if boards else None
        answer.verdict = game.verdict(answer.result, answer.remoteness, answer.player)
        answers.append(answer)
    return answers


def _moves(record: GameRecord, row: PositionRow, rows: dict[int, PositionRow], moves: list[tuple[str, Any]], children: list[int]) -> list[MoveValue]:
    """The moves from ``row`` with their children's stored values (a child missing from the file: damaged)."""
    listed: list[tuple[tuple[int, int, int], MoveValue]] = []
    for order, ((label, _), child) in enumerate(zip(moves, children, strict=False)):
        c = rows.get(child)
        if c is None:
            raise missing_child(record.name, row.text, label)
        result = result_of(c)
        listed.append((move_sort_key(result, c.remoteness, order), MoveValue(label, c.text, result, c.remoteness, c.grundy)))
    listed.sort(key=lambda pair: pair[0])
    found = [mv for _, mv in listed]
    set_delta_remoteness(found)
    return found
