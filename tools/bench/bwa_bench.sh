#!/usr/bin/env bash
# bwa_bench.sh - `bwa index` beside `clsa index --format bwa` on a genome-like
# reference, in the same run, then `bwa mem` of generated read pairs against
# both indexes and the SAM compared (the @PG line dropped).  Builds nothing:
# expects $BUILD/clsa and $BUILD/clsa_gen_genome (Release), run from
# anywhere; the bwa binary is an argument (the GPU machine has no network).
#
#   bash tools/bench/bwa_bench.sh /path/to/bwa            # H200: 100 MB rows, ~3 minutes
#   BWA_BIG=1 bash tools/bench/bwa_bench.sh /path/to/bwa  # and clsa alone on 3.2 Gbp
#   BWA_BIG=only bash tools/bench/bwa_bench.sh            # 3.2 Gbp alone (bwa not needed)
#   BWA_SIZE=2M CLSA_DEVICE=pocl bash tools/bench/bwa_bench.sh bwa   # smoke test
#
# Env: BWA (the bwa binary, if not the first argument), BUILD (default
# build), CLSA_DEVICE (default gpu), BWA_SIZE (default 100M bases), BWA_READS
# (read pairs, default 5000, 150 bases), BWA_THREADS (bwa mem -t, default
# 16), BWA_BIG (1: also clsa index --format bwa of a BWA_BIG_SIZE, default
# 3200M, FASTA, under BWA_BIG_TIMEOUT seconds, default 420), WORK (scratch
# folder, default /tmp/clsa-bwa-bench; removed at the end unless
# BWA_KEEP=1).  Output: one line per row,
#   bwa_bench <row> <value> [<unit>] [notes]
# rows: gen (s), bwa_index (s), clsa_index_cold (s: kernels compiled or read
# from the cache), clsa_index (s: a second run), speedup (bwa / clsa),
# files_<ext> (same|differ), sam_single and sam_paired (same|differ, with
# the mapped count), big_gen, big_clsa_index (s), big_peak_rss (GB, from
# /usr/bin/time where it exists).
set -uo pipefail

ROOT=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
BWA=${1:-${BWA:-bwa}}
CLSA=$BUILD/clsa
GEN=$BUILD/clsa_gen_genome
SIZE=${BWA_SIZE:-100M}
READS=${BWA_READS:-5000}
THREADS=${BWA_THREADS:-16}
WORK=${WORK:-/tmp/clsa-bwa-bench}
export CLSA_DEVICE=${CLSA_DEVICE:-gpu}

row() { echo "bwa_bench $*"; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
# Runs "$@" and prints its wall seconds; the command's output goes to $WORK/log.
timed() {
  local t0 t1
  t0=$(now)
  "$@" >>"$WORK/log" 2>&1 || { echo "FAILED"; return 1; }
  t1=$(now)
  secs "$t0" "$t1"
}

for f in "$CLSA" "$GEN"; do
  [ -x "$f" ] || { echo "bwa_bench: $f missing (build $BUILD first)" >&2; exit 3; }
done
[ "${BWA_BIG:-0}" = only ] || command -v "$BWA" >/dev/null 2>&1 || [ -x "$BWA" ] ||
  { echo "bwa_bench: no bwa at '$BWA'" >&2; exit 3; }

rm -rf "$WORK" && mkdir -p "$WORK/bwa" "$WORK/clsa" || exit 3
: >"$WORK/log"
row device "$CLSA_DEVICE" "" "$("$CLSA" devices 2>/dev/null | grep '^\*' | head -1)"

if [ "${BWA_BIG:-0}" != only ]; then
t=$(timed "$GEN" --seed 1 --records 24 --softmask --reads "$READS" --read-length 150 \
    --reads-prefix "$WORK/reads" "$SIZE" "$WORK/ref.fa") || exit 3
row gen "$t" s "$SIZE bases, $READS pairs"
cp "$WORK/ref.fa" "$WORK/bwa/ref.fa" && cp "$WORK/ref.fa" "$WORK/clsa/ref.fa" || exit 3

tb=$(timed "$BWA" index "$WORK/bwa/ref.fa")
row bwa_index "$tb" s "$("$BWA" 2>&1 | grep -i '^version' | head -1)"
tc0=$(timed "$CLSA" index --format bwa -q "$WORK/clsa/ref.fa")
row clsa_index_cold "$tc0" s
tc=$(timed "$CLSA" index --format bwa -q "$WORK/clsa/ref.fa")
row clsa_index "$tc" s
row speedup "$(awk -v a="$tb" -v b="$tc" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }')" x
for e in pac ann amb bwt sa; do
  if cmp -s "$WORK/bwa/ref.fa.$e" "$WORK/clsa/ref.fa.$e"; then row "files_$e" same; else row "files_$e" differ; fi
done

for mode in single paired; do
  mates=""
  [ $mode = paired ] && mates="$WORK/reads_2.fq"
  for which in bwa clsa; do
    # shellcheck disable=SC2086
    "$BWA" mem -t "$THREADS" "$WORK/$which/ref.fa" "$WORK/reads_1.fq" $mates 2>>"$WORK/log" |
      grep -v '^@PG' >"$WORK/$which.sam"
  done
  mapped=$(awk '!/^@/ && $3 != "*"' "$WORK/bwa.sam" | wc -l)
  if cmp -s "$WORK/bwa.sam" "$WORK/clsa.sam"; then r=same; else r=differ; fi
  row "sam_$mode" "$r" "" "$mapped alignments mapped"
done

fi

if [ "${BWA_BIG:-0}" = 1 ] || [ "${BWA_BIG:-0}" = only ]; then
  big=${BWA_BIG_SIZE:-3200M}
  rm -rf "$WORK/bwa" "$WORK/clsa" "$WORK"/*.sam "$WORK/ref.fa" "$WORK"/reads_*.fq
  t=$(timed "$GEN" --seed 2 --records 24 "$big" "$WORK/big.fa") || exit 3
  row big_gen "$t" s "$big bases"
  tm=""
  [ -x /usr/bin/time ] && tm="/usr/bin/time -v -o $WORK/big.time"
  # shellcheck disable=SC2086
  t=$(timed timeout "${BWA_BIG_TIMEOUT:-420}" $tm "$CLSA" index --format bwa -q "$WORK/big.fa")
  row big_clsa_index "$t" s "$big bases (forward + reverse complement: twice that)"
  if [ -f "$WORK/big.time" ]; then
    row big_peak_rss "$(awk -F: '/Maximum resident/ { printf "%.2f", $2 / 1048576 }' "$WORK/big.time")" GB
  fi
fi
tail -5 "$WORK/log" | sed 's/^/bwa_bench log: /'
[ "${BWA_KEEP:-0}" = 1 ] || rm -rf "$WORK"
