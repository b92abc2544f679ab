"""Batched suffix arrays and BWTs (clsa.sa_batch, clsa.bwt_batch): every
text's result equals the single-text call on the host backend (the C
library's libdivsufsort path), on each implementation and the host
backend, for generated lists with empty texts, repeats, every symbol width
and a list of none."""
import numpy as np
import pytest

import clsa


def gen_lists(seed):
    rng = np.random.default_rng(seed)
    yield []
    yield [b""]
    yield [b"banana", b"", "ananas", b"a" * 50, bytes(range(256)) * 3]
    for _ in range(6):
        k = int(rng.integers(0, 40))
        texts = []
        for _ in range(k):
            n = int(rng.integers(0, 200))
            sigma = int(rng.choice([2, 4, 26, 256]))
            texts.append(rng.integers(0, sigma, n, dtype=np.uint8).tobytes())
        yield texts


@pytest.mark.parametrize("seed", [1, 2])
def test_sa_batch(ctx, host, seed):
    for texts in gen_lists(seed):
        got = ctx.sa_batch(texts)
        assert len(got) == len(texts)
        for t, sa in zip(texts, got):
            assert sa.dtype == np.int32
            np.testing.assert_array_equal(sa, host.sa(t))
        for t, sa in zip(texts, clsa.sa_batch(texts, index=64, ctx=host)):
            assert sa.dtype == np.int64
            np.testing.assert_array_equal(sa, host.sa(t))


@pytest.mark.parametrize("seed", [3, 4])
def test_bwt_batch(ctx, host, seed):
    for texts in gen_lists(seed):
        got = ctx.bwt_batch(texts)
        assert len(got) == len(texts)
        for t, (b, p) in zip(texts, got):
            want, wp = host.bwt(t) if len(t) else (np.empty(0, np.uint8), 0)
            np.testing.assert_array_equal(b, want)
            assert p == wp


@pytest.mark.parametrize("dtype", [np.uint16, np.uint32, np.uint64])
def test_integer_widths(ctx, host, dtype):
    rng = np.random.default_rng(7)
    mx = np.iinfo(dtype).max
    texts = [rng.choice(np.array([0, 1, mx], dtype=dtype), int(rng.integers(0, 60)))
             for _ in range(12)]
    for t, sa in zip(texts, ctx.sa_batch(texts)):
        vals = [int(c) for c in t]
        want = sorted(range(len(vals)), key=lambda i: vals[i:])
        np.testing.assert_array_equal(sa, np.array(want, dtype=np.int32))
    for t, (b, p) in zip(texts, ctx.bwt_batch(texts)):
        if len(t):
            want, wp = host.bwt(t)
            np.testing.assert_array_equal(b, want)
            assert p == wp
