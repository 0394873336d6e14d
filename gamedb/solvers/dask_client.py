"""The Dask client a solve on a cluster runs through (:mod:`.tier_cluster`): of a scheduler named, or of a local
cluster started here; a slice that ran out of memory said as one line; the cluster stopped aside while the rows are written;
a Ctrl-C said as one line."""

from __future__ import annotations

import functools
import logging
import signal
import threading
import warnings
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from ..errors import GamedbError, param
from .protocol import Cluster

#: Dask's nannies set MALLOC_TRIM_THRESHOLD_ in their workers, which turns off glibc's adaptive mmap threshold: every large
#: numpy temporary is then mapped and faulted in afresh, and the slices ran 2-3x slower (Connect-Four 5x4: 7.7 s of tasks, 3.0 s
#: in one process); the local cluster's workers start without it (docs/cluster.md: and a cluster's), and are then tuned as this
#: process is (:func:`~gamedb.allocator.keep_freed_arrays`, by a worker plugin: a worker that replaces one killed too)
NUMPY_SPEED = {"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}
#: how long the client waits for a scheduler given by --scheduler
CONNECT_SECONDS = 10
#: how long the first look at a scheduler's address may wait for an answer (a host down, or a firewall that drops it)
PROBE_SECONDS = 3


@functools.lru_cache(maxsize=8)
def probe_scheduler(address: str) -> None:
    """Refuse at once a TCP (or TLS) scheduler address nothing answers at, before the database is opened: Dask's client
    would try it again and again for :data:`CONNECT_SECONDS`. Other protocols are left to the client. An address that
    answered is not probed again in this process (the command line checks its options before the solve checks them)."""
    import socket

    from distributed.comm import registry
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        protocol, place = parse_address(address)
        registry.get_backend(protocol)  # (an unknown protocol: ValueError)
        if protocol not in ("tcp", "tls"):
            return
        host, port = parse_host_port(place)
    except (ValueError, TypeError) as exc:
        raise GamedbError(f"cannot reach the Dask scheduler at {address}: {exc} (give it as tcp://HOST:PORT)") from None
    why = None
    try:
        with socket.create_connection((host, port), timeout=PROBE_SECONDS) as sock:
            if protocol == "tcp":
                why = _not_a_scheduler(sock)
    except ConnectionRefusedError:
        why = "nothing listens there (connection refused): start the scheduler (dask scheduler), or check the host and port"
    except socket.gaierror as exc:
        why = f"unknown host {host!r} ({exc.strerror or exc})"
    except TimeoutError:
        why = f"no answer in {PROBE_SECONDS} s (the host is down, or a firewall drops the connection)"
    except OSError as exc:
        why = exc.strerror or str(exc) or type(exc).__name__
    if why is not None:
        raise GamedbError(f"cannot reach the Dask scheduler at {address}: {why}")


#: the length a scheduler's greeting (its handshake, the first frame it sends) says it has at most
GREETING_BYTES = 1 << 20


def _not_a_scheduler(sock: Any) -> str | None:
    """Why what accepted the connection ``sock`` is not a Dask scheduler (None: it greets as one). A scheduler sends its
    handshake first, a frame whose first 8 bytes are its length (little-endian); Dask's client would wait for it forever
    from a server that waits for the client (an HTTP port: the dashboard's), or read a length of exabytes from another."""
    head = b""
    try:
        while len(head) < 8:
            got = sock.recv(8 - len(head))
            if not got:
                break
            head += got
    except TimeoutError:
        return (f"it accepts connections but sends nothing in {PROBE_SECONDS} s, as a Dask scheduler does at once: "
                "is it the dashboard's port (8787)? A scheduler listens on 8786 unless told otherwise")
    except OSError as exc:
        return exc.strerror or str(exc) or type(exc).__name__
    if len(head) < 8 or not 0 < int.from_bytes(head, "little") <= GREETING_BYTES:
        return "what answers there is not a Dask scheduler (a scheduler listens on 8786 unless told otherwise)"
    return None


@contextmanager
def cluster_client(cluster: Cluster, memory_limit: int, stop: Callable[[Callable[[], Any]], None] | None = None) -> Iterator[Any]:
    """A Dask client of the scheduler named, or of a local cluster of ``cluster.workers`` processes on 127.0.0.1, which
    ``stop`` stops once the client is closed (:func:`stopped_aside`'s ``aside``; by default, stopped before leaving)."""
    from dask.distributed import Client

    _quiet_closed_gathers()
    if cluster.scheduler is not None:
        try:
            client = Client(cluster.scheduler, timeout=CONNECT_SECONDS)  # type: ignore[no-untyped-call]
        except Exception as exc:  # (an address of a protocol not installed, e.g. ucx://, fails in Dask with a TypeError)
            why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise GamedbError(f"cannot reach the Dask scheduler at {cluster.scheduler}: {why}") from None
        with client:
            yield client
        return
    local = local_cluster(cluster.workers or 1, memory_limit)
    quiet = _Quiet()

    def close() -> None:
        try:
            local.close()
        finally:
            quiet.restore()

    try:
        with Client(local) as client, quiet.on_interrupt():  # type: ignore[no-untyped-call]
            try:
                from .tuned_workers import TunedAllocator

                client.register_plugin(TunedAllocator(_per_worker(memory_limit, cluster.workers or 1)))  # (the workers this process started)
                yield client
            except BaseException:
                quiet.now()
                raise
    finally:
        if stop is None:
            close()
        else:
            stop(close)


class _Quiet:
    """Dask's and Tornado's logs in this process silenced once a solve on a local cluster fails or is interrupted (until
    the cluster is stopped): what its scheduler says while it stops is noise, such as CRITICAL tracebacks of messages to
    the closed client, or Dask's own error in its ``sync`` when a Ctrl-C ends a wait (a 2-worker solve interrupted: 0 to
    36 lines of them; the workers' logs are CRITICAL only, :func:`local_cluster`)."""

    NAMES = ("distributed", "tornado.application")

    def __init__(self) -> None:
        self._levels: dict[str, int] | None = None

    def now(self) -> None:
        if self._levels is None:
            self._levels = {name: logging.getLogger(name).level for name in self.NAMES}
            for name in self.NAMES:
                logging.getLogger(name).setLevel(logging.CRITICAL + 1)

    def restore(self) -> None:
        for name, level in (self._levels or {}).items():
            logging.getLogger(name).setLevel(level)
        self._levels = None

    def on_interrupt(self) -> AbstractContextManager[None]:
        """A SIGINT silences the logs at once, before Dask's threads see the wait it ends (the main thread only)."""
        before = signal.getsignal(signal.SIGINT)

        def interrupted(number: int, frame: Any) -> None:
            if before == signal.SIG_IGN:
                return
            self.now()
            if callable(before):
                before(number, frame)  # (Python's own raises KeyboardInterrupt)
            raise KeyboardInterrupt

        return _sigint(interrupted)


class _ClosedGathers(logging.Filter):
    """asyncio's "Task exception was never retrieved" for a gather that the client's close ended (Dask's ``AllExit``)
    dropped: a Ctrl-C in the middle of a gather printed one traceback a gather still waiting (4 to 6 in a 5x4 solve)."""

    def filter(self, record: logging.LogRecord) -> bool:
        from distributed.client import AllExit

        return not (record.exc_info and isinstance(record.exc_info[1], AllExit))


def _quiet_closed_gathers() -> None:
    """:class:`_ClosedGathers` on asyncio's logger, once a process (the tasks are collected, and logged, as late as the
    interpreter's exit)."""
    log = logging.getLogger("asyncio")
    if not any(isinstance(f, _ClosedGathers) for f in log.filters):
        log.addFilter(_ClosedGathers())


def local_cluster(workers: int, memory_limit: int) -> Any:
    """A LocalCluster of ``workers`` processes on 127.0.0.1 (one thread each, ``memory_limit`` shared), as ``--workers`` starts."""
    import dask
    from dask.distributed import LocalCluster

    with dask.config.set(NUMPY_SPEED), warnings.catch_warnings(), interrupts_left_to_this_process():
        warnings.filterwarnings("ignore", "Port .* is already in use")  # the scheduler's HTTP port (127.0.0.1) moves: no warning on stderr
        return LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None,
            memory_limit=_per_worker(memory_limit, workers), silence_logs=logging.CRITICAL,
        )


