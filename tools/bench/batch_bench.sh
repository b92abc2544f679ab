#!/usr/bin/env bash
# batch_bench.sh - issue 48's rows (many small texts in one call) on the GPU,
# from the repository root with a built Release `build/` (clsa-bench; with
# -DCLSA_BENCH_CUDA=ON the libcubwt rows run too, else they say unsupported).
# Builds nothing.  MB/s with transfers (host memory in and out), every
# result checked (--check-max).  One line per row on stdout; CSV in $OUT.
#
#   CLSA_DEVICE=gpu bash tools/bench/batch_bench.sh
#
# Rows (words: generated English-like text, seed 1; REAL=FILE adds a real
# text cut the same way):
#   words@1G: sa32 (one 1 GB text), cubwt-sa (libcubwt once), sa32-batch
#     and bwt-batch of 10,000 texts of 100 KB
#   words@100M: sa32-each and cubwt-each (1,000 calls of 100 KB: the
#     per-text rate, which per-text calls over the 10,000 would also give)
#   words@1G --item 1K: sa32-batch of 1,000,000 texts of 1 KB
#   words@100M --item 1K: bwt-batch of 100,000 texts of 1 KB
set -uo pipefail
BENCH=${BUILD:-build}/tools/bench/clsa-bench
OUT=${OUT:-out}
REPS=${REPS:-3}
BIG=${BIG:-1G} SMALL=${SMALL:-100M} # sizes (a local try: BIG=2M SMALL=1M CLSA_DEVICE=pocl)
mkdir -p "$OUT"
[ -x "$BENCH" ] || { echo "no $BENCH: build clsa-bench (Release) first" >&2; exit 3; }
csv="$OUT/batch_bench.csv"
rm -f "$csv"
row() { # ITEM OPS INPUT
    "$BENCH" -d "${CLSA_DEVICE:-gpu}" -r "$REPS" --ref-reps 0 --no-profile --check-max 1G \
        --row-budget 60 --item "$1" --csv "$csv" --append "$2" "$3" 2>"$OUT/batch_bench.log.$$" |
        grep -vE '^ *(note|error):' || true
    grep -E 'error|WRONG' "$OUT/batch_bench.log.$$" | head -5
    rm -f "$OUT/batch_bench.log.$$"
}
row 100K sa32,cubwt-sa,sa32-batch,bwt-batch words@$BIG
row 100K sa32-each,cubwt-each words@$SMALL
row 1K sa32-batch words@$BIG
row 1K bwt-batch words@$SMALL
if [ -n "${REAL:-}" ]; then
    row 100K sa32,cubwt-sa,sa32-batch,sa32-each,cubwt-each "$REAL"
fi
echo "csv: $csv"
