#!/usr/bin/env bash
# Issue 15: the CLI's wall time (process start to exit, min of 3, warm kernel
# cache) beside the library call (clsa-bench sa32, transfers included) and the
# file I/O alone, on tmpfs.  Usage: measure_wall.sh CLSA_BINARY BENCH_BINARY [LABEL]
# Environment: CLSA_DEVICE (default nvidia), SIZES ("text1M text100M dna100M dna400M").
set -u
clsa=$1 bench=$2 label=${3:-}
here=$(cd "$(dirname "$0")/../.." && pwd)
d=/dev/shm/clsa-wall
mkdir -p "$d"
export CLSA_DEVICE=${CLSA_DEVICE:-nvidia} CLSA_BACKEND=device
if [ ! -x "$d/gen" ]; then
  cat > "$d/gen.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen.h"
int main(int argc, char **argv) {
    size_t n = strtoull(argv[2], NULL, 10);
    unsigned char *b = malloc(n);
    if (!strcmp(argv[1], "words")) gen_words(b, n, 0, 1);
    else { gen_kind k; unsigned p; if (gen_parse(argv[1], &k, &p)) return 2; gen_fill(b, n, k, p, 1); }
    FILE *f = fopen(argv[3], "wb");
    return !f || fwrite(b, 1, n, f) != n || fclose(f);
}
C
  cc -O2 -I"$here/tools/gen" "$d/gen.c" "$here/tools/gen/gen.c" -o "$d/gen" || exit 1
fi
spec() { case $1 in text1M) echo "words 1000000";; text100M) echo "words 100000000";;
  dna100M) echo "random:4 100000000";; dna400M) echo "random:4 400000000";; esac; }
ns() { date +%s%N; }
min3() { # min over 3 runs of "$@", in seconds
  local best=
  for r in 1 2 3; do
    local t0=$(ns); "$@" >/dev/null 2>&1; local t1=$(ns)
    local t=$(( (t1 - t0) / 1000 ))
    if [ -z "$best" ] || [ $t -lt $best ]; then best=$t; fi
  done
  awk -v u=$best 'BEGIN{printf "%.3f", u/1e6}'
}
printf x > "$d/empty1"
printf "%-9s %-8s %9s %9s %9s %9s %9s\n" input build cli_wall read_s write_s startup_s sizeMB
for f in ${SIZES:-text1M text100M dna100M dna400M}; do
  [ -f "$d/$f" ] || "$d/gen" $(spec $f) "$d/$f" || exit 1
  n=$(stat -c %s "$d/$f")
  "$clsa" sa "$d/$f" "$d/$f.sa" || { echo "clsa sa $f failed"; continue; }  # warms the cache
  wall=$(min3 "$clsa" sa "$d/$f" "$d/$f.sa")
  rd=$(min3 sh -c "cat '$d/$f' > /dev/null")
  wr=$(min3 dd if="$d/$f.sa" of="$d/w.sa" bs=4M)
  st=$(min3 "$clsa" sa "$d/empty1" "$d/empty1.sa")
  printf "%-9s %-8s %9s %9s %9s %9s %9d\n" $f "$label" $wall $rd $wr $st $((n / 1000000))
  "$clsa" sa --stats "$d/$f" "$d/$f.sa" 2>&1 | grep -E "wall|transfer" | sed "s/^/  $f: /"
done
rm -f "$d/w.sa"
inputs=
for f in ${SIZES:-text1M text100M dna100M dna400M}; do inputs="$inputs $f=$d/$f"; done
[ -n "$bench" ] && "$bench" -d "$CLSA_DEVICE" -r 3 --ref-reps 0 --no-check --no-profile sa32 $inputs
