#!/usr/bin/env bash
# runlen_bench.sh - run-length reduction's rows (issue 50; docs/SA.md
# "Run-length reduction"): texts of runs (runs:MEAN, tools/gen: runs of
# 1..2 MEAN - 1 letters) by every algorithm (clsa_options.algorithm through
# env CLSA_ALGORITHM: doubling = today's clsa, skew, runlen, auto), then
# runlen and auto on one byte repeated and on the rows auto must leave to
# the others (Fibonacci, periodic, text, DNA).  On the GPU, from the
# repository root with a built Release `build/` (clsa-bench).  Builds
# nothing.  MB/s with transfers, passes (doubling passes + skew levels),
# peak device B/n, every result checked.  One line per row on stdout; CSV
# in $OUT.  About 2-3 minutes on the H200.
#
#   CLSA_DEVICE=gpu bash tools/bench/runlen_bench.sh
#
# A local try: SCALE=1 CLSA_DEVICE=pocl (sizes / 1000).
set -uo pipefail
BENCH=${BUILD:-build}/tools/bench/clsa-bench
OUT=${OUT:-out}
REPS=${REPS:-3}
CORPUS=${CORPUS:-/tmp/clsa-corpus-data}
mkdir -p "$OUT"
[ -x "$BENCH" ] || { echo "no $BENCH: build clsa-bench (Release) first" >&2; exit 3; }
if [ ! -f "$CORPUS/english.txt" ] && [ -f .corpus/corpus-slices.tar.xz ]; then
    bash tools/bench/corpus.sh unpack .corpus "$CORPUS" >/dev/null 2>&1
fi
sz() { # SIZE in MB, divided by 1000 under SCALE=1
    if [ "${SCALE:-0}" = 1 ]; then echo "${1}K"; else echo "${1}M"; fi
}
text="words@$(sz 100)"
[ -f "$CORPUS/english.txt" ] && text="text=cat:english.txt+howto.txt+sources.txt@$(sz 100)"
runs=("runs:8@$(sz 16)" "runs:8@$(sz 100)" "runs:64@$(sz 16)" "runs:64@$(sz 100)")
others=("equal@$(sz 100)" "fibonacci@$(sz 16)" "periodic:3@$(sz 16)" "$text" "random:4@$(sz 100)")
csv="$OUT/runlen_bench.csv"
rm -f "$csv"
row() { # ALGORITHM INPUT
    CLSA_ALGORITHM=$1 timeout 60 "$BENCH" -d "${CLSA_DEVICE:-gpu}" -r "$REPS" --ref-reps 0 \
        --no-profile --no-resident --check-max 1G --row-budget 15 --dir "$CORPUS" \
        --csv "$csv" --append sa32 "$2" 2>"$OUT/runlen_bench.log.$$" |
        grep -vE "^ *error:|^op |^#" | sed "s/^/$1 /"
    grep -E 'error|WRONG|NO$|invalid' "$OUT/runlen_bench.log.$$" | head -3
}
echo "algorithm op input n reps status s min_s MB/s_eff x_ref peak_B/n ... passes valid"
for in in "${runs[@]}"; do
    for a in doubling skew runlen auto; do row "$a" "$in"; done
done
for in in "${others[@]}"; do
    for a in runlen auto; do row "$a" "$in"; done
done
rm -f "$OUT/runlen_bench.log.$$"
