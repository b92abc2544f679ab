#!/usr/bin/env bash
# device_run.sh - every performance figure of clsa in one run on the GPU machine.
#
#   bash tools/bench/device_run.sh [--quick | --tiny]
#
# Run from the repository root on the device machine (see docs/bench/method.md
# for the device call and its carry list: ".device" from
# ../shared/device/prepare.sh, ".corpus" from tools/bench/corpus.sh pack,
# ".anchors" a copy of ../shared/anchors).
# Installs the OpenCL loader and libdivsufsort (.device/setup.sh), builds
# clsa-bench (Release, -j16, no tests; with the CUDA anchors when ".anchors"
# was carried and nvcc is there), unpacks the corpus slices, then runs
# stages under one time limit (default 540 s; --quick 140 s, 200 s with the
# anchors; --tiny, a smoke test with 256 KB inputs for a CPU device such as
# pocl, 300 s; override with CLSA_BENCH_LIMIT=seconds):
#   A  headline inputs, every text operation (sa32 sa64 bwt lcp fm-count),
#      libcubwt's SA and BWT beside sa32 and bwt
#   B  sorting primitives (radix 2^28 pairs, segmented sort, batched 2e6 x 1000),
#      CUB's radix sort beside radix
#   X  the rest of issue 10's comparison set: sa32 beside libcubwt's SA, input by
#      input (libdivsufsort too, up to 100 MB: fibonacci@100M, periodic:2@100M)
#   C  suffix arrays (sa32) over the rest: hard synthetic inputs, corpus slices
#   D  scaling series: sa32 on random:4 and words, 1 MB doubling to 1 GB
# CLSA_BENCH_STAGES (default ABXCD) picks stages.  The anchors (libcubwt 1.0.0 SA,
# libcubwt 1.6.3 BWT, CUB radix sort; -DCLSA_BENCH_CUDA=ON, sources from
# CLSA_ANCHORS_DIR, default ./.anchors) are left out with CLSA_BENCH_ANCHORS=0, or
# when they fail to build (then clsa is measured alone, and the log says so).
# Each stage gets its planned share plus whatever earlier stages left over;
# past its deadline the driver starts nothing new (skipped rows say so) and
# a stage still running 60 s later is stopped (rows already written stay).
# Results go to $OUT (default ./out): results.csv (all rows), results.json
# (all rows + per-stage metadata), bench.log (everything printed), env.txt.
# Device: CLSA_DEVICE (default gpu).  Build folder CLSA_BENCH_BUILD (default
# build), parallel jobs CLSA_BENCH_JOBS (default 16); CLSA_BENCH_SKIP_SETUP=1
# skips .device/setup.sh (for a local smoke test: --tiny with CLSA_DEVICE=pocl);
# CLSA_BENCH_CORPUS_DIR: where the slices are unpacked (default /tmp/clsa-corpus-data).  Commit: CLSA_BENCH_COMMIT, else git,
# else .corpus/COMMIT (the commit when the corpus was packed, marked so).
set -uo pipefail

QUICK=0
[ "${1:-}" = "--quick" ] && QUICK=1
[ "${1:-}" = "--tiny" ] && QUICK=2   # smoke test of this script on a CPU OpenCL (pocl)
ROOT=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
cd "$ROOT" || exit 3
OUT=${OUT:-$ROOT/out}
mkdir -p "$OUT" "$OUT/stages"
ANCHORS_DIR=${CLSA_ANCHORS_DIR:-$ROOT/.anchors}
NVCC=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null || true)
ANCHORS=0
[ "${CLSA_BENCH_ANCHORS:-1}" != 0 ] && [ -f "$ANCHORS_DIR/libcubwt-1.0.0.tar.gz" ] && [ -n "$NVCC" ] && ANCHORS=1
LIMIT=${CLSA_BENCH_LIMIT:-$(case $QUICK in 1) echo $((140 + 60 * ANCHORS)) ;; 2) echo 300 ;; *) echo 540 ;; esac)}
STAGES=${CLSA_BENCH_STAGES:-ABXCD}
START=$(date +%s)
END=$((START + LIMIT))
exec > >(tee -a "$OUT/bench.log") 2>&1

say() { echo "== [device_run $(($(date +%s) - START))s/${LIMIT}s] $*"; }

