#!/bin/sh
# The main job on a fresh machine: set up, build the CLI, then build the
# suffix array of the bundled sample on the default OpenCL device and verify it.
set -eu
cd "$(dirname "$0")/.."
./tools/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" --target clsa_cli >/dev/null
export RUSTICL_ENABLE="${RUSTICL_ENABLE:-llvmpipe}"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
./build/clsa devices | tee "$out/devices"
# clsa compiles its OpenCL kernels the first time it meets a device and
# keeps them in a cache.  On PoCL the demo leaves that cache to PoCL's own
# (kernels by the work-group size they ran with): asking PoCL for a program
# binary, which clsa's cache stores, makes it compile every kernel of the
# program, launched or not: three times the CPU of a first run
# (docs/bench/log/pocl-dev-machine.md).
cache="${CLSA_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/clsa}"
entries="$cache/*.bin"
if grep -q '^\* .*Portable Computing Language' "$out/devices"; then
  export CLSA_CACHE="${CLSA_CACHE:-0}"
  cache="${POCL_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pocl/kcache}"
  entries="$cache/??"   # a folder per program
fi
# shellcheck disable=SC2086
if ! ls -d $entries >/dev/null 2>&1; then
  echo "demo: first run on this machine: compiling clsa's OpenCL kernels for the device" \
    "(once; about 10 s on 2 CPU cores with PoCL); later runs load them from $cache"
fi
./build/clsa sa --backend device --stats samples/sample.txt "$out/sample.sa"
./build/clsa check samples/sample.txt "$out/sample.sa"
