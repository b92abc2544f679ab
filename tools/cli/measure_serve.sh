#!/usr/bin/env bash
# Issue 15: `clsa sa` as a process with and without a resident `clsa serve`
# (min of RUNS, warm kernel cache, tmpfs), beside a process start that opens
# no context (`clsa --version`) and the library call (the `--stats` wall of
# a run inside the server).  Usage: measure_serve.sh CLSA_BINARY
# Environment: CLSA_DEVICE (default pocl), SIZES (bytes, default "1000
# 1000000 10000000"), RUNS (default 5).
set -u
clsa=$1
here=$(cd "$(dirname "$0")/../.." && pwd)
d=/dev/shm/clsa-serve-wall
mkdir -p "$d" && chmod 700 "$d"
export CLSA_DEVICE=${CLSA_DEVICE:-pocl} CLSA_BACKEND=device CLSA_SERVE_SOCKET=$d/s.sock
runs=${RUNS:-5}
cat > "$d/gen.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include "gen.h"
int main(int argc, char **argv) {
    size_t n = strtoull(argv[1], NULL, 10);
    unsigned char *b = malloc(n ? n : 1);
    gen_fill(b, n, GEN_RANDOM, 4, 1);
    FILE *f = fopen(argv[2], "wb");
    return argc < 3 || !f || fwrite(b, 1, n, f) != n || fclose(f);
}
C
cc -O2 -I"$here/tools/gen" "$d/gen.c" "$here/tools/gen/gen.c" -o "$d/gen" -lm || exit 1
# min wall of RUNS runs of "$@", in seconds
best() {
  local b=999 t
  for _ in $(seq "$runs"); do
    t=$(python3 -c "import time,subprocess,sys; s=time.perf_counter(); subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); print('%.4f' % (time.perf_counter()-s))" "$@")
    b=$(python3 -c "print(min($b, $t))")
  done
  echo "$b"
}
"$clsa" serve --stop >/dev/null 2>&1
"$clsa" serve 2>"$d/serve.log" &
for _ in $(seq 100); do "$clsa" serve --status >/dev/null 2>&1 && break; sleep 0.1; done
echo "| input | in-process s | through clsa serve s | library call s (--stats) | read s | write s |"
echo "|---|---:|---:|---:|---:|---:|"
for n in ${SIZES:-1000 1000000 10000000}; do
  "$d/gen" "$n" "$d/in.$n" || exit 1
  CLSA_SERVE=0 "$clsa" sa "$d/in.$n" "$d/out.sa" >/dev/null 2>&1 # warm the kernel cache
  "$clsa" sa "$d/in.$n" "$d/out.sa" >/dev/null 2>&1                # and the server's context
  local_s=$(CLSA_SERVE=0 best "$clsa" sa "$d/in.$n" "$d/out.sa")
  served_s=$(best "$clsa" sa "$d/in.$n" "$d/out.sa")
  call_s=999 # --stats opens a context of its own (profiling): warmed by the first run
  for _ in $(seq $((runs + 1))); do
    t=$("$clsa" sa --stats "$d/in.$n" "$d/out.sa" 2>&1 | sed -n 's/.*wall \([0-9.]*\) s.*/\1/p')
    call_s=$(python3 -c "print(min($call_s, $t))")
  done
  read_s=$(best cat "$d/in.$n")
  write_s=$(best dd if=/dev/zero of="$d/w.bin" bs=4M count=$(( (n * 4 + 4194303) / 4194304 )))
  echo "| random:4 $n B | $local_s | $served_s | $call_s | $read_s | $write_s |"
done
echo "clsa --version (process start, no context): $(best "$clsa" --version) s"
echo "server: $("$clsa" serve --status)"
"$clsa" serve --stop >/dev/null
rm -rf "$d"
