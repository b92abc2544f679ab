#!/usr/bin/env bash
# cl_mem_bench.sh - device-resident (caller cl_mem) sa32, sa64, bwt and lcp
# past 2^31 bytes on the GPU (issue 51).  Builds nothing: expects
# $BUILD/tools/bench/clsa-bench (Release) from the repository root.
#
#   CLSA_DEVICE=gpu bash tools/bench/cl_mem_bench.sh          # H200: < 10 minutes
#   CLMEM_ROWS="dna=random:4@1M:sa32,bwt" CLSA_DEVICE=pocl bash tools/bench/cl_mem_bench.sh
#
# Each row is one clsa-bench process (a device fault cannot spoil the rows
# after it) under its own `timeout`, all within CLMEM_LIMIT seconds (default
# 560; a row that would start with 15 s or less left is skipped).  A row:
# the host-memory call (timed, its result checked: the O(n) suffix-array
# checker, the BWT inverted on the device by clsa_unbwt, the LCP against
# Kasai's), then the same call on buffers the benchmark made with plain
# OpenCL (clsa_*_mem), whose result must be byte-identical to the
# host-memory one.  sa32 and lcp (32-bit entries) stop below 2^31
# suffixes: at 3.2 Gbp only sa64 and bwt run, and the 2000M row takes sa32
# and lcp deep past 2^31 bytes (8 GB arrays) instead.
# Rows (CLMEM_ROWS, "LABEL=SOURCE@SIZE:OPS" separated by spaces), most
# telling first: the 1 GB random DNA of the issue, then 3.2 Gbp, then 2 G
# and 600 MB of generated English-like text.
# Output: one line a row ("row ..."), and $OUT (default ./out-clmem):
# cl_mem.csv (clsa-bench's columns), cl_mem.log.
# Env: CLSA_DEVICE (default gpu), BUILD (default build), CLMEM_TIMEOUT
# (seconds a row, default 240), CLMEM_CHECK_MAX (clsa-bench --check-max:
# host results verified up to this size; the device-resident comparison
# runs at every size; default: all).
set -uo pipefail

ROOT=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
cd "$ROOT" || exit 3
BUILD=${BUILD:-build}
BENCH=$BUILD/tools/bench/clsa-bench
OUT=${OUT:-$ROOT/out-clmem}
LIMIT=${CLMEM_LIMIT:-560}
CAP=${CLMEM_TIMEOUT:-240}
ROWS=${CLMEM_ROWS:-"dna1G=random:4@1G:sa32,sa64,bwt,lcp dna3200M=random:4@3200M:sa64,bwt text2000M=words@2000M:sa32,lcp text600M=words@600M:sa32,sa64,bwt,lcp"}
export CLSA_DEVICE=${CLSA_DEVICE:-gpu}
mkdir -p "$OUT"
CSV=$OUT/cl_mem.csv
rm -f "$CSV"
exec > >(tee "$OUT/cl_mem.log") 2>&1
START=$(date +%s)
say() { echo "== [cl_mem $(($(date +%s) - START))s/${LIMIT}s] $*"; }
[ -x "$BENCH" ] || { say "no $BENCH: build clsa-bench first"; exit 3; }
check=()
[ -n "${CLMEM_CHECK_MAX:-}" ] && check=(--check-max "$CLMEM_CHECK_MAX")

# The row line of LABEL's OP from the CSV: host and device-resident times,
# device-resident MB/s, check, status and error.
report() {
    awk -F, -v L="$1" -v O="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["input"] ~ "^" L "@" && $c["op"] == O {
            printf "row %-10s %-5s n %s: host %s s, device-resident %s s (%s MB/s), peak %s B/n, valid %s, status %s %s\n",
                L, O, $c["n"], $c["t_min_s"], $c["t_dev_min_s"], $c["mb_s_dev"],
                $c["peak_B_per_n_dev"], $c["valid"], $c["status"], $c["error"]; found = 1 }
        END { if (!found) printf "row %-10s %-5s: no result (the process ended first)\n", L, O }' "$CSV"
}

# row LABEL=SOURCE@SIZE OPS: one clsa-bench process a row
row() {
    local spec=$1 ops=$2 label=${1%%=*} now left cap
    now=$(date +%s)
    left=$((START + LIMIT - now))
    if [ "$left" -le 15 ]; then
        say "$label $ops: skipped, ${left}s left"
        for op in ${ops//,/ }; do echo "row $label $op: skipped (time)"; done
        return
    fi
    cap=$CAP
    [ "$cap" -gt "$left" ] && cap=$left
    say "$label: $ops on $spec, timeout ${cap}s"
    timeout -k 10 "$cap" "$BENCH" -r 1 --ref-reps 0 --no-profile --row-budget 0 \
        "${check[@]}" --csv "$CSV" --append "$ops" "$spec"
    local rc=$?
    [ $rc = 124 ] || [ $rc = 137 ] && say "$label: TIMED OUT after ${cap}s"
    for op in ${ops//,/ }; do report "$label" "$op"; done
}

say "device $CLSA_DEVICE, rows: $ROWS"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv
free -g | head -2
for r in $ROWS; do row "${r%:*}" "${r##*:}"; done
say "done: $CSV"
