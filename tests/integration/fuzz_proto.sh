#!/bin/bash
# fuzz_proto.sh -- builds tests/fuzz/fuzz_proto.c with clang (libFuzzer + ASan + UBSan) and fuzzes
# the agent-link message parser for a bounded time (FUZZ_SECONDS, default 30), starting from a
# few valid frames. Fails on any crash, sanitizer report, leak or round-trip mismatch.
set -euo pipefail
S=${SESSMAX_SOURCE_DIR:?}
B=${SESSMAX_BUILD_DIR:?}
SECONDS_BUDGET=${FUZZ_SECONDS:-30}
OUT=$B/fuzz
mkdir -p "$OUT/corpus"
command -v clang >/dev/null || { echo "FAIL: clang is needed for the fuzz harness"; exit 1; }
clang -g -O1 -std=c11 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I"$S" "$S/tests/fuzz/fuzz_proto.c" "$S/common/proto.c" "$S/common/results.c" \
    $(pkg-config --cflags --libs openssl) -o "$OUT/fuzz_proto"
# seeds: a hello, a records batch with one of each record, an ack (big-endian frames)
python3 - "$OUT/corpus" <<'PY'
import struct, sys, os
d = sys.argv[1]
def frame(t, body): return struct.pack(">IB", len(body) + 1, t) + body
def s(x): return struct.pack(">I", len(x)) + x
hello = frame(1, struct.pack(">II", 0x534d4158, 1) + s(b"agent-1") + struct.pack(">II", 30, 99) + b"N" * 32)
sample = bytes([1]) + struct.pack(">IIQQBB", 3, 1, 10**15, 250000, 1, 1) + s(b"vsi")
session = bytes([2]) + struct.pack(">IQBQB", 3, 10**15, 2, 0, 7) + s(b"simuser004") + s(b"wait timeout")
traffic = bytes([3]) + struct.pack(">IQQQQQIIIII", 3, 10**15, 1, 2, 3, 4, 500, 9, 100, 1, 90)
health = bytes([4]) + struct.pack(">QIIIIIIQ", 10**15, 30, 1, 100, 900, 5000, 400, 65536)
recs = frame(9, struct.pack(">QI", 1, 4) + sample + session + traffic + health)
ack = frame(10, struct.pack(">Q", 1))
for name, data in (("hello", hello), ("records", recs), ("ack", ack), ("stream", hello + recs + ack)):
    open(os.path.join(d, name), "wb").write(data)
PY
echo "fuzzing the protocol parser for ${SECONDS_BUDGET}s"
ASAN_OPTIONS=detect_leaks=1 "$OUT/fuzz_proto" -max_total_time="$SECONDS_BUDGET" -max_len=4096 \
    -print_final_stats=1 "$OUT/corpus" 2>"$OUT/fuzz.log" || { tail -n 40 "$OUT/fuzz.log"; echo FAIL; exit 1; }
grep -E "stat::number_of_executed_units|stat::new_units_added" "$OUT/fuzz.log" || true
echo PASS
