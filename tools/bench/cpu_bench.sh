#!/usr/bin/env bash
# cpu_bench.sh - clsa without a GPU beside libsais 2.10.4 built with OpenMP
# (issue 52): one row per input, each "cpu input=... threads=T
# libsais64_mbps=... clsa_host_mbps=... ratio=... pocl_mbps=...|NA ok=1".
# clsa_host is the host backend's multi-threaded sorter (clsa_sa64 with
# CLSA_BACKEND=host semantics and clsa_options.threads = T); pocl is the
# device path on PoCL, when a PoCL device is there; every array is compared
# with libsais64's.  Best of two runs (PoCL: one).
#
# Run from the repository root after a Release build in build/ (BUILD=dir);
# it compiles only its small driver (tools/bench/cpu/cpu_bench.c) with
# libsais from .anchors/libsais-2.10.4.tar.gz (else ../shared/anchors/) into
# /tmp/clsa-cpu-bench.  Inputs: the carried corpus slices (.corpus, unpacked
# by tools/bench/corpus.sh) or CPU_BENCH_CORPUS (a folder with english.txt,
# howto.txt, sources.txt); random DNA made by the driver; genome-like DNA
# from clsa_gen_genome.
#   bash tools/bench/cpu_bench.sh            # 16-core rows: 10 and 100 MB, all cores
#   CPU_BENCH_SIZES=20M CPU_BENCH_THREADS=2 bash tools/bench/cpu_bench.sh  # the 2-core rows
# Env: CPU_BENCH_THREADS (default: nproc), CPU_BENCH_SIZES (default "10M
# 100M": text at each size, the DNA rows at the largest), CPU_BENCH_NO_POCL=1.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
cd "$root"
build=${BUILD:-build}
threads=${CPU_BENCH_THREADS:-$(nproc)}
sizes=${CPU_BENCH_SIZES:-10M 100M}
work=/tmp/clsa-cpu-bench
mkdir -p "$work"
die() { echo "cpu_bench.sh: $*" >&2; exit 1; }
[ -f "$build/libclsa.so" ] || die "no $build/libclsa.so: build clsa (Release) in $build first"

tarball=.anchors/libsais-2.10.4.tar.gz
[ -f "$tarball" ] || tarball=../shared/anchors/libsais-2.10.4.tar.gz
[ -f "$tarball" ] || tarball=/work/shared/anchors/libsais-2.10.4.tar.gz
[ -f "$tarball" ] || die "libsais-2.10.4.tar.gz not in .anchors or ../shared/anchors"
tar -xzf "$tarball" -C "$work"
ls="$work/libsais-2.10.4"
cc -O3 -std=gnu11 -fopenmp -DLIBSAIS_OPENMP -I"$ls/include" -Iinclude \
    tools/bench/cpu/cpu_bench.c "$ls/src/libsais64.c" "$ls/src/libsais.c" \
    -L"$build" -Wl,-rpath,"$root/$build" -lclsa -lpthread -o "$work/cpu-bench"

corpus=${CPU_BENCH_CORPUS:-}
if [ -z "$corpus" ]; then
    if [ -f .corpus/corpus-slices.tar.xz ]; then
        corpus=/tmp/clsa-corpus-data
        [ -f "$corpus/english.txt" ] || bash tools/bench/corpus.sh unpack .corpus "$corpus" >/dev/null
    elif [ -f /work/corpus/english.txt ]; then
        corpus=/work/corpus
    else
        die "no corpus: carry .corpus or set CPU_BENCH_CORPUS"
    fi
fi
bytes() { numfmt --from=si "$1"; }
largest=0
for s in $sizes; do [ "$(bytes "$s")" -gt "$largest" ] && largest=$(bytes "$s") && big=$s; done

# the real-text input: english + howto + sources, cut at each size
# (head ends the pipe early: cat's SIGPIPE is expected)
cat "$corpus/english.txt" "$corpus/howto.txt" "$corpus/sources.txt" | head -c "$largest" >"$work/text" || true
for s in $sizes; do
    head -c "$(bytes "$s")" "$work/text" >"$work/text@$s"
    "$work/cpu-bench" "text@$s" "$work/text@$s" "$threads"
done
"$work/cpu-bench" "random-dna@$big" "random-dna:$largest" "$threads"
gen=$build/clsa_gen_genome
if [ -x "$gen" ]; then
    "$gen" --seed 7 "$largest" "$work/genome.fa" >/dev/null
    grep -v '^>' "$work/genome.fa" | tr -d '\n' | head -c "$largest" >"$work/genome" || true
    "$work/cpu-bench" "genome-dna@$big" "$work/genome" "$threads"
else
    echo "cpu input=genome-dna@$big skipped: no $gen"
fi
rm -f "$work"/text* "$work"/genome*
