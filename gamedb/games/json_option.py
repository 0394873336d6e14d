"""Options that take JSON inline or as a file path (``--graph``, ``--grid``); a path is the user's word only: while a
stored game's rules are rebuilt (:func:`stored_parameters`) a text value is refused unopened."""

import json
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from ..errors import GraphError, param
from ..safe_text import shown

#: the largest JSON file an option reads (a graph of a million edges takes some 10 MB)
MAX_JSON_BYTES = 64 << 20
#: set while a game is rebuilt from a stored row: JSON options then take only the data itself
_FROM_STORED_ROW: ContextVar[bool] = ContextVar("gamedb_from_stored_row", default=False)


@contextmanager
def stored_parameters() -> Iterator[None]:
    """Within: parameters come from a database file, so :func:`load_json_option` refuses text (it could name a path)."""
    token = _FROM_STORED_ROW.set(True)
    try:
        yield
    finally:
        _FROM_STORED_ROW.reset(token)


class StoredPathRefused(GraphError):
    """A stored parameter is text where gamedb stores the data itself: never opened."""


def load_json_option(value: Any, option: str) -> Any:
    """Parse ``value`` as inline JSON or read the file it names; parsed values (lists, dicts) pass through."""
    if not isinstance(value, str):
        return value
    if _FROM_STORED_ROW.get():
        raise StoredPathRefused(f"parameter {option!r} is the text {shown(value, 40)}, not the {option} itself "
                                "(gamedb stores the data, and opens no file that a database names)")
    text = value.strip()
    if not text:
        raise GraphError(f"{param(option)} is empty")
    if text[0] not in "[{":
        path = Path(text).expanduser()
        if not path.exists():
            raise GraphError(f"{param(option)}: no such file {text!r} (give a file path or inline JSON)")
        if path.is_dir():
            raise GraphError(f"{param(option)}: {text!r} is a directory")
        try:
            with open(path, "rb") as handle:  # bounded: `--graph /dev/zero` must not read forever
                data = handle.read(MAX_JSON_BYTES + 1)
            if len(data) > MAX_JSON_BYTES:
                raise GraphError(f"{param(option)}: {shown(path)} is larger than {MAX_JSON_BYTES >> 20} MiB")
            text = data.decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise GraphError(f"{param(option)}: cannot read {shown(path)}: {exc}") from None
        if not text.strip():  # (json said "Expecting value at line 1 column 1")
            raise GraphError(f"{param(option)}: {shown(path)} is empty (it should hold the JSON)")
        where = str(path)
    else:
        where = "inline value"
    try:
        return json.loads(text, object_pairs_hook=_keys_once)
    except _KeyTwice as exc:
        raise GraphError(f"{param(option)}: bad JSON in {where}: the key {json.dumps(exc.args[0], ensure_ascii=False)} is given twice in one "
                         "object (JSON keeps only the last: rename or remove one)") from None
    except json.JSONDecodeError as exc:
        raise GraphError(f"{param(option)}: bad JSON in {where}: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except (ValueError, RecursionError) as exc:  # a number of thousands of digits, or nesting too deep
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc).split(";")[0]
        raise GraphError(f"{param(option)}: bad JSON in {where}: {reason}") from None


class _KeyTwice(ValueError):
    """A JSON object with a key given twice (``json`` would keep the last silently: a position copied and not renamed)."""


def _keys_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) < len(pairs):  # (rare: the C-built dict is the whole cost otherwise)
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _KeyTwice(key)
            seen.add(key)
    return found
