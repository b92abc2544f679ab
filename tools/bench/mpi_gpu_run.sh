#!/usr/bin/env bash
# mpi_gpu_run.sh - one device call on the 2-GPU machine: clsa-mpi with one MPI
# rank per GPU against one rank and against the single-process CLI (issue 12's
# "table from the 2-GPU machine with one rank per GPU").
#
#   MPI_LIMIT=500 bash tools/bench/mpi_gpu_run.sh   (carry .device, .mpi)
#
# .mpi comes from tools/bench/mpi_prepare.sh (run beforehand where apt works).
# MPI: an mpirun already on the machine (PATH, /opt/hpcx, /usr/local/mpi,
# /opt/openmpi) is used first; else, or when clsa-mpi does not build or run with
# it, the carried Open MPI (.mpi/setup.sh installs it under MPI_ROOT, default
# /opt/mpiroot, without touching the image).  clsa and clsa-mpi are built
# Release with MPI on in $MPI_BUILD (build-mpi).  Each input (random DNA and
# English-like words, 100 MB then 1 GB; tools/gen) is timed, min of MPI_REPS
# (3 at 100 MB, 2 at 1 GB), as
#   clsa sa -d nvidia                      the single-process reference
#   mpirun -np 1 clsa-mpi -d nvidia:local  one rank, GPU 0
#   mpirun -np 2 clsa-mpi -d nvidia:local  one rank per GPU
# (mpirun: --bind-to none, as root --allow-run-as-root --oversubscribe), every
# output compared with the reference by cmp.  Walls are process start to exit;
# tool_s is what clsa-mpi prints on stderr ("N symbols, R ranks, T s": rank 0,
# from after MPI_Init to the renamed output).  With MPI_STATS=1 (default) every
# run takes --stats: clsa-mpi's steps (mpi_init, context, read, plan, upload,
# sort, download, pack, write, total: max and min over ranks) and both tools'
# profiled device phases go to the log, the steps also to mpi_steps.csv.  Everything stops before MPI_LIMIT
# seconds (default 500) from the script's start, so the call returns its output.
# $OUT (./out): mpi_run.txt (the log), mpi_table.csv, mpi_table.md,
# mpi_steps.csv, mpi_setup.txt, env.txt, setup.txt.
# Env: MPI_LIMIT, MPI_STATS (1), MPI_REPS ("3 2"), MPI_SIZES ("100M 1G"), MPI_INPUTS
# ("dna words"), MPI_USE (auto | found | carried), MPI_BIND (none),
# MPI_DATA (folder for inputs and outputs: /dev/shm/clsa-mpi when it has 24 GB
# free, else /tmp/clsa-mpi), MPI_DEVICE (nvidia), MPI_RANK_DEVICE (the ranks'
# -d: $MPI_DEVICE:local, device number <rank on the host>; a local smoke test
# on one CPU device: MPI_DEVICE=pocl MPI_RANK_DEVICE=pocl CLSA_BENCH_SKIP_SETUP=1).
set -uo pipefail
T0=$(date +%s)
LIMIT=${MPI_LIMIT:-500}
left() { echo $((T0 + LIMIT - $(date +%s))); }
HERE=$(dirname "$(readlink -f "$0")")
# shellcheck disable=SC2034 # read by device_prelude.sh
SESSION_BUILD=${MPI_BUILD:-build-mpi}
# shellcheck source=device_prelude.sh
. "$HERE/device_prelude.sh"
exec > >(tee "$OUT/mpi_run.txt") 2>&1
cat "$OUT/env.txt"
DEV=${MPI_DEVICE:-nvidia}
RDEV=${MPI_RANK_DEVICE:-$DEV:local}
STATS=()
[ "${MPI_STATS:-1}" = 1 ] && STATS=(--stats)
{
    nvidia-smi -L
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
    echo "cores: $(nproc)"
    free -g | head -2
} 2>&1
BUILD0=$BUILD

