#!/bin/sh
# Python package job of tools/run_tests.sh: builds the wheel from this tree
# (scikit-build-core, from PyPI into a venv that sees Debian's numpy, cffi,
# pytest and pyopencl: tools/setup.sh), installs it, and runs python/tests
# against the installed package on PoCL and rusticl.
#   BUILD  folder for the venv, the wheel and its build (default build-py)
set -eu
cd "$(dirname "$0")/.."
build=${BUILD:-build-py}
py=/usr/bin/python3   # Debian's, with the python3-* packages of tools/setup.sh
[ -x "$build/venv/bin/python" ] || "$py" -m venv --system-site-packages "$build/venv"
"$build/venv/bin/pip" install -q --disable-pip-version-check 'scikit-build-core>=0.8'
rm -rf "$build/wheel"
"$build/venv/bin/pip" wheel -q --disable-pip-version-check --no-build-isolation --no-deps \
  --config-settings=build-dir="$(pwd)/$build/cmake" ./python -w "$build/wheel"
wheel=$(ls "$build"/wheel/clsa-*.whl)
echo "python: built $(basename "$wheel") ($(wc -c <"$wheel") bytes)"
"$build/venv/bin/pip" install -q --disable-pip-version-check --no-deps --force-reinstall "$wheel"
# From a neutral folder, so that `import clsa` is the installed package.
export CLSA_DEVICE=pocl RUSTICL_ENABLE=llvmpipe CLSA_PY_IMPLS=pocl,rusticl
export CLSA_CACHE_DIR="${CLSA_TEST_CACHE:-$(pwd)/$build/kernel-cache}"
mkdir -p "$CLSA_CACHE_DIR"
tests=$(pwd)/python/tests
cd "$build" && "$(pwd)/venv/bin/python" -m pytest -q -p no:cacheprovider "$tests"
