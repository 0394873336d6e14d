"""The ``heaps`` strategy: impartial heap games stored per heap, sums answered by XOR (nothing imported here: ``query`` loads :mod:`.sums` alone)."""
