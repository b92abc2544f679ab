#!/usr/bin/env bash
# multi_run.sh - one device call on the 2-GPU machine: one GPU against two
# (clsa-bench sa32 / sa32-multi), then rows on one GPU, each under every
# CLSA_TUNE of MR_TUNES (the staged and packed copies against plain ones by
# default), libcubwt beside them; device memory over repeated calls
# (clsa-memloop) with MR_MEMLOOP=1.  Every clsa-bench row runs in a
# process of its own (a failed row cannot take the next one's device memory)
# and without the device-resident and profiled extras unless said.  Results:
# $OUT/multi_run.txt.
#
#   CLSA_BENCH_COMMIT=<hash> bash tools/bench/multi_run.sh   (carry .device, .corpus, .anchors)
#
# Env: MR_SIZE (1G), MR_WIDE (3500M, the two-GPU 64-bit row; empty: none),
# MR_MEMLOOP (1: clsa-memloop first), MR_WORDS (0: not the words and text
# rows of two GPUs), MR_REPS (3), MR_ANCHORS (1: libcubwt beside the
# one-GPU DNA rows where .anchors was carried; 0: not built),
# MR_TUNES ("pack_min=0,stage_min=0 -": the CLSA_TUNE of each compared
# row, - the defaults), MR_LIMIT (seconds after the build, 480), MR_DEVICES
# (nvidia:0,nvidia:1; the first alone is the one-GPU row), MR_RESIDENT (1:
# also the device-resident timing, "on device"), MR_ROWS ("OP|ANCHOR|INPUT
# ...": only these rows on one GPU, each under MR_TUNES and then its CUDA
# anchor, - for none; a one-GPU machine is enough).
set -uo pipefail
# shellcheck source=device_prelude.sh
. "$(dirname "$(readlink -f "$0")")/device_prelude.sh"
exec > >(tee "$OUT/multi_run.txt") 2>&1
cat "$OUT/env.txt"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1
BUILD_ANCHORS=${MR_ANCHORS:-1} build_release clsa_bench clsa_memloop
echo "CUDA anchors: $ANCHORS"
START=$(date +%s)
LIMIT=${MR_LIMIT:-480}
left() { echo $((START + LIMIT - $(date +%s))); }
unpack_corpus
BENCH=$BUILD/tools/bench/clsa-bench
S=${MR_SIZE:-1G}
DEVS=${MR_DEVICES:-nvidia:0,nvidia:1}
ONE=${DEVS%%,*}
ONE=${ONE:-nvidia:0}
N=$(numfmt --from=si "${S^^}")
RESIDENT=--no-resident
[ "${MR_RESIDENT:-0}" = 1 ] && RESIDENT=
bench() { # CLSA_TUNE OPS INPUT [extra options]
    local tune=$1 ops=$2 in=$3
    shift 3
    [ "$(left)" -gt 20 ] || { echo "-- skipped ($ops $in $tune): time"; return; }
    echo "-- $ops $in CLSA_TUNE=${tune:-(defaults)}"
    CLSA_TUNE=$tune CLSA_DEVICE=$ONE CLSA_BENCH_DEVICES=$DEVS \
        timeout $(($(left) < 120 ? $(left) : 120)) "$BENCH" -r "${MR_REPS:-3}" --ref-reps 0 --no-profile \
        $RESIDENT --check-max 100M --dir "$CORPUS" "$@" "$ops" "$in" 2>&1 |
        grep -vE '^\[bench|^# clsa-bench|^op  '
}
if [ "${MR_MEMLOOP:-0}" = 1 ]; then
    echo "== device memory over repeated 1 GB calls"
    timeout 90 "$BUILD"/tools/bench/clsa-memloop "$N" 5 "$ONE" 2>&1
fi
# compared: each row once per CLSA_TUNE of MR_TUNES, one after the other
compared() { # OPS INPUT [extra options]
    local t
    for t in ${MR_TUNES:-pack_min=0,stage_min=0 -}; do
        [ "$t" = - ] && t=
        bench "$t" "$@"
    done
}
# with_anchor OP ANCHOR INPUT: OP compared, then the CUDA anchor once
with_anchor() {
    compared "$1" "$3"
    [ "$ANCHORS" = 1 ] && [ "$2" != - ] && bench "" "$2" "$3"
}
if [ -n "${MR_ROWS:-}" ]; then
    echo "== rows on one GPU under MR_TUNES (${MR_TUNES:-pack_min=0,stage_min=0 -})"
    for row in $MR_ROWS; do
        IFS='|' read -r op anchor input <<<"$row"
        with_anchor "$op" "$anchor" "${input//\$TEXT/$TEXT}"
    done
    echo "== done, $(left) s left"
    exit 0
fi
echo "== one GPU against two"
compared sa32 "dna=random:4@$S"
compared sa32-multi "dna=random:4@$S" --check-max 2G
echo "== one GPU: plain copies against staged and packed ones, libcubwt beside"
with_anchor sa32 cubwt-sa "dna=random:4@100M"
with_anchor sa32 cubwt-sa "text=$TEXT@100M"
with_anchor sa32 cubwt-sa "realdna=dna.fa-stripped"
with_anchor bwt cubwt-bwt "dna=random:4@100M"
with_anchor bwt cubwt-bwt "text=$TEXT@100M"
with_anchor sa32 cubwt-sa "dna=random:4@400M"
if [ "${MR_WORDS:-1}" = 1 ]; then
    bench "" sa32 "words=words@$S"
    bench "" sa32-multi "words=words@$S"
    bench "part_decline=0" sa32-multi "words=words@$S"
    bench "" sa32-multi "text=$TEXT@100M"
    bench "part_decline=0" sa32-multi "text=$TEXT@100M"
fi
[ -n "${MR_WIDE-3500M}" ] && bench "" sa64-multi "dna=random:4@${MR_WIDE-3500M}" --check-max 8G
echo "== done, $(left) s left"
