#!/usr/bin/env bash
# Issue 15: the CLI's wall time (process start to exit, min of 3, warm kernel
# cache) beside the library call (clsa-bench sa32, transfers included) and the
# file I/O alone, on tmpfs.  Usage: measure_wall.sh CLSA_BINARY BENCH_BINARY [LABEL]
# (BENCH_BINARY may be "" to skip the library-call rows.)
# Environment: CLSA_DEVICE (default nvidia), SIZES ("text1M text100M dna100M dna400M"),
# BATCH_N (default 20): the batch rows time N files of 100 kB as N `clsa sa`
# processes against one `clsa sa --batch` of the same N pairs.
# Columns: cli_wall (the default: context opened on a second thread while the input
# is mapped, clsa_destroy at exit), fast_exit (CLSA_CLI_EXIT=fast: the context left to
# the process's exit), serial (CLSA_CLI_SERIAL=1: the old order, context first),
# served (through a resident `clsa serve` on a private socket, its context warm).
# Every other column runs with CLSA_SERVE=0, so a server the user left running
# does not change them.
set -u
clsa=$1 bench=$2 label=${3:-}
here=$(cd "$(dirname "$0")/../.." && pwd)
d=/dev/shm/clsa-wall
mkdir -p "$d"
export CLSA_DEVICE=${CLSA_DEVICE:-nvidia} CLSA_BACKEND=device CLSA_SERVE=0
export CLSA_SERVE_SOCKET=$d/serve.sock
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
chmod 700 "$d"
"$clsa" serve --stop >/dev/null 2>&1
"$clsa" serve 2>"$d/serve.log" &
for _ in $(seq 100); do "$clsa" serve --status >/dev/null 2>&1 && break; sleep 0.1; done
printf "%-9s %-8s %9s %9s %9s %9s %9s %9s %9s %9s\n" input build cli_wall fast_exit serial served \
  read_s write_s startup_s sizeMB
for f in ${SIZES:-text1M text100M dna100M dna400M}; do
  [ -f "$d/$f" ] || "$d/gen" $(spec $f) "$d/$f" || exit 1
  n=$(stat -c %s "$d/$f")
  "$clsa" sa "$d/$f" "$d/$f.sa" || { echo "clsa sa $f failed"; continue; }  # warms the cache
  wall=$(min3 "$clsa" sa "$d/$f" "$d/$f.sa")
  fast=$(CLSA_CLI_EXIT=fast min3 "$clsa" sa "$d/$f" "$d/$f.sa")
  serial=$(CLSA_CLI_SERIAL=1 min3 "$clsa" sa "$d/$f" "$d/$f.sa")
  CLSA_SERVE=1 "$clsa" sa "$d/$f" "$d/$f.sa" >/dev/null 2>&1 # the server's context and buffers
  served=$(CLSA_SERVE=1 min3 "$clsa" sa "$d/$f" "$d/$f.sa")
  rd=$(min3 sh -c "cat '$d/$f' > /dev/null")
  wr=$(min3 dd if="$d/$f.sa" of="$d/w.sa" bs=4M)
  st=$(min3 "$clsa" sa "$d/empty1" "$d/empty1.sa")
  printf "%-9s %-8s %9s %9s %9s %9s %9s %9s %9s %9d\n" $f "$label" $wall $fast $serial $served \
    $rd $wr $st $((n / 1000000))
  "$clsa" sa --stats "$d/$f" "$d/$f.sa" 2>&1 | grep -E "wall|transfer" | sed "s/^/  $f: /"
done
rm -f "$d/w.sa"
# Batch: N small inputs as N processes against one process (the driver starts once).
nb=${BATCH_N:-20}
mkdir -p "$d/batch"
: > "$d/batch/list"
for i in $(seq 1 $nb); do
  [ -f "$d/batch/in$i" ] || "$d/gen" words 100000 "$d/batch/in$i" || exit 1
  printf '%s\t%s\n' "$d/batch/in$i" "$d/batch/out$i.sa" >> "$d/batch/list"
done
"$clsa" sa --batch "$d/batch/list" || echo "clsa sa --batch failed"  # warms the cache
procs=$(min3 sh -c "for i in \$(seq 1 $nb); do '$clsa' sa '$d/batch/in'\$i '$d/batch/out'\$i.sa || exit 1; done")
batch=$(min3 "$clsa" sa --batch "$d/batch/list")
fastb=$(CLSA_CLI_EXIT=fast min3 "$clsa" sa --batch "$d/batch/list")
served=$(CLSA_SERVE=1 min3 sh -c "for i in \$(seq 1 $nb); do '$clsa' sa '$d/batch/in'\$i '$d/batch/out'\$i.sa || exit 1; done")
printf "batch: %d x 100 kB  %s processes %s s  one --batch %s s  (fast exit %s s)  processes through clsa serve %s s\n" \
  $nb "$label" $procs $batch $fastb $served
echo "server: $("$clsa" serve --status 2>&1)"
"$clsa" serve --stop >/dev/null 2>&1
inputs=
for f in ${SIZES:-text1M text100M dna100M dna400M}; do inputs="$inputs $f=$d/$f"; done
[ -n "$bench" ] && [ -x "$bench" ] && "$bench" -d "$CLSA_DEVICE" -r 3 --ref-reps 0 --no-check --no-profile sa32 $inputs
