#!/usr/bin/env bash
# tune_sweep.sh - one device call that times the suffix array under several
# CLSA_TUNE settings (host/runtime/tuning.c), to choose the per-device
# defaults from measurements (docs/bench/log), and the token SA with and
# without packed symbol codes.
#
#   bash tools/bench/tune_sweep.sh       (device call: carry .device and .corpus)
#
# SWEEP_TUNES (space-separated CLSA_TUNE values; "-" = the defaults) and
# SWEEP_INPUTS override the lists.  Writes $OUT/sweep.txt: one line per
# (tune, input) with t_min and MB/s, and $OUT/env.txt.
set -uo pipefail
# shellcheck source=device_prelude.sh
. "$(dirname "$(readlink -f "$0")")/device_prelude.sh"
export CLSA_DEVICE=${CLSA_DEVICE:-gpu}
{
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv 2>&1
} >>"$OUT/env.txt"
cmake -B build -S . -DCMAKE_BUILD_TYPE=Release -DCLSA_BUILD_TESTS=OFF >/dev/null &&
    cmake --build build -j16 --target clsa_bench >"$OUT/build.txt" 2>&1 ||
    { tail -30 "$OUT/build.txt"; exit 3; }
CORPUS=/tmp/clsa-corpus-data
[ -f .corpus/corpus-slices.tar.xz ] && bash tools/bench/corpus.sh unpack .corpus "$CORPUS" >/dev/null
TEXT=cat:english.txt+howto.txt+sources.txt
INPUTS=${SWEEP_INPUTS:-"text=$TEXT@100M text1=$TEXT@1M xml.txt@16Mi random:4@100M mutated:65536@50M fibonacci@16M"}
TUNES=${SWEEP_TUNES:-"- wg=128 wg=512 scan_items=4 scan_items=16 r1=1024 r1=512 sort_wg=256,radix_items=16 sort_wg=64,radix_items=64 onesweep=1"}
B=build/tools/bench/clsa-bench
rows() { grep -E '^(sa32|radix|sa32-u32) ' | awk -v t="$1" '{printf "%-34s %-10s %-26s %9s %9s %9s\n", t, $1, $2, $(NF-10), $(NF-8), $(NF-7)}'; }
{
    # shellcheck disable=SC2086
    for t in $TUNES; do
        tv=$t; [ "$t" = - ] && tv=
        CLSA_TUNE=$tv "$B" -r 3 --ref-reps 0 --no-check --no-profile --dir "$CORPUS" sa32 $INPUTS 2>/dev/null | rows "$t"
        CLSA_TUNE=$tv "$B" -r 3 --no-profile radix 2>/dev/null | rows "$t"
    done
    for t in - sa_path=8; do
        tv=$t; [ "$t" = - ] && tv=
        CLSA_TUNE=$tv "$B" -r 3 --ref-reps 0 --check-max 16M --dir "$CORPUS" sa32-u32 words@550M 2>/dev/null | rows "$t"
    done
    "$B" -r 3 --ref-reps 0 --no-check --no-profile sa32 words@100M 2>/dev/null | rows "-"
} | tee "$OUT/sweep.txt"
