#!/bin/sh
# fault_inject_check.sh LIBCLSA.a "WRAPPED NAMES"
# Fails if the static library calls an OpenCL entry point that
# tests/fault_inject.c does not wrap (test_faults would then miss its faults),
# or calls one directly instead of through host/runtime/cl_loader.h (the
# library must not need libOpenCL to load, see cl_loader.h).
set -u
lib=$1
wrapped=" $2 "
direct=$(nm -u "$lib" 2>/dev/null | awk '$2 ~ /^cl[A-Z]/ {print $2}' | sort -u)
if [ -n "$direct" ]; then
  echo "called directly, not through host/runtime/cl_loader.h:" $direct
  exit 1
fi
used=$(nm -u "$lib" 2>/dev/null | awk '$2 ~ /^clsa__cl[A-Z]/ {print substr($2, 7)}' | sort -u)
[ -n "$used" ] || { echo "no OpenCL symbols found in $lib"; exit 1; }
missing=0
for s in $used; do
  case "$wrapped" in
    *" $s "*) ;;
    *) echo "not wrapped by tests/fault_inject.c: $s"; missing=1 ;;
  esac
done
[ $missing = 0 ] && echo "all $(echo "$used" | wc -l) OpenCL entry points used by the library are wrapped"
exit $missing
