"""A non-editable install in a fresh virtual environment works from another directory.

This is what a user does: `pip install .`, then `gamedb` anywhere. It proves the
Alembic migrations ship inside the wheel (gamedb.migrations) and are found
with importlib.resources, not from the source tree.
"""

import json
import os
import shutil
import subprocess
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_pip_install_then_solve_and_query_elsewhere(tmp_path):
    # copy the source so the build cannot see the checkout's state (egg-info, build/)
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".git", ".venv", "build", "*.egg-info", "__pycache__", "*.sqlite", ".pytest_cache"))
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    bin_dir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    pip = subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(src)],
        capture_output=True, text=True, timeout=900,
    )
    assert pip.returncode == 0, pip.stdout + pip.stderr
    shutil.rmtree(src)  # nothing may be read from the source tree any more

    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GAMEDB_DB")}
    gamedb = str(bin_dir / "gamedb")
    solved = subprocess.run([gamedb, "solve", "tictactoe", "--quiet"], cwd=work, capture_output=True, text=True, env=env, timeout=300)
    assert solved.returncode == 0, solved.stderr
    assert (work / "gamedb.sqlite").exists()
    query = subprocess.run([gamedb, "query", "tictactoe", "--json"], cwd=work, capture_output=True, text=True, env=env, timeout=60)
    assert query.returncode == 0, query.stderr
    data = json.loads(query.stdout)
    assert (data["result"], data["remoteness"]) == ("tie", 9)
    # a small heap game into a new file (written without SQLAlchemy, stamped from the wheel's migrations): the full
    # path, which checks the stamp, verifies it
    heaps = subprocess.run([gamedb, "--db", "nim.sqlite", "solve", "nim", "--max", "13"], cwd=work, capture_output=True, text=True, env=env, timeout=300)
    assert heaps.returncode == 0 and heaps.stdout.startswith("Solved nim: 14 positions"), heaps.stderr
    checked = subprocess.run([gamedb, "--db", "nim.sqlite", "verify", "nim"], cwd=work, capture_output=True, text=True, env=env, timeout=300)
    assert checked.returncode == 0 and checked.stdout.startswith("OK: 14 positions"), checked.stderr
    as_module = subprocess.run([str(bin_dir / "python"), "-m", "gamedb", "--help"], cwd=work, capture_output=True, text=True, env=env)
    assert as_module.returncode == 0 and "solve" in as_module.stdout
    # gamedb serve: without the web extra, one line saying what to install; its page ships in the wheel
    serve = subprocess.run([gamedb, "serve", "--port", "0"], cwd=work, capture_output=True, text=True, env=env, timeout=60)
    assert serve.returncode == 1 and serve.stdout == ""
    assert serve.stderr.count("\n") == 1 and "pip install 'gamedb[web]'" in serve.stderr
    static = subprocess.run(
        [
            str(bin_dir / "python"),
            "-c",
            "import gamedb.web, pathlib; print(*sorted(p.name for p in (pathlib.Path(gamedb.web.__file__).parent / 'static').iterdir()))",
        ],
        cwd=work,
        capture_output=True,
        text=True,
        env=env,
    )
    assert static.stdout.split() == sorted(
        ["app.js", "boards.js", "chart.js", "favicon.svg", "graph_board.js", "graph_layout.js", "index.html", "style.css", "values.js"]
    )
