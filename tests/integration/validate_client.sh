#!/usr/bin/env bash
# validate_client.sh -- an external client whose program is missing on this host is a plan error
# (exit 65, FILE:LINE:COL of `client:`) that names where the program comes from: the Debian
# package for xfreerdp, Xvfb and the TigerVNC viewer and vncpasswd, the vendor's download for the
# Citrix Workspace app and the VMware Horizon Client. `sessmax run` and `sessmax matrix` with local
# agents refuse such a plan before starting anything; with every program present it validates.
# The programs are hidden by running sessmax with a PATH holding only the ones a case needs.
set -euo pipefail
B=${SESSMAX_BUILD_DIR:?}
S=${SESSMAX_SOURCE_DIR:?}
. "$(dirname "$0")/lib/harness.sh"
scratch_dir TMP sessmax-validate-client
export SESSMAX_PASSWORD=validate-client

plan() {   # plan CLIENT-VALUE [AGENTS]
    cat >"$TMP/plan.yaml" <<YAML
name: vc
target: {host: 127.0.0.1, port: 3389, verify: false}
credentials: {user: "u{n}", password_env: SESSMAX_PASSWORD}
workload: $S/workloads/simhost-task-worker.yaml
sessions: 2
launch_window: 10s
steady_state: 5m

client: $1
agents: ${2:-{local: 1\}}
results: $TMP/r.db
YAML
}
# onpath PROGRAM...: a directory holding links to just these programs
onpath() {
    rm -rf "$TMP/bin"; mkdir "$TMP/bin"
    for p in "$@"; do ln -s "$(command -v "$p")" "$TMP/bin/$p"; done
}
# expect CMD... : exit 65 and one line "plan.yaml:9:9: ..." naming $WANT
expect() {
    local rc=0
    PATH=$TMP/bin "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
    [ $rc = 65 ] || fail "$*: exit $rc, want 65 ($(cat "$TMP/err"))"
    grep -qF -- "$TMP/plan.yaml:9:9: $WANT" "$TMP/err" || fail "$*: message: $(cat "$TMP/err"), want: $WANT"
}
for p in xfreerdp Xvfb vncviewer vncpasswd; do
    command -v $p >/dev/null || { echo "SKIP: $p missing (scripts/install-deps)"; exit 77; }
done

plan '{x11: xfreerdp}'
onpath Xvfb
WANT="client xfreerdp: program 'xfreerdp' not found on this host (install Debian package freerdp2-x11)"
expect "$B/sessmax" validate "$TMP/plan.yaml"
expect "$B/sessmax" run "$TMP/plan.yaml"
expect "$B/sessmax" matrix "$TMP/plan.yaml" --vary sessions=1,2
[ ! -e "$TMP/r.db" ] || fail "run or matrix created a database for a plan it refused"
onpath xfreerdp
WANT="client xfreerdp: program 'Xvfb' not found on this host (install Debian package xvfb)"
expect "$B/sessmax" validate "$TMP/plan.yaml"
onpath xfreerdp Xvfb
PATH=$TMP/bin "$B/sessmax" validate -q "$TMP/plan.yaml" 2>"$TMP/err" || fail "all present: $(cat "$TMP/err")"

plan '{x11: vncviewer}'
onpath Xvfb
WANT="client vncviewer: program 'vncviewer' not found on this host (install Debian packages tigervnc-viewer and tigervnc-tools (vncpasswd))"
expect "$B/sessmax" validate "$TMP/plan.yaml"
onpath Xvfb vncviewer
WANT="client vncviewer: program 'vncpasswd' not found on this host (install Debian package tigervnc-tools)"
expect "$B/sessmax" validate "$TMP/plan.yaml"

# an entry of clients: (a matrix's vncviewer column with its own target): validate checks every
# entry's programs, matrix each cell's; the message points at the entry
plan builtin
printf 'clients:\n  vncviewer: {target: {port: 5901}}\n' >>"$TMP/plan.yaml"
onpath Xvfb xfreerdp
WANT="client vncviewer: program 'vncviewer' not found on this host (install Debian packages tigervnc-viewer and tigervnc-tools (vncpasswd))"
for cmd in "validate" "matrix --vary client=builtin,xfreerdp,vncviewer"; do
    rc=0
    PATH=$TMP/bin "$B/sessmax" $cmd "$TMP/plan.yaml" >"$TMP/out" 2>"$TMP/err" || rc=$?
    [ $rc = 65 ] || fail "$cmd with a clients entry: exit $rc, want 65 ($(cat "$TMP/err"))"
    grep -qF -- "$TMP/plan.yaml:13:3: $WANT" "$TMP/err" || fail "$cmd: message: $(cat "$TMP/err")"
done
[ ! -e "$TMP/r.db" ] || fail "matrix created a database for a plan it refused"

if [ ! -e /opt/Citrix/ICAClient/wfica ]; then
    plan '{x11: citrix, transport: edt}'
    onpath Xvfb
    WANT="client citrix: program '/opt/Citrix/ICAClient/wfica' not found on this host (install Citrix Workspace app for Linux (https://www.citrix.com/downloads/workspace-app/linux/))"
    expect "$B/sessmax" validate "$TMP/plan.yaml"
fi
plan '{x11: vmware-view, transport: udp}'
onpath Xvfb
WANT="client vmware-view: program 'vmware-view' not found on this host (install VMware Horizon Client for Linux (https://customerconnect.vmware.com/downloads/))"
expect "$B/sessmax" validate "$TMP/plan.yaml"
# a command template: the program is its first word
plan '{x11: "no-such-viewer {host}:{port}", password: none}'
onpath Xvfb
WANT="client command: program 'no-such-viewer' not found on this host (install the program named in the client command)"
expect "$B/sessmax" validate "$TMP/plan.yaml"

# remote agents run elsewhere: run does not judge this host's programs (validate still does)
PORT=$(free_port)
plan '{x11: xfreerdp}' "{expect: 1, listen: \"127.0.0.1:$PORT\", wait: 1s, tls: false}"
onpath Xvfb
WANT="client xfreerdp: program 'xfreerdp' not found"
expect "$B/sessmax" validate "$TMP/plan.yaml"
rc=0
PATH=$TMP/bin timeout 60 "$B/sessmax" run "$TMP/plan.yaml" --plain >"$TMP/out" 2>&1 || rc=$?
grep -q "not found on this host" "$TMP/out" && fail "run with remote agents judged this host's programs"
echo "validate_client: ok"
