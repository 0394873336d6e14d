"""What every part of the benchmark shares: its printed rows, its targets' verdicts, its child processes."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the script whose ``--child JOB`` runs one job (:data:`run.JOBS`) in a fresh interpreter
RUN = Path(__file__).resolve().with_name("run.py")


def line(label: str, value: str, target: str = "") -> None:
    print(f"  {label:<46} {value:<34} {target}", flush=True)


def verdict(ok: bool, text: str) -> str:
    """The target and whether it is met, with the load average now (the figures scale with it)."""
    return f"target {text}: {'ok' if ok else 'MISSED'} (load {os.getloadavg()[0]:.1f})"


def peak_mb() -> float:
    """This process's maximum resident set so far, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def run_child(*args: str) -> dict:
    """Run one job in a fresh interpreter (its peak memory its own); its JSON answer."""
    proc = subprocess.run([sys.executable, str(RUN), "--child", *args], capture_output=True, text=True, cwd=ROOT)
    if proc.returncode != 0:
        raise SystemExit(f"benchmark job {args[0]} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])
