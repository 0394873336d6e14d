"""The status of a stored game (the ``game.status`` column), in one place.

Kept free of imports so that the game record, the schema and the check of
a damaged row (:mod:`.damage`) all take the same strings from here.
"""

from __future__ import annotations

ENUMERATING = "enumerating"
SOLVING = "solving"
SOLVED = "solved"
#: the statuses gamedb writes
STATUSES = (ENUMERATING, SOLVING, SOLVED)
#: the status a damaged game is listed with (never written)
DAMAGED = "damaged"
