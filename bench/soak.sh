#!/bin/bash
# soak.sh -- a long run through the controller against simhost: do the controller, the agents and
# simhost keep their memory, file descriptors and threads flat, and does every sample arrive?
#   bench/soak.sh [SESSIONS=300] [DURATION=3600s]
#   env: AGENTS (2), LAUNCH (launch window; default DURATION/6, at most 600s), WORK_SCALE (0.05),
#        WORKLOAD (workloads/simhost-task-worker.yaml), INTERVAL (sampling period, 60s), KEEP=1
#        (keep the scratch dir: database, logs, the per-interval figures in proc.csv)
# DURATION is the whole session time: launch window plus steady state (then logoff).
# Prints, per process (controller, each agent, simhost): RSS, file descriptors and threads when
# the ramp is over ("start") and just before logoff ("end"), and the growth between them; then
# the accounting: every session ended or failed with a reason (none left launched or active),
# and every completed loop of every session holds a sample of every timer of the workload
# (samples found vs expected); agents and sessions lost, counted both in the database (agents
# with status lost, sessions with reason lost) and in the controller's output. Exit 1, with a
# "soak: FAIL:" line per problem and a FAILED banner, if an agent or a session was lost, a
# session failed or is unaccounted for, a sample is missing or the run did not complete.
set -euo pipefail
N=${1:-300}
DURATION=${2:-3600s}
S=${SESSMAX_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
B=${SESSMAX_BUILD_DIR:-$S/build}
AGENTS=${AGENTS:-2}
WORK_SCALE=${WORK_SCALE:-0.05}
WORKLOAD=${WORKLOAD:-$S/workloads/simhost-task-worker.yaml}
INTERVAL=${INTERVAL:-60}
secs() { case $1 in *h) echo $(( ${1%h} * 3600 ));; *m) echo $(( ${1%m} * 60 ));; *s) echo "${1%s}";; *) echo "$1";; esac; }
DUR_S=$(secs "$DURATION")
LAUNCH_S=$(secs "${LAUNCH:-$(( DUR_S / 6 < 600 ? DUR_S / 6 : 600 ))}")
STEADY_S=$(( DUR_S - LAUNCH_S ))
[ $STEADY_S -ge 60 ] || { echo "soak: DURATION must exceed the launch window by 60 s at least" >&2; exit 64; }
. "$S/bench/lib.sh"
T=$(mktemp -d "${TMPDIR:-/tmp}/sessmax-soak.XXXXXX")
export SESSMAX_PASSWORD=${SESSMAX_PASSWORD:-soak-bench-pass-$$}
export SESSMAX_AGENT_BIN=$B/sessmax-agent
BENCH_GRACE_S=0.5 BENCH_KEEP_DIR=${KEEP:-0}
bench_keep() { [ "$BENCH_KEEP_DIR" != 1 ] || echo "soak: kept $T" >&2; }
bench_cleanup_on_exit "$T"
q() { sqlite3 -cmd '.timeout 5000' "file:$T/soak.db?mode=ro" "$1"; }

PORT=$(free_port)
"$B/sessmax-simhost" --listen "127.0.0.1:$PORT" --users $((N + 5)) --work-scale "$WORK_SCALE" \
  --state-dir "$T/sim" --log-level warn >"$T/simhost.log" 2>&1 &
SIM=$!; PIDS="$PIDS $SIM"
for _ in $(seq 300); do grep -q "listening on" "$T/simhost.log" && break; sleep 0.1; done
grep -q "listening on" "$T/simhost.log" || { cat "$T/simhost.log" >&2; exit 1; }
cat >"$T/plan.yaml" <<YAML
name: soak
target: {host: 127.0.0.1, port: $PORT, verify: false, security: tls}
credentials: {user: "simuser{n:03}", password_env: SESSMAX_PASSWORD}
platform: simhost-soak
workload: $WORKLOAD
sessions: $N
launch_window: ${LAUNCH_S}s
steady_state: ${STEADY_S}s
logoff_deadline: 60s
agents: {local: $AGENTS, capacity: $(( (N + AGENTS - 1) / AGENTS ))}
results: $T/soak.db
YAML
"$B/sessmax" run "$T/plan.yaml" --plain >"$T/run.log" 2>&1 &
CTL=$!; PIDS="$PIDS $CTL"
T0=$(date +%s)

