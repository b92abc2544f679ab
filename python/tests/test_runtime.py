"""Process-level behaviour: no OpenCL at all, no interposition on an
application's OpenCL symbols, the GIL released during work."""
import ctypes
import os
import subprocess
import sys
import threading
import time

import numpy as np

import clsa
from clsa import _native

NO_OPENCL = r"""
import warnings, numpy as np, clsa
ok, why = clsa.opencl_available()
assert not ok and "/nonexistent/libOpenCL.so.1" in why, why
assert clsa.devices() == []
t = bytes(np.random.default_rng(1).integers(97, 100, 3000, dtype=np.uint8))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    sa = clsa.sa(t)
assert any("host backend" in str(x.message) and "libOpenCL" in str(x.message) for x in w), w
assert sa.tolist() == sorted(range(len(t)), key=lambda i: t[i:])
assert clsa.check_sa(t, sa)
b, p = clsa.bwt(t)
assert bytes(clsa.unbwt(b, p)) == t
assert clsa.default_context().device is None
for call in (lambda: clsa.Context(device="pocl"), lambda: clsa.FMIndex(t)):
    try:
        call()
        raise SystemExit("no error")
    except clsa.NoDeviceError as e:
        assert str(e), e
print("ok")
"""


def test_no_opencl_at_all():
    env = dict(os.environ, CLSA_OPENCL_LIBRARY="/nonexistent/libOpenCL.so.1")
    env.pop("CLSA_DEVICE", None)
    r = subprocess.run([sys.executable, "-c", NO_OPENCL], env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_library_defines_no_opencl_symbols():
    """libclsa neither needs nor exports cl* (pyopencl's calls stay its own)."""
    lib = ctypes.CDLL(_native.LIBRARY_PATH)
    for name in ("clGetPlatformIDs", "clCreateBuffer", "clsa__clCreateBuffer"):
        assert not hasattr(lib, name), name
    assert hasattr(lib, "clsa_sa32")
    r = subprocess.run(["readelf", "-d", _native.LIBRARY_PATH], capture_output=True,
                       text=True)
    assert r.returncode == 0 and "NEEDED" in r.stdout, r.stderr
    assert "libOpenCL" not in r.stdout


def test_gil_released(host):
    """Another Python thread runs while a call works in C."""
    t = np.random.default_rng(0).integers(0, 4, 3 << 20, dtype=np.uint8)
    ticks, running = [0], threading.Event()

    def work():
        running.set()
        for _ in range(3):
            host.sa(t)
        running.clear()

    th = threading.Thread(target=work)
    th.start()
    running.wait()
    start = time.monotonic()
    while running.is_set():
        ticks[0] += 1
        time.sleep(0.001)
    th.join()
    elapsed = time.monotonic() - start
    # Holding the GIL for the whole call would leave ~0 ticks.
    assert elapsed > 0.05 and ticks[0] >= 10, (ticks[0], elapsed)
