"""Answering from the graph solvers' tables: a position's stored row and its children's."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import repeat
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Any

from ..answers import Answer, MoveValue, impartial_players, json_fields, json_lines, move_objects, set_delta_remoteness
from ..errors import GamedbError, PositionNotFound
from ..games.base import Game, State
from ..store.damage import damaged, missing_child
from ..store.record import GameRecord
from ..store.rows import PositionRow, Reader
from ..values import DRAW, FOR_MOVER, LOSE, best_move, move_rank
from .capabilities import array_rules, canonical_codes, symmetry_group, vector_rules

if TYPE_CHECKING:
    import numpy as np

    from ..games.vector import VectorRules


#: a batch of at least this many positions is expanded, mapped through the symmetry and formatted on numpy arrays when
#: the family has its rules on arrays (numpy is not imported to answer a few)
ARRAY_BATCH = 32


def probe_many(
    reader: Reader, record: GameRecord, game: Game, positions: Sequence[str | None], *, boards: bool = True, lines: bool = False
) -> list[Answer | GamedbError | str]:
    """Answers for many positions (None: the start), with one lookup of the rows for the whole batch. A game stored one
    canonical position per class answers with the canonical position's value, the user's own moves (each valued by its
    canonical child) and the best move found among them as the solvers find it. ``lines``: each answer as its JSON line
    (:func:`~gamedb.answers.json_lines`, from the batch's columns where its moves were ranked on arrays)."""
    symmetric = record.symmetry > 1
    if symmetric and record.symmetry != symmetry_group(game):
        raise damaged(record.name, f"info.symmetry.group is {record.symmetry}, the {game.family} rules have {symmetry_group(game)} symmetries")
    rules = array_rules(game) or vector_rules(game) if len(positions) >= ARRAY_BATCH else None
    if rules is None:
        planned = _planned(game, positions, symmetric)
        rows = reader.positions(record, [c for plan in planned if not isinstance(plan, GamedbError) for c in plan.classes])  # each row checked
        texts, ranked = _Texts(game), None
    else:
        planned, every, of = _array_planned(game, rules, positions, symmetric)
        rows = reader.positions(record, of.tolist())  # each row checked
        texts = _array_texts(game, rules, rows, every, of)
        ranked = _rank_moves([plan for plan in planned if not isinstance(plan, GamedbError)], rows, texts)
    answers: list[Answer | GamedbError | str] = []
    heads: list[tuple[Any, ...]] = []  # (at, text, player, result, winner, remoteness, degree, best move, grundy, verdict, plan)
    player_name, winner, verdict = game.player_name, game.winner, game.verdict
    for plan in planned:
        if isinstance(plan, GamedbError):
            answers.append(plan)
            continue
        code, own_moves, classes = plan.code, plan.moves, plan.classes
        row = rows.get(classes[0])
        if row is None:
            answers.append(PositionNotFound(f"position {game.format(plan.state())!r} is not reachable from the start of game {record.name!r}"))
            continue
        text = row.text if row.code == code and row.text is not None else texts[code]  # a stored text is the rules' (verify checks it)
        if lines and plan.start >= 0 and not record.impartial:  # encoded with the batch's below, no answer object made
            mover = plan.player() if symmetric else row.player  # a symmetric game's mover, moves and best move: the typed position's
            player, won_by = _players(record, mover, str(row.result), row.remoteness, player_name, winner)
            heads.append((len(answers), text, player, row.result, won_by, row.remoteness, len(own_moves) if symmetric else row.degree,
                          plan.best if symmetric else row.best_move, row.grundy, verdict(str(row.result), row.remoteness, player), plan))
            answers.append("")
            continue
        own = [(label, rows.get(cls), child) for (label, child), cls in zip(own_moves, classes[1:], strict=True)] if plan.start < 0 else []
        if symmetric:  # the mover and the moves are the typed position's
            best = plan.best if plan.start >= 0 else best_move(
                str(row.result), row.remoteness, [(label, (str(c.result), c.remoteness)) for label, c, _ in own if c is not None])
            row = PositionRow(row.code, text, plan.player(), row.result, row.remoteness, len(own_moves), best, row.grundy)
        answer = answer_from_row(record, row, player_name, winner, text=text)
        answer.moves = _moves(record, text, own, texts) if ranked is None or plan.start < 0 else [
            MoveValue(*move) for move in zip(*(column[plan.start : plan.start + len(plan.moves)] for column in ranked), strict=True)]
        if boards and not lines:
            answer.board = game.describe(plan.state())
        answer.verdict = verdict(answer.result, answer.remoteness, answer.player)
        answers.append(answer.json_line() if lines else answer)
    if heads and ranked is not None:
        _encode(record, heads, ranked, answers)
    return answers


def _encode(record: GameRecord, heads: list[tuple[Any, ...]], ranked: tuple[list[Any], ...], answers: list[Answer | GamedbError | str]) -> None:
    """The JSON line of each answer in ``heads`` (of a game that is not impartial) put in its place in ``answers``, its
    moves those ``ranked`` for the batch."""
    labels, shown, results, remoteness, grundy, delta = ranked
    objects = move_objects(labels, shown, results, remoteness, delta, grundy if grundy.count(None) < len(grundy) else None, False)
    at, texts, players, values, winners, rems, degrees, bests, grundies, verdicts, plans = zip(*heads, strict=True)
    middles = ["" if g is None else json_fields({"grundy": g}) for g in grundies] if grundies.count(None) < len(grundies) else repeat("")
    moves = [",".join(objects[plan.start : plan.start + len(plan.moves)]) for plan in plans]
    tails = [json_fields(v) if v else "" for v in verdicts]
    for i, line in zip(at, json_lines(record.name, texts, players, values, winners, rems, degrees, bests, middles, moves, tails), strict=True):
        answers[i] = line


class _Plan:
    """What answering one position needs: its code, its moves (label, child code), its class and its children's."""

    __slots__ = ("best", "classes", "code", "game", "moves", "mover", "parsed", "start")

    def __init__(self, game: Game, code: int, moves: list[tuple[str, int]], classes: list[int], parsed: State = None, mover: int = -1):
        self.game, self.code, self.moves, self.classes, self.parsed, self.mover = game, code, moves, classes, parsed, mover
        #: where the moves start, best first, in the columns ranked for the whole batch at once (-1: by :func:`_moves`),
        #: and the best move by :func:`~gamedb.values.best_move`'s rule
        self.start = -1
        self.best: str | None = None

    def state(self) -> State:
        return self.game.decode(self.code) if self.parsed is None else self.parsed

    def player(self) -> int:
        return self.game.to_move(self.state()) if self.mover < 0 else self.mover


def _planned(game: Game, positions: Sequence[str | None], symmetric: bool) -> list[_Plan | GamedbError]:
    """Each position parsed and expanded by the rules one at a time (an error in the place of a bad one)."""
    planned: list[_Plan | GamedbError] = []
    canonical: Callable[[int], int] = game.canonical if symmetric else _same
    parse, encode, move_codes = game.parse, game.encode, game.move_codes
    for position in positions:
        try:
            state = game.start() if position is None else parse(position)
            code = encode(state)
            moves = move_codes(state)  # none at a primitive position (the Game contract; tests/test_conformance.py checks every family)
        except GamedbError as exc:
            planned.append(exc)
            continue
        planned.append(_Plan(game, code, moves, [canonical(code), *[canonical(child) for _, child in moves]], state))
    return planned


def _array_planned(
    game: Game, rules: VectorRules, positions: Sequence[str | None], symmetric: bool
) -> tuple[list[_Plan | GamedbError], np.ndarray, np.ndarray]:
    """Every position read at once where the rules can (else parsed alone), then expanded, mapped through the symmetry
    and labelled on arrays; also the codes of the positions and their children, and of their classes."""
    import numpy as np

    found = rules.codes_of([position or "" for position in positions]).tolist()
    parsed: list[int | GamedbError] = []
    for position, code in zip(positions, found, strict=True):
        if code < 0 or position is None:
            try:
                code = game.encode(game.start() if position is None else game.parse(position))
            except GamedbError as exc:
                parsed.append(exc)
                continue
        parsed.append(code)
    codes = [code for code in parsed if not isinstance(code, GamedbError)]
    parents = np.array(codes, dtype=np.int64)
    expansion = rules.expand(parents)
    degree, players = expansion.degree.tolist(), expansion.player.tolist()
    labels = rules.labels(np.repeat(parents, expansion.degree), expansion.children)
    children = expansion.children.tolist()
    every = np.concatenate([parents, expansion.children])
    classes = canonical_codes(game, rules)(every) if symmetric else every
    of = classes.tolist()
    planned: list[_Plan | GamedbError] = []
    i = at = 0
    for code in parsed:
        if isinstance(code, GamedbError):
            planned.append(code)
            continue
        d, end = degree[i], len(codes) + at + degree[i]
        planned.append(_Plan(game, code, list(zip(labels[at : at + d], children[at : at + d], strict=True)), [of[i], *of[end - d : end]], None, players[i]))
        i, at = i + 1, at + d
    return planned, every, classes


def _array_texts(game: Game, rules: VectorRules, rows: dict[int, PositionRow], every: np.ndarray, of: np.ndarray) -> _Texts:
    """The texts of the positions ``every`` (of the classes ``of``) that no stored row holds, formatted at once."""
    import numpy as np

    held = np.fromiter((code for code, row in rows.items() if row.text is not None), dtype=np.int64)
    found = np.fromiter(rows, dtype=np.int64, count=len(rows))
    needed = np.unique(every[np.isin(of, found) & ((every != of) | ~np.isin(of, held))]) if len(held) else np.unique(every[np.isin(of, found)])
    texts = _Texts(game)
    texts.update(zip(needed.tolist(), rules.texts(needed), strict=True))
    return texts


def _rank_moves(plans: list[_Plan], rows: dict[int, PositionRow], texts: dict[int, str]) -> tuple[list[Any], ...] | None:
    """Every plan's moves ranked best first (a stable sort: equal moves keep the family's order) with their
    ``delta_remoteness``, :func:`_moves` and :func:`~gamedb.answers.set_delta_remoteness` on the whole batch at once
    (left to :func:`_moves` when a child is missing: it says which): the columns of :class:`~gamedb.answers.MoveValue`."""
    import numpy as np

    classes = [cls for plan in plans for cls in plan.classes[1:]]
    found = [rows.get(cls) for cls in classes]
    if None in found:
        return None
    stored = {code: row.text for code, row in rows.items() if row.text is not None}
    labels = [label for plan in plans for label, _ in plan.moves]
    children = [child for plan in plans for _, child in plan.moves]
    if stored:
        shown = [text if (text := stored.get(cls)) is not None and cls == child else texts[child] for cls, child in zip(classes, children, strict=True)]
    else:
        shown = list(map(texts.__getitem__, children))
    results: list[str] = list(map(_RESULT, found))  # rows are read checked: each has a result
    remoteness: list[int | None] = list(map(_REMOTENESS, found))
    code = np.array(list(map(_RESULT_INDEX.__getitem__, results)), dtype=np.int64)
    rem = np.array([-1 if r is None else r for r in remoteness], dtype=np.int64)
    degree = np.array([len(plan.moves) for plan in plans], dtype=np.int64)
    at = np.repeat(np.arange(len(plans)), degree)
    rank, sign, value = (np.array(column, dtype=np.int64)[code] for column in zip(*_RANKS, strict=True))
    order = np.lexsort((np.where(rem >= 0, sign * rem, 0), rank, at)).tolist()  # stable
    group = at * 4 + value  # the moves of one position that give the mover the same value
    unknown = np.bincount(group, weights=rem < 0, minlength=4 * len(plans)) > 0
    least, most = np.full(4 * len(plans), np.iinfo(np.int64).max), np.full(4 * len(plans), -1)
    np.minimum.at(least, group, rem)
    np.maximum.at(most, group, rem)
    held = np.where(value == _RANK_OF_VALUE[LOSE], most[group], least[group])  # losses are best slowest, the rest quickest
    draw = value == _RANK_OF_VALUE[DRAW]
    delta = [0 if d else None if u else a for d, u, a in zip(draw.tolist(), unknown[group].tolist(), np.abs(rem - held).tolist(), strict=True)]
    grundy = list(map(_GRUNDY, found))
    start = 0
    for plan, d, best in zip(plans, degree.tolist(), _best_moves(plans, rows, labels, at, code, rem), strict=True):
        plan.start, plan.best = start, best
        start += d
    return tuple(list(map(column.__getitem__, order)) for column in (labels, shown, results, remoteness, grundy, delta))


def _best_moves(plans: list[_Plan], rows: dict[int, PositionRow], labels: list[str], at: np.ndarray, code: np.ndarray, rem: np.ndarray) -> list[str | None]:
    """:func:`~gamedb.values.best_move` of every plan whose class is stored, from its moves' values (``at``: each
    move's plan, ``code``: its child's result index, ``rem``: its remoteness, -1 for none), for the whole batch."""
    import numpy as np

    own = [rows.get(plan.classes[0]) for plan in plans]
    own_code = np.array([-1 if row is None else _RESULT_INDEX[str(row.result)] for row in own], dtype=np.int64)
    own_rem = np.array([-1 if row is None or row.remoteness is None else row.remoteness for row in own], dtype=np.int64)
    wanted = np.where(own_code >= 0, np.array(_WANTED)[own_code], -1)[at]  # the child's result that keeps the value
    keeps = (code == wanted) & ((own_rem[at] < 0) | ((rem >= 0) & (rem == own_rem[at] - 1)))
    first = np.flatnonzero(keeps)
    which, where = np.unique(at[first], return_index=True)  # the first such move of each plan, in move order
    best: list[str | None] = [None] * len(plans)
    for i, m in zip(which.tolist(), first[where].tolist(), strict=True):
        best[i] = labels[m]
    return best


_RESULT, _REMOTENESS, _GRUNDY = (attrgetter(field) for field in ("result", "remoteness", "grundy"))
#: a child's result -> its index in :data:`_RANKS`: (rank, sign of the remoteness, the mover's value) as :func:`move_rank`
_RESULT_INDEX = {result: i for i, result in enumerate(FOR_MOVER)}
_RANKS = [(*move_rank(result, 1), list(FOR_MOVER).index(FOR_MOVER[result])) for result in FOR_MOVER]
_RANK_OF_VALUE = {value: i for i, value in enumerate(FOR_MOVER)}
#: a position's result index -> the result index of a child that keeps its value (:func:`~gamedb.values.best_move`)
_WANTED = [_RESULT_INDEX[FOR_MOVER[result]] for result in FOR_MOVER]


class _Texts(dict[int, str]):
    """Position texts by code: those formatted at once, any other formatted by the rules when asked."""

    def __init__(self, game: Game):
        super().__init__()
        self.game = game

    def __missing__(self, code: int) -> str:
        return self.game.format(self.game.decode(code))


def _same(code: int) -> int:
    return code


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
    player, won_by = _players(record, row.player, result, row.remoteness, player_name, winner)
    # the fields in their order, without keywords: a stream of positions makes an answer for each
    answer = Answer(record.name, text, player, result, won_by, row.remoteness, row.degree, row.best_move, row.grundy)
    answer.impartial = record.impartial
    return answer


def _players(
    record: GameRecord, mover: int, result: str, remoteness: int | None, player_name: Callable[[int], str],
    winner: Callable[[int, str, int | None], str | None] | None,
) -> tuple[str, str | None]:
    """(the player to move, the winner) of a stored value: ``result`` for player ``mover``."""
    if record.impartial:
        return impartial_players(result)
    player = player_name(mover)
    if winner is not None:
        return player, winner(mover, result, remoteness)
    return player, player if result == "win" else player_name(1 - mover) if result == "lose" else None


def _moves(record: GameRecord, text: str, moves: list[tuple[str, PositionRow | None, int]], texts: dict[int, str]) -> list[MoveValue]:
    """The moves from position ``text`` (label, the stored row of the child's class, the child's code), best first, each
    child's text stored or formatted from its code (a child missing from the file: damaged)."""
    ranked: list[tuple[tuple[int, int], MoveValue]] = []
    for label, c, child in moves:
        if c is None:
            raise missing_child(record.name, text, label)
        result = c.result
        assert result is not None, "rows are read checked"  # (result_of, without a call per move)
        shown = c.text if c.code == child and c.text is not None else texts[child]
        ranked.append((move_rank(result, c.remoteness), MoveValue(label, shown, result, c.remoteness, c.grundy)))
    if len(ranked) > 1:
        ranked.sort(key=_rank)  # a stable sort: equal moves keep the family's order
    found = [move for _, move in ranked]
    set_delta_remoteness(found)
    return found


_rank = itemgetter(0)
