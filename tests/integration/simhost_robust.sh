#!/bin/bash
# simhost_robust.sh -- hostile and broken clients must not crash or hang sessmax-simhost nor leak
# threads or file descriptors: silent TCP clients, clients that stop in the middle of the TLS
# handshake (ended by --handshake-timeout), a burst of 500 connection attempts, random bytes.
# While the silent clients hang, a fresh client still completes a TLS handshake (one thread per
# peer). Afterwards /proc/PID/fd and /proc/PID/task must be back at their baseline.
set -u
B=${SESSMAX_BUILD_DIR:?}
. "$(dirname "$0")/lib/harness.sh"
scratch_dir WORK simhost_robust

export SESSMAX_PASSWORD="throwaway-$RANDOM"
start_simhost 5 --handshake-timeout 3 --event-log "$WORK/events.log"
SIM=$SIM_PID PORT=$SIM_PORT

counts() { echo "$(ls /proc/$SIM/fd | wc -l) $(ls /proc/$SIM/task | wc -l)"; }

cat > "$WORK/hostile.py" <<'PY'
import os, random, socket, ssl, struct, sys, time
port = int(sys.argv[2]); mode = sys.argv[1]
X224_TLS = bytes.fromhex("030000130ee000000000000100080001000000")   # X.224 CR, RDP_NEG_REQ: PROTOCOL_SSL

def conn(timeout=10):
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout); return s

def tls_handshake():
    """X.224 negotiation then a real TLS handshake; returns the negotiated TLS version."""
    s = conn()
    s.sendall(X224_TLS)
    cc = s.recv(64)
    assert len(cc) >= 11 and cc[5] == 0xD0, "no X.224 connection confirm: %r" % cc
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT); ctx.check_hostname = False; ctx.verify_mode = ssl.CERT_NONE
    t = ctx.wrap_socket(s); v = t.version(); t.close(); return v

if mode == "silent":          # hold N connections open: TCP only, and stopped inside TLS
    n = int(sys.argv[3]); socks = []
    for i in range(n):
        s = conn(); socks.append(s)
        if i % 2:               # negotiate TLS, then send half a ClientHello and stop
            s.sendall(X224_TLS); s.recv(64); s.sendall(bytes.fromhex("1603010200010001fc0303"))
    print("silent: %d connections held" % n, flush=True)
    # meanwhile a real client still gets through
    print("fresh handshake while silent ones hang: %s" % tls_handshake(), flush=True)
    time.sleep(float(sys.argv[4]))
    # the server must have closed them (handshake deadline): recv returns b"" or an error
    closed = 0
    for s in socks:
        s.settimeout(0.5)
        try:
            closed += s.recv(4096) == b""
        except OSError:
            closed += 1
        s.close()
    print("silent: %d of %d closed by the server" % (closed, n), flush=True)
    sys.exit(0 if closed == n else 1)
elif mode == "burst":         # 500 connection attempts as fast as possible, mixed behaviour
    socks = []
    for i in range(500):
        try:
            s = socket.socket(); s.setblocking(False); s.connect_ex(("127.0.0.1", port)); socks.append(s)
        except OSError:
            pass
    time.sleep(3)               # SYNs beyond the listen backlog are retried after 1 s
    sent = 0
    for i, s in enumerate(socks):
        try:
            if i % 3 == 0: s.send(os.urandom(random.randint(1, 4096))); sent += 1
            elif i % 3 == 1: s.send(X224_TLS + os.urandom(200)); sent += 1
        except OSError:
            pass
    time.sleep(0.5)
    for s in socks:
        s.close()
    print("burst: %d connections, %d sent garbage" % (len(socks), sent), flush=True)
elif mode == "garbage":       # random bytes, including valid-looking TPKT headers with lies inside
    for i in range(60):
        s = conn()
        try:
            if i % 2: s.sendall(b"\x03\x00" + struct.pack(">H", random.randint(4, 65535)) + os.urandom(random.randint(0, 8192)))
            else: s.sendall(os.urandom(random.randint(1, 16384)))
            s.settimeout(0.2); s.recv(4096)
        except OSError:
            pass
        s.close()
    print("garbage: 60 connections", flush=True)
elif mode == "handshake":
    print("handshake: %s" % tls_handshake(), flush=True)
PY

# one good handshake first: WinPR opens its registry file once, OpenSSL initialises lazily
python3 "$WORK/hostile.py" handshake $PORT || fail "no TLS handshake"
sleep 0.5
BASE=$(counts)
echo "baseline fds/threads: $BASE"
python3 "$WORK/hostile.py" silent $PORT 20 6 || fail "silent clients not cut off by the handshake deadline"
python3 "$WORK/hostile.py" burst $PORT || fail "burst client failed"
python3 "$WORK/hostile.py" garbage $PORT || fail "garbage client failed"
"$B/bench/bench_simhost" --port $PORT --sessions 5 --threads 5 --mid-action "zip9 doc1.txt" \
  || fail "mid-action clients could not log on"
sleep 1
echo "mid-action: $(grep -c 'action=zip9' "$WORK/events.log" 2>/dev/null) zip9 actions ran for clients that had left"
kill -0 $SIM 2>/dev/null || fail "simhost died"
python3 "$WORK/hostile.py" handshake $PORT || fail "no TLS handshake after the abuse"

# back to baseline: every peer thread ended and closed its socket (bounded wait: handshake deadline)
NOW=""
for i in $(seq 1 200); do NOW=$(counts); [ "$NOW" = "$BASE" ] && break; sleep 0.1; done
echo "after: fds/threads $NOW"
[ "$NOW" = "$BASE" ] || fail "leak: fds/threads $NOW, baseline $BASE"
kill -TERM $SIM; wait $SIM; rc=$?
[ $rc = 0 ] || fail "simhost exit $rc after SIGTERM"
echo "PASS simhost_robust"
