"""Sorting primitives on numpy arrays, in place, against numpy's stable sort."""
import numpy as np
import pytest

import clsa


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
def test_radix_sort(ctx, dtype):
    rng = np.random.default_rng(1)
    keys = rng.integers(0, np.iinfo(dtype).max, 20000, dtype=dtype, endpoint=True)
    keys[::7] = keys[3]  # ties: stability
    order = np.argsort(keys, kind="stable")
    for vdt in ([np.uint32] if dtype == np.uint32 else [np.uint32, np.uint64]):
        k = keys.copy()
        v = np.arange(len(k), dtype=vdt)
        ctx.radix_sort(k, v)
        assert np.array_equal(k, keys[order]) and np.array_equal(v, order.astype(vdt))
    k = keys.copy()
    clsa.radix_sort(k, begin_bit=0, end_bit=8, ctx=ctx)  # low byte only, stable
    assert np.array_equal(k, keys[np.argsort(keys & 0xFF, kind="stable")])


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
def test_segmented_sort(ctx, dtype):
    rng = np.random.default_rng(2)
    keys = rng.integers(0, 50, 5000).astype(dtype)
    lengths = np.array([0, 1, 7, 300, 2500, 40], dtype=dtype)
    offsets = np.array([0, 3, 10, 20, 400, 3000], dtype=dtype)
    want_k, want_v = keys.copy(), np.arange(len(keys), dtype=dtype)
    for o, n in zip(offsets.tolist(), lengths.tolist()):
        idx = np.argsort(keys[o:o + n], kind="stable")
        want_k[o:o + n] = keys[o:o + n][idx]
        want_v[o:o + n] = want_v[o:o + n][idx]
    k, v = keys.copy(), np.arange(len(keys), dtype=dtype)
    clsa.segmented_sort(k, offsets, lengths, v, ctx=ctx)
    assert np.array_equal(k, want_k) and np.array_equal(v, want_v)


@pytest.mark.parametrize("dtype", [np.uint32, np.float32])
def test_batched_sort(ctx, dtype):
    rng = np.random.default_rng(3)
    sizes = [0, 1, 5, 100, 3000, 64]
    starts = np.zeros(len(sizes) + 1, dtype=np.uint64)
    starts[1:] = np.cumsum(sizes)
    if dtype == np.uint32:
        keys = rng.integers(0, 1000, int(starts[-1])).astype(np.uint32)
    else:
        keys = rng.normal(size=int(starts[-1])).astype(np.float32)
    k, v = keys.copy(), np.arange(len(keys), dtype=np.uint32)
    ctx.batched_sort(k, starts, v)
    for a in range(len(sizes)):
        s, e = int(starts[a]), int(starts[a + 1])
        idx = np.argsort(keys[s:e], kind="stable")
        assert np.array_equal(k[s:e], keys[s:e][idx]) and np.array_equal(v[s:e], s + idx)


def test_primitives_need_a_device(host):
    with pytest.raises(clsa.NoDeviceError):
        host.radix_sort(np.arange(10, dtype=np.uint32))
