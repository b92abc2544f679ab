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
# A local try: SCALE=1 CLSA_DEVICE=pocl (sizes / 1000; ALGOS="skew auto" for
# fewer).
set -uo pipefail
BENCH=${BUILD:-build}/tools/bench/clsa-bench
OUT=${OUT:-out}
REPS=${REPS:-3}
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
csv="$OUT/skew_bench.csv"
rm -f "$csv"
echo "algorithm op input n reps status s min_s MB/s_eff x_ref peak_B/n ... passes valid"
for a in $ALGOS; do
    for in in "${inputs[@]}"; do
        CLSA_ALGORITHM=$a timeout 60 "$BENCH" -d "${CLSA_DEVICE:-gpu}" -r "$REPS" --ref-reps 0 \
            --no-profile --no-resident --check-max 1G --row-budget 15 --dir "$CORPUS" \
            --csv "$csv" --append sa32 "$in" 2>"$OUT/skew_bench.log.$$" |
            grep -vE "^ *error:|^op |^#" | sed "s/^/$a /"
        grep -E 'error|WRONG|NO$|invalid' "$OUT/skew_bench.log.$$" | head -3
    done
done
rm -f "$OUT/skew_bench.log.$$"
