"""The README's examples, run in order as a reader would type them, in one folder on one file.

Shell blocks run in bash with `gamedb` on the PATH; Python blocks run in the
same folder afterwards. Left out, and why: installing software (`pip
install`, `python3 -m venv`), the test and benchmark runs, Alembic's
development commands, commands that need a PostgreSQL server, and `db
upgrade`, which needs a file made by an older gamedb.
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
NOT_RUN = re.compile(r"pip install|python3 -m venv|pytest|bench/run\.py|alembic|postgresql|db upgrade|gamedb serve|ruff|mypy")


def shell_blocks() -> list[str]:
    return re.findall(r"```sh\n(.*?)```", README, flags=re.S)


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README, flags=re.S)


def runnable(block: str) -> str:
    """The block without the lines it leaves out; an install chained before gamedb (`... && .venv/bin/gamedb ...`) keeps its gamedb part."""
    lines = []
    for line in block.splitlines():
        if line.lstrip().startswith("#"):
            continue
        parts = [p.strip() for p in line.split("&&")]
        if "pip install ./" in line:  # a plugin package: installing it is not what this test checks
            continue
        kept = [p.replace(".venv/bin/gamedb", "gamedb") for p in parts if not NOT_RUN.search(p)]
        if kept:
            lines.append(" && ".join(kept))
    return "\n".join(lines)


@pytest.mark.slow
def test_readme_examples_run_in_order(tmp_path):
    env = dict(os.environ)
    env.pop("GAMEDB_DB", None)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "examples" / "plugin"), str(ROOT)])
    ran = 0
    for block in shell_blocks():
        script = runnable(block)
        if not script.strip():
            continue
        run = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True,
                             stdin=subprocess.DEVNULL, timeout=600)
        assert run.returncode == 0, f"README block failed:\n{script}\nstdout: {run.stdout[-2000:]}\nstderr: {run.stderr[-2000:]}"
        ran += script.count("gamedb ")
    assert ran >= 15
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
