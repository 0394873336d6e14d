"""Reading stored rows defensively: a database file is data from someone else."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from .. import plural
from ..errors import VerifyError
from ..safe_text import shown
from ..values import RESULT_CODES, RESULTS
from .status import STATUSES


class DamagedGame(VerifyError):
    """A stored game breaks gamedb's format: the file was damaged or edited by hand."""


def is_utf8(text: str) -> bool:
    """False for text read with its bad bytes kept as lone surrogates (``errors="surrogateescape"``)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def readable(text: str) -> str:
    """Text that may hold bad bytes as lone surrogates, with them written as ``\\xff``: printable, encodable."""
    return text if is_utf8(text) else text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def damaged(name: Any, problem: str) -> DamagedGame:
    return DamagedGame(f"game {shown(readable(name) if isinstance(name, str) else name)} is damaged in this file: {problem}")


def _json_object(value: Any, column: str, *, nullable: bool) -> dict[str, Any] | None:
    if value is None:
        if nullable:
            return None
        raise ValueError(f"{column} is missing")
    if isinstance(value, (str, bytes)):
        try:
            value = json.loads(value)
        except (ValueError, RecursionError):
            raise ValueError(f"{column} is not valid JSON ({shown(value, 40)})") from None
    if value is None and nullable:
        return None
    if not isinstance(value, dict):
        raise ValueError(f"{column} is not a JSON object ({shown(json.dumps(value), 40)})")
    return value


def _integer(value: Any, column: str, *, nullable: bool = False, least: int | None = None) -> int | None:
    if value is None and nullable:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{column} is not a whole number ({shown(value, 40)})")
    if least is not None and value < least:
        raise ValueError(f"{column} is {value}, less than {least}")
    return value


def _text(value: Any, column: str, *, nullable: bool = False) -> str | None:
    if value is None and nullable:
        return None
    if not isinstance(value, str):
        raise ValueError(f"{column} is not text ({shown(value, 40)})")
    return value


def _seconds(value: Any, column: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{column} is not a number of seconds ({shown(value, 40)})")
    return float(value)


#: the integer fields of a stored period (gamedb.solvers.heaps.periodicity.Periodicity) and their least values
_PERIOD_INTEGERS = {
    "checked_to": 0, "max_take": 0, "period": 1, "preperiod": 0, "last_exceptional": -1, "candidate_period": 1, "candidate_preperiod": 0, "needs_max": 0,
}


def _periodicity(info: dict[str, Any] | None) -> None:
    """The proven period of an octal game, as the heap solver stores it in ``info``."""
    data = (info or {}).get("periodicity")
    if data is None:
        return
    if not isinstance(data, dict):
        raise ValueError("info.periodicity is not a JSON object")
    unknown = sorted(set(data) - {"proven", "reason", *_PERIOD_INTEGERS})
    if unknown:
        raise ValueError(f"info.periodicity has unknown keys {shown(', '.join(map(str, unknown)), 60)}")
    if not isinstance(data.get("proven"), bool):
        raise ValueError("info.periodicity.proven is not true or false")
    for key, least in _PERIOD_INTEGERS.items():
        _integer(data.get(key), f"info.periodicity.{key}", nullable=key not in ("checked_to", "max_take"), least=least)
    if data["proven"] and (data.get("period") is None or data.get("preperiod") is None):
        raise ValueError("info.periodicity is proven but has no period and pre-period")
    _text(data.get("reason"), "info.periodicity.reason", nullable=True)


def _info(info: dict[str, Any] | None) -> None:
    """What a solve noted about the game: the heap solver's period and how far sums were searched, compact's time."""
    if info is None:
        return
    _periodicity(info)
    if "remoteness_searched_to" in info:  # heap games (files solved before the sum search have none: 0)
        _integer(info["remoteness_searched_to"], "info.remoteness_searched_to", least=0)
    _text(info.get("compacted_at"), "info.compacted_at", nullable=True)
    _symmetry(info.get("symmetry"))


def _symmetry(data: Any) -> None:
    """The symmetry a solve stored canonical positions under: the group's size and the reachable positions."""
    if data is None:
        return
    if not isinstance(data, dict) or set(data) - {"group", "reachable"}:
        raise ValueError(f"info.symmetry is not an object of group and reachable ({shown(data, 40)})")
    _integer(data.get("group"), "info.symmetry.group", least=2)
    _integer(data.get("reachable"), "info.symmetry.reachable", nullable=True, least=0)


