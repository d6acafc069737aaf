#!/bin/bash
# slurm_agents.sh -- a plan whose 4 agents are a Slurm job array (4 tasks x 25 sessions) on a
# one-node Slurm (scripts/slurm-local): the test submits the exact sbatch line `sessmax run`
# prints, with the token in a 0600 file; every agent and every session is accounted for (each
# agent carried 25, every session ended or was cut short by the end of the run, none lost).
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"
command -v slurmctld >/dev/null || fail "slurmctld is not installed (scripts/install-deps)"

export SLURM_LOCAL_DIR=$WORK/slurm SLURM_LOCAL_CTLD_PORT=$(free_port) SLURM_LOCAL_SLURMD_PORT=$(free_port)
export SLURM_CONF=$SLURM_LOCAL_DIR/slurm.conf
stop_slurm() { "$S/scripts/slurm-local" stop >/dev/null 2>&1 || true; }
at_exit stop_slurm
"$S/scripts/slurm-local" start

start_simhost 100
write_plan 100 4 25 10s 10s
listen_agents 4 120s
export SESSMAX_TOKEN=$(openssl rand -hex 32)
umask 077
printf '%s\n' "$SESSMAX_TOKEN" >"$WORK/token"
start_run
printed() { grep -q "sbatch --array=" "$WORK/run.log"; }
wait_for 30 printed || fail "sessmax run did not print an sbatch line"
sleep 1   # the line is printed before the listener is busy; let the agents find it
LINE=$(grep -o "sbatch --array=.*" "$WORK/run.log" | head -1)
echo "submitting: $LINE"
case "$LINE" in *"$SESSMAX_TOKEN"*) fail "the token is in the sbatch line" ;; esac
grep -q -- "--array=0-3 " <<<"$LINE" || fail "expected an array of 4 tasks: $LINE"
grep -q "SESSMAX_CAPACITY=25" <<<"$LINE" || fail "expected capacity 25: $LINE"
grep -q -- "--export=NONE," <<<"$LINE" || fail "the sbatch line must export only named variables: $LINE"
case "$LINE" in *ALL*|*PASSWORD*) fail "the sbatch line exports the password: $LINE" ;; esac
(cd "$WORK" && env -u SESSMAX_TOKEN SESSMAX_TOKEN_FILE="$WORK/token" SESSMAX_AGENT="$B/sessmax-agent" $LINE) \
    >"$WORK/sbatch.log" 2>&1 || fail "sbatch failed: $(cat "$WORK/sbatch.log")"
JOB=$(grep -o "[0-9]*$" "$WORK/sbatch.log")
wait_run
[ $rc -le 2 ] || fail "sessmax run exited $rc"
[ "$(q "select status from runs")" = completed ] || fail "run not completed"
[ "$(q "select count(*) from agents where name like 'slurm-$JOB-%'")" = 4 ] || fail "expected 4 agents named slurm-$JOB-N"
[ "$(q "select count(distinct agent_id) from sessions")" = 4 ] || fail "sessions not spread over 4 agents"
[ "$(q "select count(*) from sessions")" = 100 ] || fail "expected 100 sessions"
# every session reached an end: logged off, or cut short by the end of the run on a loaded
# machine -- none lost, none left open
[ "$(q "select count(*) from sessions where state = 'ended' or (state = 'failed' and reason = 'aborted')")" = 100 ] \
    || fail "sessions not accounted for: $(q "select state, reason, count(*) from sessions group by 1, 2")"
[ "$(q "select count(*) from sessions where state = 'ended'")" -ge 50 ] || fail "fewer than half the sessions ran to the end"
[ "$(q "select count(*) from agents where status != 'done'")" = 0 ] || fail "agents not done: $(q "select name, status from agents")"
for a in 0 1 2 3; do
    [ "$(q "select count(*) from sessions s join agents a on a.id = s.agent_id where a.name = 'slurm-$JOB-$a'")" = 25 ] \
        || fail "agent slurm-$JOB-$a did not carry 25 sessions"
done
echo PASS
