"""Per-slice costs of Connect-Four 5x6's large tiers, each slice run in isolation by the cluster's own tasks (issue 23).

    python bench/cluster_slice_costs.py                              # tiers 17, 20 and 23; slices of 2^21 games (10 minutes, 3 GB)
    python bench/cluster_slice_costs.py --tiers 20 --games 1000000 --reached 50000000
    python bench/cluster_slice_costs.py --shape 5x5                  # the real tier sizes of a smaller board

5x6 (1,044,334,437 positions) is not enumerated: for each tier ``t`` asked, ``--games`` random games from the start
(a random legal move at each ply, the games that ended dropped) give a slice of real positions of tier ``t`` (sorted,
distinct). The tier they reach is made at ``--reached`` positions (about 5x6's largest tier: docs/cluster.md): the
slice's real children plus distinct filler codes spread over the same range, sorted, with random values. Then, in a
child process each (its peak memory is the slice's), the worker's tasks run on these files as a worker runs them:
``expand`` (the forward step: the slice's children by tier, saved as parts) and ``solve_part`` (the backward step: the
slice valued from the reached tier's memory-mapped codes and values). Also timed: sorting ``--reached`` codes (the
``settle`` of a tier, done whole by one task: a sample of it as 16 parts, merged).

A sample spread over the whole tier reaches codes all over the next one, where a slice of consecutive codes reaches a
band of it: the times and the mapped pages are an upper bound. Printed per tier: positions, seconds and microseconds per
position of each task, the peak resident memory (mapped pages of the reached tier included) and numpy's peak
allocations (tracemalloc), per position of the slice.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np

WIDTH, HEIGHT = 5, 6
#: codes of the reached tier settled again from parts, to time the settle
SETTLE_SAMPLE = 20_000_000
#: the reached tier's default size: about 5x6's largest tier (14.3% of 1,044,334,437, as 4x6's and 5x5's largest are of theirs)
REACHED = 150_000_000


def _game():  # type: ignore[no-untyped-def]
    from gamedb.games import family

    return family("connect4").from_options(width=WIDTH, height=HEIGHT)


def sample(tiers: list[int], games: int, seed: int) -> dict[int, np.ndarray]:
    """Sorted distinct positions of each tier in ``tiers``, reached by ``games`` random games."""
    from gamedb.solvers.tiers import ARRAY_CHUNK, rules_of

    game, rng = _game(), np.random.default_rng(seed)
    rules = rules_of(game)
    codes = np.full(games, game.encode(game.start()), dtype=np.int64)
    found = {}
    for ply in range(1, max(tiers) + 1):
        moved = []
        for a in range(0, len(codes), ARRAY_CHUNK):
            exp = rules.expand(codes[a : a + ARRAY_CHUNK])
            live = exp.degree > 0
            first = (np.cumsum(exp.degree) - exp.degree)[live]
            moved.append(exp.children[first + (rng.random(int(live.sum())) * exp.degree[live]).astype(np.int64)])
        codes = np.concatenate(moved)
        if ply in tiers:
            found[ply] = np.unique(codes)
    return found


def reached_tier(folder: Path, t: int, slice_codes: np.ndarray, size: int, seed: int) -> tuple[int, float]:
    """Save tier ``t + 1``: the slice's children and filler, ``size`` distinct sorted codes with values; (positions, sort s)."""
    from gamedb.games.vector import DRAW, LOSE, TIE, WIN
    from gamedb.solvers.tier_store import TierFolder
    from gamedb.solvers.tiers import ARRAY_CHUNK, rules_of

    rng, rules = np.random.default_rng(seed), rules_of(_game())
    children = np.unique(np.concatenate([rules.expand(slice_codes[a : a + ARRAY_CHUNK]).children for a in range(0, len(slice_codes), ARRAY_CHUNK)]))
    filler = rng.integers(int(children[0]), int(children[-1]) + 1, size=max(size - len(children), 0), dtype=np.int64)
    codes = np.concatenate((children, filler))
    del filler
    codes.sort()
    keep = np.ones(len(codes), dtype=bool)
    keep[1:] = codes[1:] != codes[:-1]
    codes = codes[keep]
    del keep
    settle = _settle_seconds(codes[: SETTLE_SAMPLE * (len(codes) // SETTLE_SAMPLE or 1) : len(codes) // SETTLE_SAMPLE or 1])
    tier = TierFolder(folder)
    tier.save("codes", t + 1, codes)
    tier.save("result", t + 1, rng.choice(np.array([WIN, LOSE, TIE, DRAW], dtype=np.int8), size=len(codes)))
    tier.save("remoteness", t + 1, rng.integers(0, 12, size=len(codes), dtype=np.int32))
    return len(codes), settle


def shape(width: int, height: int) -> None:
    """Print the real positions of each tier of a smaller board (enumerated) and its largest tier's share of the total."""
    from gamedb.games import family
    from gamedb.solvers.tier_store import TierFolder
    from gamedb.solvers.tiers import enumerate_tiers, rules_of

    game = family("connect4").from_options(width=width, height=height)
    with tempfile.TemporaryDirectory(dir=os.environ.get("GAMEDB_BENCH_TMP")) as tmp:
        counts, _ = enumerate_tiers(game, rules_of(game), TierFolder(Path(tmp)), memory_limit=3 << 30)
    total, (top, largest) = sum(counts.values()), max(counts.items(), key=lambda kv: kv[1])
    print(f"Connect-Four {width}x{height}: {total:,} positions; largest tier {top} ({top / (width * height):.0%} of the plies) with "
          f"{largest:,} = {largest / total:.1%}; by tier: {', '.join(f'{t}: {n:,}' for t, n in sorted(counts.items()))}")


def _settle_seconds(codes: np.ndarray) -> float:
    """Seconds a position of settling a tier: its codes as the sorted parts of 16 slices' expansions, merged as ``settle``
    merges them (:func:`~gamedb.solvers.tier_forward.least_keys`)."""
    from gamedb.solvers.tier_forward import least_keys

    rng = np.random.default_rng(0)
    owner = rng.integers(0, 16, size=len(codes))
    parts = [(codes[owner == k], None) for k in range(16)]
    t0 = time.perf_counter()
    least_keys(parts)
    return (time.perf_counter() - t0) / max(len(codes), 1)


def _peak_rss() -> int:
    """This process's peak resident memory (VmHWM; ru_maxrss would keep the forked parent's across exec)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def run_task(folder: str, t: int, n: int, task: str) -> dict:
    """In a child: one task on the slice (codes ``0:n`` of tier ``t``); its seconds and peak memory."""
    from gamedb.solvers import tier_slices

    game = _game()
    base = _peak_rss()
    tracemalloc.start()
    t0 = time.perf_counter()
    if task == "expand":
        tier_slices.expand(game, folder, t, 0, n)
    else:
        tier_slices.solve_part(game, folder, t, 0, n)
    seconds = time.perf_counter() - t0
    _, numpy_peak = tracemalloc.get_traced_memory()
    return {"seconds": seconds, "rss": _peak_rss(), "base": base, "numpy": numpy_peak}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiers", type=int, nargs="+", default=[17, 20, 23])
    parser.add_argument("--games", type=int, default=1 << 21, help="random games per tier: the slice's positions, before duplicates")
    parser.add_argument("--reached", type=int, default=REACHED, help="positions of the reached tier")
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--shape", help="instead: enumerate the tiers of a smaller board WxH and print their sizes")
    parser.add_argument("--task", help=argparse.SUPPRESS)  # a child: "expand" or "solve" FOLDER TIER N
    args, rest = parser.parse_known_args()
    if args.shape:
        shape(*(int(x) for x in args.shape.split("x")))
        return
    if args.task:
        print(json.dumps(run_task(rest[0], int(rest[1]), int(rest[2]), args.task)))
        return
    print(f"Connect-Four {WIDTH}x{HEIGHT}, slices of tiers {args.tiers} from {args.games:,} random games; reached tiers of "
          f"{args.reached:,} positions; load {os.getloadavg()[0]:.1f} (shared machine)")
    t0 = time.perf_counter()
    slices = sample(args.tiers, args.games, args.seed)
    print(f"  sampled in {time.perf_counter() - t0:.0f} s")
    mb = 1 << 20
    for t, codes in slices.items():
        with tempfile.TemporaryDirectory(dir=os.environ.get("GAMEDB_BENCH_TMP")) as tmp:
            from gamedb.solvers.tier_store import TierFolder

            TierFolder(Path(tmp)).save("codes", t, codes)
            reached, settle = reached_tier(Path(tmp), t, codes, args.reached, args.seed + t)
            n = len(codes)
            line = [f"  tier {t}: slice {n:,} positions, reached tier {reached:,} (settled at {settle * 1e9:.0f} ns a position: "
                    f"{settle * reached:.1f} s)"]
            for task in ("expand", "solve"):
                done = subprocess.run([sys.executable, __file__, "--task", task, tmp, str(t), str(n)], capture_output=True, text=True, check=True)
                r = json.loads(done.stdout.strip().splitlines()[-1])
                line.append(f"    {task:6}: {r['seconds']:6.1f} s = {r['seconds'] / n * 1e6:.2f} us a position; peak RSS {r['rss'] / mb:.0f} MB "
                            f"({(r['rss'] - r['base']) / n:.0f} B a position above the {r['base'] / mb:.0f} MB start), "
                            f"numpy peak {r['numpy'] / mb:.0f} MB ({r['numpy'] / n:.0f} B a position)")
            print("\n".join(line), flush=True)


if __name__ == "__main__":
    main()
