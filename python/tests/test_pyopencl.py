"""pyopencl interop on PoCL: clsa adopts the application's queue and works
on its Buffers; pyopencl keeps working beside it."""
import numpy as np
import pytest
from conftest import gen

import clsa

cl = pytest.importorskip("pyopencl")


@pytest.fixture(scope="module")
def queue():
    for p in cl.get_platforms():
        if "portable" in p.name.lower() or "pocl" in p.name.lower():
            return cl.CommandQueue(cl.Context(p.get_devices()))
    raise AssertionError("PoCL platform not found by pyopencl")


def test_mem_calls(queue, host):
    ctx = clsa.Context.from_pyopencl(queue)
    assert ctx.device["name"] == queue.device.name
    mf = cl.mem_flags
    t = gen("random4", 20000, seed=8)
    n = len(t)
    text = cl.Buffer(queue.context, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=t)
    sa_buf = ctx.sa_mem(text, n)
    sa = np.empty(n, dtype=np.int32)
    cl.enqueue_copy(queue, sa, sa_buf)
    assert np.array_equal(sa, host.sa(t))

    sa64 = ctx.sa_mem(text, n, index=64)
    got = np.empty(n, dtype=np.int64)
    cl.enqueue_copy(queue, got, sa64)
    assert np.array_equal(got, sa)

    isa_buf = ctx.isa_mem(sa_buf, n)
    isa = np.empty(n, dtype=np.int32)
    cl.enqueue_copy(queue, isa, isa_buf)
    assert np.array_equal(isa, host.isa(t))

    lcp_buf = ctx.lcp_mem(text, sa_buf, n)
    lcp = np.empty(n, dtype=np.int32)
    cl.enqueue_copy(queue, lcp, lcp_buf)
    assert np.array_equal(lcp, host.lcp(t))

    bwt_buf, primary = ctx.bwt_mem(text, n)
    hb, hp = host.bwt(t)
    bwt = np.empty(n, dtype=np.uint8)
    cl.enqueue_copy(queue, bwt, bwt_buf)
    assert primary == hp and np.array_equal(bwt, hb)
    back = ctx.unbwt_mem(bwt_buf, n, primary)
    out = np.empty(n, dtype=np.uint8)
    cl.enqueue_copy(queue, out, back)
    assert out.tobytes() == t

    keys = np.random.default_rng(1).integers(0, 2**32, 5000, dtype=np.uint32)
    kb = cl.Buffer(queue.context, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=keys)
    vb = cl.Buffer(queue.context, mf.READ_WRITE | mf.COPY_HOST_PTR,
                   hostbuf=np.arange(5000, dtype=np.uint32))
    ctx.radix_sort_mem(kb, 5000, vb, value_bits=32)
    k, v = np.empty_like(keys), np.empty(5000, dtype=np.uint32)
    cl.enqueue_copy(queue, k, kb)
    cl.enqueue_copy(queue, v, vb)
    order = np.argsort(keys, kind="stable")
    assert np.array_equal(k, keys[order]) and np.array_equal(v, order)

    with pytest.raises(ValueError):  # a given output buffer too small
        ctx.sa_mem(text, n, sa=cl.Buffer(queue.context, mf.READ_WRITE, 16))
    ctx.close()
    # pyopencl still works on its own after clsa released its references.
    cl.enqueue_copy(queue, out, text)
    assert out.tobytes() == t


def test_host_calls_on_adopted_queue(queue):
    ctx = clsa.Context.from_pyopencl(queue)
    t = gen("periodic", 1000, seed=0)
    assert ctx.sa(t).tolist() == sorted(range(len(t)), key=lambda i: t[i:])
    fm = ctx.fm_index(t)
    assert fm.count(b"abc") == t.count(b"abc")
