"""Answering from the graph solvers' tables: a position's stored row and its children's."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter

from ..answers import Answer, MoveValue, impartial_players, set_delta_remoteness
from ..errors import GamedbError, PositionNotFound
from ..games.base import Game, State
from ..store.damage import missing_child
from ..store.record import GameRecord
from ..store.rows import PositionRow, Reader
from ..values import move_rank
from .capabilities import symmetric


def probe_many(reader: Reader, record: GameRecord, game: Game, positions: Sequence[str | None], *, boards: bool = True) -> list[Answer | GamedbError]:
    """Answers for many positions (None: the start), with one lookup of the rows for the whole batch."""
    planned: list[tuple[State, int, list[tuple[str, int]]] | GamedbError] = []
    wanted: list[int] = []
    parse, encode, move_codes = game.parse, game.encode, game.move_codes  # looked up once per batch
    canonical = game.canonical if symmetric(game) else None  # rows are stored by class: look up the representatives
    for position in positions:
        try:
            state = game.start() if position is None else parse(position)
            code = encode(state)
            moves = move_codes(state)  # none at a primitive position (the Game contract; tests/test_conformance.py checks every family)
        except GamedbError as exc:
            planned.append(exc)
            continue
        if canonical is not None:
            code, moves = canonical(code), [(label, canonical(child)) for label, child in moves]
        planned.append((state, code, moves))
        wanted.append(code)
        wanted.extend([child for _, child in moves])
    rows = reader.positions(record, wanted)  # each row checked
    answers: list[Answer | GamedbError] = []
    player_name, winner, verdict = game.player_name, game.winner, game.verdict
    for plan in planned:
        if isinstance(plan, GamedbError):
            answers.append(plan)
            continue
        state, code, moves = plan
        row = rows.get(code)
        if row is None:
            answers.append(PositionNotFound(f"position {game.format(state)!r} is not reachable from the start of game {record.name!r}"))
            continue
        if canonical is not None:  # the class representative's row, told for the position typed (its mover may differ)
            typed = game.format(state)
            row = row._replace(text=typed, player=game.to_move(state), best_move=row.best_move if row.text == typed else None)
        answer = answer_from_row(record, row, player_name, winner)
        answer.moves = _moves(record, row, rows, moves)
        if canonical is not None:
            as_played(answer, game.move_codes(state), lambda child: game.format(game.decode(child)))
        if boards:
            answer.board = game.describe(state)
        answer.verdict = verdict(answer.result, answer.remoteness, answer.player)
        answers.append(answer)
    return answers


def answer_from_row(
    record: GameRecord,
    row: PositionRow,
    player_name: Callable[[int], str],
    winner: Callable[[int, str, int | None], str | None] | None = None,
) -> Answer:
    """The position's own part of an answer (no moves) from its stored row."""
    result = row.result
    assert result is not None, "rows are read checked"  # (result_of, without a call per answer)
    if record.impartial:
        player, won_by = impartial_players(result)
    else:
        player = player_name(row.player)
        if winner is not None:
            won_by = winner(row.player, result, row.remoteness)
        else:
            won_by = {"win": player, "lose": player_name(1 - row.player)}.get(result)
    # the fields in their order, without keywords: a stream of positions makes an answer for each
    answer = Answer(record.name, row.text, player, result, won_by, row.remoteness, row.degree, row.best_move, row.grundy)
    answer.impartial = record.impartial
    return answer


def _moves(record: GameRecord, row: PositionRow, rows: dict[int, PositionRow], moves: list[tuple[str, int]]) -> list[MoveValue]:
    """The moves from ``row`` with their children's stored values, best first (a child missing from the file: damaged)."""
    ranked: list[tuple[tuple[int, int], MoveValue]] = []
    get = rows.get
    for label, child in moves:
        c = get(child)
        if c is None:
            raise missing_child(record.name, row.text, label)
        result = c.result
        assert result is not None, "rows are read checked"  # (result_of, without a call per move)
        ranked.append((move_rank(result, c.remoteness), MoveValue(label, c.text, result, c.remoteness, c.grundy)))
    if len(ranked) > 1:
        ranked.sort(key=_rank)  # a stable sort: equal moves keep the family's order
    found = [move for _, move in ranked]
    set_delta_remoteness(found)
    return found


_rank = itemgetter(0)


def as_played(answer: Answer, moves: list[tuple[str, int]], format_code: Callable[[int], str]) -> None:
    """The children of an answer read by class told as played from the position typed; its best move when its row
    was another position's (the first in move order among the best, as the solvers choose)."""
    child_text = {label: format_code(child) for label, child in moves}
    for move in answer.moves:
        move.position = child_text[move.move]
    if answer.best_move is None and answer.moves:
        answer.best_move = answer.moves[0].move
