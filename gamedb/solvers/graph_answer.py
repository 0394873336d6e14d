"""Answering from the graph solvers' tables: a position's stored row and its children's."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING

from ..answers import Answer, MoveValue, impartial_players, set_delta_remoteness
from ..errors import GamedbError, PositionNotFound
from ..games.base import Game, State
from ..store.damage import damaged, missing_child
from ..store.record import GameRecord
from ..store.rows import PositionRow, Reader
from ..values import best_move, move_rank
from .capabilities import array_rules, canonical_codes, symmetry_group, vector_rules

if TYPE_CHECKING:
    from ..games.vector import VectorRules


#: a batch of at least this many positions is expanded, mapped through the symmetry and formatted on numpy arrays when
#: the family has its rules on arrays (numpy is not imported to answer a few)
ARRAY_BATCH = 32


def probe_many(reader: Reader, record: GameRecord, game: Game, positions: Sequence[str | None], *, boards: bool = True) -> list[Answer | GamedbError]:
    """Answers for many positions (None: the start), with one lookup of the rows for the whole batch. A game stored one
    canonical position per class answers with the canonical position's value, the user's own moves (each valued by its
    canonical child) and the best move found among them as the solvers find it."""
    symmetric = record.symmetry > 1
    if symmetric and record.symmetry != symmetry_group(game):
        raise damaged(record.name, f"info.symmetry.group is {record.symmetry}, the {game.family} rules have {symmetry_group(game)} symmetries")
    planned: list[tuple[State, int] | GamedbError] = []
    parse, encode, start = game.parse, game.encode, game.start
    for position in positions:
        try:
            state = start() if position is None else parse(position)
            planned.append((state, encode(state)))
        except GamedbError as exc:
            planned.append(exc)
    parsed = [plan for plan in planned if not isinstance(plan, GamedbError)]
    rules = array_rules(game) or vector_rules(game) if len(parsed) >= ARRAY_BATCH else None
    if rules is None:
        canonical: Callable[[int], int] = game.canonical if symmetric else _same
        moves = [game.move_codes(state) for state, _ in parsed]  # none at a primitive position (tests/test_conformance.py)
        classes = [[canonical(code), *[canonical(child) for _, child in own]] for (_, code), own in zip(parsed, moves, strict=True)]
    else:
        moves, classes = _array_moves(game, rules, [code for _, code in parsed], symmetric)
    rows = reader.positions(record, [c for own in classes for c in own])  # each row checked
    texts = _Texts(game)
    if rules is not None:  # every text the answers show that no row holds, formatted at once
        needed = {code for (_, code), own, of in zip(parsed, moves, classes, strict=True)
                  for code, cls in zip([code, *[child for _, child in own]], of, strict=True)
                  if (row := rows.get(cls)) is not None and (row.code != code or row.text is None)}
        import numpy as np

        texts.update(zip(needed, rules.texts(np.fromiter(needed, dtype=np.int64, count=len(needed))), strict=True))
    answers: list[Answer | GamedbError] = []
    player_name, winner, verdict = game.player_name, game.winner, game.verdict
    found = iter(zip(parsed, moves, classes, strict=True))
    for plan in planned:
        if isinstance(plan, GamedbError):
            answers.append(plan)
            continue
        (state, code), own_moves, of = next(found)
        row = rows.get(of[0])
        if row is None:
            answers.append(PositionNotFound(f"position {game.format(state)!r} is not reachable from the start of game {record.name!r}"))
            continue
        text = row.text if row.code == code and row.text is not None else texts[code]  # a stored text is the rules' (verify checks it)
        own = [(label, _as_child(rows.get(cls), child, texts)) for (label, child), cls in zip(own_moves, of[1:], strict=True)]
        if symmetric:  # the mover and the moves are the typed position's
            best = best_move(str(row.result), row.remoteness, [(label, (str(c.result), c.remoteness)) for label, c in own if c is not None])
            row = row._replace(text=text, player=game.to_move(state), degree=len(own_moves), best_move=best)
        answer = answer_from_row(record, row, player_name, winner, text=text)
        answer.moves = _moves(record, text, own)
        if boards:
            answer.board = game.describe(state)
        answer.verdict = verdict(answer.result, answer.remoteness, answer.player)
        answers.append(answer)
    return answers


class _Texts(dict[int, str]):
    """Position texts by code: those formatted at once, any other formatted by the rules when asked."""

    def __init__(self, game: Game):
        super().__init__()
        self.game = game

    def __missing__(self, code: int) -> str:
        return self.game.format(self.game.decode(code))


def _array_moves(game: Game, rules: VectorRules, codes: list[int], symmetric: bool) -> tuple[list[list[tuple[str, int]]], list[list[int]]]:
    """Every position's moves (label, child code) and the classes of it and its children, from the rules on arrays."""
    import numpy as np

    parents = np.array(codes, dtype=np.int64)
    expansion = rules.expand(parents)
    degree = expansion.degree.tolist()
    labels = rules.labels(np.repeat(parents, expansion.degree), expansion.children)
    children = expansion.children.tolist()
    every = np.concatenate([parents, expansion.children])
    of = (canonical_codes(game, rules)(every) if symmetric else every).tolist()
    moves, classes, at = [], [], 0
    for i, d in enumerate(degree):
        moves.append(list(zip(labels[at : at + d], children[at : at + d], strict=True)))
        classes.append([of[i], *of[len(codes) + at : len(codes) + at + d]])
        at += d
    return moves, classes


def _same(code: int) -> int:
    return code


def _as_child(row: PositionRow | None, child: int, texts: dict[int, str]) -> PositionRow | None:
    """The stored row of ``child``'s class as ``child``'s own, with its text (stored, or formatted from its code)."""
    if row is None or (row.code == child and row.text is not None):
        return row
    return row._replace(code=child, text=texts[child])


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


def _moves(record: GameRecord, text: str, moves: list[tuple[str, PositionRow | None]]) -> list[MoveValue]:
    """The moves from position ``text`` with their children's stored rows, best first (a child missing from the file: damaged)."""
    ranked: list[tuple[tuple[int, int], MoveValue]] = []
    for label, c in moves:
        if c is None:
            raise missing_child(record.name, text, label)
        result = c.result
        assert result is not None, "rows are read checked"  # (result_of, without a call per move)
        ranked.append((move_rank(result, c.remoteness), MoveValue(label, str(c.text), result, c.remoteness, c.grundy)))
    if len(ranked) > 1:
        ranked.sort(key=_rank)  # a stable sort: equal moves keep the family's order
    found = [move for _, move in ranked]
    set_delta_remoteness(found)
    return found


_rank = itemgetter(0)
