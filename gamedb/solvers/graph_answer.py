"""Answering from the graph solvers' tables: a position's stored row and its children's.

Read through a reader (:mod:`gamedb.store.readers`), so the full path
(SQLAlchemy) and the light read path of ``gamedb query`` (plain sqlite3)
answer with this one code; no SQLAlchemy here.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..answers import Answer, MoveValue, set_delta_remoteness
from ..errors import GamedbError, PositionNotFound
from ..games.base import Game
from ..store.damage import checked_position, missing_child
from ..store.readers import PositionRow, Reader
from ..store.record import GameRecord
from ..values import move_sort_key


def probe_many(reader: Reader, record: GameRecord, game: Game, positions: Sequence[str | None], *, boards: bool = True) -> list[Answer | GamedbError]:
    """Answers for many positions (None: the start), with one lookup of the rows for the whole batch.

    A position that does not parse or is not stored gives its error in its
    place instead of an answer, so one bad line does not stop a batch.
    ``boards=False`` leaves out the board pictures.
    """
    from ..query import answer_from_row

    planned: list[tuple | GamedbError] = []
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
    rows = reader.positions(record.id, wanted)
    for stored in rows.values():  # each row checked once per batch, however many answers list it as a move
        checked_position(record.name, record.impartial, stored._asdict())
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


def _moves(record: GameRecord, row: PositionRow, rows: dict[int, PositionRow], moves, children) -> list[MoveValue]:
    """The moves from ``row`` best first (:func:`~gamedb.values.move_sort_key`, ties in the rules' order),
    with their children's stored values (rows checked by :func:`probe_many`; a missing one is a damaged file)."""
    keyed = []
    for order, child in enumerate(children):
        c = rows.get(child)
        label = moves[order][0]
        if c is None:
            raise missing_child(record.name, row.text, label)
        keyed.append((move_sort_key(c.result, c.remoteness, order), label, c))
    keyed.sort()  # the keys differ (order is part of each): labels and rows are never compared
    found = [MoveValue(label, c.text, c.result, c.remoteness, c.grundy) for _, label, c in keyed]
    set_delta_remoteness(found)
    return found
