# A throwaway PostgreSQL cluster for the backend-parametrised tests.
#
#   source .ci/postgres.sh && start_postgres    # in a script (.ci/run)
#   bash .ci/postgres.sh COMMAND [ARGS...]      # run one command against a server, e.g. a benchmark:
#   bash .ci/postgres.sh sh -c '.venv/bin/python bench/heap_solve.py 0.77 5000 "$GAMEDB_TEST_PG"'
#
# installs PostgreSQL with apt-get when its binaries are missing, starts a
# cluster in a temporary folder listening on 127.0.0.1 on a free port (trust
# auth, fsync off: nothing here is kept), creates the database gamedb_test,
# exports GAMEDB_TEST_PG=postgresql+psycopg://postgres@127.0.0.1:PORT/gamedb_test
# and stops the cluster and removes the folder when the calling shell exits.
# As root the server runs as the postgres user (initdb refuses root).

_pg_bin_dir() {
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1) || true
    if [ -n "$dir" ] && [ -x "$dir/initdb" ]; then
        echo "$dir"
    elif command -v initdb >/dev/null 2>&1; then
        dirname "$(readlink -f "$(command -v initdb)")"
    fi
}

_pg_as_server_user() {
    if [ "$(id -u)" = 0 ]; then
        if command -v runuser >/dev/null 2>&1; then
            runuser -u postgres -- "$@"
        else
            su postgres -s /bin/sh -c "$(printf '%q ' "$@")"
        fi
    else
        "$@"
    fi
}

stop_postgres() {
    if [ -n "${_PG_DIR:-}" ]; then
        _pg_as_server_user "$_PG_BIN/pg_ctl" -D "$_PG_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
        rm -rf "$_PG_DIR"
        _PG_DIR=
    fi
}

start_postgres() {
    _PG_BIN=$(_pg_bin_dir) || true
    if [ -z "$_PG_BIN" ]; then
        if [ "$(id -u)" != 0 ]; then
            echo "PostgreSQL is not installed and this is not root: install it (apt-get install postgresql) and run again" >&2
            return 1
        fi
        echo "Installing PostgreSQL with apt-get ..." >&2
        export DEBIAN_FRONTEND=noninteractive
        # no default cluster on port 5432: the tests start their own
        mkdir -p /etc/postgresql-common/createcluster.d
        echo "create_main_cluster = false" >/etc/postgresql-common/createcluster.d/50-gamedb-ci.conf
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends postgresql >/dev/null
        _PG_BIN=$(_pg_bin_dir) || true
        [ -n "$_PG_BIN" ] || { echo "apt-get installed postgresql but no initdb was found" >&2; return 1; }
    fi

    _PG_DIR=$(mktemp -d /tmp/gamedb-pg.XXXXXX)  # /tmp: the postgres user must reach it
    trap stop_postgres EXIT
    trap 'exit 130' INT TERM
    if [ "$(id -u)" = 0 ]; then
        chown postgres: "$_PG_DIR"
    fi
    local port
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

    _pg_as_server_user "$_PG_BIN/initdb" -D "$_PG_DIR/data" -U postgres -A trust -E UTF8 --no-locale --no-sync >/dev/null
    _pg_as_server_user "$_PG_BIN/pg_ctl" -D "$_PG_DIR/data" -l "$_PG_DIR/server.log" -w -t 60 \
        -o "-h 127.0.0.1 -p $port -k $_PG_DIR -F -c synchronous_commit=off -c full_page_writes=off" start >/dev/null \
        || { cat "$_PG_DIR/server.log" >&2; return 1; }
    "$_PG_BIN/createdb" -h 127.0.0.1 -p "$port" -U postgres gamedb_test
    export GAMEDB_TEST_PG="postgresql+psycopg://postgres@127.0.0.1:$port/gamedb_test"
    echo "$("$_PG_BIN/postgres" --version) on 127.0.0.1:$port (GAMEDB_TEST_PG=$GAMEDB_TEST_PG)" >&2
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then  # run, not sourced: start, run the command, stop
    set -euo pipefail
    start_postgres
    "$@"
fi