# ---- MPI: one found on the machine, else the carried one ----------------------------
found_mpi() { # prints the mpirun of an MPI installed on the machine, if any
    local c
    for c in "$(command -v mpirun 2>/dev/null)" /opt/hpcx/ompi/bin/mpirun /usr/local/mpi/bin/mpirun \
        /opt/openmpi/bin/mpirun; do
        [ -n "$c" ] && [ -x "$c" ] && { echo "$c"; return 0; }
    done
    return 1
}
use_found() {
    local run=$1 bin
    bin=$(dirname "$run")
    if [ -f /opt/hpcx/hpcx-init.sh ] && [[ $run == /opt/hpcx/* ]]; then
        # shellcheck disable=SC1091
        . /opt/hpcx/hpcx-init.sh && hpcx_load
    else
        export PATH=$bin:$PATH
        export LD_LIBRARY_PATH=$bin/../lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    fi
    MPI_FROM="found: $run"
    BUILD=$BUILD0
}
use_carried() {
    [ -f .mpi/setup.sh ] || { echo "no .mpi/setup.sh (run tools/bench/mpi_prepare.sh here, carry .mpi)"; return 1; }
    local root=${MPI_ROOT:-/opt/mpiroot}
    MPI_ROOT=$root bash .mpi/setup.sh >"$OUT/mpi_setup.txt" 2>&1 || { tail -20 "$OUT/mpi_setup.txt"; return 1; }
    # shellcheck disable=SC1091
    . "$root/env.sh"
    MPI_FROM="carried: $root (Debian bookworm Open MPI, .mpi)"
    BUILD=$BUILD0-carried
}
mpirun_cmd() { # NP: the mpirun command line for NP ranks
    if mpirun --version 2>&1 | grep -q 'Open MPI'; then
        echo "mpirun --allow-run-as-root --oversubscribe --bind-to ${MPI_BIND:-none} -np $1"
    else
        echo "mpirun -np $1"
    fi
}

DATA=${MPI_DATA:-}
if [ -z "$DATA" ]; then
    free_shm=$(df --output=avail -BG /dev/shm 2>/dev/null | tail -1 | tr -dc 0-9)
    if [ "${free_shm:-0}" -ge 24 ]; then DATA=/dev/shm/clsa-mpi; else DATA=/tmp/clsa-mpi; fi
fi
mkdir -p "$DATA"
df -h "$DATA" | tail -1
GEN=$DATA/gen
cat >"$DATA/gen.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen.h"
int main(int argc, char **argv) {
    size_t n = strtoull(argv[2], NULL, 10);
    unsigned char *b = malloc(n);
    if (!b) return 1;
    if (!strcmp(argv[1], "words")) gen_words(b, n, 0, 1);
    else { gen_kind k; unsigned p; if (gen_parse(argv[1], &k, &p)) return 2; gen_fill(b, n, k, p, 1); }
    FILE *f = fopen(argv[3], "wb");
    return !f || fwrite(b, 1, n, f) != n || fclose(f);
}
C
cc -O2 -Itools/gen "$DATA/gen.c" tools/gen/gen.c -o "$GEN" || exit 3
gen_input() { # NAME: dna100M, words1G, ...
    local f=$DATA/$1 kind size
    [ -f "$f" ] && return 0
    case $1 in dna*) kind=random:4 ;; words*) kind=words ;; esac
    size=$(numfmt --from=si "${1#"${1%%[0-9]*}"}")
    "$GEN" "$kind" "$size" "$f"
}
export CLSA_SERVE=0

# smoke: NP=2 on 16 MB of words against clsa sa; it also fills the kernel cache
# of both GPUs.  With Open MPI a failure is retried once without the single-copy
# (CMA: process_vm_readv, which containers may forbid) path of its shared-memory
# transport.
smoke() {
    local in=$DATA/words16M out rc
    gen_input words16M || return 1
    "$BUILD"/clsa sa -d "$DEV" -q "$in" "$in.ref" || { echo "smoke: clsa sa failed"; return 1; }
    for try in 1 2; do
        # shellcheck disable=SC2046
        timeout -k 5 120 $(mpirun_cmd 2) "$BUILD"/clsa-mpi -d "$RDEV" "$in" "$in.mpi" >"$DATA/smoke.txt" 2>&1
        rc=$?
        cat "$DATA/smoke.txt"
        if [ $rc = 0 ] && cmp "$in.ref" "$in.mpi"; then
            echo "smoke: 2 ranks, output equal to clsa sa"
            rm -f "$in" "$in.ref" "$in.mpi"
            return 0
        fi
        if [ $try = 1 ] && mpirun --version 2>&1 | grep -q 'Open MPI'; then
            echo "smoke: retry with OMPI_MCA_btl_vader_single_copy_mechanism=none"
            export OMPI_MCA_btl_vader_single_copy_mechanism=none
            continue
        fi
        break
    done
    echo "smoke: failed (rc $rc)"
    return 1
}
build_and_smoke() {
    echo "== MPI $MPI_FROM; $(mpirun --version 2>&1 | head -1); $(command -v mpicc || echo 'no mpicc')"
    echo "== build ($BUILD, Release, MPI on)"
    (BUILD_MPI=ON build_release clsa_cli clsa_mpi_cli) || return 1
    ldd "$BUILD"/clsa-mpi | grep -E 'libmpi|libopen-pal|libpmix' | sed 's/^/  /'
    smoke
}
ok=0
case ${MPI_USE:-auto} in
    carried) use_carried && build_and_smoke && ok=1 ;;
    *)
        if run=$(found_mpi); then
            use_found "$run"
            build_and_smoke && ok=1
        else
            echo "== no mpirun on the machine (PATH, /opt/hpcx, /usr/local/mpi, /opt/openmpi)"
        fi
        if [ $ok = 0 ] && [ "${MPI_USE:-auto}" = auto ]; then
            use_carried && build_and_smoke && ok=1
        fi
        ;;
esac
[ $ok = 1 ] || { echo "== no working MPI; stopping"; exit 3; }
echo "== MPI in use: $MPI_FROM ($(mpirun_cmd N)); $(left) s left"
env | grep -E '^OMPI_MCA_' | sort | sed 's/^/  /'

# ---- the table ------------------------------------------------------------------------
# Rep by rep over all inputs (rep 1 of every input, then rep 2, ...), and in a
# rep clsa sa, then one rank, then two: every cell is measured once before any
# is repeated, should time run short.  A run starts only when what is left
# exceeds its last time (else the longest of its input) by 30% and 15 s.
now() { date +%s%N; }
# timed LOG CMD...: runs CMD under what is left of the limit, its stdout and
# stderr to LOG; prints the wall in seconds; fails as CMD does
timed() {
    local log=$1 t0 rc tl
    shift
    tl=$(($(left) - 10))
    [ "$tl" -gt 5 ] || { echo "no time" >"$log"; return 124; }
    t0=$(now)
    timeout -k 5 "$tl" "$@" >"$log" 2>&1
    rc=$?
    awk -v a="$t0" -v b="$(now)" 'BEGIN{printf "%.3f\n", (b - a) / 1e9}'
    return $rc
}
declare -A WALL=() TOOL=() LAST=() DEAD=() EQ=() BYTES=()
NAMES=()
one_rep() { # NAME REP
    local name=$1 r=$2 in=$DATA/$1 ref=$DATA/$1.ref out=$DATA/$1.out
    local w cfg rc res est t lbl
    echo "== $name, rep $r ($(left) s left)"
    # no reference run when no clsa-mpi run would fit after it
    if [ -n "${LAST[$name,sa]:-}" ] && [ -n "${LAST[$name,1]:-}${LAST[$name,2]:-}" ]; then
        t=$(printf '%s\n' "${LAST[$name,1]:-999999}" "${LAST[$name,2]:-999999}" | sort -g | head -1)
        est=$(awk -v a="${LAST[$name,sa]}" -v b="$t" 'BEGIN{printf "%d", (a + b) * 1.3 + 30}')
        [ "$(left)" -gt "$est" ] || { echo "  skipped (time: $(left) s left)"; return; }
    fi
    for cfg in sa 1 2; do
        local k=$name,$cfg
        [ -n "${DEAD[$k]:-}" ] && continue
        t=${LAST[$k]:-$(printf '%s\n' 0 "${LAST[$name,sa]:-0}" "${LAST[$name,1]:-0}" "${LAST[$name,2]:-0}" | sort -g | tail -1)}
        est=$(awk -v l="$t" 'BEGIN{printf "%d", l * 1.3 + 15}')
        lbl="np=$cfg"
        [ $cfg = sa ] && lbl="clsa sa"
        [ "$(left)" -gt "$est" ] || { echo "  $lbl: skipped (time: $(left) s left)"; DEAD[$k]=1; continue; }
        if [ $cfg = sa ]; then
            w=$(timed "$DATA/log" "$BUILD"/clsa sa -d "$DEV" "${STATS[@]}" -q "$in" "$ref")
        else
            # which GPU each rank's process is on, sampled during the first runs
            local spy=""
            if [ "$r" = 1 ] && command -v nvidia-smi >/dev/null; then
                : >"$DATA/apps"
                (for _ in 1 2 3 4 5; do
                    sleep 2
                    nvidia-smi --query-compute-apps=pid,process_name,gpu_bus_id,used_memory \
                        --format=csv,noheader >>"$DATA/apps" 2>&1
                done) &
                spy=$!
            fi
            # shellcheck disable=SC2046
            w=$(timed "$DATA/log" $(mpirun_cmd $cfg) "$BUILD"/clsa-mpi -d "$RDEV" "${STATS[@]}" "$in" "$out")
        fi
        rc=$?
        if [ -n "${spy:-}" ]; then
            kill "$spy" 2>/dev/null
            wait "$spy" 2>/dev/null
            spy=""
            sort -u "$DATA/apps" | sed 's/^/    on the GPUs: /'
        fi
        if [ $rc != 0 ]; then
            case $rc in 124 | 137) res="timed out" ;; *) res="failed (exit $rc)" ;; esac
            echo "  $lbl: $res after ${w:-0} s:"
            tail -8 "$DATA/log" | sed 's/^/    /'
            DEAD[$k]=1
            [ $cfg = sa ] && rm -f "$ref"
            # a failed run is a wrong answer; one stopped for time is not measured
            [ $cfg != sa ] && [ "$res" != "timed out" ] && EQ[$name]=no
            rm -f "$out" "$out".clsa-mpi-tmp
            continue
        fi
        LAST[$k]=$w
        WALL[$k]="${WALL[$k]:-} $w"
        if [ $cfg = sa ]; then
            echo "  clsa sa: $w s"
            grep -E '^stats: (n |phase)' "$DATA/log" | sed 's/^/    /'
            continue
        fi
        t=$(grep -o '[0-9.]* s$' "$DATA/log" | tail -1 | cut -d' ' -f1)
        TOOL[$k]="${TOOL[$k]:-} $t"
        if [ ! -f "$ref" ]; then
            res=unchecked
            [ "${EQ[$name]:-yes}" = yes ] && EQ[$name]=unchecked
        elif cmp "$ref" "$out"; then
            res=equal
            EQ[$name]=${EQ[$name]:-yes}
        else
            res=DIFFERENT EQ[$name]=no
        fi
        echo "  np=$cfg: $w s wall; $(grep 'clsa-mpi:' "$DATA/log" | tail -1); $res"
        grep '^stats:' "$DATA/log" | sed 's/^/    /'
        awk -v k="$name,$cfg,$r" '$1 == "stats:" && $2 == "step" {print k "," $3 "," $4 "," $7}' \
            "$DATA/log" >>"$OUT/mpi_steps.csv"
        rm -f "$out"
    done
    rm -f "$ref" "$out" "$out".clsa-mpi-tmp
}
mn() { tr ' ' '\n' <<<"${1:-}" | grep . | sort -g | head -1; }
cnt() { tr ' ' '\n' <<<"${1:-}" | grep -c .; }
table() {
    local name sa m1 t1 m2 t2 s21 s2s
    echo "input,bytes,clsa_sa_s,mpi1_wall_s,mpi1_tool_s,mpi2_wall_s,mpi2_tool_s,speedup_2v1,speedup_2vsa,runs_sa/1/2,equal" >"$OUT/mpi_table.csv"
    for name in "${NAMES[@]}"; do
        sa=$(mn "${WALL[$name,sa]:-}") m1=$(mn "${WALL[$name,1]:-}") t1=$(mn "${TOOL[$name,1]:-}")
        m2=$(mn "${WALL[$name,2]:-}") t2=$(mn "${TOOL[$name,2]:-}")
        s21=$(awk -v a="$m1" -v b="$m2" 'BEGIN{if (a > 0 && b > 0) printf "%.2f", a / b}')
        s2s=$(awk -v a="$sa" -v b="$m2" 'BEGIN{if (a > 0 && b > 0) printf "%.2f", a / b}')
        echo "$name,${BYTES[$name]},$sa,$m1,$t1,$m2,$t2,$s21,$s2s,$(cnt "${WALL[$name,sa]:-}")/$(cnt "${WALL[$name,1]:-}")/$(cnt "${WALL[$name,2]:-}"),${EQ[$name]:--}"
    done >>"$OUT/mpi_table.csv"
    {
        echo "clsa-mpi, one rank per GPU ($MPI_FROM; $(mpirun_cmd N)); walls in s (process start to exit), min of runs; tool: clsa-mpi's own time; clsa sa -d $DEV, clsa-mpi -d $RDEV"
        echo
        echo "| input | MB | clsa sa | mpirun -np 1 | (tool) | mpirun -np 2 | (tool) | 2 vs 1 | 2 vs clsa sa | runs | equal |"
        echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"
        tail -n +2 "$OUT/mpi_table.csv" | awk -F, '{printf "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
            $1, $2 / 1e6, $3, $4, $5, $6, $7, $8, $9, $10, $11}'
    } >"$OUT/mpi_table.md"
}
trap table EXIT
echo "input,np,rep,step,max_s,min_s" >"$OUT/mpi_steps.csv"
read -r R_SMALL R_BIG <<<"${MPI_REPS:-3 2}"
declare -A REPS=()
MAXR=0
for size in ${MPI_SIZES:-100M 1G}; do
    reps=$R_BIG
    [ "$(numfmt --from=si "$size")" -lt 500000000 ] && reps=$R_SMALL
    [ "$reps" -gt "$MAXR" ] && MAXR=$reps
    for kind in ${MPI_INPUTS:-dna words}; do
        NAMES+=("$kind$size")
        REPS[$kind$size]=$reps
    done
done
for name in "${NAMES[@]}"; do
    gen_input "$name" || { echo "gen $name failed"; exit 3; }
    BYTES[$name]=$(stat -c %s "$DATA/$name")
done
echo "== inputs in $DATA: $(cd "$DATA" && du -ch "${NAMES[@]}" | tail -1) ($(left) s left)"
for r in $(seq 1 "$MAXR"); do
    for name in "${NAMES[@]}"; do
        [ "$r" -le "${REPS[$name]}" ] && one_rep "$name" "$r"
    done
done
for name in "${NAMES[@]}"; do rm -f "$DATA/$name"; done
table
cat "$OUT/mpi_table.md"
EQUAL=yes
for name in "${NAMES[@]}"; do [ "${EQ[$name]:-}" != no ] || EQUAL=no; done
echo "== done, no clsa-mpi output different from clsa sa's or failed: $EQUAL, $(left) s left"
