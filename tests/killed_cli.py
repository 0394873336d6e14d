"""Processes that kill themselves (SIGKILL) at a chosen moment, for the resume tests.

:data:`KILLED_CLI` is a gamedb command line that dies at the n-th SQL statement starting with a pattern:
run as ``python -c KILLED_CLI PATTERN N gamedb-arguments...`` (the resume tests on SQLite and PostgreSQL).
:data:`KILL_HOOKS` starts the solver scripts of the resume tests (graph, heap and tier solves): ``die()``
and ``kill_at_statement(engine, parts, n, offset=0)`` (returns the listener it adds).
"""

KILL_HOOKS = """
import os, signal
from sqlalchemy import event

def die():
    os.kill(os.getpid(), signal.SIGKILL)

def kill_at_statement(engine, parts, n, offset=0):
    # die before the statement `offset` statements after the n-th one containing every string of `parts`
    seen, left = [0], [None]
    @event.listens_for(engine, "before_cursor_execute")
    def kill_at(conn, cursor, statement, parameters, context, executemany):
        if left[0] is None and all(part in statement for part in parts):
            seen[0] += 1
            if seen[0] == n:
                left[0] = offset
        if left[0] is not None:
            if left[0] == 0:
                die()
            left[0] -= 1
    return kill_at  # the listener, for event.remove
"""

KILLED_CLI = """
import os, signal, sys
import sqlalchemy as sa
from sqlalchemy import event

pattern, n = sys.argv[1], int(sys.argv[2])
seen = [0]

@event.listens_for(sa.engine.Engine, "before_cursor_execute")
def kill_at(conn, cursor, statement, parameters, context, executemany):
    if statement.lstrip().startswith(pattern):
        seen[0] += 1
        if seen[0] == n:
            os.kill(os.getpid(), signal.SIGKILL)

from gamedb.cli.app import main
sys.argv = ["gamedb", *sys.argv[3:]]
main()
"""
