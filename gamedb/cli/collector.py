"""The garbage collector while a stream of positions is answered (``gamedb query NAME -``), on both paths."""

from __future__ import annotations

import gc

#: new objects between two collections of the youngest generation while positions stream in (Python's default: 700)
STREAM_GC_THRESHOLD = 100_000


def collect_less_often() -> None:
    """For ``gamedb query NAME -``: the garbage collector runs every 100,000 new objects instead of every 700.

    A batch's rows and answers hold no reference cycles and are freed once
    it is written; at the default threshold the collector scanned them
    again and again while they lived (12% of the time of a stream of
    tic-tac-toe positions). The few cycles (an error's traceback) are still
    collected, a batch or so later.
    """
    gc.set_threshold(STREAM_GC_THRESHOLD)
