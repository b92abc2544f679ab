#!/usr/bin/env bash
# mpi_prepare.sh - run HERE (a Debian bookworm machine with apt), from the project
# root, before a device call that runs clsa-mpi (tools/bench/mpi_gpu_run.sh).
# Puts Debian bookworm's Open MPI 4.1 into ./.mpi/ (git-ignored: /.mpi/ goes to
# the repository's info/exclude), with setup.sh (tools/bench/mpi_setup.sh) beside
# it; then name ".mpi" in the device call's carry list (with ".device").
#   .mpi/debs/core  Open MPI (runtime, mpirun, mpicc and its wrapper data, mpi.h)
#                   and PMIx: always installed into the prefix there
#   .mpi/debs/deps  their library dependencies that an Ubuntu 24.04 image with
#                   build-essential may lack: installed only where missing
# Left out on purpose: what such an image surely has (libc6, libgcc-s1,
# libstdc++6, zlib1g), what only packaging wants (openssh-client, gfortran,
# the -dev packages of the dependencies, javascript), libhwloc-plugins (X11,
# libxml2: optional hwloc plugins) and ibverbs-providers (RDMA hardware drivers).
# dpkg -x ignores dependencies, so the missing ones do not matter.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
ex=$(git rev-parse --git-common-dir)/info/exclude
mkdir -p "$(dirname "$ex")"
grep -qx '/.mpi/' "$ex" 2>/dev/null || echo '/.mpi/' >>"$ex"
mkdir -p .mpi/debs/core .mpi/debs/deps
cp "$(dirname "$(readlink -f "$0")")/mpi_setup.sh" .mpi/setup.sh
core="openmpi-bin libopenmpi3 openmpi-common libopenmpi-dev libpmix2"
deps="libevent-core-2.1-7 libevent-pthreads-2.1-7 libhwloc15 libudev1 libatomic1 libnuma1
      libmunge2 libucx0 libfabric1 libibverbs1 librdmacm1 libnl-3-200 libnl-route-3-200
      libpsm2-2 libpsm-infinipath1"
fetch() { # DIR PACKAGE...: apt-get download those not there yet
    local d=$1 missing=""
    shift
    for p in "$@"; do ls "$d/${p}"_*.deb >/dev/null 2>&1 || missing="$missing $p"; done
    [ -z "$missing" ] && return
    # shellcheck disable=SC2086
    (cd "$d" && { apt-get download $missing >/dev/null 2>&1 ||
        { apt-get update -qq >/dev/null 2>&1 || true; apt-get download $missing; }; })
}
# shellcheck disable=SC2086
fetch .mpi/debs/core $core
# shellcheck disable=SC2086
fetch .mpi/debs/deps $deps
ls -1 .mpi/debs/core .mpi/debs/deps
total=$(du -cb .mpi | tail -1 | cut -f1)
echo "total: $total bytes ($((total / 1048576)) MiB) in .mpi"
[ "$total" -lt $((20 * 1048576)) ] || { echo "mpi_prepare: .mpi is over 20 MiB" >&2; exit 1; }
echo "ready: carry [\".device\", \".corpus\", \".mpi\"] and start the device command with:"
echo "  bash .device/setup.sh && MPI_LIMIT=500 bash tools/bench/mpi_gpu_run.sh"
