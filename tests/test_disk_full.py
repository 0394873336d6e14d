"""A full disk during a solve, on a real small filesystem (a tmpfs mounted for the test; needs root).

Before: ``Error: 14434 requested and 9712 written`` (numpy's short write) and the tier solver's work
folder left behind on the full disk. Now one line that says the disk is full and what became of the
work folder: removed when the tiers were still being enumerated (that work never resumes), kept
when tiers were solved (the same command resumes, which is checked here by growing the disk).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

GAMEDB = str(Path(sys.executable).with_name("gamedb"))


@pytest.fixture
def small_disk(tmp_path):
    """A function mounting a tmpfs of a given size at a new folder; all are unmounted afterwards."""
    mounted: list[Path] = []

    def mount(size: str) -> Path:
        where = tmp_path / f"disk{len(mounted)}"
        where.mkdir()
        result = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True, text=True)
        if result.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here ({result.stderr.strip() or 'not root'})")
        mounted.append(where)
        return where

    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small filesystem needs root")
    yield mount
    for where in mounted:
        subprocess.run(["umount", str(where)], check=False)


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> str:
    """stone-ix --max 20 solved on an ordinary disk, exported."""
    db = tmp_path_factory.mktemp("reference") / "reference.sqlite"
    assert solve(db, 20).returncode == 0
    return export(db)


def export(db: Path) -> str:
    return subprocess.run([GAMEDB, "--db", str(db), "export", "stone-ix"], capture_output=True, text=True, check=True).stdout


def solve(db: Path, max_stones: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run([GAMEDB, "--db", str(db), "solve", "stone-ix", "--max", str(max_stones), "-q"],
                          capture_output=True, text=True, timeout=600)


def error_line(run: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert run.returncode == 1 and len(lines) == 1 and lines[0].startswith("Error: "), (run.returncode, lines)
    return lines[0]


def test_the_disk_fills_while_the_tiers_are_enumerated(small_disk):
    disk = small_disk("512k")
    line = error_line(solve(disk / "s.sqlite", 30))
    assert line.startswith("Error: no space left on device while enumerating the tiers of stone-ix"), line
    assert "the work folder was removed" in line and "requested and" not in line
    assert list(disk.iterdir()) == []  # neither the work folder nor the empty database file the command made is left on the full disk


@pytest.mark.parametrize("size, while_", [("1m", "saving the solved tiers"), ("5m", "writing the positions of stone-ix into the database")])
def test_the_disk_fills_after_tiers_are_solved_and_the_same_command_resumes(small_disk, reference, size, while_):
    disk = small_disk(size)
    db = disk / "s.sqlite"
    line = error_line(solve(db, 20))
    assert f"no space left on device while {while_}" in line, line
    (folder,) = [p for p in disk.iterdir() if ".tiers-" in p.name]
    assert f"the work folder {folder} (" in line and "is kept" in line and "run the same command again to resume" in line
    subprocess.run(["mount", "-o", "remount,size=40m", str(disk)], check=True)
    resumed = solve(db, 20)
    assert resumed.returncode == 0, resumed.stderr
    assert not folder.exists()
    assert export(db) == reference and reference.count("\n") == 64_392  # the header and every position


def test_sqlite_full_outside_the_tier_solver(small_disk):
    """SQLITE_FULL from another engine (the heap solver): the same plain line, and the file still opens."""
    disk = small_disk("300k")
    db = disk / "h.sqlite"
    run = subprocess.run([GAMEDB, "--db", str(db), "solve", "nim", "--max", "3000", "-q"], capture_output=True, text=True, timeout=600)
    assert error_line(run) == (
        "Error: no space left on device while writing the database; what was committed before is kept: "
        "free space on that disk and run the same command again"
    )
    listed = subprocess.run([GAMEDB, "--db", str(db), "list"], capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0, listed.stderr
