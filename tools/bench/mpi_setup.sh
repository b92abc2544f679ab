#!/usr/bin/env bash
# mpi_setup.sh - run ON the GPU machine (tools/bench/mpi_prepare.sh copies it to
# .mpi/setup.sh beside the .debs it downloads here):
#
#   bash .mpi/setup.sh && . /opt/mpiroot/env.sh
#
# Installs Debian bookworm's Open MPI 4.1 (carried in .mpi/debs) into a prefix of
# its own, MPI_ROOT (default /opt/mpiroot), with `dpkg -x`: nothing of the image is
# overwritten, no package database is touched. The Open MPI and PMIx packages
# (.mpi/debs/core) always go there; each dependency (.mpi/debs/deps: libevent,
# hwloc, UCX, libfabric, verbs, ...) only when one of its libraries is missing from
# the image's `ldconfig -p` (MPI_SETUP_ALL_DEPS=1: every one; for testing the
# prefix alone). Writes $MPI_ROOT/env.sh, which points PATH, LD_LIBRARY_PATH,
# OPAL_PREFIX (Open MPI's relocation variable), the PMIx install directories and
# a few MCA settings at the prefix; mpirun, mpicc and ompi_info then come from it.
# Prints `ompi_info --path prefix` through the prefix as a check.
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")
P=${MPI_ROOT:-/opt/mpiroot}
mkdir -p "$P"
for f in "$here"/debs/core/*.deb; do dpkg -x "$f" "$P"; done
cache=$(ldconfig -p 2>/dev/null || true)
for f in "$here"/debs/deps/*.deb; do
    need=${MPI_SETUP_ALL_DEPS:-0}
    if [ "$need" != 1 ]; then
        for so in $(dpkg -c "$f" | awk '{print $6}' | grep -E '/lib[^/]*\.so\.[0-9]+$' | xargs -rn1 basename); do
            grep -q "^[[:space:]]*$so " <<<"$cache" || { need=1; break; }
        done
    fi
    [ "$need" = 1 ] && { dpkg -x "$f" "$P"; echo "mpi_setup: carried $(basename "$f")"; }
done
U=$P/usr
L=$U/lib/x86_64-linux-gnu
# what the packages' maintainer scripts would have made: the alternatives links
for t in mpicc mpicxx mpirun mpiexec; do [ -e "$U/bin/$t.openmpi" ] && ln -sf "$t.openmpi" "$U/bin/$t"; done
[ -f "$U/lib/libpsm1/libpsm_infinipath.so.1.16" ] &&
    ln -sf ../libpsm1/libpsm_infinipath.so.1.16 "$L/libpsm_infinipath.so.1"
X=$L/pmix2
cat >"$P/env.sh" <<EOF
# written by mpi_setup.sh: source it to use the Open MPI under $P
export PATH=$U/bin:\${PATH:-/usr/bin:/bin}
export LD_LIBRARY_PATH=$L:$P/lib/x86_64-linux-gnu:$L/openmpi/lib:$X/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
export OPAL_PREFIX=$U
# Debian's MCA defaults (no ofi/openib/ucx) from the prefix, not /etc/openmpi
export OPAL_SYSCONFDIR=$P/etc/openmpi
export PMIX_PREFIX=$X PMIX_EXEC_PREFIX=$X PMIX_LIBDIR=$X/lib PMIX_DATADIR=$X/share
export PMIX_PKGLIBDIR=$X/lib/pmix PMIX_PKGDATADIR=$X/share/pmix PMIX_SYSCONFDIR=$X/share
# (Debian's pmix-mca-params.conf names the unrelocated plugin folder)
export PMIX_MCA_mca_base_component_path=$X/lib/pmix
# one host: started without ssh (the isolated launcher; the default rsh one
# aborts where no ssh/rsh is installed), shared memory only; as root in a container
export OMPI_MCA_plm=isolated OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_MCA_btl_base_warn_component_unused=0
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# FindMPI: the wrapper of the prefix
export MPI_C_COMPILER=$U/bin/mpicc.openmpi
EOF
# shellcheck disable=SC1091
. "$P/env.sh"
echo "mpi_setup: $(ompi_info --version 2>&1 | head -1); $(ompi_info --path prefix 2>&1 | tr -s ' ')"
echo "mpi_setup: source $P/env.sh"
