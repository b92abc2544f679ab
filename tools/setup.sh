#!/bin/sh
# Installs what clsa needs to build and test on Debian/Ubuntu, skipping what
# is already there.  Works as root or through sudo.
set -eu
# bowtie2-examples, andi, phylonium, fsm-lite: the drop-in libdivsufsort's
# client tests (tests/dropin/debian_clients.sh);
# bwa: test_cli_bwa.
pkgs="build-essential cmake pkg-config bwa ocl-icd-opencl-dev opencl-c-headers libdivsufsort-dev
libcmocka-dev pocl-opencl-icd mesa-opencl-icd oclgrind clinfo clang libclang-rt-14-dev
python3-numpy python3-pytest python3-cffi python3-pyopencl python3-venv python3-pip
clang-15 libclang-common-15-dev rocm-device-libs llvm-spirv-14 spirv-tools zlib1g-dev
python-pyfaidx-examples libopenmpi-dev openmpi-bin
bowtie2-examples andi phylonium fsm-lite"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -z "$missing" ]; then
  echo "setup: all dependencies present"
  exit 0
fi
if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
  echo "setup: need root or sudo to install:$missing" >&2; exit 1
fi
echo "setup: installing$missing"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
echo "setup: done"
