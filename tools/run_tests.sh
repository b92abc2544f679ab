#!/bin/sh
# tools/run_tests.sh [--quick]
# The whole test suite on a fresh machine (what CI runs): set up, build, run
# every test on PoCL, rusticl (llvmpipe) and Oclgrind; then the offline
# kernel compiles, the Python package, the installed package, and the
# sanitizer and fuzzing jobs.  Every OpenCL implementation must be present
# (CLSA_TEST_REQUIRE=1): a skip for a missing one is a failure here.
#   --quick  the edit loop: build, then the host tests and every device test
#            on PoCL with small inputs (CLSA_TEST_SMALL=1), nothing else
# One kernel cache serves every job (build-test/kernel-cache).  Each test's
# and each job's seconds go to build-test/test-times.txt and
# build-test/job-times.txt; the slowest are printed at the end.
set -eu
cd "$(dirname "$0")/.."
mode=full
case "${1:-}" in
  --quick) mode=quick ;;
  "") ;;
  *) echo "usage: tools/run_tests.sh [--quick]" >&2; exit 2 ;;
esac
root=$(pwd)
jobs=$(nproc)
out=$root/build-test
export CLSA_TEST_REQUIRE=1 RUSTICL_ENABLE=llvmpipe
export CLSA_TEST_CACHE="$out/kernel-cache"
export CLSA_TEST_TIMES="$out/test-times.txt"
# Each kernel launched, by implementation (tests/kernel_coverage.py).
export CLSA_TEST_LAUNCHES="$out/launches"

# job NAME CMD...: runs CMD, appending "NAME wall user sys" to job-times.txt.
job() {
  name=$1
  shift
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -a -o "$out/job-times.txt" -f "$name %e %U %S" "$@"
  else
    "$@"
  fi
}
# The slowest tests and every job, wall and CPU (user + sys) seconds.
report() {
  [ -s "$CLSA_TEST_TIMES" ] && awk 'NF == 5 && $3 ~ /^[0-9.]+$/ {
      n++; w += $3; c += $4 + $5; print $4 + $5, $3, $1 == "host" ? $2 : $2 "." $1 }
    END { if (n) printf "%d test runs: %.0f s wall, %.0f s CPU in all\n", n, w, c > "/dev/stderr" }' \
    "$CLSA_TEST_TIMES" | sort -rn | head -15 |
    awk '{ printf "  cpu %6.1f s  wall %6.1f s  %s\n", $1, $2, $3 }'
  [ -s "$out/job-times.txt" ] && awk 'NF == 4 && $2 ~ /^[0-9.]+$/ {
      printf "job %-10s wall %6.0f s  cpu %6.0f s\n", $1, $2, $3 + $4 }' "$out/job-times.txt"
  return 0
}

./tools/setup.sh
mkdir -p "$out"
: > "$CLSA_TEST_TIMES"
: > "$out/job-times.txt"
rm -f "$CLSA_TEST_LAUNCHES".*
cmake -S . -B "$out" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
job build cmake --build "$out" -j "$jobs" >/dev/null

if [ $mode = quick ]; then
  (cd "$out" && export CLSA_TEST_SMALL=1 && job ctest ctest --output-on-failure -j "$jobs" \
    -L '^(pocl|host)$' -LE mpi --timeout 900)
  report
  echo "quick tests passed (host tests, device tests on PoCL with small inputs);" \
    "the whole suite: tools/run_tests.sh"
  exit 0
fi

# Costliest first (COST: tests/cost.txt).  The PoCL runs labelled
# "sanitized" run once, in ci_sanitize.sh's ASan + UBSan build below.
(cd "$out" && job ctest ctest --output-on-failure -j "$jobs" --timeout 900 -LE sanitized)
# Every kernel program compiled offline for AMD (gfx90a, gfx1100) and SPIR-V,
# with the option sets above from the tests' program cache (docs/KERNELS.md).
[ -x tools/kernel_check.sh ] && job kernels tools/kernel_check.sh --cache "$CLSA_TEST_CACHE"
# Two lanes side by side (each mostly one core: builds' configure and link
# steps, pytest, the installed package's consumers): the Python and package
# jobs, and every PoCL device test and the host tests under ASan + UBSan.
lane_log=$out/lane.log
(
  [ -x python/ci.sh ] && job python python/ci.sh   # the Python package: wheel, install, pytest
  [ -x tests/ci_package.sh ] && job package tests/ci_package.sh   # CMake and pkg-config consumers
  true
) > "$lane_log" 2>&1 &
lane=$!
sanitized=0
[ -x tests/ci_sanitize.sh ] && { job sanitize tests/ci_sanitize.sh || sanitized=$?; }
laned=0
wait $lane || laned=$?
cat "$lane_log"
[ $laned = 0 ] || { echo "run_tests: the python or package job failed (above)"; exit 1; }
[ $sanitized = 0 ] || { echo "run_tests: the sanitizer job failed (above)"; exit 1; }
# The fuzzers (three harnesses side by side).
[ -x tests/ci_fuzz.sh ] && job fuzz tests/ci_fuzz.sh
# Oclgrind runs small inputs, one per code path: every kernel that ran on
# PoCL (full inputs, above) or rusticl must have run on Oclgrind too.
job coverage python3 tests/kernel_coverage.py "$CLSA_TEST_LAUNCHES"
report
echo "all tests passed"
