"""Answering from the graph solvers' tables: a position's stored row and its children's."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter

from ..answers import Answer, MoveValue, impartial_players, set_delta_remoteness
from ..errors import GamedbError, PositionNotFound
from ..games.base import Game, State
from ..store.damage import damaged, missing_child
from ..store.record import GameRecord
from ..store.rows import PositionRow, Reader, text_of
from ..values import best_move, move_rank
from .capabilities import symmetry_group


def probe_many(reader: Reader, record: GameRecord, game: Game, positions: Sequence[str | None], *, boards: bool = True) -> list[Answer | GamedbError]:
    """Answers for many positions (None: the start), with one lookup of the rows for the whole batch. A game stored one
    canonical position per class answers with the canonical position's value, the user's own moves (each valued by its
    canonical child) and the best move found among them as the solvers find it."""
    symmetric = record.symmetry > 1
    if symmetric and record.symmetry != symmetry_group(game):
        raise damaged(record.name, f"info.symmetry.group is {record.symmetry}, the {game.family} rules have {symmetry_group(game)} symmetries")
    canonical: Callable[[int], int] = game.canonical if symmetric else _same
    planned: list[tuple[State, int, list[tuple[str, int]], list[int]] | GamedbError] = []
    wanted: list[int] = []
    parse, encode, move_codes = game.parse, game.encode, game.move_codes  # looked up once per batch
    for position in positions:
        try:
            state = game.start() if position is None else parse(position)
            code = encode(state)
            moves = move_codes(state)  # none at a primitive position (the Game contract; tests/test_conformance.py checks every family)
        except GamedbError as exc:
            planned.append(exc)
            continue
        classes = [canonical(code), *[canonical(child) for _, child in moves]]  # the position's, then its children's
        planned.append((state, code, moves, classes))
        wanted += classes
    rows = reader.positions(record, wanted)  # each row checked
    answers: list[Answer | GamedbError] = []
    player_name, winner, verdict = game.player_name, game.winner, game.verdict
    for plan in planned:
        if isinstance(plan, GamedbError):
            answers.append(plan)
            continue
        state, code, moves, classes = plan
        row = rows.get(classes[0])
        if row is None:
            answers.append(PositionNotFound(f"position {game.format(state)!r} is not reachable from the start of game {record.name!r}"))
            continue
        text = row.text if row.code == code and row.text is not None else game.format(state)  # a stored text is the rules' (verify checks it)
        own = [(label, _as_child(rows.get(of), child)) for (label, child), of in zip(moves, classes[1:], strict=True)]
        if symmetric:  # the mover and the moves are the typed position's
            best = best_move(str(row.result), row.remoteness, [(label, (str(c.result), c.remoteness)) for label, c in own if c is not None])
            row = row._replace(text=text, player=game.to_move(state), degree=len(moves), best_move=best)
        answer = answer_from_row(record, row, player_name, winner, text=text)
        answer.moves = _moves(record, text, own, game)
        if boards:
            answer.board = game.describe(state)
        answer.verdict = verdict(answer.result, answer.remoteness, answer.player)
        answers.append(answer)
    return answers


def _same(code: int) -> int:
    return code


def _as_child(row: PositionRow | None, child: int) -> PositionRow | None:
    """The stored row of ``child``'s class as ``child``'s own (its text then follows from its code)."""
    return row if row is None or row.code == child else row._replace(code=child, text=None)


def answer_from_row(
    record: GameRecord,
    row: PositionRow,
    player_name: Callable[[int], str],
    winner: Callable[[int, str, int | None], str | None] | None = None,
    *,
    text: str,
) -> Answer:
    """The position's own part of an answer (no moves) from its stored row; ``text``: the position's (stored or formatted)."""
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
    answer = Answer(record.name, text, player, result, won_by, row.remoteness, row.degree, row.best_move, row.grundy)
    answer.impartial = record.impartial
    return answer


def _moves(record: GameRecord, text: str, moves: list[tuple[str, PositionRow | None]], game: Game) -> list[MoveValue]:
    """The moves from position ``text`` with their children's stored rows, best first (a child missing from the file: damaged)."""
    ranked: list[tuple[tuple[int, int], MoveValue]] = []
    for label, c in moves:
        if c is None:
            raise missing_child(record.name, text, label)
        result = c.result
        assert result is not None, "rows are read checked"  # (result_of, without a call per move)
        ranked.append((move_rank(result, c.remoteness), MoveValue(label, c.text if c.text is not None else text_of(c, game), result, c.remoteness, c.grundy)))
    if len(ranked) > 1:
        ranked.sort(key=_rank)  # a stable sort: equal moves keep the family's order
    found = [move for _, move in ranked]
    set_delta_remoteness(found)
    return found


_rank = itemgetter(0)
