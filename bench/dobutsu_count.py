"""Count the Dōbutsu shōgi positions reachable from the start, breadth first on the array rules.

Codes are sorted unique int64 arrays, expanded in batches; with
``--rotate`` every position is counted as seen by the player to move (a
position with the second player to move is turned half round, players
swapped: :meth:`gamedb.games.dobutsu_arrays.DobutsuArrays.rotate`), as
Tanaka (2009) counts his 246,803,167. Prints, per depth and in total, the
positions found and how many are over (won by capturing the lion, or lost
to a try), and the time and peak memory. The figures are in docs/dobutsu.md.

    python bench/dobutsu_count.py --rotate --pieces GEC
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np

from gamedb.games.dobutsu import Dobutsu
from gamedb.games.dobutsu_arrays import sorted_unique
from gamedb.games.dobutsu_board import TURN
from gamedb.games.vector import LOSE, WIN


def count(pieces: str, rotate: bool, batch: int, mirror: bool = False) -> dict[str, int]:
    game = Dobutsu(pieces)
    rules = game.vector()

    def normal(codes: np.ndarray) -> np.ndarray:
        if rotate:
            turned = (codes >> TURN) == 1
            codes[turned] = rules.rotate(codes[turned])
        return np.minimum(codes, rules.mirror(codes)) if mirror else codes

    frontier = normal(np.array([game.start()], dtype=np.int64))
    seen = frontier.copy()
    totals = {"positions": 0, "win": 0, "lose": 0, "moves": 0}
    depth, began = 0, time.time()
    while len(frontier):
        found = []
        for a in range(0, len(frontier), batch):
            exp = rules.expand(frontier[a : a + batch])
            totals["win"] += int((exp.primitive == WIN).sum())
            totals["lose"] += int((exp.primitive == LOSE).sum())
            totals["moves"] += len(exp.children)
            found.append(sorted_unique(normal(exp.children)))
        totals["positions"] += len(frontier)
        fresh = sorted_unique(np.concatenate(found)) if found else frontier[:0]
        del found
        at = np.minimum(np.searchsorted(seen, fresh), len(seen) - 1)
        fresh = fresh[seen[at] != fresh]
        seen = np.concatenate([seen, fresh])
        seen.sort(kind="stable")  # two sorted runs: a merge
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        print(f"depth {depth}: {len(frontier):,} positions, total {totals['positions']:,}, {time.time() - began:.0f} s, peak {peak:,} MB", flush=True)
        frontier, depth = fresh, depth + 1
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pieces", default="GEC", help="kinds besides the lions (the game's --pieces)")
    parser.add_argument("--rotate", action="store_true", help="count positions as seen by the player to move")
    parser.add_argument("--mirror", action="store_true", help="count a position and its left-right mirror once")
    parser.add_argument("--batch", type=int, default=200_000, help="positions expanded at once")
    args = parser.parse_args()
    began = time.time()
    totals = count(args.pieces, args.rotate, args.batch, args.mirror)
    over = totals["win"] + totals["lose"]
    print(f"pieces {args.pieces} rotate {args.rotate} mirror {args.mirror}: {totals['positions']:,} positions reachable, {over:,} of them over "
          f"({totals['win']:,} won by capturing the lion, {totals['lose']:,} lost to a try), {totals['positions'] - over:,} not over; "
          f"{totals['moves']:,} moves; {time.time() - began:.0f} s, peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024:,} MB")


if __name__ == "__main__":
    main()
