"""A gamedb command line that kills itself (SIGKILL) at the n-th SQL statement starting with a pattern.

Run as ``python -c KILLED_CLI PATTERN N gamedb-arguments...``; shared by the resume tests on SQLite and PostgreSQL.
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
