#!/bin/sh
# sais_bench.sh: clsa's libsais API, libsais() and libsais_bwt(), as a
# program linked to libclsa_sais calls them, on English-like text of 100 MB
# and 1 MB, beside libdivsufsort's divsufsort() / divbwt() on the same text.
# Run from the repository root after a Release build in build/ (or BUILD=dir):
#   CLSA_DEVICE=gpu sh tools/bench/sais_bench.sh
# Rows (one a line, "sais op=... size=... path=... mbps=... ok=1"):
#   route=auto    the library's own routing (the crossover of compat_ctx.h)
#   route=device  every size on the device (CLSA_COMPAT_MIN_BYTES=0), small
#                 sizes too, to place the crossover
#   route=cpu     the CPU path (CLSA_BACKEND=host)
set -eu
build=${BUILD:-build}
bin=$build/clsa-sais-bench
[ -x "$bin" ] || { echo "no $bin: build clsa (Release) in $build first" >&2; exit 1; }
export CLSA_DEVICE=${CLSA_DEVICE:-gpu}
"$bin" 100M 1M | sed 's/^/route=auto /'
CLSA_COMPAT_MIN_BYTES=0 "$bin" 1M 256K 64K | grep -v 'op=div' | sed 's/^/route=device /'
CLSA_BACKEND=host "$bin" 1M 256K 64K | grep -v 'op=div' | sed 's/^/route=cpu /'
