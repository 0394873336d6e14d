"""Answers in the formats of ``gamedb query --format``, for one position or a stream (``query NAME -``: a batch at a
time, a failed line's error in its place, blank lines skipped, lines over :data:`MAX_LINE` refused unread)."""

import csv
import io
import itertools
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, TypeVar, cast

from .answers import COMPACT_JSON, Answer, answer_lines, value_text
from .errors import GamedbError, PositionError, command_line_text
from .safe_text import escaped, json_escaped

FORMATS = ("table", "json", "jsonl", "csv")
CSV_COLUMNS = ("position", "player", "result", "winner", "remoteness", "degree", "best_move", "grundy", "error")

BATCH = 10000  # positions answered at a time
MAX_LINE = 4096  # the longest line read as a position
SHOWN = 40  # characters of an over-long line repeated in its error

_LISTED = json.JSONEncoder(ensure_ascii=False)


Answered = Answer | GamedbError
T = TypeVar("T")


def one_answer_text(answer: Answer, fmt: str) -> str:
    """The whole output of a query for one position (safe on a terminal: see :func:`terminal_safe`)."""
    if fmt == "json":
        text = answer.to_json() + "\n"
    elif fmt == "jsonl":
        text = answer.json_line() + "\n"
    elif fmt == "csv":
        text = csv_line(CSV_COLUMNS) + csv_line(_csv_row(answer, answer.position))
    else:
        text = "".join(line + "\n" for line in answer_lines(answer))
    return terminal_safe(text, fmt)


def terminal_safe(text: str, fmt: str) -> str:
    """Output in ``fmt`` with non-printable characters (terminal escapes from a file) escaped: ``\\u001b`` in JSON."""
    return json_escaped(text) if fmt in ("json", "jsonl") else escaped(text, keep="\n")


def read_positions(stream: IO[str]) -> Iterator[str]:
    """Positions one per line; blank lines are skipped, surrounding whitespace is not part of a position."""
    return filter(None, map(str.strip, stream))


def batches(items: Iterable[T], size: int = BATCH) -> Iterator[list[T]]:
    rest = iter(items)
    while batch := list(itertools.islice(rest, size)):
        yield batch


def write_many(
    answer_batch: Callable[[Sequence[str]], list[Answered | str]], positions: Iterable[str], fmt: str, write: Callable[[str], object]
) -> tuple[int, int]:
    """Answer ``positions`` a batch at a time and write them in ``fmt``; returns (answered, failed)."""
    done = failed = 0
    first = True
    if fmt == "json":
        write("[")
    for batch in batches(positions):
        answers = _answer_lines(answer_batch, batch)
        texts = batch if max(map(len, batch)) <= MAX_LINE else [text if len(text) <= MAX_LINE else text[:SHOWN] + "..." for text in batch]
        errors = [answer for answer in answers if isinstance(answer, GamedbError)]
        failed += len(errors)
        if fmt == "jsonl" and not errors:  # the usual stream: every line ended at the join
            out = "\n".join([answer if isinstance(answer, str) else answer.json_line() for answer in cast(list[Answer | str], answers)]) + "\n"
        elif fmt == "jsonl":
            out = "".join([(COMPACT_JSON.encode({"position": text, "error": command_line_text(answer)}) if isinstance(answer, GamedbError)
                            else answer if isinstance(answer, str) else answer.json_line()) + "\n" for text, answer in zip(texts, answers, strict=True)])
        else:
            parts = []
            for text, answer in zip(texts, cast(list[Answered], answers), strict=True):  # lines only come for jsonl
                if fmt == "json":
                    item = {"position": text, "error": command_line_text(answer)} if isinstance(answer, GamedbError) else answer.to_dict()
                    parts.append(("\n" if first else ",\n") + _LISTED.encode(item))
                elif fmt == "csv":
                    parts.append((csv_line(CSV_COLUMNS) if first else "") + csv_line(_csv_row(answer, text)))
                else:
                    parts.append(_table_line(text, answer))
                first = False
            out = "".join(parts)
        done += len(batch)
        write(terminal_safe(out, fmt))
    if fmt == "json":
        write("\n]\n" if not first else "]\n")
    return done, failed


def _answer_lines(answer_batch: Callable[[Sequence[str]], list[Answered | str]], batch: list[str]) -> list[Answered | str]:
    """``answer_batch`` of the lines up to :data:`MAX_LINE` long; an error in the place of each longer one."""
    if max(map(len, batch)) <= MAX_LINE:
        return answer_batch(batch)
    answered = iter(answer_batch([text for text in batch if len(text) <= MAX_LINE]))
    return [
        next(answered) if len(text) <= MAX_LINE else PositionError(f"a line of {len(text):,} characters is not a position (at most {MAX_LINE:,})")
        for text in batch
    ]


def _csv_row(answer: Answered, text: str) -> list[object]:
    """The CSV row of an answer, or of the error of position ``text``."""
    if isinstance(answer, GamedbError):
        return [text, "", "", "", "", "", "", "", command_line_text(answer)]
    grundy = "" if answer.grundy is None else answer.grundy
    remoteness = "" if answer.remoteness is None else answer.remoteness
    return [answer.position, answer.player, answer.result, answer.winner or "", remoteness, answer.degree, answer.best_move or "", grundy, ""]


def csv_line(values: Iterable[object]) -> str:
    """One CSV line (with its newline)."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(values)
    return buffer.getvalue()


def _table_line(text: str, answer: Answered) -> str:
    if isinstance(answer, GamedbError):
        return f"{text}  Error: {command_line_text(answer)}\n"
    who = answer.outcome if answer.impartial else f"{answer.player} to move"
    winner = f" ({answer.winner} wins)" if answer.winner and not answer.impartial else ""
    best = answer.best_move if answer.best_move is not None else "-"
    return f"{answer.position}  {who}: {value_text(answer.result, answer.remoteness)}{winner}, best move {best}\n"
