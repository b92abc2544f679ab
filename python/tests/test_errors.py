"""Bad input: clear exceptions carrying the library's message, nothing
written, the context still usable afterwards."""
import os

import numpy as np
import pytest

import clsa
from conftest import IMPLS, gen


@pytest.mark.parametrize("bad, exc", [
    (np.zeros(10, dtype=np.float64), TypeError),
    (np.zeros(10, dtype=np.int16), TypeError),
    (np.zeros((2, 5), dtype=np.uint8), ValueError),
    (np.zeros(20, dtype=np.uint8)[::2], ValueError),
    (memoryview(np.zeros(20, dtype=np.uint8))[::2], ValueError),
    (memoryview(np.zeros(4, dtype=np.uint32)), TypeError),
    (12345, TypeError),
    ([1, 2, 3], TypeError),
])
def test_bad_text(ctx, bad, exc):
    with pytest.raises(exc):
        ctx.sa(bad)


def test_bad_arrays(ctx):
    with pytest.raises(TypeError):
        ctx.radix_sort(np.zeros(8, dtype=np.int32))
    with pytest.raises(ValueError):
        ctx.radix_sort(np.zeros(16, dtype=np.uint32)[::2])
    ro = np.zeros(8, dtype=np.uint32)
    ro.flags.writeable = False
    with pytest.raises(ValueError):
        ctx.radix_sort(ro)
    with pytest.raises(ValueError):
        ctx.radix_sort(np.zeros(8, dtype=np.uint32), np.zeros(7, dtype=np.uint32))
    with pytest.raises(ValueError):
        ctx.lcp(b"banana", sa=np.zeros(5, dtype=np.int32))
    with pytest.raises(ValueError):
        ctx.sa(b"banana", index=16)
    with pytest.raises(ValueError):
        ctx.batched_sort(np.zeros(8, dtype=np.uint32), np.array([0, 5], dtype=np.uint64))


def test_library_errors_carry_the_message(ctx):
    bwt, primary = ctx.bwt(b"mississippi")
    with pytest.raises(clsa.InvalidArgumentError) as e:
        ctx.unbwt(bwt, 99)
    assert e.value.status == -1 and "primary" in str(e.value)
    with pytest.raises(clsa.InvalidArgumentError):  # end_bit beyond the key width
        ctx.radix_sort(np.arange(10, dtype=np.uint32), end_bit=40)
    assert bytes(ctx.unbwt(bwt, primary)) == b"mississippi"  # still works


def _capped(ctx, limit):
    """A device-backend context on ctx's device under CLSA_DEVICE_MEM_LIMIT."""
    name = ctx.device["platform"].split()[0]
    old = os.environ.get("CLSA_DEVICE_MEM_LIMIT")
    os.environ["CLSA_DEVICE_MEM_LIMIT"] = limit
    try:
        return clsa.Context(device=ctx.device["name"] if name == "x" else _selector(ctx),
                            backend="device")
    finally:
        if old is None:
            del os.environ["CLSA_DEVICE_MEM_LIMIT"]
        else:
            os.environ["CLSA_DEVICE_MEM_LIMIT"] = old


def test_device_memory_cap(ctx):
    """Below the out-of-core minimum (about 31 KB) a suffix array fails
    cleanly, naming the limit and the minimum, before any device work; other
    requests beyond the cap fail the same way; small requests still work.
    Under a cap the out-of-core path can meet, the suffix array is built out
    of core and equals the host's."""
    capped = _capped(ctx, "16K")
    text = np.frombuffer(np.random.default_rng(5).integers(0, 4, 1 << 16, dtype=np.uint8),
                         dtype=np.uint8)
    with pytest.raises(clsa.DeviceMemoryError) as e:
        capped.sa(text)
    assert "CLSA_DEVICE_MEM_LIMIT" in str(e.value) and "at least" in str(e.value)
    with pytest.raises(clsa.DeviceMemoryError):
        capped.radix_sort(np.zeros(1 << 20, dtype=np.uint64))
    assert capped.sa(b"banana").tolist() == [5, 3, 1, 0, 4, 2]
    roomy = _capped(ctx, "256K")
    host = clsa.Context(backend="host")
    assert np.array_equal(roomy.sa(text), host.sa(text))


def _selector(ctx):
    p = ctx.device["platform"].lower()
    return "rusticl" if "rusticl" in p else ("pocl" if "portable" in p else ctx.device["name"])


def test_closed_context():
    c = clsa.Context(backend="host")
    c.close()
    with pytest.raises(ValueError):
        c.sa(b"abc")


def test_bad_backend_and_device():
    with pytest.raises(ValueError):
        clsa.Context(backend="gpu")
    with pytest.raises(clsa.NoDeviceError) as e:
        clsa.Context(device="no-such-device-xyz")
    assert "no-such-device-xyz" in str(e.value)


def test_mem_methods_need_pyopencl_context(ctx):
    with pytest.raises(clsa.UnsupportedError):
        ctx.sa_mem(None, 10)


def test_device_lost_status():
    """CLSA_ERR_DEVICE_LOST (a device fault, the OpenCL context lost) has its
    own exception, an OpenCLError, and the library's text for the status."""
    from clsa._errors import _raise
    from clsa._native import ffi, lib
    assert ffi.string(lib.clsa_status_string(-12)).decode() == "device fault: OpenCL context lost"
    with pytest.raises(clsa.DeviceLostError) as e:
        _raise(-12, None)
    assert isinstance(e.value, clsa.OpenCLError)
    assert "context lost" in str(e.value)



@pytest.mark.parametrize("impl", IMPLS)
def test_algorithm(impl, host):
    """Every algorithm gives the host's suffix array; a bad name is refused."""
    t = gen("fibonacci", 3001, 1)
    for algorithm in ("doubling", "skew", "hybrid", "runlen", "auto"):
        c = clsa.Context(device=impl, backend="device", algorithm=algorithm)
        assert list(c.sa(t)) == list(host.sa(t)), algorithm
        c.close()
    with pytest.raises(ValueError):
        clsa.Context(algorithm="dc3")