def checked_heap_info(name: str, info: dict[str, Any] | None, max_heap: int, max_take: int, proof_end: Callable[[int, int, int], int]) -> None:
    """The heap solver's notes against the stored parameters: a period read or proved beyond the stored heaps is damage."""
    data = (info or {}).get("periodicity")
    if not data:
        return
    checked_to = data["checked_to"]
    if checked_to > max_heap:
        raise damaged(name, f"info.periodicity.checked_to is {checked_to}, beyond the stored heaps 0..{max_heap}")
    if data["max_take"] != max_take:
        raise damaged(name, f"info.periodicity.max_take is {data['max_take']}, the rules take at most {max_take}")
    if data["proven"] and proof_end(data["preperiod"], data["period"], max_take) > checked_to:
        raise damaged(
            name,
            f"info.periodicity claims period {data['period']} from {data['preperiod']}, which heaps 0..{checked_to} cannot prove",
        )


def _progress(progress: dict[str, Any] | None) -> None:
    """Where an unfinished solve stopped: a phase name and level numbers."""
    if progress is None:
        return
    _text(progress.get("phase"), "progress.phase", nullable=True)
    for key, value in progress.items():
        if key in ("level", "winlose_levels", "tie_levels", "grundy_levels"):  # where a resume goes on from
            _integer(value, f"progress.{key}", nullable=True, least=0)


def checked_game_row(data: dict[str, Any]) -> dict[str, Any]:
    """The columns of a raw ``game`` row, parsed and checked; raises :class:`DamagedGame`."""
    name = data.get("name")
    try:
        out = dict(data)
        _integer(data.get("id"), "id")
        if not is_utf8(_text(name, "name") or ""):  # read with its bad bytes kept (Reader.all_games)
            raise ValueError("its name is not valid UTF-8")
        _text(data.get("family"), "family")
        out["parameters"] = _json_object(data.get("parameters"), "parameters", nullable=False)
        out["info"] = _json_object(data.get("info"), "info", nullable=True)
        out["progress"] = _json_object(data.get("progress"), "progress", nullable=True)
        _integer(data.get("rules_version"), "rules_version")
        impartial = data.get("impartial")
        if impartial not in (0, 1):  # True and False are 1 and 0; SQLite stores them so
            raise ValueError(f"impartial is not true or false ({shown(impartial, 40)})")
        out["impartial"] = bool(impartial)
        if data.get("status") not in STATUSES:
            raise ValueError(f"status {shown(data.get('status'), 40)} is none of {', '.join(STATUSES)}")
        _integer(data.get("start_code"), "start_code", least=0)
        _text(data.get("start_position"), "start_position")
        _integer(data.get("positions"), "positions", nullable=True, least=0)
        _integer(data.get("moves"), "moves", nullable=True, least=0)
        _text(data.get("strategy"), "strategy")
        for column in ("created_at", "solved_at", "gamedb_version"):
            _text(data.get(column), column, nullable=True)
        for column in ("enumerate_seconds", "solve_seconds"):
            out[column] = _seconds(data.get(column), column)
        _info(out["info"])
        _progress(out["progress"])
    except ValueError as exc:
        raise damaged(name, str(exc)) from None
    return out


# --- position rows ---------------------------------------------------------------------------

class UnknownLabel(NamedTuple):
    """A stored best move that names none of the game's move labels (a ``move_label`` id none has, or no id), as the
    readers give it in place of a label (``rows.Reader``): :func:`checked_position` says so."""

    stored: Any


