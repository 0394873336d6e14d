"""Streaming every position of a solved game as CSV or JSON lines."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator
from typing import TYPE_CHECKING

from .answer_output import csv_line
from .answers import impartial_players
from .errors import InputError
from .safe_text import escaped, json_escaped
from .stats import positions
from .store.damage import counted_positions
from .store.record import GameRecord

if TYPE_CHECKING:
    from .store.rows import Reads

FORMATS = ("csv", "jsonl")
COLUMNS = ("position", "player", "result", "winner", "remoteness", "degree", "best_move", "grundy", "code")


def export_lines(reads: Reads, record: GameRecord, fmt: str, game_classes: Collection[str] = ()) -> Iterator[str]:
    """Lines (with their newline) of the export, streamed page by page."""
    if fmt not in FORMATS:
        raise InputError(f"unknown export format {fmt!r} (choose {' or '.join(FORMATS)})")
    record.require_solved()
    game = record.rules(game_classes)
    with reads() as reader:  # before the first line: a damaged game writes nothing
        ((counted,),) = reader.fetch("SELECT COUNT(*) FROM position WHERE game_id = ?", (record.id,))
    counted_positions(record.name, record.positions, counted)
    if fmt == "csv":
        yield csv_line(COLUMNS)
    for row in positions(reads, record, game):  # a large game's texts formatted from the codes
        if record.impartial:  # "next" and "previous", as query says
            player, winner = impartial_players(row["result"])
        else:
            player, winner = game.player_name(row["player"]), game.winner(row["player"], row["result"], row["remoteness"])
        values = (row["text"], player, row["result"], winner, row["remoteness"], row["degree"], row["best_move"], row["grundy"], row["code"])
        if fmt == "jsonl":
            yield json_escaped(json.dumps(dict(zip(COLUMNS, values, strict=True)), ensure_ascii=False)) + "\n"
        else:  # control characters escaped (\x1b): no terminal escapes, and a newline in a text splits no row
            yield csv_line(["" if v is None else escaped(v) if isinstance(v, str) else v for v in values])
