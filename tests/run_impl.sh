#!/bin/sh
# run_impl.sh IMPL TEST_BINARY
# Runs one test binary on one OpenCL implementation:
#   pocl      PoCL's CPU device
#   rusticl   Mesa rusticl on llvmpipe (the costliest binaries on small
#             inputs: CLSA_RUSTICL_SMALL in tests/CMakeLists.txt)
#   oclgrind  the Oclgrind simulator, small inputs (CLSA_TEST_SMALL) and
#             one case per code path (CLSA_TEST_LEAN), with data-race,
#             uninitialised-memory and API checks; any diagnostic it logs fails
#   host      no device needed (host-only tests)
# Exit 77 = skipped (implementation missing), unless CLSA_TEST_REQUIRE=1.
set -u
impl=$1
bin=$2
shift 2
export CLSA_CACHE_DIR="${CLSA_TEST_CACHE:-${TMPDIR:-/tmp}/clsa-test-cache-$(id -u)}"
mkdir -p "$CLSA_CACHE_DIR" && chmod 700 "$CLSA_CACHE_DIR"
# A `clsa serve` the developer left running would take the CLI tests'
# commands with its own OpenCL environment (it forwards only CLSA_*
# variables, so not RUSTICL_ENABLE): the tests run in process, except
# test_cli_serve, which starts its own server on its own socket.
export CLSA_SERVE=0
# CLSA_TEST_TIMES=FILE (tools/run_tests.sh): each run appends a line
# "IMPL BINARY[+ARGS] wall user sys" (seconds) through /usr/bin/time.
# CLSA_TEST_LAUNCHES=PREFIX (tools/run_tests.sh): the library notes each
# kernel it launches in PREFIX.IMPL (tests/kernel_coverage.py reads them).
[ -n "${CLSA_TEST_LAUNCHES:-}" ] && export CLSA_TEST_LAUNCH_LOG="$CLSA_TEST_LAUNCHES.$impl"
tag="$impl $(basename "$bin")"
[ $# -gt 0 ] && tag="$tag$(printf '+%s' "$@")"
timed() {
  if [ -n "${CLSA_TEST_TIMES:-}" ] && [ -x /usr/bin/time ]; then
    /usr/bin/time -a -o "$CLSA_TEST_TIMES" -f "$tag %e %U %S" "$@"
  else
    "$@"
  fi
}
exec_timed() {
  if [ -n "${CLSA_TEST_TIMES:-}" ] && [ -x /usr/bin/time ]; then
    exec /usr/bin/time -a -o "$CLSA_TEST_TIMES" -f "$tag %e %U %S" "$@"
  fi
  exec "$@"
}
case "$impl" in
  pocl)
    export CLSA_DEVICE=pocl
    exec_timed "$bin" "$@" ;;
  rusticl)
    export CLSA_DEVICE=rusticl RUSTICL_ENABLE=llvmpipe
    exec_timed "$bin" "$@" ;;
  oclgrind)
    if ! command -v oclgrind >/dev/null 2>&1; then
      echo "SKIP: oclgrind not installed"
      [ "${CLSA_TEST_REQUIRE:-0}" = 1 ] && exit 1
      exit 77
    fi
    export CLSA_DEVICE=oclgrind CLSA_TEST_SMALL=1 CLSA_TEST_LEAN=1
    # Oclgrind opens --log afresh (truncating it) for every OpenCL context,
    # so a file would keep only what came after the last context was made.
    # A pipe cannot be truncated: every context writes into this FIFO, whose
    # reader copies it all to $log; fd 3 keeps it open between contexts.
    log=$(mktemp)
    fifo=$(mktemp -u)
    mkfifo -m 600 "$fifo" || exit 1
    cat "$fifo" > "$log" &
    reader=$!
    exec 3> "$fifo"
    timed oclgrind --data-races --uninitialized --check-api --log "$fifo" "$bin" "$@"
    rc=$?
    exec 3>&-
    wait $reader
    rm -f "$fifo"
    if [ -s "$log" ]; then
      echo "oclgrind diagnostics:"; head -c 20000 "$log"
      rm -f "$log"
      exit 1
    fi
    rm -f "$log"
    exit $rc ;;
  host)
    exec_timed "$bin" "$@" ;;
  *)
    echo "unknown implementation $impl"; exit 2 ;;
esac