# ---- setup and build -----------------------------------------------------------
say "setup (quick=$QUICK)"
if [ "${CLSA_BENCH_SKIP_SETUP:-0}" = 1 ]; then
    say "CLSA_BENCH_SKIP_SETUP=1: not running .device/setup.sh"
elif [ -f .device/setup.sh ]; then
    bash .device/setup.sh || say "WARNING: .device/setup.sh failed"
else
    say "no .device/setup.sh: assuming OpenCL and libdivsufsort are installed"
fi
export CLSA_DEVICE=${CLSA_DEVICE:-gpu}
if [ -z "${CLSA_BENCH_COMMIT:-}" ]; then
    CLSA_BENCH_COMMIT=$(git describe --always --dirty 2>/dev/null || true)
    if [ -z "$CLSA_BENCH_COMMIT" ] && [ -f .corpus/COMMIT ]; then
        CLSA_BENCH_COMMIT="$(cat .corpus/COMMIT) (at corpus pack time)"
    fi
    CLSA_BENCH_COMMIT=${CLSA_BENCH_COMMIT:-unknown}
fi
export CLSA_BENCH_COMMIT
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "commit: $CLSA_BENCH_COMMIT"
    echo "quick: $QUICK  limit: ${LIMIT}s  CLSA_DEVICE=$CLSA_DEVICE"
    uname -a
    grep -m1 'model name' /proc/cpuinfo || true
    echo "cores: $(nproc)"
    free -g | head -2
    gcc --version 2>/dev/null | head -1
    command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
    clinfo -l 2>/dev/null
} >"$OUT/env.txt" 2>&1
cat "$OUT/env.txt"

BUILD=${CLSA_BENCH_BUILD:-build}
JOBS=${CLSA_BENCH_JOBS:-16}
build() { # ON|OFF: with the CUDA anchors or without
    local cuda=(-DCLSA_BENCH_CUDA=OFF)
    [ "$1" = ON ] && cuda=(-DCLSA_BENCH_CUDA=ON -DCLSA_ANCHORS_DIR="$ANCHORS_DIR" -DCMAKE_CUDA_COMPILER="$NVCC")
    cmake -B "$BUILD" -S . -DCMAKE_BUILD_TYPE=Release -DCLSA_BUILD_TESTS=OFF "${cuda[@]}" &&
        cmake --build "$BUILD" -j"$JOBS" --target clsa_bench clsa_cli clsa_startup
}
say "build (Release, -j$JOBS, in $BUILD, CUDA anchors: $([ $ANCHORS = 1 ] && echo "yes, from $ANCHORS_DIR" || echo no))"
if [ $ANCHORS = 1 ] && ! build ON >"$OUT/build.txt" 2>&1; then
    tail -30 "$OUT/build.txt"
    say "ANCHORS FAILED TO BUILD (see above): measuring clsa alone"
    ANCHORS=0
    rm -rf "$BUILD/CMakeCache.txt" "$BUILD/CMakeFiles"
fi
if [ $ANCHORS = 0 ] && ! build OFF >"$OUT/build.txt" 2>&1; then
    tail -40 "$OUT/build.txt"
    say "FAILED: build (see above)"
    exit 3
fi
echo "anchors: $ANCHORS" >>"$OUT/env.txt"
grep -E 'warning|Built target' "$OUT/build.txt" || true
rm -f "$OUT/build.txt"
BENCH=$(cd "$BUILD" && pwd)/tools/bench/clsa-bench

# Unpacked outside the tree, so a local run cannot swell .corpus past the carry limit.
CORPUS=${CLSA_BENCH_CORPUS_DIR:-${TMPDIR:-/tmp}/clsa-corpus-data}
if [ -f .corpus/corpus-slices.tar.xz ]; then
    say "unpacking corpus slices"
    bash tools/bench/corpus.sh unpack .corpus "$CORPUS" || say "WARNING: corpus unpack failed"
fi
HAVE_CORPUS=0
[ -f "$CORPUS/MANIFEST" ] && HAVE_CORPUS=1
[ $HAVE_CORPUS = 1 ] || say "NO CORPUS: real-data inputs are skipped (pack and carry .corpus)"

