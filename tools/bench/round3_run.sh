#!/usr/bin/env bash
# round3_run.sh - round 3's benchmark rows (issues 44, 45, 48, 49, 51) in
# one or two device calls, every result checked, all under one deadline.
#
#   R3_STAGES="build base bwa multi" bash tools/bench/round3_run.sh   # call 1
#   R3_STAGES="build dropin sais batch clmem" bash tools/bench/round3_run.sh   # call 2
#
# Carry .device (with the bwa, andi, fsm-lite and libsdsl3 .debs beside
# ../shared/device/prepare.sh's), .corpus, .anchors, and .old/old.tar.gz
# (git archive of the baseline commit, for stage base's old column).
# Stages:
#   build   Release build of everything (tests off) with the CUDA anchors;
#           the baseline's clsa-bench in /tmp/old when .old/old.tar.gz exists
#   base    sa32 beside libcubwt 1.0.0 and the baseline build, same inputs as
#           docs/BENCHMARKS.md's standings; bwt beside libcubwt 1.6.3
#   bwa     tools/bench/bwa_bench.sh (bwa index against clsa index --format bwa)
#   multi   one GPU against two (sa32 / sa32-multi, 1 GB DNA and text)
#   dropin  tools/bench/dropin_bench.sh; sais  tools/bench/sais_bench.sh
#   batch   tools/bench/batch_bench.sh;  clmem tools/bench/cl_mem_bench.sh
#   small   tools/bench/small_bench.sh;  skew  tools/bench/skew_bench.sh (auto, doubling)
#   runlen  tools/bench/runlen_bench.sh (runs-heavy rows, every algorithm)
#   cpu     tools/bench/cpu_bench.sh (CPU only, PoCL left out); genome tools/bench/genome_bench.sh
# Env: R3_LIMIT (seconds for everything after the build, default 500).
set -uo pipefail
# shellcheck source=device_prelude.sh
. "$(dirname "$(readlink -f "$0")")/device_prelude.sh"
export CLSA_DEVICE=${CLSA_DEVICE:-gpu}
STAGES=${R3_STAGES:-build base bwa}
on() { case " $STAGES " in *" $1 "*) return 0 ;; esac; return 1; }
{
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1
    nproc
} >>"$OUT/env.txt"
cat "$OUT/env.txt"
BENCH=$BUILD/tools/bench/clsa-bench
OLD=/tmp/old/build/tools/bench/clsa-bench

if on build; then
    nvcc=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null || true)
    cuda=()
    [ -n "$nvcc" ] && [ -f .anchors/libcubwt-1.0.0.tar.gz ] &&
        cuda=(-DCLSA_BENCH_CUDA=ON -DCLSA_ANCHORS_DIR="$ROOT/.anchors" -DCMAKE_CUDA_COMPILER="$nvcc")
    if [ -f .old/old.tar.gz ]; then
        mkdir -p /tmp/old && tar xzf .old/old.tar.gz -C /tmp/old &&
            (cmake -S /tmp/old -B /tmp/old/build -DCMAKE_BUILD_TYPE=Release -DCLSA_BUILD_TESTS=OFF \
                -DCLSA_MPI=OFF >/dev/null && cmake --build /tmp/old/build -j8 --target clsa_bench \
                >"$OUT/build_old.txt" 2>&1 || tail -5 "$OUT/build_old.txt") &
    fi
    cmake -B "$BUILD" -S . -DCMAKE_BUILD_TYPE=Release -DCLSA_BUILD_TESTS=OFF -DCLSA_MPI=OFF \
        "${cuda[@]}" >/dev/null && cmake --build "$BUILD" -j16 >"$OUT/build.txt" 2>&1 ||
        { tail -30 "$OUT/build.txt"; exit 3; }
    wait
    echo "built: $(ls "$BENCH" "$OLD" 2>/dev/null | tr '\n' ' ')"
fi
unpack_corpus
START=$(date +%s)
LIMIT=${R3_LIMIT:-500}
left() { echo $((START + LIMIT - $(date +%s))); }
say() { echo "== [round3 $(($(date +%s) - START))s/${LIMIT}s] $*"; }
quiet() { grep -v '^\[bench'; }