def checked_position(game_name: str, impartial: bool, row: dict[str, Any]) -> dict[str, Any]:
    """The columns of a stored position row, checked as a solved game stores them; raises :class:`DamagedGame`."""
    text = row.get("text")
    try:
        if "text" in row:
            _text(text, "text", nullable=True)  # None: a game stored without texts
        if "player" in row and (isinstance(row["player"], bool) or row["player"] not in (0, 1)):
            raise ValueError(f"the player to move is {shown(row['player'], 20)}, not 0 or 1")
        if "result" in row and row["result"] not in RESULTS:
            raise ValueError(_bad_result(row["result"]))
        if "remoteness" in row:
            remoteness = _integer(row["remoteness"], "remoteness", nullable=True, least=0)
            if remoteness is None and not impartial and row.get("result", "draw") != "draw":
                raise ValueError(f"a {row['result']} has no remoteness")
        if "degree" in row:
            _integer(row["degree"], "degree", least=0)
        if "best_move" in row:
            if isinstance(row["best_move"], UnknownLabel):
                raise ValueError(f"best_move {shown(row['best_move'].stored, 40)} is the id of none of the game's move labels")
            _text(row["best_move"], "best_move", nullable=True)
        if "grundy" in row:
            _integer(row["grundy"], "grundy", nullable=True, least=0)
    except ValueError as exc:
        where = f"position {shown(text, 40)}: " if isinstance(text, str) else f"position code {shown(row.get('code'), 20)}: "
        raise damaged(game_name, where + str(exc)) from None
    return row


def _bad_result(value: Any) -> str:
    """What is wrong with a stored result that reads as none of the words: a code out of the table, or another value."""
    codes = ", ".join(f"{code} ({word})" for word, code in RESULT_CODES.items())
    if isinstance(value, str) and value.lstrip("-").isdigit():  # a code, read as text (rows.selected)
        return f"result code {shown(value, 20)} is none of {codes}"
    return f"result {shown(value, 20)} is none of {', '.join(RESULTS)}"


def checked_positions(game_name: str, impartial: bool, rows: Sequence[Any]) -> None:
    """:func:`checked_position` of every row (named tuples of position columns), with the same error."""
    if rows and not stored_as_written(impartial, rows):
        for row in rows:
            checked_position(game_name, impartial, row._asdict())


_NONE = type(None)
_RESULT_SET = frozenset(RESULTS)


def stored_as_written(impartial: bool, rows: Sequence[Any]) -> bool:
    """Whether every row plainly passes :func:`checked_position`; False: maybe not, check row by row."""
    columns = dict(zip(rows[0]._fields, zip(*rows, strict=True), strict=True))
    try:
        return (
            _types(columns, "text") <= {str, _NONE}
            and _types(columns, "player") <= {int} and set(columns.get("player", ())) <= {0, 1}
            and set(columns.get("result", ())) <= _RESULT_SET
            and _types(columns, "remoteness") <= {int, _NONE} and _least(columns, "remoteness") >= 0
            and (impartial or _NONE not in _types(columns, "remoteness") or _draws_only(columns))
            and _types(columns, "degree") <= {int} and _least(columns, "degree") >= 0
            and _types(columns, "best_move") <= {str, _NONE}
            and _types(columns, "grundy") <= {int, _NONE} and _least(columns, "grundy") >= 0
        )
    except TypeError:  # a value that cannot be hashed or compared: the row by row check says which
        return False


def _types(columns: dict[str, tuple[Any, ...]], name: str) -> set[type]:
    return set(map(type, columns.get(name, ())))  # exactly int: a bool (an int too) is not a number here


def _least(columns: dict[str, tuple[Any, ...]], name: str) -> int:
    """The least value of an integer column, None and 0 aside (0 when there is none)."""
    return min(filter(None, columns.get(name, ())), default=0)


def _draws_only(columns: dict[str, tuple[Any, ...]]) -> bool:
    """Whether every row without a remoteness is a draw (the only value of a partisan game without one)."""
    results = columns.get("result")
    if results is None:
        return True
    return all(result == "draw" for result, remoteness in zip(results, columns["remoteness"], strict=True) if remoteness is None)


def counted_positions(game_name: str, stored: int | None, counted: int) -> None:
    """A solved game's row says how many positions it has; rows deleted from (or added to) the file show here."""
    if stored is not None and counted != stored:
        raise damaged(game_name, f"{plural.counted(counted, 'position')} {'is' if counted == 1 else 'are'} stored, the game row says {stored:,}")


def missing_child(game_name: str, text: str, label: str) -> DamagedGame:
    return damaged(game_name, f"position {shown(text, 40)}: its move {shown(label, 20)} leads to a position missing from the file")
