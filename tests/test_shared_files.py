"""Shared files: a solved database read by another user, read-only, in a read-only folder."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from conftest import SEED_GRAPH_1
from gamedb import Database, make_game


@pytest.fixture
def shared_dir():
    """A world-readable, read-only folder holding a read-only solved database."""
    base = Path(tempfile.mkdtemp(prefix="gamedb-shared-"))
    os.chmod(base, 0o755)
    folder = base / "share"
    folder.mkdir()
    db = Database(folder / "games.sqlite", create=True)
    db.solve(make_game("tictactoe"))
    db.solve(make_game("cat-mouse", graph=SEED_GRAPH_1))
    db.close()
    os.chmod(folder / "games.sqlite", 0o444)
    os.chmod(folder, 0o555)
    yield folder
    os.chmod(folder, 0o755)
    shutil.rmtree(base)


NOBODY = 65534


def run_as_other_user(args, warm=None):
    """Run `gamedb ARGS` as an unprivileged user; return (exit code, stdout, stderr).

    Python itself lives under /root here, which another user cannot read, so
    the command runs in a forked child that first warms every import as root,
    then drops to uid/gid 65534 for good and runs the command again.
    """
    from typer.testing import CliRunner

    from gamedb.cli import app

    if os.geteuid() != 0:
        result = CliRunner().invoke(app, args)
        return result.exit_code, result.stdout, result.stderr
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        try:
            os.close(read)
            import gamedb.solve  # noqa: F401  (warm imports while still root)

            CliRunner().invoke(app, warm or args)
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
    return tuple(json.loads(b"".join(chunks)))


@pytest.mark.parametrize(
    "args",
    [
        ["list", "--json"],
        ["query", "tictactoe", "X...O....", "--json"],
        ["query", "cat-mouse", "--json"],
        ["stats", "tictactoe", "--json"],
        ["verify", "cat-mouse", "--quiet"],
    ],
)
def test_read_commands_on_read_only_share(shared_dir, args):
    before = sorted(p.name for p in shared_dir.iterdir())
    code, out, err = run_as_other_user(["--db", str(shared_dir / "games.sqlite"), *args])
    assert code == 0, err
    if "--json" in args:
        json.loads(out)
    assert sorted(p.name for p in shared_dir.iterdir()) == before  # no journal, WAL or lock files


def test_solving_into_read_only_share_fails_cleanly(shared_dir):
    if os.geteuid() != 0 and os.access(shared_dir, os.W_OK):
        pytest.skip("permissions do not apply")
    db = str(shared_dir / "games.sqlite")
    code, out, err = run_as_other_user(["--db", db, "solve", "tictactoe", "--force", "-q"], warm=["--db", db, "list"])
    assert code == 1 and err.startswith("Error:") and "Traceback" not in err, err
