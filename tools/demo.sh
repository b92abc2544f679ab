#!/bin/sh
# The main job on a fresh machine: set up, build, then build the suffix array
# of the bundled sample on the default OpenCL device and verify it.
set -eu
cd "$(dirname "$0")/.."
./tools/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" >/dev/null
export RUSTICL_ENABLE="${RUSTICL_ENABLE:-llvmpipe}"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
./build/clsa devices
./build/clsa sa --backend device --stats samples/sample.txt "$out/sample.sa"
./build/clsa check samples/sample.txt "$out/sample.sa"
