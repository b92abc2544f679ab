#!/usr/bin/env bash
# runlen_bench.sh - run-length reduction's rows (issue 50; docs/SA.md
# "Run-length reduction"): tools/bench/skew_bench.sh with ROWS=runlen (its
# header says which rows).  From the repository root with a built Release
# `build/`; builds nothing; about 2-3 minutes on the H200.
#
#   CLSA_DEVICE=gpu bash tools/bench/runlen_bench.sh
set -uo pipefail
ROWS=runlen exec bash "$(dirname "$0")/skew_bench.sh" "$@"
