#!/usr/bin/env bash
# small_bench.sh - issue 48 item 3's rows (one text below a few MB: the
# small-input suffix array, host/sa/small.c) on the GPU, from the
# repository root with a built Release `build/` (clsa-bench; with
# -DCLSA_BENCH_CUDA=ON the libcubwt rows run beside, else they say
# unsupported).  Builds nothing.  Every clsa row is checked; after it a
# line "launches L reads R" of its profiled run (kernel launches and
# blocking reads clEnqueueReadBuffer, the result's download included).
#
#   CLSA_DEVICE=gpu bash tools/bench/small_bench.sh
#
# Rows: new = this tree, old = the same build with CLSA_TUNE=small_max=0
# (the general pipeline).  SA with transfers (MB/s, x_anc) and on the
# device (devMB/s, x_ancD) beside libcubwt 1.0.0: real text (the corpus'
# english + howto + sources, else generated words) and real DNA (else
# random:4) at 256K, 1M, 4M; BWT of 4 MB beside libcubwt 1.6.3; text 10M
# and 100M (no regression: above small_max); then tuning variants.
set -uo pipefail
BENCH=${BUILD:-build}/tools/bench/clsa-bench
OUT=${OUT:-out}
REPS=${REPS:-5}
mkdir -p "$OUT"
[ -x "$BENCH" ] || { echo "no $BENCH: build clsa-bench (Release) first" >&2; exit 3; }
CORPUS=${CORPUS:-/tmp/clsa-corpus-data}
[ -f "$CORPUS/english.txt" ] || [ ! -f .corpus/corpus-slices.tar.xz ] ||
    bash tools/bench/corpus.sh unpack .corpus "$CORPUS" >/dev/null 2>&1
TEXT=words DNA=random:4 ENG=words
if [ -f "$CORPUS/english.txt" ]; then
    TEXT=cat:english.txt+howto.txt+sources.txt DNA=dna.fa-stripped ENG=english.txt
fi
START=$(date +%s)

# Prints the rows of one clsa-bench call, each clsa row followed by its
# launches and blocking reads.  LABEL TUNE OPS INPUT...
rows() {
    local label=$1 tune=$2 ops=$3
    shift 3
    echo "== [$(($(date +%s) - START))s] $label (CLSA_TUNE=${tune:-})"
    CLSA_TUNE=$tune timeout 120 "$BENCH" -d "${CLSA_DEVICE:-gpu}" -r "$REPS" --ref-reps 0 \
        --check-max 16M --row-budget 10 --dir "$CORPUS" "$ops" "$@" 2>"$OUT/small_bench.err" |
        awk -v label="$label" '
            /^(sa32|bwt|cubwt-sa|cubwt-bwt) / { print label " " $0; next }
            /phases \[ms\]/ { if (match($0, /[0-9]+ launches/)) l = substr($0, RSTART, RLENGTH - 9) }
            /kernels \[ms\/launches\]/ {
                r = 0
                if (match($0, /clEnqueueReadBuffer [0-9.]+\/[0-9]+/)) {
                    s = substr($0, RSTART, RLENGTH); sub(/.*\//, "", s); r = s
                }
                print "         launches " l " reads " r
            }
            /note:|error:/ { print }'
    grep -E 'WRONG|error' "$OUT/small_bench.err" | head -3
}

set -- t256k="$TEXT@256K" t1m="$TEXT@1M" t4m="$TEXT@4M" dna1m="$DNA@1M" dna4m="$DNA@4M"
rows new "" sa32,cubwt-sa "$@"
rows old small_max=0 sa32 "$@"
set -- t4m="$TEXT@4M" eng4400k="$ENG@4400000"
rows new "" bwt,cubwt-bwt "$@"
rows old small_max=0 bwt "$@"
rows new "" sa32,cubwt-sa t10m="$TEXT@10M" t100m="$TEXT@100M"
# tuning: reads every pass / every 4 passes; long groups to the general path;
# windows of 2048 and 1024 keys (tiles of 1024, 512 slots)
set -- t1m="$TEXT@1M" t4m="$TEXT@4M" w1m=words@1M
rows check1 small_check=1 sa32 "$@"
rows check4 small_check=4 sa32 "$@"
rows long4k small_long=4096 sa32 "$@"
rows cap2k small_cap=2048 sa32 "$@"
rows cap1k small_cap=1024 sa32 "$@"
rows max16m small_max=16777215 sa32 t8m="$TEXT@8M" t16m="$TEXT@16000000"
echo "== done in $(($(date +%s) - START))s"
