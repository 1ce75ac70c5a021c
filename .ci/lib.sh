# Shared by the CI passes that run the site as production does (.ci/production,
# .ci/cluster); sourced, not run. The caller sets WORK (its temporary folder) and says
# what GROUPS_STARTED is: an array of the pid:name of every process group it started.

PYTHON=${PYTHON:-$(command -v python3.11 || command -v python3)}
PG_HOST=${PG_HOST:-127.0.0.1} PG_PORT=${PG_PORT:-5432} PG_USER=${PG_USER:-postgres}

psql_admin() { psql -q -v ON_ERROR_STOP=1 -h "$PG_HOST" -p "$PG_PORT" -U "$PG_USER" -d postgres "$@"; }
free_port() { "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Each process leads a session of its own: stopping it stops whatever it started.
start() {
    local name=$1; shift
    setsid "$@" >"$WORK/$name.log" 2>&1 &
    GROUPS_STARTED+=("$!:$name")
}

# Stop every group started: TERM first, and a worker finishes the batch under way, so give
# them all a while; then KILL what is left.
stop_started() {
    local entry
    for entry in "${GROUPS_STARTED[@]}"; do kill -TERM -- "-${entry%%:*}" 2>/dev/null || true; done
    for _ in $(seq 30); do
        local left=0
        for entry in "${GROUPS_STARTED[@]}"; do kill -0 -- "-${entry%%:*}" 2>/dev/null && left=1; done
        [ "$left" -eq 0 ] && break
        sleep 1
    done
    for entry in "${GROUPS_STARTED[@]}"; do kill -KILL -- "-${entry%%:*}" 2>/dev/null || true; done
    wait 2>/dev/null || true
}

# The last lines of every started process's log, for a pass that failed.
show_logs() {
    local entry
    for entry in "${GROUPS_STARTED[@]}"; do
        echo "---- the last lines of ${entry#*:}'s log"
        tail -n 40 "$WORK/${entry#*:}.log" || true
    done
}

# requirements.txt alone, in a fresh virtualenv at $WORK/venv, first on the PATH.
install_venv() {
    "$PYTHON" -m venv "$WORK/venv"
    "$WORK/venv/bin/python" -m pip install -qq --disable-pip-version-check -r requirements.txt
    export PATH="$WORK/venv/bin:$PATH"
}
