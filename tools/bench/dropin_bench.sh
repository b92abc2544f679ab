#!/bin/bash
# dropin_bench.sh: the drop-in libdivsufsort against the stock library, for
# the same unmodified programs (issue 45).  Run from the repository root on
# the GPU machine with a Release build in $BUILD (default build/) holding
# the targets clsa_compat clsa_dropin_dss32 clsa_dropin_dss64 dss_client;
# builds nothing (QUICK=1: a smoke test of a few seconds).  CLSA_DEVICE (default gpu) picks the drop-in's device;
# CLSA_COMPAT_MIN_BYTES overrides its crossover (default in compat_ctx.h).
#
# Rows of dss-client (divsufsort()/divbwt() on English-like text), each run
# once with the stock library and once with LD_LIBRARY_PATH at the drop-in:
#   op n reps | stock first best total | drop-in first best total | x | same
# first: the first call (the drop-in opens its context there when n is at
# least the crossover), best: the fastest call, total: all calls, x: stock
# best / drop-in best, same: the outputs' checksums agree.
# Then Debian clients (andi, fsm-lite; skipped when not installed) on
# generated bacterial-size genomes, both ways: wall seconds and cmp.
set -u
BUILD=${BUILD:-build}
DROPIN=$BUILD/lib/clsa/divsufsort
CLIENT=$BUILD/tools/bench/dss-client
export CLSA_DEVICE=${CLSA_DEVICE:-gpu}
for f in "$DROPIN/libdivsufsort.so.3" "$DROPIN/libdivsufsort64.so.3" "$CLIENT"; do
    [ -e "$f" ] || { echo "missing $f: cmake --build $BUILD --target clsa_dropin_dss32 clsa_dropin_dss64 dss_client"; exit 3; }
done
LD_LIBRARY_PATH=$DROPIN ldd "$CLIENT" | grep -q "libdivsufsort.so.3 => $DROPIN" ||
    { echo "the drop-in is not what the client loads"; exit 3; }

row() { # op n reps
    local s o
    s=$("$CLIENT" "$@") || { echo "$* stock failed"; return; }
    o=$(LD_LIBRARY_PATH=$DROPIN "$CLIENT" "$@") || { echo "$* drop-in failed"; return; }
    read -r op n reps sf sb st sh <<<"$s"
    read -r _ _ _ of ob ot oh <<<"$o"
    awk -v op="$op" -v n="$n" -v r="$reps" -v sf="$sf" -v sb="$sb" -v st="$st" \
        -v of="$of" -v ob="$ob" -v ot="$ot" -v same="$([ "$sh" = "$oh" ] && echo same || echo DIFFERENT)" \
        'BEGIN { printf "%-3s %10d x%-7d | stock %9.6f %9.6f %9.3f | drop-in %9.6f %9.6f %9.3f | %7.2fx | %s\n",
                 op, n, r, sf, sb, st, of, ob, ot, (ob > 0 ? sb / ob : 0), same }'
}
echo "device: $CLSA_DEVICE  crossover: ${CLSA_COMPAT_MIN_BYTES:-default}"
if [ "${QUICK:-0}" = 1 ]; then # smoke test: two rows, small genomes
    row sa 1024 100
    row bwt 65536 10
fi
# DROPIN_OPS: which calls (default "sa bwt"); DROPIN_FROM: the smallest size
# of the list below that runs (default 1: all)
for op in ${DROPIN_OPS:-sa bwt}; do
    [ "${QUICK:-0}" = 1 ] && break
    [ "${DROPIN_FROM:-1}" -gt 1 ] && { for n in 1048576 10485760; do row $op $n 5; done
        row $op 104857600 3; continue; }
    row $op 1 1000000
    row $op 100 $([ $op = sa ] && echo 1000000 || echo 100000)
    row $op 1024 100000
    for n in 8192 16384 32768; do row $op $n 1000; done
    row $op 65536 1000
    row $op 262144 200
    row $op 1048576 50
    row $op 10485760 5
    row $op 104857600 3
done

# Genomes: one random base of $1 bytes (80-byte lines) and $2 copies in
# which about 1% of the bytes are substituted.
genomes() {
    awk -v n="$1" -v k="$2" -v dir="$3" 'BEGIN {
        srand(45); split("A C G T", b, " "); lines = int(n / 80)
        for (l = 0; l < lines; l++) {
            s = ""
            for (i = 0; i < 80; i++) s = s b[int(rand() * 4) + 1]
            g[l] = s
        }
        for (c = 0; c < k; c++) {
            f = dir "/g" c ".fa"; print ">g" c > f
            for (l = 0; l < lines; l++) {
                s = g[l]
                while (rand() < 0.55) { # about 0.8 substitutions a line
                    i = int(rand() * 80) + 1
                    s = substr(s, 1, i - 1) b[int(rand() * 4) + 1] substr(s, i + 1)
                }
                print s > f
            }
            close(f)
        }
    }'
}
client() { # name command...
    local t0 t1 t2
    t0=$(date +%s.%N); "${@:2}" > "$work/stock.out" 2>/dev/null
    t1=$(date +%s.%N); LD_LIBRARY_PATH=$DROPIN "${@:2}" > "$work/ours.out" 2>/dev/null
    t2=$(date +%s.%N)
    awk -v name="$1" -v a="$t0" -v b="$t1" -v c="$t2" \
        -v same="$(cmp -s "$work/stock.out" "$work/ours.out" && [ -s "$work/ours.out" ] && echo same || echo DIFFERENT)" \
        'BEGIN { printf "client %-10s | stock %8.2f s | drop-in %8.2f s | %6.2fx | %s\n", name, b - a, c - b, (b - a) / (c - b), same }'
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/a" "$work/f"
big=5000000 small=2000000
[ "${QUICK:-0}" = 1 ] && big=100000 small=50000
genomes $big 8 "$work/a"
genomes $small 4 "$work/f"
for k in 0 1 2 3; do echo "g$k $work/f/g$k.fa"; done > "$work/list.txt"
if command -v andi >/dev/null; then
    client andi andi -t "$(nproc)" "$work"/a/g*.fa
else
    echo "client andi: not installed (apt-get install andi)"
fi
if command -v fsm-lite >/dev/null; then
    client fsm-lite fsm-lite -l "$work/list.txt" -t "$work/fsm" -m 20 -M 60 -s 2 -S 3
else
    echo "client fsm-lite: not installed (apt-get install fsm-lite)"
fi
