#!/usr/bin/env bash
# with-keyring.sh [--bus-only] CMD [ARGS...] - run CMD against a private D-Bus session bus and
# gnome-keyring-daemon (secrets) whose default "login" collection is created and unlocked with
# a known password. Headless (no TTY/stdin/X). Stops only its own PIDs.
#   --bus-only  the bus without any Secret Service on it
# Env: KEYRING_PASSWORD (default rt-test-password); KEYRING_DATA_DIR = daemon's
# XDG_DATA_HOME (default: temp dir, removed on exit). CMD gets DBUS_SESSION_BUS_ADDRESS,
# WITH_KEYRING_DIR (=<data>/keyrings) and WITH_KEYRING_DAEMON_PID (to freeze it with SIGSTOP).
# The project's own copy of ../shared/with-keyring.sh (rt.secrets tests and bench/secrets.mjs).
set -u
mode=keyring
[ "${1:-}" = --bus-only ] && { mode=bus-only; shift; }
[ $# -gt 0 ] || { echo "usage: $0 [--bus-only] CMD [ARGS...]" >&2; exit 64; }
pw=${KEYRING_PASSWORD:-rt-test-password}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/with-keyring.XXXXXX") || exit 1
chmod 700 "$tmp"
data=${KEYRING_DATA_DIR:-$tmp/data}
mkdir -p "$data" "$tmp/run" && chmod 700 "$tmp/run"
dbus_pid= gkd_pid= cmd_pid=

# A daemon that ended before cleanup stops it (killed, crashed, or left the bus) made every
# later call fail: say so on stderr, with its exit status and log, instead of staying silent.
report_early_exit() {
  local name=$1 pid=$2 log=$3 status
  [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null || return 0
  wait "$pid" 2>/dev/null; status=$?
  echo "with-keyring: $name (pid $pid) ended before the harness stopped it: $( [ "$status" -gt 128 ] && echo "killed by signal $((status - 128))" || echo "exit status $status")" >&2
  [ -s "$log" ] && sed 's/^/with-keyring:   /' "$log" >&2
}

cleanup() {
  local p
  report_early_exit gnome-keyring-daemon "$gkd_pid" "$tmp/gkd.log"
  report_early_exit dbus-daemon "$dbus_pid" "$tmp/dbus.log"
  # CONT first: a daemon a test froze with SIGSTOP handles TERM only once it runs again.
  for p in $gkd_pid $dbus_pid; do kill -CONT "$p" 2>/dev/null; kill -TERM "$p" 2>/dev/null; done
  for p in $gkd_pid $dbus_pid; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    # Only a daemon still running gets KILL: once bash has reaped one, its PID may be another
    # process's (PIDs wrap during a test suite).
    kill -0 "$p" 2>/dev/null && kill -KILL "$p" 2>/dev/null
    wait "$p" 2>/dev/null
  done
  gkd_pid= dbus_pid=
  rm -rf "$tmp"
}
die() { echo "with-keyring: $*" >&2; cat "$tmp"/*.log >&2 2>/dev/null; cleanup; exit 70; }
trap 'cleanup' EXIT
trap '[ -n "$cmd_pid" ] && kill -TERM "$cmd_pid" 2>/dev/null || { cleanup; exit 143; }' INT TERM HUP

# 1. Private session bus. No <servicedir>: nothing is auto-activated (no second,
#    locked keyring daemon, no GUI prompter) -> errors come back instead of hangs.
cat >"$tmp/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$tmp/run/bus</listen>
  <auth>EXTERNAL</auth>
  <!-- session.conf's limits; the compiled-in defaults (256 conns/user) are too low:
       @napi-rs/keyring opens one D-Bus connection per Entry/AsyncEntry -->
  <limit name="max_connections_per_user">100000</limit>
  <limit name="max_completed_connections">100000</limit>
  <limit name="max_incoming_bytes">1000000000</limit>
  <limit name="max_outgoing_bytes">1000000000</limit>
  <limit name="max_message_size">1000000000</limit>
  <limit name="max_replies_per_connection">50000</limit>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
EOF
dbus-daemon --config-file="$tmp/bus.conf" --nofork --nopidfile --print-address=1 \
  </dev/null >"$tmp/addr" 2>"$tmp/dbus.log" &
dbus_pid=$!
for _ in $(seq 100); do [ -s "$tmp/addr" ] && break; sleep 0.05; done
[ -s "$tmp/addr" ] || die "dbus-daemon did not start"
export DBUS_SESSION_BUS_ADDRESS=$(head -n1 "$tmp/addr")
unset GNOME_KEYRING_CONTROL SSH_AUTH_SOCK WITH_KEYRING_DIR WITH_KEYRING_DAEMON_PID
q() { dbus-send --session --print-reply=literal --reply-timeout=2000 "$@" 2>/dev/null; }

if [ "$mode" != bus-only ]; then
  # 2. gnome-keyring-daemon in the foreground (so $! is its PID); --unlock reads
  #    the password from stdin and creates the "login" keyring if missing, which
  #    becomes the "default" alias.
  printf '%s' "$pw" | env XDG_DATA_HOME="$data" XDG_RUNTIME_DIR="$tmp/run" \
    gnome-keyring-daemon --foreground --unlock --components=secrets \
    >"$tmp/gkd.log" 2>&1 &
  gkd_pid=$!

  # 3. Wait until the default collection exists and is unlocked.
  ok=
  for _ in $(seq 100); do
    kill -0 "$gkd_pid" 2>/dev/null || die "gnome-keyring-daemon exited"
    col=$(q --dest=org.freedesktop.secrets /org/freedesktop/secrets \
          org.freedesktop.Secret.Service.ReadAlias string:default | tr -d ' ')
    if [ -n "$col" ] && [ "$col" != / ]; then
      locked=$(q --dest=org.freedesktop.secrets "$col" org.freedesktop.DBus.Properties.Get \
               string:org.freedesktop.Secret.Collection string:Locked)
      case $locked in *false*) ok=1; break ;; esac
    fi
    sleep 0.1
  done
  [ -n "$ok" ] || die "default collection missing or locked (col='${col:-}')"
  export WITH_KEYRING_DIR="$data/keyrings" WITH_KEYRING_DAEMON_PID=$gkd_pid
fi

# 4. Run CMD (stdin passed through; background+wait so TERM can be forwarded).
{ exec 3<&0; } 2>/dev/null || exec 3</dev/null   # stdin may be closed
"$@" <&3 3<&- &
cmd_pid=$!
exec 3<&-
while kill -0 "$cmd_pid" 2>/dev/null; do wait "$cmd_pid"; done
wait "$cmd_pid"; exit $?
