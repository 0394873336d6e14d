"""A local cluster's workers tuned as this process is (:func:`~gamedb.allocator.keep_freed_arrays`) by a Dask worker
plugin: its ``setup`` runs on each worker as it joins the scheduler, one the nanny started anew after a crash too (a
``client.run`` reached only the workers there at the time)."""

from __future__ import annotations

from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin

from ..allocator import keep_freed_arrays


class TunedAllocator(WorkerPlugin):
    """:func:`~gamedb.allocator.keep_freed_arrays` for a worker of ``memory_limit`` bytes, on every worker that joins."""

    name = "gamedb-tuned-allocator"

    def __init__(self, memory_limit: int) -> None:
        self.memory_limit = memory_limit

    def setup(self, worker: Any) -> None:
        keep_freed_arrays(self.memory_limit)
