#!/bin/sh
# Compiles every kernel program offline for AMD (gfx90a, gfx1100) and SPIR
# (spir64 bitcode, SPIR-V 1.0), as the library builds it at run time; fails
# on any error.  --doc rewrites the resource table in docs/KERNELS.md;
# --cache DIR also compiles the option sets found in a program cache.
# Details: tools/kernel_check.py.
set -eu
cd "$(dirname "$0")/.."
exec python3 tools/kernel_check.py "$@"
