"""Bulk writes on both backends: columns written by ``copy_columns`` read back exactly, hostile text included
(backslashes, tabs, newlines, ``\\N`` and ``\\.``, which mean something to PostgreSQL's ``COPY``)."""

from __future__ import annotations

import random

import pytest
import sqlalchemy as sa

from gamedb.store.bulk import copy_columns

HOSTILE = [
    "", "\\", "\\N", "\\.", "a\tb", "line\nbreak", "cr\rhere", "\\t", "back\\slash\\", "tab\t\t", "é ü 中文", "\u202egnp.exe", "'quoted' \"both\"", "x" * 500,
]

pytestmark = pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning")


def _table() -> sa.Table:
    meta = sa.MetaData()
    return sa.Table(
        "bulk_probe", meta,
        sa.Column("game_id", sa.Integer, nullable=False),
        sa.Column("code", sa.BigInteger, nullable=False),
        sa.Column("text", sa.Text),
        sa.Column("label", sa.Text),
        sa.Column("remoteness", sa.Integer),
    )


def _columns(n: int, seed: int) -> dict[str, list]:
    rng = random.Random(seed)
    return {
        "code": [rng.randrange(-(1 << 62), 1 << 62) for _ in range(n)],
        "text": [rng.choice(HOSTILE) + str(i) for i in range(n)],
        "label": [rng.choice([None, *HOSTILE]) for _ in range(n)],
        "remoteness": [rng.choice([None, 0, 1, 7, 2**31 - 1]) for _ in range(n)],
    }


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request, tmp_path):
    url = f"sqlite:///{tmp_path / 'bulk.sqlite'}" if request.param == "sqlite" else request.getfixturevalue("pg_url")
    made = sa.create_engine(url)
    table = _table()
    table.create(made)
    yield made
    table.drop(made)
    made.dispose()


def test_columns_read_back_exactly(engine):
    table = _table()
    columns = _columns(3_000, 1)
    with engine.begin() as conn:
        copy_columns(conn, table, columns, game_id=7)
        copy_columns(conn, table, {"code": [1, 2], "text": ["plain", "two"], "label": [None, None], "remoteness": [None, 3]}, game_id=8)
    with engine.connect() as conn:
        got = conn.execute(sa.text("SELECT game_id, code, text, label, remoteness FROM bulk_probe ORDER BY game_id, code")).all()
    expected = sorted([(7, *row) for row in zip(*columns.values(), strict=True)] + [(8, 1, "plain", None, None), (8, 2, "two", None, 3)])
    assert [tuple(row) for row in got] == expected


def test_other_values_go_row_by_row(engine):
    """A float in a text column is stored as its text on both backends."""
    table = _table()
    with engine.begin() as conn:
        copy_columns(conn, table, {"code": [5, 6], "text": ["a\tb", 2.5], "label": ["\\", None], "remoteness": [1, None]}, game_id=1)
    with engine.connect() as conn:
        got = conn.execute(sa.text("SELECT code, text, label, remoteness FROM bulk_probe ORDER BY code")).all()
    assert [tuple(row) for row in got] == [(5, "a\tb", "\\", 1), (6, "2.5", None, None)]

