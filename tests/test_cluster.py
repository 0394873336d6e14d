"""Tier solves on a real Dask cluster (a `dask scheduler` and two `dask worker` processes on 127.0.0.1): the rows are the
single-process tier solver's, on every backend, through a killed worker and a killed client."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
import sqlalchemy as sa
from dask.distributed import Client
from distributed.scheduler import KilledWorker

from gamedb import Database
from gamedb.cli.render import ProgressBars
from gamedb.errors import GamedbError, command_line_text
from gamedb.games import family
from gamedb.games.stone_ix import StoneIX
from gamedb.games.vector import LOSE, WIN
from gamedb.solvers import dask_client, tier_cluster, tier_store
from gamedb.solvers.protocol import Cluster
from gamedb.store.schema import game, position
from gamedb.values import RESULT_CODES

from dask_processes import DaskProcesses
from tables import game_row, game_rows, label_ids

GAMEDB = str(Path(sys.executable).parent / "gamedb")
#: the games solved, with slices small enough to make many slices per tier
GAMES = {
    "connect4-4x4": (lambda: family("connect4").from_options(width=4, height=4), 8000),
    "connect4-5x3": (lambda: family("connect4").from_options(width=5, height=3), 6000),
    "tictactoe": (lambda: family("tictactoe")(), 300),
}


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory):
    procs = DaskProcesses(tmp_path_factory.mktemp("dask"))
    yield procs
    procs.close()


@pytest.fixture(scope="module")
def single_process(tmp_path_factory):
    """Each game solved once by the single-process tier solver (SQLite): its position rows, and its move labels with the
    best moves' label ids."""
    found: dict[str, tuple[list, tuple]] = {}

    def solved(game_id: str) -> tuple[list, tuple]:
        if game_id not in found:
            with Database(tmp_path_factory.mktemp("ref") / "ref.sqlite", create=True) as db:
                report = db.solve(GAMES[game_id][0](), strategy="tiers", symmetry=False)  # a cluster solve stores every position
                found[game_id] = (game_rows(db, report.name)["position"], label_ids(db, report.name))
        return found[game_id]

    return solved


@pytest.fixture(scope="module")
def reference(single_process):
    """The rows of each game solved by the single-process tier solver."""
    return lambda game_id: single_process(game_id)[0]


@pytest.fixture(scope="module")
def reference_ids(single_process):
    """The move labels and best moves' label ids of each game solved by the single-process tier solver."""
    return lambda game_id: single_process(game_id)[1]


def _cluster_solve(db: Database, dask_cluster: DaskProcesses, game_id: str, work: Path, **kw):
    make, size = GAMES[game_id]
    return db.solve(make(), cluster=Cluster(scheduler=dask_cluster.address, work_dir=str(work), slice_size=size), **kw)


@pytest.mark.parametrize("game_id", ["connect4-4x4", "tictactoe"])
def test_rows_are_the_single_process_solves(dask_cluster, reference, tmp_path, game_id):
    with Database(tmp_path / "c.sqlite", create=True) as db:
        report = _cluster_solve(db, dask_cluster, game_id, tmp_path / "work")
        assert game_rows(db, report.name)["position"] == reference(game_id)
        assert report.positions == len(reference(game_id))
    assert list((tmp_path / "work").iterdir()) == []  # the slices' folder is removed once the rows are in


@pytest.mark.parametrize("game_id", ["connect4-5x3", "tictactoe"])  # labels by their ids (Connect-Four) or as texts
@pytest.mark.parametrize("backend_db", ["duckdb", "postgresql"], indirect=True)  # SQLite: the tests around
def test_rows_on_the_other_backends(dask_cluster, reference, backend_db, tmp_path, game_id):
    db = backend_db()
    report = _cluster_solve(db, dask_cluster, game_id, tmp_path / "work")
    assert game_rows(db, report.name)["position"] == reference(game_id)


