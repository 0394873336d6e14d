"""The README's examples, run in order as a reader would type them, in one folder on one file.

Shell blocks run in bash with `gamedb` on the PATH, in the README's order
(`old.sqlite`, the file `db upgrade` upgrades, is made first at an older
schema revision); then the complete commands quoted in the text (`gamedb
query flip -- -++-`, the Kayles solve and query, ...), in their order; then
the Python blocks, in the same folder. A plain-SQL example must print rows.
Left out, and why: installing software (`pip install`, `python3 -m venv`),
the test and benchmark runs, Alembic's development commands, commands that
need a PostgreSQL server, and `gamedb serve`, which serves until Ctrl+C.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")

# `gamedb serve` runs until Ctrl+C: its page and API are tested in test_web_api and test_web_browser
NOT_RUN = re.compile(r"pip install|python3 -m venv|pytest|bench/run\.py|alembic|postgresql|gamedb serve|ruff|mypy")


def shell_blocks() -> list[str]:
    return re.findall(r"```sh\n(.*?)```", README, flags=re.S)


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README, flags=re.S)


def inline_commands() -> list[str]:
    """The complete gamedb commands quoted in the text (outside the blocks), in order: those with an argument
    (`gamedb query hole --json`, not `gamedb query` or `gamedb compact NAME`), `gamedb serve` left out."""
    prose = re.sub(r"```.*?```", "", README, flags=re.S)
    found = []
    for span in re.findall(r"`(gamedb [^`]+)`", prose):
        command = " ".join(span.split())
        if len(command.split()) < 3 or re.search(r"[A-Z]{3,}|<|\[", command) or NOT_RUN.search(command):
            continue
        found.append(command)
    return found


def older_file(path: Path) -> None:
    """A gamedb file with a game in it, at the schema revision before the newest (for `gamedb --db old.sqlite db upgrade`)."""
    from alembic.script import ScriptDirectory

    from gamedb import Database, make_game
    from gamedb.store.database import alembic_config

    revisions = [r.revision for r in ScriptDirectory.from_config(alembic_config()).walk_revisions()]
    with Database(path, create=True) as db:
        db.solve(make_game("nim", max=5))
    down = subprocess.run([sys.executable, "-m", "alembic", "-x", f"db={path}", "downgrade", revisions[1]], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert down.returncode == 0, down.stderr


def runnable(block: str) -> str:
    """The block without the lines it leaves out; an install chained before gamedb (`... && .venv/bin/gamedb ...`) keeps its gamedb part."""
    lines = []
    for line in block.splitlines():
        if line.lstrip().startswith("#"):
            continue
        parts = [p.strip() for p in line.split("&&")]
        if "pip install ./" in line:  # a plugin package: installing it is not what this test checks
            continue
        # (a module path the reader sets, relative to the repository root, keeps the path to the tree under test)
        kept = [p.replace(".venv/bin/gamedb", "gamedb").replace("PYTHONPATH=examples/plugin ", "PYTHONPATH=examples/plugin:$PYTHONPATH ")
                for p in parts if not NOT_RUN.search(p)]
        if kept:
            lines.append(" && ".join(kept))
    return "\n".join(lines)


@pytest.mark.slow
def test_readme_examples_run_in_order(tmp_path):
    env = dict(os.environ)
    env.pop("GAMEDB_DB", None)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(ROOT)  # not examples/plugin: the README says how its reader finds the plugin's module
    (tmp_path / "examples").symlink_to(ROOT / "examples")  # the reader's folder is the repository root
    ran = 0
    older_file(tmp_path / "old.sqlite")
    for block in shell_blocks():
        script = runnable(block)
        if not script.strip():
            continue
        run = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True,
                             stdin=subprocess.DEVNULL, timeout=600)
        assert run.returncode == 0, f"README block failed:\n{script}\nstdout: {run.stdout[-2000:]}\nstderr: {run.stderr[-2000:]}"
        if script.startswith("sqlite3 "):  # a plain-SQL example shows rows, as the text promises
            assert run.stdout.strip(), f"README SQL example printed no rows:\n{script}"
        ran += script.count("gamedb ")
    assert ran >= 15
    assert list(tmp_path.glob("old.sqlite.backup-*")), "gamedb --db old.sqlite db upgrade made no backup"
    inline = inline_commands()
    assert 'gamedb query octal-0.77 "1000000000007 5"' in inline and "gamedb query flip --position -++-" in inline
    for command in inline:
        run = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True,
                             stdin=subprocess.DEVNULL, timeout=600)
        assert run.returncode == 0, f"README command failed: {command}\nstdout: {run.stdout[-2000:]}\nstderr: {run.stderr[-2000:]}"
    # the JSON example is what `gamedb query hole --json` prints, field for field
    shown = json.loads(re.search(r"```json\n(.*?)```", README, flags=re.S).group(1))
    printed = subprocess.run(["gamedb", "query", "hole", "--json"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert json.loads(printed.stdout) == shown
    # then the Python blocks, on the same file
    for block in python_blocks():
        run = subprocess.run([sys.executable, "-c", block], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
        assert run.returncode == 0, f"README Python block failed:\n{block}\n{run.stderr[-2000:]}"


def test_readme_blocks_are_found():
    assert len(shell_blocks()) >= 5 and len(python_blocks()) >= 2
    assert "gamedb solve cat-mouse" in runnable(shell_blocks()[0])
    assert "pip" not in runnable(shell_blocks()[0])