# ---- inputs --------------------------------------------------------------------
# Real data (from the corpus slices) is labelled by its file name; the 100 MB
# real-text input is a concatenation of three real texts (English dictionary,
# kernel documentation, kernel C sources).  Synthetic inputs are labelled by
# their generator.  The issue's reference inputs map to:
#   "100 MB of text"     text=cat:english.txt+howto.txt+sources.txt@100M (REAL, concatenated)
#                        and words@100M (SYNTHETIC English-like text, for comparison)
#   "random DNA"         random:4@100M (SYNTHETIC, as the reference figure)
#   "random bytes"       random:256@100M;  "one repeated byte": equal@100M
#   "16 MB Fibonacci"    fibonacci@16M;    "50 MB mutated repeat": mutated:65536@50M
# Issue 10's comparison set (each beside libcubwt when the anchors are built):
# text@1M/10M/100M, random:4@100M/400M, dna.fa-stripped, random:256@100M,
# fibonacci@16M/100M, mutated:65536@50M, periodic:2@100M, english.txt, xml.txt
# (stages A and X), BWT on text and random:4@100M (A), radix 2^28 (B).
real() { [ $HAVE_CORPUS = 1 ] && printf '%s\n' "$@"; }
# anc OPS...: the anchor ops, when built, in front of the clsa ops they go with
anc() { [ $ANCHORS = 1 ] && printf '%s,' "$@"; }
TEXT=cat:english.txt+howto.txt+sources.txt
if [ $QUICK = 2 ]; then
    HEAD_INPUTS="$(real text256k=$TEXT@256K) random:4@256K"
    CMP_INPUTS="fibonacci@64K periodic:2@256K"
    SA_INPUTS="equal@256K mutated:65536@256K $(real xml.txt@256K)"
    SCALE_INPUTS="random:4@16K..512K words@16K..512K"
    PRIM_ARGS="--radix-n 2^16 --segsort-n 2^16 --batch 1000:100"
    FM_ARGS="--fm-patterns 10000"
    REPS=2
    REF_MAX=0
    SCALE_REF_MAX=0
    PLAN_A=80 PLAN_B=30 PLAN_X=30 PLAN_C=40 PLAN_D=40
elif [ $QUICK = 1 ]; then
    HEAD_INPUTS="$(real text16=$TEXT@16M) random:4@16M"
    CMP_INPUTS="$(real text1=$TEXT@1M xml.txt@8Mi) random:256@16M mutated:65536@16M fibonacci@4M periodic:2@4M"
    SA_INPUTS="words@16M $(real dna.fa-stripped@16Mi repetitive.txt) equal@16M"
    SCALE_INPUTS="random:4@1M..64M words@1M..64M"
    PRIM_ARGS="--radix-n 2^26 --segsort-n 2^24 --batch 200000:1000"
    FM_ARGS="--fm-patterns 1000000"
    REPS=3
    REF_MAX=16Mi
    SCALE_REF_MAX=16M
    PLAN_A=25 PLAN_B=15 PLAN_X=20 PLAN_C=15 PLAN_D=10
else
    HEAD_INPUTS="$(real text=$TEXT@100M) random:4@100M $(real dna.fa-stripped)"
    # the inputs that hurt prefix doubling come last, the issue's targets first among them
    CMP_INPUTS="$(real text1=$TEXT@1M text10=$TEXT@10M english.txt xml.txt) random:256@100M
        random:4@400M mutated:65536@50M fibonacci@16M fibonacci@100M periodic:2@100M"
    SA_INPUTS="words@100M random:2@100M random:20@100M
        $(real howto.txt sources.txt@32Mi genomes.fa-stripped proteins.txt rrna.txt repetitive.txt)
        equal@100M periodic:2@16M periodic:3@16M thue-morse@16M"
    SCALE_INPUTS="random:4@1M..1G words@1M..256M"   # words: 1.1 s of host CPU per 100 MB to generate
    PRIM_ARGS=""
    FM_ARGS="--fm-patterns 10000000"
    REPS=5
    REF_MAX=0
    CMP_REF_MAX=100M   # libdivsufsort on random:4@400M alone would take a minute
    SCALE_REF_MAX=64M
    PLAN_A=140 PLAN_B=55 PLAN_X=150 PLAN_C=70 PLAN_D=45
fi

