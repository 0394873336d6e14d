"""Re-derive every stored value from the rules and the children's stored values."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import sqlalchemy as sa

from ..errors import VerifyError
from ..games.base import Expanded, Game
from ..plural import counted
from ..progress import Progress
from ..safe_text import shown
from ..store.record import GameRecord
from ..store.rows import PositionRow, reader_of, text_of
from ..values import LOSE, best_move, is_remoteness, mex, value_from_children, value_problem
from . import capabilities

MAX_FAILURES = 100_000

#: a position's (result, remoteness), as stored or derived
_Value = tuple[str | None, int | None]

def verify_graph(conn: sa.Connection, record: GameRecord, game: Game, *, batch: int = 5000, progress: Progress | None = None) -> int:
    """Check every stored position of a graph solver's game; return how many, or raise :class:`VerifyError` naming a wrong one."""
    checked, after = 0, -1
    failures: dict[int, _Failure] = {}
    _check_token_moves(conn, record, game)
    if reader_of(conn).position(record, record.start_code, checked=False) is None:
        raise VerifyError(f"{record.name}: the start position {record.start_position!r} is not stored")
    if record.symmetry > 1 and record.symmetry != capabilities.symmetry_group(game):
        raise VerifyError(
            f"{record.name}: stored with a symmetry group of {record.symmetry}, the {game.family} rules have {capabilities.symmetry_group(game)} symmetries"
        )
    vector = None if record.impartial else capabilities.vector_rules(game) or capabilities.array_rules(game)  # (a tier family's too)
    if vector is not None:  # the fast pass on arrays; at any disagreement the exact pass below names the position
        from . import vector_verify

        if record.positions is not None and vector_verify.applies(record.positions, vector):
            beside = None if vector_verify.fits(record.positions) else _database_file(conn)  # (where a game too large to hold is spilled)
            agreed = vector_verify.all_agree(conn, record.id, vector, total=record.positions, symmetric=record.symmetry > 1, progress=progress,
                                             spill_beside=beside)
            if agreed is not None:
                return _counted(record, agreed)
    while True:
        rows = reader_of(conn).page(record, after, batch, checked=False)  # judged below, with the rules
        if not rows:
            break
        after = rows[-1].code
        expanded = [_expanded(game, record, row) for row in rows]
        values = reader_of(conn).positions(record, [child for exp in expanded for _, child in exp.moves])  # checked: a damaged child is one line
        for row, exp in zip(rows, expanded, strict=False):
            found = _check(row, exp, values, record.impartial)
            if found and len(failures) < MAX_FAILURES:
                problem, own = found
                children = {c: values[c] for _, c in exp.moves if c in values}
                failures[row.code] = _Failure(row, exp, children, problem, own)
        checked += len(rows)
        if progress:
            progress("verify", checked, record.positions)
    if failures:
        row, problem = _culprit(failures, record.impartial)
        more = f" ({counted(len(failures) - 1, 'more position')} {'disagrees' if len(failures) == 2 else 'disagree'})" if len(failures) > 1 else ""
        raise VerifyError(f"{record.name}: position {text_of(row, game)!r}: {problem}{more}")
    return _counted(record, checked)


def _database_file(conn: sa.Connection) -> Path | None:
    """The database's file (the fast pass spills beside it a game too large to hold), None for a server's."""
    if conn.dialect.name == "duckdb":
        from ..store.duckdb_file import path_of

        return path_of(conn.engine)
    if conn.dialect.name == "sqlite":
        from ..store.sqlite_file import file_of

        return file_of(conn.engine)
    return None


def _expanded(game: Game, record: GameRecord, row: PositionRow) -> Expanded:
    """The rules' view of a stored position (stored with symmetry: its children's canonical codes); a code the rules
    cannot read is a wrong stored value, not a crash."""
    try:
        expanded = game.expand(row.code)
        if record.symmetry == 1:
            return expanded
        canonical = game.canonical
        if canonical(row.code) != row.code:
            raise VerifyError(f"{record.name}: position {row.text!r} is stored but is not the least code of its symmetry class")
        return expanded._replace(moves=[(label, canonical(child)) for label, child in expanded.moves])
    except VerifyError:
        raise
    except Exception as exc:  # the family's own code on a number from the file, whatever it raises
        raise VerifyError(f"{record.name}: position code {row.code}: the rules cannot read it ({shown(str(exc), 80, quotes=False)})") from None


