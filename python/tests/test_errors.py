"""Bad input: clear exceptions carrying the library's message, nothing
written, the context still usable afterwards."""
import os

import numpy as np
import pytest

import clsa


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


def test_device_memory_cap(ctx):
    """A request beyond CLSA_DEVICE_MEM_LIMIT fails cleanly, before any
    device allocation of that size; small requests on the same context
    still work."""
    name = ctx.device["platform"].split()[0]
    old = os.environ.get("CLSA_DEVICE_MEM_LIMIT")
    os.environ["CLSA_DEVICE_MEM_LIMIT"] = "256K"
    try:
        capped = clsa.Context(device=ctx.device["name"] if name == "x" else _selector(ctx),
                              backend="device")
    finally:
        if old is None:
            del os.environ["CLSA_DEVICE_MEM_LIMIT"]
        else:
            os.environ["CLSA_DEVICE_MEM_LIMIT"] = old
    big = np.zeros(64 << 20, dtype=np.uint8)  # 64 MiB text: ~1 GiB of device work
    with pytest.raises(clsa.DeviceMemoryError) as e:
        capped.sa(big)
    assert "CLSA_DEVICE_MEM_LIMIT" in str(e.value)
    with pytest.raises(clsa.DeviceMemoryError):
        capped.radix_sort(np.zeros(1 << 20, dtype=np.uint64))
    assert capped.sa(b"banana").tolist() == [5, 3, 1, 0, 4, 2]


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
