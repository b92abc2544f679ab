#!/usr/bin/env bash
# full_run.sh - one device call that records a round's figures (docs/bench/log):
#   1. tools/bench/device_run.sh (stages CLSA_BENCH_STAGES, default AXB: clsa beside
#      libcubwt and CUB, every row with its phases and slowest kernels)
#   2. tools/cli/measure_wall.sh: the CLI's wall time beside the call and the file I/O
#   3. sa32-u32 on 100M word tokens beside sa32 on the 100 MB of text, and gsa32 of
#      the rRNA genes (one string a line) beside sa32 of the same bytes (issue 11)
#   4. clsa-startup: a process's start-up by step, and whole processes with and
#      without clsa_destroy
# Carry .device, .corpus, .anchors.  Results in $OUT: results.csv, results.json,
# bench.log, env.txt, wall.txt, tokens.txt, startup.txt.
set -uo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
cd "$ROOT" || exit 3
OUT=${OUT:-$ROOT/out}
export OUT
mkdir -p "$OUT"
CLSA_BENCH_STAGES=${CLSA_BENCH_STAGES:-AXB} CLSA_BENCH_LIMIT=${CLSA_BENCH_LIMIT:-380} \
    bash tools/bench/device_run.sh >/dev/null 2>&1
tail -5 "$OUT/bench.log"
BENCH=build/tools/bench/clsa-bench
export CLSA_DEVICE=${CLSA_DEVICE:-gpu}
bash tools/cli/measure_wall.sh build/clsa "$BENCH" >"$OUT/wall.txt" 2>&1
cat "$OUT/wall.txt"
"$BENCH" -r 3 --ref-reps 0 --check-max 16M sa32-u32 words@550M 2>&1 | grep -v '^\[bench' >"$OUT/tokens.txt"
"$BENCH" -r 3 --ref-reps 0 --no-check sa32 words@100M 2>&1 | grep -v '^\[bench' >>"$OUT/tokens.txt"
"$BENCH" -r 3 --ref-reps 0 --check-max 16M --dir "${CLSA_BENCH_CORPUS_DIR:-${TMPDIR:-/tmp}/clsa-corpus-data}" sa32,gsa32 rrna.txt 2>&1 |
    grep -v '^\[bench' >>"$OUT/tokens.txt"
cat "$OUT/tokens.txt"
ns() { date +%s%N; }
ms_of() { local t0 t1; t0=$(ns); "$@" >/dev/null 2>&1; t1=$(ns); echo $(((t1 - t0) / 1000000)); }
{
    for r in 1 2 3; do echo "-- run $r"; build/tools/bench/clsa-startup "$CLSA_DEVICE"; done
    for r in 1 2 3; do
        echo "process_ms destroy=$(ms_of build/tools/bench/clsa-startup "$CLSA_DEVICE") no_destroy=$(ms_of build/tools/bench/clsa-startup "$CLSA_DEVICE" --no-destroy)"
    done
} >"$OUT/startup.txt" 2>&1
cat "$OUT/startup.txt"
