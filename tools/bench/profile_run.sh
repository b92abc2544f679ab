#!/usr/bin/env bash
# profile_run.sh - a short diagnostic run on the GPU machine (a few minutes):
# where the suffix array's time goes kernel by kernel, and where a short CLI
# process's start-up goes step by step.
#
#   bash tools/bench/profile_run.sh        (device call: carry .device and .corpus)
#
# Writes to $OUT (default ./out): profile.txt (clsa-bench with one profiled
# run per input: phases and the slowest kernels, "name ms/launches"),
# startup.txt (clsa-startup three times with every installed OpenCL driver,
# three times with only the selected vendor's ICD, and the CLI on a 1-byte
# file both ways), env.txt.  CLSA_DEVICE (default nvidia); PROFILE_INPUTS
# overrides the inputs; PROFILE_TUNES adds runs under other CLSA_TUNE settings.
set -uo pipefail
# shellcheck source=device_prelude.sh
. "$(dirname "$(readlink -f "$0")")/device_prelude.sh"
export CLSA_DEVICE=${CLSA_DEVICE:-nvidia}
{
    nvidia-smi --query-gpu=name,driver_version,persistence_mode,clocks.max.sm --format=csv 2>&1
    for f in /etc/OpenCL/vendors/*.icd; do echo "$f: $(cat "$f")"; done
    env | grep -iE '^(OCL|OPENCL|POCL)' || true
    ls -l "$(ldconfig -p | awk '/libOpenCL.so.1/ {print $NF; exit}')" 2>&1
} >>"$OUT/env.txt"
cat "$OUT/env.txt"
cmake -B build -S . -DCMAKE_BUILD_TYPE=Release -DCLSA_BUILD_TESTS=OFF >/dev/null &&
    cmake --build build -j16 --target clsa_bench clsa_cli clsa_startup >"$OUT/build.txt" 2>&1 ||
    { tail -30 "$OUT/build.txt"; exit 3; }
CORPUS=/tmp/clsa-corpus-data
[ -f .corpus/corpus-slices.tar.xz ] && bash tools/bench/corpus.sh unpack .corpus "$CORPUS" >/dev/null

# ---- start-up --------------------------------------------------------------------
only=$(mktemp -d)
for f in /etc/OpenCL/vendors/*.icd; do
    case "$(basename "$f") $(cat "$f")" in *"$CLSA_DEVICE"*) cp "$f" "$only/" ;; esac
done
printf x >/tmp/one-byte
ns() { date +%s%N; }
cli_ms_of() { local t0 t1; t0=$(ns); "$@" >/dev/null; t1=$(ns); echo $(((t1 - t0) / 1000000)); }
cli_ms() { local t0 t1; t0=$(ns); "$@" build/clsa sa -q /tmp/one-byte /tmp/one-byte.sa; t1=$(ns); echo $(((t1 - t0) / 1000000)); }
{
    for r in 1 2 3; do echo "-- all drivers, run $r"; build/tools/bench/clsa-startup "$CLSA_DEVICE"; done
    for r in 1 2 3; do echo "-- only $(ls "$only"), run $r"; OCL_ICD_VENDORS=$only build/tools/bench/clsa-startup "$CLSA_DEVICE"; done
    lib=$(cat "$only"/*.icd 2>/dev/null | head -1)
    echo "-- only $lib through OCL_ICD_FILENAMES"
    OCL_ICD_FILENAMES=$lib build/tools/bench/clsa-startup "$CLSA_DEVICE"
    for r in 1 2 3; do
        echo "cli_1_byte_ms all=$(cli_ms env CLSA_BACKEND=device) only=$(cli_ms env CLSA_BACKEND=device OCL_ICD_VENDORS="$only")"
    done
    # the whole process from outside, with clsa_destroy and with it left to exit
    for r in 1 2 3; do
        echo "process_ms destroy=$(cli_ms_of build/tools/bench/clsa-startup "$CLSA_DEVICE") no_destroy=$(cli_ms_of build/tools/bench/clsa-startup "$CLSA_DEVICE" --no-destroy)"
    done
} 2>&1 | tee "$OUT/startup.txt"

# ---- kernels -----------------------------------------------------------------------
TEXT=cat:english.txt+howto.txt+sources.txt
INPUTS=${PROFILE_INPUTS:-"text=$TEXT@100M random:4@100M random:256@100M text1=$TEXT@1M text10=$TEXT@10M mutated:65536@50M fibonacci@16M"}
# shellcheck disable=SC2086
{
    build/tools/bench/clsa-bench -r 3 --ref-reps 0 --check-max 16M --dir "$CORPUS" sa32 $INPUTS
    build/tools/bench/clsa-bench -r 3 radix
    for t in ${PROFILE_TUNES:-}; do
        echo "-- CLSA_TUNE=$t"
        CLSA_TUNE=$t build/tools/bench/clsa-bench -r 3 --ref-reps 0 --check-max 16M --dir "$CORPUS" sa32 $INPUTS
    done
} 2>&1 | grep -v '^\[bench' | tee "$OUT/profile.txt"