def _per_worker(memory_limit: int, workers: int) -> int:
    """A local worker's share of ``memory_limit``."""
    return max(memory_limit // workers, 256 << 20)


def interrupts_left_to_this_process() -> AbstractContextManager[None]:
    """SIGINT ignored while the block starts worker processes, which keep it ignored: a terminal's Ctrl-C reaches every
    process of its group, and each worker printed a traceback of its ``KeyboardInterrupt`` (a 5x4 solve: 6 tracebacks,
    79 lines) while this process stops them anyway. (An ignored signal stays ignored across ``exec``, and Python installs
    its handler only over the default one; a blocked one did not reach the workers' processes as blocked.) A Ctrl-C in
    the block, the cluster's start (0.4-0.5 s), is lost."""
    return _sigint(signal.SIG_IGN)


@contextmanager
def _sigint(handler: Any) -> Iterator[None]:
    """SIGINT handled by ``handler`` in the block, as before after it; outside the main thread (where Python allows no
    handler to be set) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


@contextmanager
def said_as_memory(size: int) -> Iterator[None]:
    """A slice that ran out of memory (raised in it, or its worker killed over and over) said as one line."""
    from distributed.scheduler import KilledWorker

    advice = f"lower {param('slice_size')} (it is {size:,} positions)"
    try:
        yield
    except MemoryError:
        raise GamedbError(f"a worker ran out of memory solving a slice: {advice}") from None
    except KilledWorker as exc:
        raise GamedbError(f"a worker died each time it ran {exc.task} (out of memory?): {advice}") from None


@contextmanager
def stopped_aside() -> Iterator[Callable[[Callable[[], Any]], None]]:
    """``aside(stop)`` runs ``stop`` (a local cluster's) in a thread of its own: stopping a local cluster takes 0.2-0.3 s
    (Connect-Four 4x6), the rows' write as long as it needs. Waited for on leaving, its failure raised then (unless the
    block raised). (A client must be closed in the thread that made it: Dask keeps it in a context variable.)"""
    threads: list[threading.Thread] = []
    failed: list[BaseException] = []

    def run(stop: Callable[[], Any]) -> None:
        try:
            stop()
        except BaseException as exc:  # (raised by the thread that waits for this one)
            failed.append(exc)

    def aside(stop: Callable[[], Any]) -> None:
        threads.append(threading.Thread(target=run, args=(stop,), name="gamedb-cluster-stop", daemon=True))
        threads[-1].start()

    try:
        yield aside
    finally:
        for thread in threads:
            thread.join()
    if failed:
        raise failed[0]
