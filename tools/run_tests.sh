#!/bin/sh
# The whole test suite on a fresh machine: set up, build, run every test on
# PoCL, rusticl (llvmpipe) and Oclgrind; then the sanitizer and fuzzing jobs.
# Every OpenCL implementation must be present (CLSA_TEST_REQUIRE=1): a skip
# for a missing one is a failure here.
set -eu
cd "$(dirname "$0")/.."
./tools/setup.sh
jobs=$(nproc)
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-test -j "$jobs" >/dev/null
export CLSA_TEST_REQUIRE=1 RUSTICL_ENABLE=llvmpipe
export CLSA_TEST_CACHE="$(pwd)/build-test/kernel-cache"
(cd build-test && ctest --output-on-failure -j "$jobs" --timeout 900)
# Every kernel program compiled offline for AMD (gfx90a, gfx1100) and SPIR-V,
# with the option sets above from the tests' program cache (docs/KERNELS.md).
[ -x tools/kernel_check.sh ] && tools/kernel_check.sh --cache "$CLSA_TEST_CACHE"
[ -x python/ci.sh ] && python/ci.sh   # the Python package: wheel, install, pytest
[ -x tests/ci_package.sh ] && tests/ci_package.sh   # installed package: CMake and pkg-config consumers
[ -x tests/ci_sanitize.sh ] && tests/ci_sanitize.sh
[ -x tests/ci_fuzz.sh ] && tests/ci_fuzz.sh
echo "all tests passed"