@pytest.mark.parametrize("game_id", ["connect4-5x3", "tictactoe"])  # a label table, labels as texts
@pytest.mark.parametrize("suffix", ["sqlite", "duckdb"])  # parts of code ranges, of tier slices
def test_label_ids_are_the_single_process_solves(dask_cluster, reference_ids, tmp_path, game_id, suffix):
    """A part's best moves index a list of label names it carries, numbered by the writer's MoveLabels as a single process
    numbers the rows it is handed: the same ids, whatever the cut of the parts (two slice sizes). Before, the load numbered
    labels met as text in name order, a part's at a time (and left a label table's unused names out)."""
    make, size = GAMES[game_id]
    for k, slice_size in enumerate((size, size // 3)):
        with Database(tmp_path / f"c{k}.{suffix}", create=True) as db:
            cluster = Cluster(scheduler=dask_cluster.address, work_dir=str(tmp_path / f"work{k}"), slice_size=slice_size)
            report = db.solve(make(), cluster=cluster)
            assert label_ids(db, report.name) == reference_ids(game_id)


def _position_rows(db: Database, name: str):
    """A game's position rows by code, a few thousand at a time (millions of them: not all in memory at once)."""
    with db.engine.connect() as conn:
        gid = conn.execute(sa.select(game.c.id).where(game.c.name == name)).scalar_one()
        columns = [c for c in position.c if c.name != "game_id"]
        for row in conn.execution_options(yield_per=4096).execute(sa.select(*columns).where(position.c.game_id == gid).order_by(position.c.code)):
            yield tuple(row)


def test_a_large_game_is_stored_a_symmetry_class_at_a_time(dask_cluster, tmp_path, monkeypatch):
    """Connect-Four 5x4 (3,945,711 positions, stored without texts) on the cluster into DuckDB: one row per mirror class,
    each child looked up by its canonical code, as the single-process tier solver stores it; the game row says so.
    Its tiers of 2^14 classes or more are settled by ranges of codes over the workers (the smaller ones by one task)."""
    make = lambda: family("connect4").from_options(width=5, height=4)  # noqa: E731
    monkeypatch.setattr(tier_cluster, "SETTLE_RANGE", 1 << 14)
    cut = tier_cluster._settle_ranges
    chosen: list[int] = []
    monkeypatch.setattr(tier_cluster, "_settle_ranges", lambda *a: chosen.append(cut(*a)) or chosen[-1])
    with Database(tmp_path / "one.sqlite", create=True) as one, Database(tmp_path / "c.duckdb", create=True) as db:
        name = one.solve(make(), strategy="tiers").name
        report = db.solve(make(), cluster=Cluster(scheduler=dask_cluster.address, work_dir=str(tmp_path / "work")))
        assert report.positions == 1_974_174 and report.moves == 4_382_284
        assert game_row(db, name)["info"] == game_row(one, name)["info"] == {"symmetry": {"group": 2, "reachable": 3_945_711}}
        assert game_row(db, name)["start_code"] == game_row(one, name)["start_code"]
        compared = 0
        for ours, theirs in zip(_position_rows(db, name), _position_rows(one, name), strict=True):
            assert ours == theirs
            compared += 1
        assert compared == 1_974_174
    assert chosen and min(chosen) > 1  # (the small first tiers: settled by one task before these)


def test_symmetry_on_a_cluster_needs_classes_counted(cli, tmp_path):
    """Tic-tac-toe keeps its texts (and its rules count no classes): on a cluster every position is stored, and
    ``--symmetry`` there is refused in one line before a worker starts."""
    r = cli("solve", "tictactoe", "--workers", "1", "--symmetry")
    assert r.exit_code == 2 and "--symmetry: a solve of this tictactoe game on a cluster stores every position" in r.stderr


class _TiersApart(StoneIX):
    """Stone game IX with its tiers numbered 0, 2, 4, ...: no move reaches an odd tier."""

    def tier(self, state):
        return 2 * super().tier(state)


@pytest.mark.parametrize("make", [lambda: StoneIX(max=4), lambda: _TiersApart(max=4)], ids=["stone-ix", "tiers-apart"])
@pytest.mark.parametrize("size", [40, None], ids=["sliced", "one-task"])
def test_starts_in_many_tiers_and_tiers_apart(tmp_path, make, size):
    """Starts in every tier, and tiers two apart (the enumeration guesses the next tier as the next number), tiers sliced or
    all a slice each (enumerated in one task): the rows of the single-process tier solve (a local cluster: its workers
    import this module)."""
    with Database(tmp_path / "one.sqlite", create=True) as one:
        expected = game_rows(one, one.solve(make(), strategy="tiers", symmetry=False).name)["position"]
    with Database(tmp_path / "c.sqlite", create=True) as db:
        report = db.solve(make(), cluster=Cluster(workers=2, work_dir=str(tmp_path / "work"), slice_size=size))
        assert game_rows(db, report.name)["position"] == expected and report.positions == len(expected) > 500


def test_the_command_line_killed_resumes_from_its_finished_slices(dask_cluster, reference, tmp_path):
    """The client (`gamedb solve ... --scheduler`) killed once tiers are solved; the same command again finishes the solve."""
    command = [GAMEDB, "--db", str(tmp_path / "k.sqlite"), "solve", "tictactoe",
               "--scheduler", dask_cluster.address, "--work-dir", str(tmp_path / "work"), "--slice-size", "100"]
    client = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not list((tmp_path / "work").glob("*/result-*.npy")):  # a tier solved and joined
        assert client.poll() is None, client.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    client.kill()
    client.communicate()
    assert list((tmp_path / "work").glob("*/manifest.json"))  # the enumeration is kept
    again = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    assert "Solved tictactoe: 5,478 positions" in again.stdout
    assert "Cluster solve: slices of up to 100 positions" in again.stderr
    with Database(tmp_path / "k.sqlite") as db:
        assert game_rows(db, "tictactoe")["position"] == reference("tictactoe")


def test_ctrl_c_stops_a_local_cluster_solve_in_one_line(reference, tmp_path):
    """A terminal's Ctrl-C (SIGINT to every process of the group) in the middle of `--workers 2`: exit 130 and one line,
    not a traceback from each worker process and each pending gather; no process left; the same command resumes."""
    import signal

    command = [GAMEDB, "--db", str(tmp_path / "i.sqlite"), "solve", "tictactoe", "--workers", "2", "--work-dir", str(tmp_path / "work"),
               "--slice-size", "50", "-q"]  # (2.5 s of solving after the cluster's start: the Ctrl-C comes in the middle)
    # (SIGINT at its default in the child: a shell's background job, as CI may run the tests, ignores it from the start)
    solve = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while not list((tmp_path / "work").glob("*/key.json")):  # the cluster started, the enumeration begun
        assert solve.poll() is None, solve.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.01)
    time.sleep(0.3)
    assert solve.poll() is None, solve.communicate()  # (the solve must still run for the test to say anything)
    os.killpg(solve.pid, signal.SIGINT)
    _, err = solve.communicate(timeout=60)
    assert solve.returncode == 130, err
    assert "Traceback" not in err and "Interrupted." in err, err
    while time.monotonic() < deadline:  # the workers stopped with it
        try:
            os.killpg(solve.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        raise AssertionError("processes of the solve are left")
    again = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    with Database(tmp_path / "i.sqlite") as db:
        assert game_rows(db, "tictactoe")["position"] == reference("tictactoe")


class _Stop(Exception):
    pass


def test_a_rerun_reads_the_tiers_solved_before(dask_cluster, reference, tmp_path):
    """A solve stopped after its last tier is solved, that tier's file altered: the rerun's rows show the alteration."""

    def stop(phase, done, total):
        if phase == "tiers solved (cluster)" and done >= 2:
            raise _Stop

    with Database(tmp_path / "t.sqlite", create=True) as db:
        with pytest.raises(_Stop):
            _cluster_solve(db, dask_cluster, "tictactoe", tmp_path / "work", progress=stop)
        (result,) = (tmp_path / "work").glob("*/result-9.npy")  # full boards: nobody to move, won by X or tied
        values = np.load(result)
        np.save(result, np.where(values == LOSE, WIN, values))  # X's wins said as losses of the player to move: now wins
        report = _cluster_solve(db, dask_cluster, "tictactoe", tmp_path / "work")
        rows = game_rows(db, report.name)["position"]
    full = [i for i, row in enumerate(reference("tictactoe")) if "." not in row[1]]
    changed = [i for i in full if rows[i] != reference("tictactoe")[i]]
    assert changed and all(rows[i][3] == RESULT_CODES["win"] for i in changed)  # the stored code (revision 0007)


@pytest.mark.parametrize("suffix", ["sqlite", "duckdb"])
def test_a_solve_stopped_in_its_write_resumes_after_the_rows_committed(dask_cluster, reference, tmp_path, suffix, monkeypatch):
    """A solve stopped once two ranges of rows are committed goes on from the third when run again (no row twice, none
    missing); into SQLite the workers made them as part files, into DuckDB as the slices' Parquet parts; none is left."""
    monkeypatch.setattr(tier_store, "WRITE_CHUNK", 20_000)  # (4x4 in several ranges)
    monkeypatch.setattr(tier_cluster, "PARQUET_RANGE", 20_000)
    loaded = []

    def stop(phase, done, total):
        if phase == "write":
            loaded.append(done)
            if len(loaded) == 2:
                raise _Stop

    with Database(tmp_path / f"p.{suffix}", create=True) as db:
        with pytest.raises(_Stop):
            _cluster_solve(db, dask_cluster, "connect4-4x4", tmp_path / "work", progress=stop)
        assert bool(list((tmp_path / "work").glob("*/rows-*.part"))) == (suffix == "sqlite")  # made ahead of the one loaded
        assert bool(list((tmp_path / "work").glob("*/rows.*.parquet"))) == (suffix == "duckdb")  # the slices' rows
        with db.read() as reader:
            (stored,) = reader.fetch("SELECT COUNT(*) FROM position")[0]
        assert stored == loaded[1] < len(reference("connect4-4x4"))
        report = _cluster_solve(db, dask_cluster, "connect4-4x4", tmp_path / "work")
        assert game_rows(db, report.name)["position"] == reference("connect4-4x4")
    assert list((tmp_path / "work").iterdir()) == []


@pytest.mark.parametrize("suffix", ["sqlite", "duckdb"])
def test_a_rerun_sliced_otherwise_gives_the_same_rows(dask_cluster, reference, tmp_path, suffix):
    """A slice of the last tier solved by an earlier run cut otherwise (rows 0:5, where this run's first slice is longer)
    is not taken for one of this run's, and its Parquet part is dropped: the rows are the same."""
    from gamedb.solvers import tier_slices

    def stop(phase, done, total):
        if phase == "slices solved (cluster)":
            raise _Stop

    make, size = GAMES["connect4-4x4"]
    with Database(tmp_path / f"s.{suffix}", create=True) as db:
        with pytest.raises(_Stop):
            _cluster_solve(db, dask_cluster, "connect4-4x4", tmp_path / "work", progress=stop)
        (work,) = (tmp_path / "work").iterdir()
        top = max(int(t) for t in tier_store.TierFolder(work).manifest()["tiers"])
        for done in [*work.glob(f"*-{top}.npy"), *work.glob(f"rows.{top}.*")]:
            if not done.name.startswith(("codes-", "paths-", "rank-")):
                done.unlink()  # the last tier not solved yet, but for
        tier_slices.solve_part(make(), str(work), top, 0, 5, True if suffix == "duckdb" else None)  # an earlier run's slice
        report = _cluster_solve(db, dask_cluster, "connect4-4x4", tmp_path / "work")
        assert game_rows(db, report.name)["position"] == reference("connect4-4x4")


def test_a_worker_killed_mid_solve(dask_cluster, reference, tmp_path):
    """SIGKILL to a worker process while slices are being solved: its tasks run again elsewhere, the rows are the same."""
    victim = dask_cluster.workers[0]

    def kill(phase, done, total):
        if phase == "slices solved (cluster)" and victim.poll() is None:
            dask_cluster.kill(victim)

    with Database(tmp_path / "w.sqlite", create=True) as db:
        report = _cluster_solve(db, dask_cluster, "connect4-5x3", tmp_path / "work", progress=kill)
        assert victim.poll() is not None
        assert game_rows(db, report.name)["position"] == reference("connect4-5x3")
    dask_cluster.workers[0] = dask_cluster.start_worker()
    dask_cluster.wait_for(2)


def test_progress_counts_tiers_and_slices_per_worker(dask_cluster, tmp_path):
    """Every slice is counted once, by the worker that ran it (a worker of the cluster), in both passes, the backward one
    spread over the workers; every tier solved."""
    seen: dict[str, tuple[int, int | None]] = {}
    with Database(tmp_path / "p.sqlite", create=True) as db:
        _cluster_solve(db, dask_cluster, "connect4-4x4", tmp_path / "work", progress=lambda phase, done, total: seen.__setitem__(phase, (done, total)))
    with Client(dask_cluster.address) as client:
        workers = {"worker " + address.removeprefix("tcp://") for address in client.scheduler_info()["workers"]}
    assert seen["tiers solved (cluster)"] == (17, 17)  # 0 to 16 stones
    slices, total = seen["slices solved (cluster)"]
    assert slices == total and total >= 17
    for verb in ("expanded", "solved"):
        mine = {phase.removeprefix(f"slices {verb} by "): done for phase, (done, _) in seen.items() if phase.startswith(f"slices {verb} by ")}
        assert mine and set(mine) <= workers
        assert sum(mine.values()) == total if verb == "solved" else sum(mine.values()) >= 16  # (the last tier is not expanded)
        if verb == "solved":  # spread over both: slices given their joins' futures ran where the joins ran (one worker, but a tier's)
            assert len(mine) == 2 and min(mine.values()) >= total / 5, mine


def test_the_command_line_shows_each_workers_slices(cli, dask_cluster, tmp_path, monkeypatch):
    """`gamedb solve ... --scheduler` (stderr not a terminal, a line per moved phase every LINE_EVERY seconds, here each time);
    the --work-dir folders it made are gone when it is done, one that was there stays."""
    monkeypatch.setattr(ProgressBars, "LINE_EVERY", 0.0)
    r = cli("solve", "tictactoe", "--scheduler", dask_cluster.address, "--work-dir", str(tmp_path / "new" / "work"), "--slice-size", "300")
    assert r.exit_code == 0, r.stderr
    assert "tiers solved (cluster): 10/10" in r.stderr
    by_worker = re.findall(r"^slices solved by worker 127\.0\.0\.1:\d+: (\d+)", r.stderr, re.M)
    assert by_worker and "slices expanded by worker 127.0.0.1:" in r.stderr
    assert not (tmp_path / "new").exists()
    (tmp_path / "kept").mkdir()
    r = cli("solve", "tictactoe", "--force", "--scheduler", dask_cluster.address, "--work-dir", str(tmp_path / "kept"), "--slice-size", "300", "-q")
    assert r.exit_code == 0, r.stderr
    assert (tmp_path / "kept").is_dir() and not any((tmp_path / "kept").iterdir())


def test_bad_cluster_options(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(dask_client, "CONNECT_SECONDS", 1)
    assert cli("solve", "tictactoe", "--workers", "0").exit_code == 2
    r = cli("solve", "tictactoe", "--work-dir", str(tmp_path))
    assert r.exit_code == 2 and "--work-dir and --slice-size go with --workers or --scheduler" in r.stderr
    r = cli("solve", "tictactoe", "--workers", "1", "--scheduler", "tcp://127.0.0.1:1")
    assert r.exit_code == 2 and "give one of them" in r.stderr
    for refused, why in ((["nim"], "a solve on a cluster (--workers, --scheduler) runs the tier solver, which cannot solve this game "
                                       "(the nim family declares no tiers): solve it without --workers and --scheduler"),
                         (["tictactoe", "--symmetry"], "--symmetry: a solve of this tictactoe game on a cluster stores every position")):
        r = cli("solve", *refused, "--workers", "2")  # refused before the cluster's note, and before any cluster starts
        assert r.exit_code == 2 and r.stderr.startswith("Error: " + why) and r.stderr.count("\n") == 1, r.stderr
    r = cli("solve", "tictactoe", "--scheduler", "tcp://127.0.0.1:1")
    assert r.exit_code == 1 and "cannot reach the Dask scheduler at tcp://127.0.0.1:1" in r.stderr
    (tmp_path / "afile").write_text("")
    for work_dir in ("afile", "afile/sub"):  # `Error: Not a directory: afile/gamedb.sqlite.cluster-6f5a2f968126`, once a cluster had started
        r = cli("solve", "tictactoe", "--workers", "1", "--work-dir", str(tmp_path / work_dir))
        assert r.exit_code == 1 and f"--work-dir '{tmp_path / work_dir}' must be a folder" in r.stderr and "Cluster solve" not in r.stderr, r.stderr
    monkeypatch.setitem(sys.modules, "distributed", None)  # the cluster extra not installed
    r = cli("solve", "tictactoe", "--workers", "2")
    assert r.exit_code == 1 and "needs Dask: pip install 'gamedb[cluster]'" in r.stderr


def test_workers_starts_a_local_cluster(reference, tmp_path):
    """`gamedb solve tictactoe --workers 2`: worker processes of its own, stopped at the end; the rows are the same."""
    done = subprocess.run([GAMEDB, "--db", str(tmp_path / "l.sqlite"), "solve", "tictactoe", "--workers", "2", "--slice-size", "500"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Solved tictactoe: 5,478 positions" in done.stdout
    assert "Cluster solve: slices of up to 500 positions" in done.stderr
    assert "The tier solver needs up to" not in done.stderr  # (one process's need: not a cluster's)
    with Database(tmp_path / "l.sqlite") as db:
        assert game_rows(db, "tictactoe")["position"] == reference("tictactoe")
    assert [p.name for p in tmp_path.iterdir()] == ["l.sqlite"]  # the work folder beside it is gone


def test_local_workers_keep_the_adaptive_allocator():
    """`--workers` starts its workers without the MALLOC_TRIM_THRESHOLD_ Dask's nannies set (slices 2-3x slower with it)."""
    with dask_client.local_cluster(1, 1 << 30) as local, Client(local) as client:
        assert list(client.run(lambda: os.environ.get("MALLOC_TRIM_THRESHOLD_")).values()) == [None]


@pytest.mark.skipif(any(name.startswith(("GLIBC_TUNABLES", "MALLOC_")) for name in os.environ), reason="the allocator is the user's")
def test_a_local_worker_restarted_after_a_crash_is_tuned_too():
    """A worker the nanny starts after one crashed keeps freed arrays as the first did (a 4 MiB block from the heap, not a
    mapping of its own); it ran with glibc's defaults when the workers were tuned by ``client.run``."""
    def mapped_alone() -> bool:  # (nested: sent to the worker by value)
        import ctypes

        class MallInfo2(ctypes.Structure):
            _fields_ = [(name, ctypes.c_size_t) for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
                                                             "uordblks", "fordblks", "keepcost")]
        libc = ctypes.CDLL(None)
        libc.mallinfo2.restype, libc.malloc.restype, libc.free.argtypes = MallInfo2, ctypes.c_void_p, [ctypes.c_void_p]
        before = libc.mallinfo2().hblks
        block = libc.malloc(4 << 20)
        mapped = libc.mallinfo2().hblks > before
        libc.free(block)
        return mapped

    if not hasattr(__import__("ctypes").CDLL(None), "mallinfo2"):
        pytest.skip("not glibc 2.33 or later")
    with dask_client.cluster_client(Cluster(workers=1), 1 << 30) as client:
        assert list(client.run(mapped_alone).values()) == [False]
        ((first, pid),) = client.run(os.getpid).items()
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 60
        while set(client.scheduler_info()["workers"]) in (set(), {first}) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert list(client.run(mapped_alone).values()) == [False]
        assert list(client.run(os.getpid).values()) != [pid]


@pytest.mark.parametrize("error", [MemoryError(), KilledWorker("solve-12-0-ab12cd34", None, 3)])
def test_a_slice_out_of_memory_names_the_option_to_lower(error):
    with pytest.raises(GamedbError) as caught, dask_client.said_as_memory(4096):
        raise error
    assert "lower slice_size= (it is 4,096 positions)" in str(caught.value) and "\n" not in str(caught.value)
    assert "lower --slice-size (it is 4,096 positions)" in command_line_text(caught.value)


def test_a_cluster_stopped_aside_is_stopped_before_the_solve_returns():
    """``stopped_aside``: a local cluster's stop runs in a thread while the rows are written, and is waited for on leaving;
    its failure is raised then, unless the block failed (that failure is the one raised)."""
    stopped = []

    def slow_stop():
        time.sleep(0.2)
        stopped.append(threading.current_thread().name)

    with dask_client.stopped_aside() as aside:
        aside(slow_stop)
        assert stopped == []  # (the block goes on meanwhile)
    assert stopped == ["gamedb-cluster-stop"]

    def failing_stop():
        raise RuntimeError("the scheduler would not stop")

    with pytest.raises(RuntimeError, match="would not stop"), dask_client.stopped_aside() as aside:
        aside(failing_stop)
    with pytest.raises(KeyError), dask_client.stopped_aside() as aside:
        aside(failing_stop)
        raise KeyError("the write failed")


@pytest.mark.parametrize("ranges", [1, 2, 5])
def test_a_tier_settled_by_ranges_of_codes_is_the_tier_settled_whole(tmp_path, ranges):
    """Parts of a tier (sorted, distinct, overlapping) settled by ``ranges`` range tasks and joined: the codes the one
    settle task makes, their count and the positions they stand for; the parts and the ranges' files removed; the tasks
    run again (a resumed solve) give the same; a tier no part reaches is settled empty."""
    from gamedb.solvers import tier_slices

    game = family("connect4").from_options(width=5, height=4)
    rng = np.random.default_rng(ranges)
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    for folder in (whole, cut):
        folder.mkdir()
        for a in range(4):  # four slices' parts of tier 6 (codes of random tier-6 positions would do as well: any codes sort)
            part = np.unique(rng.integers(0, 50_000, 3_000 * (a + 1)) * 2)
            np.save(folder / f"pcodes.5.{a * 100}-6.npy", part)
        rng = np.random.default_rng(ranges)  # the same parts in both folders
    expected = tier_slices.settle(game, str(whole), 6, False)
    bounds = tier_slices.settle_bounds(str(cut), 6, ranges)
    assert len(bounds) == ranges + 1 and (bounds[1:] >= bounds[:-1]).all()
    found = [tier_slices.settle_range(game, str(cut), 6, k, bounds) for k in range(ranges)]
    assert sum(n for n, _ in found) == expected[0] and tier_slices.settle_join(game, str(cut), 6, ranges, 1, found) == expected
    assert np.array_equal(np.load(cut / "codes-6.npy"), np.load(whole / "codes-6.npy"))
    assert sorted(p.name for p in cut.iterdir()) == ["codes-6.npy"]
    again = [tier_slices.settle_range(game, str(cut), 6, k, tier_slices.settle_bounds(str(cut), 6, ranges)) for k in range(ranges)]
    assert tier_slices.settle_join(game, str(cut), 6, ranges, 1, again) == expected
    empty = [tier_slices.settle_range(game, str(cut), 7, k, tier_slices.settle_bounds(str(cut), 7, ranges)) for k in range(ranges)]
    assert tier_slices.settle_join(game, str(cut), 7, ranges, 1, empty) == (0, 0) and not (cut / "codes-7.npy").exists()


def test_parquet_parts_must_hold_every_row_of_a_tier_once(tmp_path):
    """The slices' Parquet parts of a tier (named by their rows) must tile it: a gap or an overlap is refused in one line."""
    from gamedb.solvers import tier_slices

    folder = tier_store.TierFolder(tmp_path)
    folder.save("codes", 3, np.array([10, 20, 30, 40], dtype=np.int64))
    for name in ("rows.3.0-2.parquet", "rows.3.2-4.parquet"):
        (tmp_path / name).write_bytes(b"")
    assert [(p.name, lo, hi) for p, lo, hi in tier_slices.parquet_parts(folder, {3: 4})] == [
        ("rows.3.0-2.parquet", 10, 20), ("rows.3.2-4.parquet", 30, 40)]
    (tmp_path / "rows.3.1-4.parquet").write_bytes(b"")  # another slicing's
    with pytest.raises(GamedbError, match="tier 3 in parts that do not fit together") as caught:
        tier_slices.parquet_parts(folder, {3: 4})
    assert "\n" not in str(caught.value)


def test_a_scheduler_address_nothing_answers_at_fails_at_once_and_leaves_no_file(cli, tmp_path):
    """`--scheduler` at a port nobody listens on, at a port whose server waits for the client (an HTTP port: Dask's client
    waited there forever), or not an address: one line within seconds, exit 1, and no database file made."""
    import socket

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen()
    db = tmp_path / "s.sqlite"
    try:
        for address, phrase in [("tcp://127.0.0.1:1", "nothing listens there (connection refused)"),
                                (f"tcp://127.0.0.1:{silent.getsockname()[1]}", "it accepts connections but sends nothing in 3 s"),
                                ("nonsense", "missing port number"),
                                ("foo://x:1", "unknown address scheme 'foo'")]:
            start = time.monotonic()
            r = cli("solve", "tictactoe", "-q", "--scheduler", address, db=db)
            assert r.exit_code == 1 and f"cannot reach the Dask scheduler at {address}: {phrase}" in r.stderr, r.stderr
            assert time.monotonic() - start < 8 and r.stderr.count("\n") == 1
            assert list(tmp_path.iterdir()) == []
    finally:
        silent.close()