# Baseline rows: new (with libcubwt) and old, two rounds
if on base; then
    set -- text1="$TEXT@1M" text10="$TEXT@10M" text100="$TEXT@100M" dna=random:4@100M fibonacci@16M
    for round in 1 2; do
        say "base round $round: sa32 + cubwt-sa (new)"
        timeout 90 "$BENCH" --ref-reps 0 -r 3 --no-profile --check-max 200M --dir "$CORPUS" \
            sa32,cubwt-sa "$@" 2>&1 | quiet
        [ -x "$OLD" ] && { say "base round $round: sa32 (old)"
            timeout 60 "$OLD" --ref-reps 0 -r 3 --no-profile --no-check --dir "$CORPUS" sa32 "$@" 2>&1 | quiet; }
    done
    say "bwt + cubwt-bwt text@100M"
    timeout 60 "$BENCH" --ref-reps 0 -r 3 --no-profile --check-max 200M --dir "$CORPUS" \
        bwt,cubwt-bwt text100="$TEXT@100M" 2>&1 | quiet
fi

if on bwa; then
    say "bwa_bench (bwa $(command -v bwa))"
    timeout $(($(left) > 60 ? $(left) : 60)) bash tools/bench/bwa_bench.sh "$(command -v bwa)" 2>&1 | tail -30
fi

if on multi; then
    ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
    say "multi: $ngpu GPUs"
    if [ "$ngpu" -ge 2 ]; then
        set -- dna=random:4@1G "text=$TEXT@1G"
        CLSA_DEVICE=nvidia:0 timeout 150 "$BENCH" -r 2 --ref-reps 0 --no-profile --check-max 2G \
            --dir "$CORPUS" sa32 "$@" 2>&1 | quiet
        CLSA_DEVICE=nvidia:0 CLSA_BENCH_DEVICES=nvidia:0,nvidia:1 timeout 180 "$BENCH" -r 2 \
            --ref-reps 0 --no-profile --check-max 2G --dir "$CORPUS" sa32-multi "$@" 2>&1 | quiet
    fi
fi

if on dropin; then
    say "dropin_bench"
    timeout ${R3_DROPIN_TIME:-330} bash tools/bench/dropin_bench.sh 2>&1 | tail -40
fi
if on sais; then
    say "sais_bench"
    timeout 90 sh tools/bench/sais_bench.sh 2>&1 | tail -20
fi
if on batch; then
    say "batch_bench"
    timeout 150 bash tools/bench/batch_bench.sh 2>&1 | tail -20
fi
if on small; then
    say "small_bench"
    timeout 90 bash tools/bench/small_bench.sh 2>&1 | grep -vE '^\[bench|note: libcubwt' | tail -60
fi
if on skew; then
    say "skew_bench (ALGOS=${R3_SKEW_ALGOS:-auto doubling})"
    ALGOS="${R3_SKEW_ALGOS:-auto doubling}" timeout 200 bash tools/bench/skew_bench.sh 2>&1 | tail -40
fi
if on runlen; then
    say "runlen_bench (ROWS=runlen)"
    timeout 200 bash tools/bench/runlen_bench.sh 2>&1 | grep -v '^\[bench' | tail -40
fi
if on cpu; then
    say "cpu_bench"
    CPU_BENCH_NO_POCL=1 timeout 200 bash tools/bench/cpu_bench.sh 2>&1 | tail -12
fi
if on genome; then
    say "genome_bench"
    GENOME_LIMIT=$(($(left) - 10)) bash tools/bench/genome_bench.sh 2>&1 | tail -20
fi
if on clmem; then
    say "cl_mem_bench"
    CLMEM_ROWS="${R3_CLMEM:-text600M=words@600M:sa32,sa64,bwt,lcp}" CLMEM_LIMIT=150 \
        bash tools/bench/cl_mem_bench.sh 2>&1 | grep -E '^row|TIMED'
fi
say "done"
