# device_prelude.sh - sourced by the short device-call scripts (profile_run.sh,
# tune_sweep.sh): moves to the project root, makes $OUT (default ./out), runs
# .device/setup.sh unless CLSA_BENCH_SKIP_SETUP=1, and starts $OUT/env.txt
# with the date and the commit (CLSA_BENCH_COMMIT, else git describe).
ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)
cd "$ROOT" || exit 3
OUT=${OUT:-$ROOT/out}
mkdir -p "$OUT"
[ "${CLSA_BENCH_SKIP_SETUP:-0}" != 1 ] && [ -f .device/setup.sh ] && { bash .device/setup.sh >"$OUT/setup.txt" 2>&1 || tail -20 "$OUT/setup.txt"; }
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    echo "commit: ${CLSA_BENCH_COMMIT:-$(git describe --always --dirty 2>/dev/null || echo unknown)}"
} >"$OUT/env.txt"

BUILD=${SESSION_BUILD:-build}
# build_release TARGET...: those targets, Release, tests off and MPI off
# (BUILD_MPI=ON: on, the MPI that FindMPI finds), in $BUILD, with the CUDA
# anchors (clsa-bench's cubwt-sa, cubwt-bwt) when BUILD_ANCHORS=1, .anchors
# was carried and nvcc is there ($ANCHORS says); exit 3 with the build's
# tail when it fails.
ANCHORS=0
build_release() {
    local cuda=() nvcc
    nvcc=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null || true)
    if [ "${BUILD_ANCHORS:-0}" = 1 ] && [ -f .anchors/libcubwt-1.0.0.tar.gz ] && [ -n "$nvcc" ]; then
        cuda=(-DCLSA_BENCH_CUDA=ON -DCLSA_ANCHORS_DIR="$ROOT/.anchors" -DCMAKE_CUDA_COMPILER="$nvcc")
        ANCHORS=1
    fi
    cmake -B "$BUILD" -S . -DCMAKE_BUILD_TYPE=Release -DCLSA_BUILD_TESTS=OFF \
        -DCLSA_MPI="${BUILD_MPI:-OFF}" "${cuda[@]}" >/dev/null &&
        cmake --build "$BUILD" -j"$(nproc)" --target "$@" >"$OUT/build.txt" 2>&1 ||
        { tail -30 "$OUT/build.txt"; exit 3; }
    rm -f "$OUT/build.txt"
}
# The carried corpus slices (tools/bench/corpus.sh) in $CORPUS; $TEXT is the
# real-text input made of them.
CORPUS=/tmp/clsa-corpus-data
TEXT=cat:english.txt+howto.txt+sources.txt
unpack_corpus() {
    [ -f .corpus/corpus-slices.tar.xz ] && bash tools/bench/corpus.sh unpack .corpus "$CORPUS" >/dev/null
}
