"""The ``heaps`` strategy: impartial heap games (:mod:`gamedb.games.heaps`) solved, checked and answered per heap.

One position per heap size 0..N (:mod:`.solver`), the values checked again
heap by heap (:mod:`.verify`), any sum of heaps answered by XOR of the
stored components (:mod:`.sums`), and the period of the values found and
proven where the Guy-Smith theorem applies (:mod:`.periodicity`); the
strategy itself is :class:`.strategy.HeapSolver`. Nothing is imported here, so
that the light read path of ``gamedb query`` can load :mod:`.sums` alone.
"""