# ---- stages ----------------------------------------------------------------------
# stage NAME PLANNED_S LATER_PLANNED_S ARGS...: runs clsa-bench with a deadline of
# its plan plus the slack left, never into the time planned for later stages
# (when behind, all remaining stages shrink in proportion to their plans).
stage() {
    local name=$1 plan=$2 later=$3
    shift 3
    case $STAGES in *"$name"*) ;; *) say "stage $name: not selected (CLSA_BENCH_STAGES=$STAGES)"; return ;; esac
    local left budget
    left=$((END - $(date +%s) - 10))
    if [ $left -ge $((plan + later)) ]; then
        budget=$((left - later))                       # the plan plus all slack so far
    else
        budget=$((left * plan / (plan + later)))       # behind: every stage shrinks alike
    fi
    if [ $budget -lt 5 ]; then
        say "stage $name: SKIPPED (no time left)"
        return
    fi
    # a row cannot be interrupted: allow 60 s past the deadline, never 30 s past the limit
    local kill_after=$((budget + 60))
    [ $kill_after -gt $((left + 40)) ] && kill_after=$((left + 40))
    say "stage $name: budget ${budget}s (stopped after ${kill_after}s): clsa-bench $*"
    timeout -k 5 $kill_after "$BENCH" --deadline-in "$budget" --dir "$CORPUS" \
        --csv "$OUT/results.csv" --append --json "$OUT/stages/$name.json" "$@"
    local rc=$?
    say "stage $name: exit $rc$([ $rc = 124 ] && echo ' (stopped: over time; rows written so far are kept)')"
}

rm -f "$OUT/results.csv"
# a stage not selected plans no time
plan() { case $STAGES in *"$1"*) echo "$2" ;; *) echo 0 ;; esac; }
PLAN_A=$(plan A $PLAN_A) PLAN_B=$(plan B $PLAN_B) PLAN_X=$(plan X $PLAN_X) PLAN_C=$(plan C $PLAN_C) PLAN_D=$(plan D $PLAN_D)
# shellcheck disable=SC2086
stage A $PLAN_A $((PLAN_B + PLAN_X + PLAN_C + PLAN_D)) -r $REPS --row-budget 12 --ref-max $REF_MAX $FM_ARGS \
    "$(anc cubwt-sa cubwt-bwt)sa32,sa64,bwt,lcp,fm-count" $HEAD_INPUTS
# shellcheck disable=SC2086
stage B $PLAN_B $((PLAN_X + PLAN_C + PLAN_D)) -r $REPS --row-budget 12 $PRIM_ARGS "$(anc cub-radix)radix,segsort,batched"
# shellcheck disable=SC2086
stage X $PLAN_X $((PLAN_C + PLAN_D)) -r $REPS --row-budget 8 --ref-max ${CMP_REF_MAX:-$REF_MAX} \
    "$(anc cubwt-sa)sa32" $CMP_INPUTS
# shellcheck disable=SC2086
stage C $PLAN_C $PLAN_D -r $REPS --row-budget 8 --ref-max $REF_MAX sa32 $SA_INPUTS
# shellcheck disable=SC2086
stage D $PLAN_D 0 -r 3 --row-budget 8 --ref-max $SCALE_REF_MAX --check-max 256M --stop-after 15 \
    sa32 $SCALE_INPUTS

# ---- collect -------------------------------------------------------------------------
if command -v python3 >/dev/null; then
    python3 - "$OUT" <<'EOF'
import json, os, sys
out = sys.argv[1]
stages, rows = {}, []
for f in sorted(os.listdir(os.path.join(out, "stages"))):
    if f.endswith(".json"):
        try:
            d = json.load(open(os.path.join(out, "stages", f)))
        except Exception as e:
            stages[f[:-5]] = {"error": str(e)}
            continue
        stages[f[:-5]] = d["meta"]
        for r in d["rows"]:
            r["stage"] = f[:-5]
            rows.append(r)
json.dump({"stages": stages, "rows": rows}, open(os.path.join(out, "results.json"), "w"), indent=1)
print("results.json: %d rows from %d stages" % (len(rows), len(stages)))
EOF
    rm -rf "$OUT/stages"
else
    tar -C "$OUT" -czf "$OUT/stages-json.tar.gz" stages && rm -rf "$OUT/stages"
fi
say "done: $(($(grep -c . "$OUT/results.csv" 2>/dev/null || echo 1) - 1)) rows in $OUT/results.csv"
ls -la "$OUT"
sleep 1 # let tee drain into bench.log
