#!/bin/sh
# ci_fuzz.sh [SECONDS_PER_HARNESS] [BUILD_DIR]
# Builds the libFuzzer harnesses with clang (-DCLSA_FUZZ=ON: ASan + UBSan +
# coverage) and runs each for about SECONDS of CPU (default 50; the three
# side by side, 3/2 SECONDS of wall on 2 cores) from its seed corpus in
# tests/fuzz/corpus/<harness>/.  Any crash, sanitizer report or failed
# differential check fails the script (libFuzzer exits nonzero and leaves
# the input as crash-* / leak-* / timeout-* in the harness's work folder,
# printed).
# The device harnesses run on PoCL (only its ICD is loaded).
set -eu
secs=${1:-50}
src=$(cd "$(dirname "$0")/.." && pwd)
build=${2:-$src/build-fuzz}
jobs=${CLSA_FUZZ_JOBS:-2}
command -v clang >/dev/null || { echo "ci_fuzz: clang not found (apt-get install clang libclang-rt-14-dev)"; exit 1; }
CC=clang cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLSA_FUZZ=ON \
  -DCLSA_BUILD_TESTS=OFF -DCMAKE_C_COMPILER=clang >/dev/null
cmake --build "$build" -j"$jobs" --target fuzz_sa fuzz_fm_load fuzz_cli_parse >/dev/null

vendors=$(mktemp -d)
work=$(mktemp -d)
trap 'rm -rf "$vendors"' EXIT
for f in /etc/OpenCL/vendors/*.icd; do
  case "$(cat "$f")" in *pocl*) cp "$f" "$vendors/" ;; esac
done
export OCL_ICD_VENDORS="$vendors" CLSA_DEVICE=pocl
# The suite's kernel cache where run_tests.sh gives one (kernels the tests
# compiled are not compiled again inside the harnesses' time), else our own.
export CLSA_CACHE_DIR="${CLSA_TEST_CACHE:-$work/cache}"
mkdir -p "$CLSA_CACHE_DIR" && chmod 700 "$CLSA_CACHE_DIR"
export ASAN_OPTIONS="detect_odr_violation=0:${ASAN_OPTIONS:-}"
export LSAN_OPTIONS="suppressions=$src/tests/lsan.supp:print_suppressions=0:${LSAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"

# The three harnesses run side by side, each for 3/2 SECONDS: on 2 cores
# each gets the CPU seconds it had alone, in half the wall time.
secs=$((secs * 3 / 2))
fuzz() {
  h=$1
  corpus="$work/corpus-$h"
  mkdir -p "$corpus"
  cp "$src/tests/fuzz/corpus/$h/"* "$corpus/" 2>/dev/null || true
  # The device harnesses keep one context; driver threads allocate behind
  # libFuzzer's per-input leak check, which LeakSanitizer at exit covers.
  leaks=1 quiet=0
  case $h in fuzz_sa|fuzz_fm_load) leaks=0 ;; fuzz_cli_parse) quiet=3 ;; esac
  mkdir -p "$work/$h"
  (cd "$work/$h" && "$build/tests/fuzz/$h" -max_total_time="$secs" -timeout=30 \
    -rss_limit_mb=4096 -detect_leaks=$leaks -close_fd_mask=$quiet -print_final_stats=1 "$corpus" \
    >"$work/$h.log" 2>&1)
}
pids=""
for h in fuzz_sa fuzz_fm_load fuzz_cli_parse; do
  echo "== $h: ${secs}s"
  fuzz $h &
  pids="$pids $!:$h"
done
status=0
for p in $pids; do
  h=${p#*:}
  if ! wait "${p%%:*}"; then
    status=1
    echo "ci_fuzz: $h FAILED"; tail -60 "$work/$h.log"
    ls "$work/$h"/crash-* "$work/$h"/leak-* "$work/$h"/timeout-* 2>/dev/null || true
  else
    echo "$h: $(grep -E "^stat::number_of_executed_units|^#[0-9]+.*DONE" "$work/$h.log" | tail -2 | tr '\n' ' ')"
  fi
done
[ $status = 0 ] && rm -rf "$work"
[ $status = 0 ] || echo "ci_fuzz: inputs and logs kept in $work"
exit $status
