"""The status of a stored game (the ``game.status`` column), in one place."""

from __future__ import annotations

ENUMERATING = "enumerating"
SOLVING = "solving"
SOLVED = "solved"
#: the statuses gamedb writes
STATUSES = (ENUMERATING, SOLVING, SOLVED)
#: the status a damaged game is listed with (never written)
DAMAGED = "damaged"
