"""What ``gamedb query`` does once its command line is read: the one body of both paths.

Typer's command (:func:`gamedb.cli.info.query_command`) and the light path
of the console script (:mod:`gamedb.cli.quick`, no Typer) read the command
line and hand it here, so they answer, print and fail alike.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import BeyondSolvedRange, GamedbError
from ..safe_text import NOTE_LIMIT
from .common import err, stored_name

if TYPE_CHECKING:
    from ..answers import Answer
    from ..api import Database


def run_query(db: Database, name: str, position: str | None, fmt: str, stdin: bool) -> None:
    """Print the answer for ``position`` of the game ``name`` (a family's name: its one game) in ``fmt``, or,
    with ``stdin``, the answers for the positions read one per line from stdin; raise to fail."""
    from ..answer_output import one_answer_text, read_positions, write_many
    from ..answers import rules_missing_note
    from .collector import collect_less_often

    name = stored_name(db, name)
    if stdin:
        db.game(name).require_solved()  # before reading anything

        def answer_batch(batch: Sequence[str]) -> list[Answer | GamedbError]:
            return list(db.probe_many(name, batch, errors="return", batch=len(batch), boards=False))

        collect_less_often()
        done, failed = write_many(answer_batch, read_positions(sys.stdin), fmt, sys.stdout.write)
        sys.stdout.flush()
        if failed:
            raise GamedbError(f"{failed:,} of {done:,} positions could not be answered")
        return
    try:
        answer = db.probe(name, position)
    except BeyondSolvedRange as exc:  # another stored game holds it: the command that answers it
        if not exc.holders:
            raise
        asked = f" {shlex.quote(position)}" if position is not None else ""
        raise BeyondSolvedRange(f"{exc}: gamedb query {exc.holders[0]}{asked}", exc.holders) from None
    note = rules_missing_note(answer) if fmt == "table" else None
    sys.stdout.write(one_answer_text(answer, fmt))
    sys.stdout.flush()
    if note:
        err(note, NOTE_LIMIT)