# procs: "role pid" lines of every process watched
procs() {
  echo "controller $CTL"
  local i=0
  for p in $(pgrep -P "$CTL" -x sessmax-agent | sort -n); do i=$((i + 1)); echo "agent$i $p"; done
  echo "simhost $SIM"
}
# snap LABEL: one line per process: label role pid rss_kb fds threads
snap() {
  procs | while read -r role pid; do
    [ -r "/proc/$pid/status" ] || continue
    echo "$1 $role $pid $(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status") $(ls "/proc/$pid/fd" | wc -l) \
$(awk '/^Threads:/ {print $2}' "/proc/$pid/status")"
  done
}
alive() { kill -0 "$CTL" 2>/dev/null; }

# start: the launch window is over and the sessions are active (or 120 s past the window)
while alive; do
  el=$(( $(date +%s) - T0 ))
  act=$(q "select count(*) from sessions where state = 'active'" 2>/dev/null || echo 0)
  [ "$act" -ge "$N" ] && break
  [ $el -ge $((LAUNCH_S + 120)) ] && break
  sleep 5
done
alive || { tail -20 "$T/run.log" >&2; echo "soak: the run ended before the ramp was over" >&2; exit 1; }
TS=$(date +%s)
snap start >"$T/start.txt"
echo "t_s role pid rss_kb fds threads" >"$T/proc.csv"
snap "$(( TS - T0 ))" >>"$T/proc.csv"
echo "soak: ramp over after $(( TS - T0 )) s: $(q "select count(*) from sessions where state = 'active'") of $N sessions active" >&2
# end: just before logoff (launch window + steady state after the controller started, less 15 s)
END_AT=$(( T0 + LAUNCH_S + STEADY_S - 15 ))
while alive && [ "$(date +%s)" -lt $END_AT ]; do
  rem=$(( END_AT - $(date +%s) ))
  sleep $(( rem < INTERVAL ? (rem > 1 ? rem : 1) : INTERVAL ))
  snap "$(( $(date +%s) - T0 ))" >>"$T/proc.csv"
done
TE=$(date +%s)
snap end >"$T/end.txt"
set +e
wait "$CTL"; RC=$?
set -e
PIDS="$SIM"

echo "soak: $N sessions, $AGENTS agents, launch ${LAUNCH_S} s + steady ${STEADY_S} s; measured over $(( TE - TS )) s of steady state; run exit $RC"
join <(awk '{print $2, $4, $5, $6}' "$T/start.txt" | sort) <(awk '{print $2, $4, $5, $6}' "$T/end.txt" | sort) | \
  awk -v h="$(( TE - TS ))" '{ rate = h > 0 ? ($5 - $2) / 1024 * 3600 / h : 0
      printf "soak: %-10s rss %7.1f -> %7.1f MiB (%+.1f MiB, %+.1f MiB/h)  fds %4d -> %4d (%+d)  threads %4d -> %4d (%+d)\n", $1, $2 / 1024, $5 / 1024, ($5 - $2) / 1024, rate, $3, $6, $6 - $3, $4, $7, $7 - $4 }'

