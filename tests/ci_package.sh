#!/bin/sh
# The installed package, as another project sees it: build and install clsa
# (Release, no tests) into a temporary prefix, move the prefix elsewhere (a
# build-machine path stored in the package then fails), and build and run a
# small consumer (tests/package/consumer.c) four ways: CMake find_package
# with clsa::clsa and clsa::clsa_static, and cc with pkg-config's flags,
# shared and --static.  Each run computes a suffix array on the host
# backend and compares it with a naive sort.
set -eu
cd "$(dirname "$0")/.."
src=$(pwd)
jobs=${CLSA_JOBS:-2}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clsa-package.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
cc=${CC:-cc}

cmake -S "$src" -B "$tmp/build" -DCMAKE_BUILD_TYPE=Release -DCLSA_BUILD_TESTS=OFF \
  -DCMAKE_INSTALL_PREFIX="$tmp/staged" >/dev/null
# what `cmake --install` installs: the MPI library and tool too where MPI was found
# the drop-in libdivsufsort and the libsais API (compat/) install too
targets="clsa clsa_static clsa_cli clsa_compat clsa_dropin_dss32 clsa_dropin_dss64 clsa_sais clsa_sais_static"
cmake --build "$tmp/build" --target help | grep -q ' clsa_mpi$' && targets="$targets clsa_mpi clsa_mpi_cli"
# shellcheck disable=SC2086
cmake --build "$tmp/build" -j "$jobs" --target $targets >/dev/null
cmake --install "$tmp/build" >/dev/null
mv "$tmp/staged" "$tmp/prefix"
prefix="$tmp/prefix"
libdir=$(dirname "$(find "$prefix" -name clsa.pc -path '*pkgconfig*')")
libdir=$(dirname "$libdir")

if grep -rl "$tmp/staged\|$tmp/build\|$src" "$libdir/cmake/clsa" "$libdir/pkgconfig"; then
  echo "ci_package: the files above name a build-machine path" >&2
  exit 1
fi

# Libraries by absolute path in the exported targets (other than under
# ${_IMPORT_PREFIX}) would not exist on another machine.
if grep -E 'INTERFACE_LINK_LIBRARIES|IMPORTED_LINK' "$libdir"/cmake/clsa/clsaTargets*.cmake |
  grep -E '[";]/'; then
  echo "ci_package: the exported targets name a library by absolute path" >&2
  exit 1
fi

export CLSA_BACKEND=host

# CMake consumer.
cmake -S "$src/tests/package" -B "$tmp/consumer" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$tmp/consumer" -j "$jobs" >/dev/null
"$tmp/consumer/consumer_shared"
"$tmp/consumer/consumer_static"

# pkg-config consumer.
export PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# shellcheck disable=SC2046
$cc -std=c11 -o "$tmp/pc_shared" "$src/tests/package/consumer.c" $(pkg-config --cflags --libs clsa)
LD_LIBRARY_PATH="$libdir" "$tmp/pc_shared"
# Static: the archive by -Bstatic, its dependencies from Libs.private.
# shellcheck disable=SC2046
$cc -std=c11 -o "$tmp/pc_static" "$src/tests/package/consumer.c" $(pkg-config --cflags clsa) \
  $(pkg-config --libs --static clsa | sed 's/-lclsa/-Wl,-Bstatic -lclsa -Wl,-Bdynamic/')
"$tmp/pc_static"
for exe in "$tmp/consumer/consumer_static" "$tmp/pc_static"; do
  if readelf -d "$exe" | grep -q 'libclsa'; then
    echo "ci_package: $exe depends on libclsa.so" >&2
    exit 1
  fi
done
echo "ci_package: CMake and pkg-config consumers passed"
