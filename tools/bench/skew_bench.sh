#!/usr/bin/env bash
# skew_bench.sh - issue 50's rows: every suffix array algorithm
# (clsa_options.algorithm through env CLSA_ALGORITHM: doubling = today's
# clsa, skew, hybrid, auto) on the inputs hard for prefix doubling and on
# text and DNA, on the GPU, from the repository root with a built Release
# `build/` (clsa-bench).  Builds nothing.  MB/s with transfers (host memory
# in and out), passes (doubling passes + skew levels), peak device B/n,
# every result checked.  One line per row on stdout; CSV in $OUT.
#
#   CLSA_DEVICE=gpu bash tools/bench/skew_bench.sh
#
# Rows: fibonacci@16M, fibonacci@100M, thue-morse@16M, mutated:1000000@50M
# (a 1 MB block x 50, 0.1% mutated), periodic:3@16M, text@100M (the corpus
# slices of tools/bench/corpus.sh when .corpus or /tmp/clsa-corpus-data is
# there, else generated words), random:4@100M (DNA).
# ROWS=runlen (tools/bench/runlen_bench.sh): run-length reduction's rows
# instead: runs:8 and runs:64 (tools/gen: runs of 1..2 MEAN - 1 letters) at
# 16 and 100 MB by doubling, skew, runlen and auto, then runlen and auto on
# one byte repeated and on rows auto leaves to the others (Fibonacci,
# periodic:3, text, DNA).
# A local try: SCALE=1 CLSA_DEVICE=pocl (sizes / 1000; ALGOS="skew auto" for
# fewer).
set -uo pipefail
BENCH=${BUILD:-build}/tools/bench/clsa-bench
OUT=${OUT:-out}
REPS=${REPS:-3}
ROWS=${ROWS:-skew}
ALGOS=${ALGOS:-doubling skew hybrid auto}
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
inputs=("fibonacci@$(sz 16)" "fibonacci@$(sz 100)" "thue-morse@$(sz 16)"
    "mutated:1000000@$(sz 50)" "periodic:3@$(sz 16)" "$text" "random:4@$(sz 100)")
[ "${SCALE:-0}" = 1 ] && inputs[3]="mutated:1000@$(sz 50)"
csv="$OUT/${ROWS}_bench.csv"
rm -f "$csv"
row() { # ALGORITHM INPUT
    CLSA_ALGORITHM=$1 timeout 60 "$BENCH" -d "${CLSA_DEVICE:-gpu}" -r "$REPS" --ref-reps 0 \
        --no-profile --no-resident --check-max 1G --row-budget 15 --dir "$CORPUS" \
        --csv "$csv" --append sa32 "$2" 2>"$OUT/skew_bench.log.$$" |
        grep -vE "^ *error:|^op |^#" | sed "s/^/$1 /"
    grep -E 'error|WRONG|NO$|invalid' "$OUT/skew_bench.log.$$" | head -3
}
echo "algorithm op input n reps status s min_s MB/s_eff x_ref peak_B/n ... passes valid"
if [ "$ROWS" = runlen ]; then
    for in in "runs:8@$(sz 16)" "runs:8@$(sz 100)" "runs:64@$(sz 16)" "runs:64@$(sz 100)"; do
        for a in doubling skew runlen auto; do row "$a" "$in"; done
    done
    for in in "equal@$(sz 100)" "${inputs[0]}" "${inputs[4]}" "$text" "${inputs[6]}"; do
        for a in runlen auto; do row "$a" "$in"; done
    done
else
    for a in $ALGOS; do
        for in in "${inputs[@]}"; do row "$a" "$in"; done
    done
fi
rm -f "$OUT/skew_bench.log.$$"
