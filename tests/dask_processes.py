"""A real Dask cluster for the cluster tests: `dask scheduler` and `dask worker` processes on 127.0.0.1, free ports, stopped by PID."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

DASK = str(Path(sys.executable).parent / "dask")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class DaskProcesses:
    """A scheduler and its workers, each a process of its own (no nanny: a killed worker stays dead)."""

    def __init__(self, folder: Path, workers: int = 2):
        self.folder = folder
        self.address = f"tcp://127.0.0.1:{free_port()}"
        self.procs: list[subprocess.Popen[bytes]] = []
        port = self.address.rsplit(":", 1)[1]
        self.scheduler = self._start([DASK, "scheduler", "--host", "127.0.0.1", "--port", port, "--no-dashboard"], "scheduler")
        self.workers = [self.start_worker() for _ in range(workers)]
        self.wait_for(workers)

    def _start(self, args: list[str], name: str) -> subprocess.Popen[bytes]:
        log = open(self.folder / f"{name}-{len(self.procs)}.log", "wb")  # noqa: SIM115 (closed with the process)
        proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, cwd=self.folder)
        log.close()
        self.procs.append(proc)
        return proc

    def start_worker(self) -> subprocess.Popen[bytes]:
        args = [DASK, "worker", self.address, "--nthreads", "1", "--no-nanny", "--host", "127.0.0.1", "--no-dashboard",
                "--memory-limit", "2GB", "--local-directory", str(self.folder), "--death-timeout", "60"]
        return self._start(args, "worker")

    def wait_for(self, workers: int, timeout: float = 60) -> None:
        from dask.distributed import Client

        with Client(self.address, timeout=timeout) as client:
            client.wait_for_workers(workers, timeout=timeout)

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()

    def close(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.terminate()
        deadline = time.monotonic() + 10
        for proc in self.procs:
            try:
                proc.wait(max(deadline - time.monotonic(), 0.1))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