def _counted(record: GameRecord, checked: int) -> int:
    """The number of positions checked, once it is the game row's."""
    if record.positions is not None and checked != record.positions:
        raise VerifyError(f"{record.name}: {counted(checked, 'position')} stored, the game row says {record.positions}")
    return checked


@dataclass
class _Failure:
    """A stored position that disagrees, with what is needed to judge it again."""

    row: PositionRow
    expanded: Expanded
    #: the children's stored rows by code
    children: dict[int, PositionRow]
    problem: str
    #: wrong whatever its children hold (text, player, degree, a malformed value)
    own: bool


class _Mismatch(Exception):
    def __init__(self, what: str, own: bool = False):
        super().__init__(what)
        self.own = own


def _check(row: PositionRow, expanded: Expanded, values: dict[int, PositionRow], impartial: bool = False) -> tuple[str, bool] | None:
    """What is wrong with one stored position and whether it is wrong by itself, or None."""
    try:
        _check_row(row, expanded, values, impartial)
        if impartial:
            _check_grundy(row, expanded, values)
    except _Mismatch as exc:
        return str(exc), exc.own
    return None


def _check_row(row: PositionRow, expanded: Expanded, values: dict[int, PositionRow], impartial: bool = False) -> None:
    player, text, prim, moves = expanded

    def fail(what: str, own: bool = False) -> NoReturn:
        raise _Mismatch(what, own)

    if row.text is not None and text != row.text:  # (a large game is stored without texts)
        fail(f"stored text differs from the rules' text {text!r}", own=True)
    if player != row.player:
        fail(f"stored player {row.player!r}, the rules say {player}", own=True)
    if row.degree != len(moves):
        fail(f"stored degree {row.degree!r}, the rules give {counted(len(moves), 'move')}", own=True)
    malformed = value_problem(row.result, row.remoteness)
    if malformed:
        fail(malformed, own=True)
    if impartial:
        if row.grundy is not None and not is_remoteness(row.grundy):
            fail(f"stored grundy {row.grundy!r} is not a non-negative integer", own=True)
    elif row.grundy is not None:
        fail(f"stored grundy {row.grundy!r} in a partisan game (only impartial games have grundy values)", own=True)
    if prim is None and not moves:
        fail("a non-primitive position must have moves", own=True)
    children: list[tuple[str, int | None]] = []
    for label, child in moves:
        if child not in values:
            fail(f"move {label} leads to a position that is not stored (code {child})", own=True)
        stored = values[child]
        cres, crem = stored.result, stored.remoteness
        if cres is None or value_problem(cres, crem):
            fail(f"move {label} leads to {stored.text!r}, whose stored value ({cres!r}, {crem!r}) is malformed")
        children.append((cres, crem))
    result, remoteness = value_from_children(prim, children)  # children checked above
    if (row.result, row.remoteness) != (result, remoteness):
        fail(f"stored {row.result} in {row.remoteness}, the rules and children give {result} in {remoteness}")
    best = best_move(result, remoteness, [(label, value) for (label, _), value in zip(moves, children, strict=False)])
    if row.best_move != best:
        fail(f"stored best move {row.best_move!r}, expected {best!r}")


def _check_grundy(row: PositionRow, expanded: Expanded, values: dict[int, PositionRow]) -> None:
    """Impartial games: grundy is the mex of the children's values, and 0 exactly for a loss."""
    grundies = [values[child].grundy for _, child in expanded.moves]
    known = [g for g in grundies if g is not None]
    grundy = mex(known) if len(known) == len(grundies) else None  # a position on a cycle has none
    if row.grundy != grundy:
        raise _Mismatch(f"stored grundy {row.grundy}, the mex of the children's values is {grundy}")
    if grundy is not None and (grundy == 0) != (row.result == LOSE):
        raise _Mismatch(f"grundy {grundy} disagrees with result {row.result} (a loss exactly when grundy is 0)")


def _culprit(failures: dict[int, _Failure], impartial: bool) -> tuple[PositionRow, str]:
    """The (row, problem) to report among the positions that disagree."""
    own = [code for code, f in failures.items() if f.own]
    if own:
        failure = failures[min(own)]
        return failure.row, failure.problem
    pool = _still_wrong(failures, impartial) or {code: f.problem for code, f in failures.items()}
    roots = [code for code in pool if not any(child in pool for _, child in failures[code].expanded.moves)]
    code = min(roots) if roots else min(pool)
    return failures[code].row, pool[code]


