#!/usr/bin/env bash
# big_rows.sh - large suffix arrays on the GPU machine: in memory against out
# of core under a quarter of the in-memory need, and one 64-bit row past
# n = 2^32 (out of core, 64-bit host arrays).  Builds nothing: expects
# $BUILD/tools/bench/clsa-bench (Release) from the repository root.
#
#   bash tools/bench/big_rows.sh            # H200: the sizes below, < 8 minutes
#   BIG_SMALL=1M BIG_MID=2M BIG_WIDE=3M CLSA_DEVICE=pocl bash tools/bench/big_rows.sh
#                                           # smoke test (BIG_WIDE runs with ooc64=1)
#
# Rows, cheapest first except row 4 (run last: it only adds a second
# out-of-core size, and must not take the 64-bit row's time), each under
# its own `timeout` and all under BIG_LIMIT seconds (default 470): a row
# that would start with 10 s or less left is skipped, and a row gets at
# most what is left.
#   1  sa32 random:4 @ BIG_SMALL (default 1G), in memory (no limit)
#   2  the same under CLSA_DEVICE_MEM_LIMIT = a quarter of its in-memory need
#   3  sa64 random:4 @ BIG_MID (default 3500M; 4G at 37 B/n of 64-bit in-memory
#      need would pass the H200's memory, so the plan would say out of core)
#   4  the same under a quarter of its need
#   5  sa64 random:4 @ BIG_WIDE (default 4500M > 2^32): out of core with
#      64-bit host arrays (host: text 4.5 GB + SA 36 GB + ISA 36 GB + staging)
# Each row prints the plan (clsa_sa_plan: route, need, budget, chunk, host
# bytes), then time, MB/s, peak device bytes and the check: clsa-bench
# verifies every result with the O(n) checker (clsa_check_sa32/64), which
# needs no second suffix array; libdivsufsort is not run (--ref-reps 0).
# Output: $OUT (default ./out-big): big_rows.csv (clsa-bench's columns),
# big_rows.log.  Env: CLSA_DEVICE (default gpu), BUILD (default build),
# BIG_ROWS (default 12345: which rows), BIG_TIMEOUT_<row> (seconds, defaults
# 60 60 90 150 360).
set -uo pipefail

ROOT=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
cd "$ROOT" || exit 3
BUILD=${BUILD:-build}
BENCH=$BUILD/tools/bench/clsa-bench
OUT=${OUT:-$ROOT/out-big}
LIMIT=${BIG_LIMIT:-470}
ROWS=${BIG_ROWS:-12345}
# repetitions a row (the first pays the page faults of fresh host arrays)
REPS=${BIG_REPS:-1}
SMALL=${BIG_SMALL:-1G}
MID=${BIG_MID:-3500M}
WIDE=${BIG_WIDE:-4500M}
export CLSA_DEVICE=${CLSA_DEVICE:-gpu}
mkdir -p "$OUT"
CSV=$OUT/big_rows.csv
rm -f "$CSV"
exec > >(tee "$OUT/big_rows.log") 2>&1
START=$(date +%s)
say() { echo "== [big_rows $(($(date +%s) - START))s/${LIMIT}s] $*"; }
[ -x "$BENCH" ] || { say "no $BENCH: build clsa-bench first"; exit 3; }

# bytes of a whole SIZE with a K/M/G suffix, decimal as clsa-bench reads it
bytes_of() {
    local v=${1%[KMGkmg]} u=${1: -1}
    case $u in K|k) echo $((v * 1000)) ;; M|m) echo $((v * 1000000)) ;; G|g) echo $((v * 1000000000)) ;; *) echo "$1" ;; esac
}
# the in-memory need clsa_sa_plan estimates: n (sym + w + 3 w + 4) + 4096
need_of() { local n=$1 w=$2; echo $((n * (1 + w + 3 * w + 4) + 4096)); }

# row NUM LABEL OP SIZE LIMIT_BYTES(0: none) TIMEOUT_S [ENV...]
row() {
    local num=$1 label=$2 op=$3 size=$4 limit=$5 cap
    eval "cap=\${BIG_TIMEOUT_$num:-$6}"
    shift 6
    case $ROWS in *"$num"*) ;; *) say "row $num ($label): not selected"; return ;; esac
    local now left
    now=$(date +%s)
    left=$((START + LIMIT - now))
    if [ "$left" -le 10 ]; then
        say "row $num ($label): skipped, ${left}s left"
        return
    fi
    [ "$cap" -gt "$left" ] && cap=$left
    local envs=()
    [ "$limit" != 0 ] && envs+=("CLSA_DEVICE_MEM_LIMIT=$limit")
    envs+=("$@")
    say "row $num ($label): $op random:4@$size, limit ${limit} B, timeout ${cap}s ${envs[*]}"
    local t0=$(date +%s.%N)
    env "${envs[@]}" timeout -k 10 "$cap" "$BENCH" -r "$REPS" --ref-reps 0 --no-profile --row-budget 0.001 \
        --csv "$CSV" --append "$op" "$label=random:4@$size"
    local rc=$?
    local t1=$(date +%s.%N)
    if [ $rc = 124 ] || [ $rc = 137 ]; then say "row $num ($label): TIMED OUT after ${cap}s"; return; fi
    say "row $num ($label): clsa-bench rc $rc, $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s with input generation and check"
    # the row's line: time, MB/s, peak device bytes, check, error
    awk -F, -v L="$label" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["kind"] == L { printf "   result: n %s, %s s, %s MB/s, peak device %s B (%s B/n), valid %s, status %s %s\n",
            $c["n"], $c["t_min_s"], $c["mb_s"], $c["peak_bytes"], $c["peak_B_per_n"], $c["valid"],
            $c["status"], $c["error"] }' "$CSV"
}

say "device $CLSA_DEVICE, sizes $SMALL / $MID / $WIDE, rows $ROWS"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv
free -g | head -2
ns=$(bytes_of "$SMALL"); nm=$(bytes_of "$MID")
row 1 "small-inmem" sa32 "$SMALL" 0 60
row 2 "small-quarter" sa32 "$SMALL" $(($(need_of "$ns" 4) / 4)) 60
row 3 "mid-inmem" sa64 "$MID" 0 90
# past 2^32 the 64-bit layout is automatic; a smoke-test size forces it
nw=$(bytes_of "$WIDE")
wide_env=()
[ "$nw" -le 4294967295 ] && wide_env=("CLSA_TUNE=ooc=1,ooc64=1")
row 5 "wide-ooc64" sa64 "$WIDE" 0 360 "${wide_env[@]}"
# "if time allows": cheaper than row 5 but the least needed, so it gets what is left
row 4 "mid-quarter" sa64 "$MID" $(($(need_of "$nm" 8) / 4)) 150
say "done: $CSV"
