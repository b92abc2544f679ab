#!/usr/bin/env bash
# session_run.sh - one device call for a session with little device time:
# stages, in order, all under one deadline so that whatever was measured
# comes back:
#   ab     the session's switches measured back to back (A/B under CLSA_TUNE)
#   wall   the CLI's wall time beside the call and the file I/O, with and
#          without a resident `clsa serve` (tools/cli/measure_wall.sh, issue 15)
#   multi  one GPU against two (clsa-bench sa32 / sa32-multi, 1 GB; 3.5 GB 64-bit)
#   big    the large-input rows (big_rows.sh, issue 12)
#
#   CLSA_BENCH_COMMIT=<hash> bash tools/bench/session_run.sh   (carry .device, .corpus)
#
# Env: SESSION_STAGES (default "wall multi big"), SESSION_LIMIT (seconds for
# everything after the build, default 400), SESSION_AB (CLSA_TUNE settings
# compared with the defaults, default "sa_path=64 pool=0"), SESSION_WALL_SIZES
# (measure_wall.sh's SIZES), SESSION_BIG_ROWS (big_rows.sh's BIG_ROWS, default 125),
# SESSION_SIZES ("1M 10M 16M 100M": the small, mid, Fibonacci and large sizes;
# smaller for a smoke test on PoCL with CLSA_DEVICE=pocl SESSION_BIG_ROWS=0),
# MULTI_SIZE (1G), MULTI_REPS (3), MULTI_WIDE (3500M; empty: not run),
# MULTI_DEVICES (nvidia:0,nvidia:1; the first alone is the one-GPU row).
# Results in $OUT: env.txt, ab.txt, wall.txt, multi.txt, big_rows.{csv,log}.
set -uo pipefail
# shellcheck source=device_prelude.sh
. "$(dirname "$(readlink -f "$0")")/device_prelude.sh"
export CLSA_DEVICE=${CLSA_DEVICE:-nvidia}
{
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1
    nproc
    free -g | head -2
} >>"$OUT/env.txt"
cat "$OUT/env.txt"
build_release clsa_bench clsa_cli
START=$(date +%s)
LIMIT=${SESSION_LIMIT:-400}
left() { echo $((START + LIMIT - $(date +%s))); }
unpack_corpus
read -r S M F L <<<"${SESSION_SIZES:-1M 10M 16M 100M}"
BENCH=$BUILD/tools/bench/clsa-bench
STAGES=${SESSION_STAGES:-wall multi big}
stage() { case " $STAGES " in *" $1 "*) return 0 ;; esac; echo "stage $1: not asked for"; return 1; }

# ---- A/B: each setting against the defaults, the same inputs back to back ------
stage ab && {
    for tune in "" ${SESSION_AB:-sa_path=64 pool=0}; do
        echo "-- CLSA_TUNE=${tune:-(defaults)}"
        case $tune in
            sa_path=64) ops=bwt inputs="text=$TEXT@$L random:4@$L" ;;
            "") ops=sa32,bwt inputs="text1=$TEXT@$S text10=$TEXT@$M fibonacci@$F text=$TEXT@$L random:4@$L" ;;
            *) ops=sa32 inputs="text1=$TEXT@$S text10=$TEXT@$M fibonacci@$F" ;;
        esac
        # shellcheck disable=SC2086
        CLSA_TUNE=$tune timeout $(($(left) / 2)) "$BENCH" -r 5 --ref-reps 0 --check-max 16M \
            --dir "$CORPUS" "$ops" $inputs 2>&1 | grep -v '^\[bench'
    done
} | tee "$OUT/ab.txt"

# ---- the CLI's wall time, in-process and through clsa serve (issue 15) ----------------
stage wall && SIZES=${SESSION_WALL_SIZES:-text1M text100M dna100M dna400M} \
    timeout -k 5 $(($(left) / 2)) bash tools/cli/measure_wall.sh "$BUILD"/clsa "$BENCH" 2>&1 |
    tee "$OUT/wall.txt"

# ---- several devices: one GPU against two (issue 12) -------------------------------
# sa32 on the first GPU, then clsa_sa32_multi over the first two (clsa-bench
# sa32-multi), the same inputs, best of MULTI_REPS; then 3.5 GB (past 2^31:
# 64-bit output) the same way; then the CLI with -d over two GPUs.
stage multi && {
    devs=${MULTI_DEVICES:-nvidia:0,nvidia:1} one=${devs%%,*}
    ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
    [ -n "${MULTI_DEVICES:-}" ] && ngpu=2
    echo "GPUs: $ngpu ($devs)"
    set -- dna=random:4@${MULTI_SIZE:-1G} words=words@${MULTI_SIZE:-1G} "text=$TEXT@${MULTI_SIZE:-1G}"
    r=${MULTI_REPS:-3}
    CLSA_DEVICE=$one timeout $(($(left) / 3)) "$BENCH" -r "$r" --ref-reps 0 --check-max 2G \
        --dir "$CORPUS" sa32 "$@" 2>&1 | grep -v '^\[bench'
    if [ "$ngpu" -ge 2 ]; then
        CLSA_DEVICE=$one CLSA_BENCH_DEVICES=$devs timeout $(($(left) / 2)) \
            "$BENCH" -r "$r" --ref-reps 0 --check-max 2G --dir "$CORPUS" sa32-multi "$@" 2>&1 |
            grep -v '^\[bench'
        if [ -n "${MULTI_WIDE-3500M}" ] && [ "$(left)" -gt 200 ]; then
            # one GPU would go out of core here (37 B/n for a 64-bit SA)
            CLSA_DEVICE=$one CLSA_BENCH_DEVICES=$devs timeout $(($(left) / 3)) \
                "$BENCH" -r 2 --ref-reps 0 --no-profile --check-max 8G sa64-multi \
                "dna=random:4@${MULTI_WIDE-3500M}" 2>&1 | grep -v '^\[bench'
        fi
    fi
} 2>&1 | tee "$OUT/multi.txt"

# ---- large inputs: in memory, under a quarter budget, past 2^32 ----------------------
l=$(left)
if ! stage big || [ "${SESSION_BIG_ROWS:-125}" = 0 ]; then
    echo "big rows: not asked for"
elif [ "$l" -gt 30 ]; then
    OUT="$OUT" BUILD=$BUILD BIG_LIMIT=$l BIG_ROWS=${SESSION_BIG_ROWS:-125} CLSA_DEVICE=gpu \
        bash tools/bench/big_rows.sh >/dev/null 2>&1
    tail -40 "$OUT/big_rows.log"
else
    echo "big rows: skipped ($l s left)"
fi