def _still_wrong(failures: dict[int, _Failure], impartial: bool) -> dict[int, str]:
    """The disagreeing positions that still disagree once the values of all of them are derived again."""
    if len(failures) >= MAX_FAILURES:  # some disagreeing positions were not kept
        return {}
    stored: dict[int, PositionRow] = {}
    for failure in failures.values():
        stored.update(failure.children)
    outside = {code: (row.result, row.remoteness) for code, row in stored.items() if code not in failures}
    if any(value_problem(*value) for value in outside.values()):
        return {}
    nodes = {code: (f.expanded.primitive, [child for _, child in f.expanded.moves]) for code, f in failures.items()}
    derived = _resolve(nodes, outside)
    values = {code: row._replace(result=derived[code][0], remoteness=derived[code][1]) if code in derived else row for code, row in stored.items()}
    still = {}
    for code, failure in failures.items():
        found = _check(failure.row, failure.expanded, values, impartial)
        if found:
            still[code] = found[0]
    return still


def _resolve(nodes: dict[int, tuple[str | None, list[int]]], outside: dict[int, _Value]) -> dict[int, _Value]:
    """Retrograde analysis of a part of the game, the rest fixed (the tier solver's levels on its arrays)."""
    import numpy as np

    from ..games.vector import RESULT_CODES, RESULT_NAMES, UNDECIDED
    from .tier_values import leveled

    index = {code: i for i, code in enumerate([*nodes, *outside])}
    primitive = np.array([UNDECIDED if prim is None else RESULT_CODES[prim] for prim, _ in nodes.values()], dtype=np.int8)
    degree = np.array([len(children) for _, children in nodes.values()], dtype=np.int64)
    child = np.array([index[c] for _, children in nodes.values() for c in children], dtype=np.int64)
    outer_result = np.array([RESULT_CODES[str(res)] for res, _ in outside.values()], dtype=np.int8)  # well formed: checked
    outer_remoteness = np.array([-1 if rem is None else rem for _, rem in outside.values()], dtype=np.int32)
    found = leveled(primitive, degree, child, outer_result, outer_remoteness)
    return {code: (RESULT_NAMES[r], None if m < 0 else m) for code, r, m in zip(nodes, found.result.tolist(), found.remoteness.tolist(), strict=True)}


def _check_token_moves(conn: sa.Connection, record: GameRecord, game: Game) -> None:
    """The stored move lists of a two-token game (what the ``moves`` view shows) must be the rules' own."""
    from ..store.schema import token_board, token_move

    tokens = capabilities.move_lists(game)
    nodes = conn.execute(sa.select(token_board.c.nodes).where(token_board.c.game_id == record.id)).scalar()
    stored = conn.execute(
        sa.select(token_move.c.player, token_move.c.node, token_move.c.ord, token_move.c.target, token_move.c.label)
        .where(token_move.c.game_id == record.id)
        .order_by(token_move.c.player, token_move.c.node, token_move.c.ord)
    ).all()
    if tokens is None:
        if nodes is not None or stored:
            raise VerifyError(f"{record.name}: move lists are stored (token_move) but the {game.family} rules have none")
        return
    if nodes is None and not stored:
        # a game solved before gamedb kept move lists (schema 0002 and older): its moves are rows, or were compacted away
        if conn.execute(sa.text("SELECT 1 FROM move WHERE game_id = :g LIMIT 1"), {"g": record.id}).first() is not None:
            return
        if (record.info or {}).get("compacted_at"):
            return
        raise VerifyError(f"{record.name}: neither move lists (token_move) nor move rows are stored")
    if nodes != tokens.nodes:
        raise VerifyError(f"{record.name}: the stored board has {nodes} nodes, the rules {tokens.nodes}")
    expected = sorted(tokens.rows)
    for want, got in zip(expected, [tuple(row) for row in stored], strict=False):
        if want != got:
            player, node, order = want[:3]
            raise VerifyError(
                f"{record.name}: move {order} of {game.player_name(player)} at node {node} is stored as {got[3:]}, the rules say {want[3:]}"
            )
    if len(stored) != len(expected):
        raise VerifyError(f"{record.name}: the move lists store {counted(len(stored), 'move')}, the rules have {len(expected)}")
