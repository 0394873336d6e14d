"""Shared files: a solved database read by another user, read-only, in a read-only folder."""

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from conftest import SEED_GRAPH_1
from gamedb import Database, make_game


def _make_share(journal_mode):
    """A world-readable, read-only folder holding a read-only solved database in ``journal_mode``."""
    base = Path(tempfile.mkdtemp(prefix="gamedb-shared-"))
    os.chmod(base, 0o755)
    folder = base / "share"
    folder.mkdir()
    db = Database(folder / "games.sqlite", create=True)
    db.solve(make_game("tictactoe"))
    db.solve(make_game("cat-mouse", graph=SEED_GRAPH_1))
    db.close()
    if journal_mode == "wal":
        # as a solve leaves it when another process had the file open at its end
        with sqlite3.connect(folder / "games.sqlite") as con:
            assert con.execute("PRAGMA journal_mode = WAL").fetchone()[0] == "wal"
        con.close()
    assert sorted(p.name for p in folder.iterdir()) == ["games.sqlite"]  # one self-contained file
    os.chmod(folder / "games.sqlite", 0o444)
    os.chmod(folder, 0o555)
    return base, folder


@pytest.fixture(params=["delete", "wal"])
def shared_dir(request):
    """The share, with the file in rollback-journal mode (as a solve leaves it) or left in WAL mode."""
    base, folder = _make_share(request.param)
    yield folder
    os.chmod(folder, 0o755)
    shutil.rmtree(base)


NOBODY = 65534


def _warm_args(args):
    """The same command on a private copy of the database: it imports everything the
    command needs (as root) without touching the shared folder."""
    args = list(args)
    i = args.index("--db")
    scratch = Path(tempfile.mkdtemp(prefix="gamedb-warm-")) / "copy.sqlite"
    shutil.copyfile(args[i + 1], scratch)
    args[i + 1] = str(scratch)
    return args, scratch.parent


def run_as_other_user(args, warm=None):
    """Run `gamedb ARGS` as an unprivileged user; return (exit code, stdout, stderr).

    Python itself lives under /root here, which another user cannot read, so
    the command runs in a forked child that first warms every import as root,
    then drops to uid/gid 65534 for good and runs the command. The warm-up
    runs the same command on a copy of the database elsewhere (or ``warm``):
    run as root on the shared file itself it could create files beside it.
    """
    from typer.testing import CliRunner

    from gamedb.cli.app import app

    if os.geteuid() != 0:
        result = CliRunner().invoke(app, args)
        return result.exit_code, result.stdout, result.stderr
    scratch = None
    if warm is None:
        warm, scratch = _warm_args(args)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        try:
            os.close(read)
            import gamedb.solvers.solve  # noqa: F401  (warm imports while still root)

            CliRunner().invoke(app, warm)
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            result = CliRunner().invoke(app, args)
            crash = repr(result.exception) if result.exception and not isinstance(result.exception, SystemExit) else ""
            payload = json.dumps([result.exit_code, result.stdout, result.stderr + crash]).encode()
            os.write(write, payload)
        finally:
            os._exit(0)
    os.close(write)
    chunks = []
    while chunk := os.read(read, 65536):
        chunks.append(chunk)
    os.close(read)
    os.waitpid(pid, 0)
    if scratch is not None:
        shutil.rmtree(scratch)
    return tuple(json.loads(b"".join(chunks)))


@pytest.mark.parametrize(
    "args",
    [
        ["list", "--json"],
        ["query", "tictactoe", "X...O....", "--json"],
        ["query", "cat-mouse", "--json"],
        ["stats", "tictactoe", "--json"],
        ["verify", "cat-mouse", "--quiet"],
        ["export", "tictactoe", "--format", "jsonl"],
        ["export", "cat-mouse", "--format", "csv"],
    ],
)
def test_read_commands_on_read_only_share(shared_dir, args):
    db = shared_dir / "games.sqlite"
    before = db.read_bytes()
    code, out, err = run_as_other_user(["--db", str(db), *args])
    assert code == 0, err
    if "--json" in args:
        json.loads(out)
    if args[0] == "export":
        lines = out.splitlines()
        assert len(lines) > 1
        if "jsonl" in args:
            assert {json.loads(line)["position"] for line in lines} >= {"X...O...."}
    assert sorted(p.name for p in shared_dir.iterdir()) == ["games.sqlite"]  # no journal, WAL, shm or lock files
    assert db.read_bytes() == before


def test_wal_file_read_only_to_the_reader_leaves_no_side_files():
    """A file left in WAL mode that the reader may not write, in a folder it may write,
    still opens, without leaving -wal/-shm files there."""
    base, folder = _make_share("wal")
    try:
        os.chmod(folder, 0o777)  # anyone may write the folder, but the file is read-only
        db = folder / "games.sqlite"
        code, out, err = run_as_other_user(["--db", str(db), "query", "tictactoe", "--json"])
        assert code == 0, err
        assert json.loads(out)["result"] == "tie"
        assert sorted(p.name for p in folder.iterdir()) == ["games.sqlite"]
    finally:
        os.chmod(folder, 0o755)
        shutil.rmtree(base)


def test_solving_into_read_only_share_fails_cleanly(shared_dir):
    if os.geteuid() != 0 and os.access(shared_dir, os.W_OK):
        pytest.skip("permissions do not apply")
    db = str(shared_dir / "games.sqlite")
    before = (shared_dir / "games.sqlite").read_bytes()
    code, out, err = run_as_other_user(["--db", db, "solve", "tictactoe", "--force", "-q"])
    assert code == 1 and err.startswith("Error:") and "Traceback" not in err, err
    assert sorted(p.name for p in shared_dir.iterdir()) == ["games.sqlite"]
    assert (shared_dir / "games.sqlite").read_bytes() == before
