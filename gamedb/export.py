"""Streaming every position of a solved game as CSV or JSON lines."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Collection, Iterator
from typing import TYPE_CHECKING

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
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(COLUMNS)
        yield buffer.getvalue()
    for row in positions(reads, record):
        if record.impartial:  # "next" and "previous", as query says
            player, winner = impartial_players(row["result"])
        else:
            player, winner = game.player_name(row["player"]), game.winner(row["player"], row["result"], row["remoteness"])
        item = {
            "position": row["text"],
            "player": player,
            "result": row["result"],
            "winner": winner,
            "remoteness": row["remoteness"],
            "degree": row["degree"],
            "best_move": row["best_move"],
            "grundy": row["grundy"],
            "code": row["code"],
        }
        if fmt == "jsonl":
            yield json_escaped(json.dumps(item, ensure_ascii=False)) + "\n"
        else:
            buffer = io.StringIO()
            # control characters escaped (\x1b): no terminal escapes, and a newline in a text splits no row
            csv.writer(buffer, lineterminator="\n").writerow(
                ["" if item[c] is None else escaped(item[c]) if isinstance(item[c], str) else item[c] for c in COLUMNS]
            )
            yield buffer.getvalue()