# accounting: sessions, then samples of every completed loop
total=$(q "select count(*) from sessions")
open=$(q "select count(*) from sessions where state in ('launched', 'active')")
echo "soak: sessions $total of $N; $(q "select group_concat(state || '/' || reason || ' ' || c, ', ') from (select state, reason, count(*) c from sessions group by 1, 2)")"
set +e
python3 - "$T/soak.db" "$WORKLOAD" >"$T/acct.txt" <<'PY'
import re, sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
timers = set(re.findall(r"^\s*-?\s*timer:\s*(\w+)", open(sys.argv[2]).read(), re.M))
rows = db.execute("select s.session, s.loop, t.name from samples s join timer_names t on t.id = s.name_id "
                  "where s.is_measure = 0").fetchall()
got = {}
for sess, loop, name in rows:
    got.setdefault(sess, {}).setdefault(loop, set()).add(name)
expected = found = 0
missing = []
for sess, loops in got.items():
    last = max(loops)
    for loop in range(last):        # every loop before the last was completed
        have = loops.get(loop, set())
        expected += len(timers)
        found += len(have & timers)
        if timers - have:
            missing.append((sess, loop, sorted(timers - have)))
print("soak: samples %d in the database; completed loops hold %d of %d expected timer samples; "
      "%d (session, loop) with a gap%s" % (len(rows), found, expected, len(missing),
      (": " + str(missing[:3])) if missing else ""))
sys.exit(1 if missing else 0)
PY
lost=$?
set -e
cat "$T/acct.txt"
# lost: agents and sessions, from the database and from what the controller printed
agents=$(q "select count(*) from agents")
agents_lost=$(q "select count(*) from agents where status = 'lost'")
sess_lost=$(q "select count(*) from sessions where reason = 'lost'")
sess_failed=$(q "select count(*) from sessions where state = 'failed'")
run_status=$(q "select group_concat(status, ',') from runs")
log_lost=$(grep -c -E 'agent .* lost|sessions marked lost|recorded as lost|every agent was lost' "$T/run.log" || true)
echo "soak: agents $agents (planned $AGENTS), lost $agents_lost; sessions lost $sess_lost, failed $sess_failed;" \
     "controller output: $log_lost line(s) about lost agents or sessions; run status $run_status, exit $RC"
bad=0
fail() { echo "soak: FAIL: $*"; echo "soak: FAIL: $*" >&2; bad=$((bad + 1)); }
[ "$total" = "$N" ] || fail "$total sessions recorded, $N planned"
[ "$open" = 0 ] || fail "$open sessions still launched or active after the run"
[ "$agents" = "$AGENTS" ] || fail "$agents agents recorded, $AGENTS planned"
[ "$agents_lost" = 0 ] || fail "$agents_lost agent(s) lost: $(q "select group_concat(name || ' (' || detail || ')', ', ') from agents where status = 'lost'")"
[ "$sess_lost" = 0 ] || fail "$sess_lost session(s) lost with their agent"
[ "$sess_failed" = 0 ] || fail "$sess_failed session(s) failed"
[ "$log_lost" = 0 ] || fail "the controller reported losses: $(grep -E 'agent .* lost|sessions marked lost|recorded as lost|every agent was lost' "$T/run.log" | head -2 | tr -s ' ' | cut -c1-160 | paste -sd'|')"
[ "$run_status" = completed ] || fail "run status '$run_status', not completed"
# exit 2 is an inconclusive verdict: losses are counted above; an overloaded machine (agent loop
# lag) also makes it, so it is reported, not failed. Any other code but 0 and 1 is an error.
case $RC in
  0|1) ;;
  2) echo "soak: note: verdict inconclusive (exit 2): $(grep -E '^\s*\[inconclusive\]' "$T/run.log" | head -2 | tr -s ' ' | paste -sd'|')" ;;
  *) fail "sessmax run exited $RC" ;;
esac
[ $lost = 0 ] || fail "samples missing"
"$B/sessmax" db check "$T/soak.db" >/dev/null || fail "db check"
if [ $bad = 0 ]; then
  echo "soak: nothing lost"
else
  echo "soak: FAILED: $bad problem(s) above; nothing-lost does not hold" | tee /dev/stderr
  KEEP=1
fi
[ $bad = 0 ]
