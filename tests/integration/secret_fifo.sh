#!/bin/bash
# secret_fifo.sh -- every reader of a secret file is given a FIFO nobody writes to (and a symbolic
# link to a good file): each refuses it at once with "not a regular file" (or "symbolic link")
# instead of blocking in open(2), where it would also ignore SIGTERM. `timeout` only turns a hang
# into a failure.
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"
SIM_PORT=9   # no simhost: every run stops at its secrets
mkfifo -m 600 "$WORK/fifo"
printf 'a-good-token-0123456789abcdef\n' >"$WORK/good"
chmod 600 "$WORK/good"
ln -s "$WORK/good" "$WORK/link"
refuses() {   # refuses WHAT WANT COMMAND...: COMMAND exits non-zero, not by timeout, saying WANT
    local what=$1 want=$2 rc=0
    shift 2
    timeout 20 "$@" >"$WORK/out.log" 2>&1 || rc=$?
    [ $rc != 124 ] || fail "$what: blocked on the FIFO"
    [ $rc != 0 ] || fail "$what: accepted it"
    grep -q "$want" "$WORK/out.log" || fail "$what: $(cat "$WORK/out.log")"
    echo "$what: refused ($(head -c 160 "$WORK/out.log" | tr '\n' ' '))"
}
for f in fifo link; do
    want=$([ $f = fifo ] && echo "not a regular file" || echo "symbolic link")
    plan_fields "credentials: {user: \"simuser{n:03}\", password_file: $WORK/$f}"
    refuses "plan password_file ($f)" "$want" "$B/sessmax" run "$WORK/plan.yaml" --plain
    plan_fields
    refuses "run --web-token-file ($f)" "$want" "$B/sessmax" run "$WORK/plan.yaml" --plain --web 127.0.0.1:0 \
        --web-token-file "$WORK/$f"
    refuses "agent --token-file ($f)" "$want" "$B/sessmax-agent" connect 127.0.0.1:9 --token-file "$WORK/$f"
    refuses "serve --token-file ($f)" "$want" "$B/sessmax" serve "$WORK/none.db" --token-file "$WORK/$f"
    refuses "simhost --users-file ($f)" "$want" "$B/sessmax-simhost" --listen "127.0.0.1:$(free_port)" --users-file "$WORK/$f"
done
echo PASS
