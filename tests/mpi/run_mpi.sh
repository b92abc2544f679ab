#!/bin/sh
# run_mpi.sh MPIRUN NP COMMAND...: COMMAND on NP ranks of this machine,
# oversubscribed (CI has 2 cores), allowed as root (containers).
set -u
mpirun=$1
np=$2
shift 2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# No network fabric probing on a single host: shared memory and loopback.
export OMPI_MCA_btl="self,vader,tcp" OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
exec "$mpirun" --oversubscribe -np "$np" "$@"
