# Shell functions the CI passes that run the site as production does share (.ci/production,
# .ci/upgrade, .ci/cluster); sourced by bash, not run. The sourcing script sets WORK (its
# temporary folder). Every process is started in a session of its own and listed twice:
# in "$WORK/groups" (one "pid name" a line, so that a script the pass starts may add its
# own and stop some) and in the array GROUPS_STARTED ("pid:name"); all are stopped
# together at the end.

PYTHON=${PYTHON:-$(command -v python3.11 || command -v python3)}
PG_HOST=${PG_HOST:-127.0.0.1} PG_PORT=${PG_PORT:-5432} PG_USER=${PG_USER:-postgres}

psql_admin() { psql -q -v ON_ERROR_STOP=1 -h "$PG_HOST" -p "$PG_PORT" -U "$PG_USER" -d postgres "$@"; }
free_port() { "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# requirements.txt alone, in a fresh virtualenv at $WORK/venv, first on the PATH.
install_venv() {
    "$PYTHON" -m venv "$WORK/venv"
    "$WORK/venv/bin/python" -m pip install -qq --disable-pip-version-check -r requirements.txt
    export PATH="$WORK/venv/bin:$PATH"
}

# start NAME COMMAND...: the command in a session of its own, its output in $WORK/NAME.log;
# stopping the session stops whatever it started.
start() {
    local name=$1; shift
    setsid "$@" >>"$WORK/$name.log" 2>&1 &
    echo "$! $name" >>"$WORK/groups"
    GROUPS_STARTED+=("$!:$name")
}

# alive PID: a process of that session still runs (one exited and not yet waited for by
# its parent does not count).
alive() { ps -o stat= -s "$1" 2>/dev/null | grep -qv '^Z'; }

# stop_group PID [SECONDS]: TERM to the session, then a while for it to finish (a worker
# finishes the batch under way first), then KILL.
stop_group() {
    kill -TERM -- "-$1" 2>/dev/null || true
    for _ in $(seq "$((${2:-30} * 5))"); do
        alive "$1" || return 0
        sleep 0.2
    done
    kill -KILL -- "-$1" 2>/dev/null || true
}

# A line of a log that tells a server error: a request answered 5xx (the site's request
# log), a traceback, or an ERROR or CRITICAL record.
SERVER_ERROR=' (GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) [^ ]+ 5[0-9][0-9] |Traceback|ERROR|CRITICAL'

# show_logs: for a pass that failed, every started process's server errors (each with the
# 30 lines after it: a traceback's frames; the first 300 such lines), wherever they are in
# its log, then the log's last lines.
show_logs() {
    [ -e "$WORK/groups" ] || return 0
    local pid name
    while read -r pid name; do
        local errors
        errors=$(grep -nE -A 30 "$SERVER_ERROR" "$WORK/$name.log" 2>/dev/null | head -n 300 || true)
        if [ -n "$errors" ]; then
            echo "---- the server errors in $name's log"
            echo "$errors"
        fi
        echo "---- the last lines of $name's log"
        tail -n 40 "$WORK/$name.log" || true
    done <"$WORK/groups"
}

# stop_all [SHOW_LOGS]: every session started, then their logs' last lines when asked.
stop_all() {
    [ -e "$WORK/groups" ] || return 0
    local pid name
    while read -r pid name; do kill -TERM -- "-$pid" 2>/dev/null || true; done <"$WORK/groups"
    while read -r pid name; do stop_group "$pid"; done <"$WORK/groups"
    wait 2>/dev/null || true
    if [ "${1:-0}" -ne 0 ]; then show_logs; fi
}
stop_started() { stop_all 0; }
