#!/bin/sh
# ci_sanitize.sh [BUILD_DIR]
# Builds the library, CLI and tests with AddressSanitizer + UBSan
# (-DCLSA_SANITIZE=ON) in a separate folder and runs the test suite on PoCL
# (plus the host-only tests).  LeakSanitizer is on: leaks inside the OpenCL
# drivers are suppressed by tests/lsan.supp, which names only driver
# libraries (never clsa), so a leak in clsa fails the run.
# Then ThreadSanitizer on the host's multi-threaded suffix sorter: its test
# (tests/test_host_sa.c, fewer inputs) built alone with just the sorter
# (about 30 s of CPU).
# Environment: CLSA_SANITIZE_JOBS (build and ctest jobs, default 2),
# CLSA_SANITIZE_TESTS (ctest -R regex, default: all pocl and host tests),
# CLSA_SANITIZE_TSAN=0 (no ThreadSanitizer run).
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build-sanitize}
jobs=${CLSA_SANITIZE_JOBS:-2}
cc=${CC:-cc}
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLSA_SANITIZE=ON \
  -DCMAKE_C_COMPILER="$cc" >/dev/null
cmake --build "$build" -j"$jobs" >/dev/null
# Driver threads and JIT code are not instrumented; stack-use-after-return
# detection and ODR checks misfire across those boundaries.
# use_sigaltstack=0: a driver that starts on a thread other than main (the
# CLI opens its context on a second thread) may install its own alternate
# signal stack from malloc (LLVM inside PoCL does), and ASan would unmap that
# one as its own when the thread exits (a CHECK failure, not a finding).
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:detect_odr_violation=0:verify_asan_link_order=0:use_sigaltstack=0:${ASAN_OPTIONS:-}"
export LSAN_OPTIONS="suppressions=$src/tests/lsan.supp:print_suppressions=0:${LSAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
# Sanitized runs are slower: the fault walk fails one call per call site
# (depth 2) instead of per call stack.
export FI_DEPTH=${FI_DEPTH:-2}
export CLSA_TEST_REQUIRE=1
# Only PoCL's ICD is loaded: Mesa's (clover, rusticl) dlopen and unload
# gallium drivers, whose allocations LeakSanitizer then cannot attribute
# (an "<unknown module>" frame no suppression can name).
vendors=$(mktemp -d)
chmod 755 "$vendors"   # test_cli_hostile runs the CLI as an unprivileged user too
trap 'rm -rf "$vendors"' EXIT
for f in /etc/OpenCL/vendors/*.icd; do
  case "$(cat "$f")" in *pocl*) cp "$f" "$vendors/" ;; esac
done
export OCL_ICD_VENDORS="$vendors"
cd "$build"
# LeakSanitizer's exit-time tracer (the thread that stops the others to scan
# their stacks) sometimes dies itself ("Tracer caught signal 11") while a
# driver's worker threads are exiting: a fault of the tool, not a finding.
# Only then are the failed tests run once more; any real report (a leak, an
# ASan or UBSan error) fails the job at once.
run_ctest() {
  log="$vendors/ctest.log"
  ctest "$@" -j "$jobs" --output-on-failure --timeout 900 --output-log "$log" && return 0
  if grep -q 'Tracer caught signal' "$log" &&
     ! grep -q -e 'ERROR: AddressSanitizer' -e 'ERROR: LeakSanitizer: detected' \
       -e 'runtime error:' "$log"; then
    echo "ci_sanitize: LeakSanitizer's tracer crashed (tool fault); the failed tests once more"
    ctest --rerun-failed -j "$jobs" --output-on-failure --timeout 900
  else
    return 1
  fi
}
regex=${CLSA_SANITIZE_TESTS:-}
if [ -n "$regex" ]; then
  run_ctest -R "$regex"
else
  # Device tests on PoCL, and the host-only tests (no implementation suffix).
  # Not the MPI tests: Open MPI's own allocations at exit, many in its
  # plugins (unnamed modules to LeakSanitizer), would be the only findings.
  run_ctest -R '\.pocl$|^[a-z_]+$' -LE mpi
fi
# ThreadSanitizer: the sorter's pool and scans, no OpenCL in the process.
if [ "${CLSA_SANITIZE_TSAN:-1}" != 0 ]; then
  "$cc" -std=gnu11 -O1 -g -fsanitize=thread -DTEST_HOST_SA_ALONE -I"$src/tests" -I"$src/host" \
    -I"$src/host/cpu" -I"$src/include" -I"$src/tools/gen" "$src/tests/test_host_sa.c" \
    "$src/host/cpu/par_sa.c" "$src/host/cpu/par_pool.c" "$src/tools/gen/gen.c" \
    -lcmocka -ldivsufsort -ldivsufsort64 -lpthread -lm -o "$build/test_host_sa_tsan"
  TSAN_OPTIONS="halt_on_error=1:${TSAN_OPTIONS:-}" "$build/test_host_sa_tsan"
fi
