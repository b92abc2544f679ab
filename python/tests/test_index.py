"""Suffix array, ISA, BWT, LCP, LCS: differential against naive Python on
small inputs and against the C host backend (libdivsufsort) on larger ones,
on each implementation; every accepted input type gives the same answer."""
import mmap

import numpy as np
import pytest
from conftest import KINDS, gen, naive_lcp, naive_sa

import clsa


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("n", [0, 1, 2, 17, 600])
def test_small_against_naive(ctx, kind, n):
    t = gen(kind, n, seed=n + 11)
    ref = naive_sa(t)
    sa = ctx.sa(t)
    assert sa.dtype == np.int32 and sa.tolist() == ref
    sa64 = ctx.sa(t, index=64)
    assert sa64.dtype == np.int64 and sa64.tolist() == ref
    assert ctx.lcp(t).tolist() == naive_lcp(t, ref)
    assert ctx.lcp(t, sa=sa64).tolist() == naive_lcp(t, ref)
    isa = ctx.isa(t)
    assert all(isa[ref[i]] == i for i in range(n))
    assert ctx.isa(sa=sa).tolist() == isa.tolist()
    bwt, primary = ctx.bwt(t)
    if n:  # divbwt: text + $, the $ left out, primary = its row
        rows = [n] + ref  # suffix n ($ alone) sorts first
        full = [t[i - 1] if i > 0 else None for i in rows]
        assert primary == full.index(None)
        assert bytes(bwt) == bytes(c for c in full if c is not None)
    assert bytes(ctx.unbwt(bwt, primary)) == t
    assert clsa.check_sa(t, sa)


@pytest.mark.parametrize("kind", KINDS)
def test_larger_against_host_backend(ctx, host, kind):
    t = gen(kind, 20000, seed=3)
    ref = host.sa(t)
    assert np.array_equal(ctx.sa(t), ref)
    assert np.array_equal(ctx.sa(t, 64), ref)
    assert np.array_equal(ctx.lcp(t), host.lcp(t))
    assert np.array_equal(ctx.isa(t), host.isa(t))
    b, p = ctx.bwt(t)
    hb, hp = host.bwt(t)
    assert p == hp and np.array_equal(b, hb)
    assert bytes(ctx.unbwt(b, p)) == t


def test_input_types(ctx, tmp_path):
    t = gen("random4", 3000, seed=5)
    ref = naive_sa(t)
    arr = np.frombuffer(t, dtype=np.uint8)
    path = tmp_path / "text"
    path.write_bytes(t)
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        inputs = [t, bytearray(t), memoryview(t), t.decode("ascii"), arr, arr.copy(), mm,
                  memoryview(b"xx" + t)[2:]]
        for x in inputs:
            assert ctx.sa(x).tolist() == ref, type(x)
    s = "häuser über straßen"  # str is UTF-8 encoded
    assert ctx.sa(s).tolist() == naive_sa(s.encode("utf-8"))


def test_outputs_are_written_in_place(ctx):
    sa = ctx.sa(b"abracadabra" * 50)
    assert sa.flags.owndata and sa.flags.c_contiguous and sa.flags.writeable


def test_lcs_against_naive(ctx, host):
    rng = np.random.default_rng(9)
    for trial in range(6):
        a = bytes(rng.integers(97, 100, int(rng.integers(0, 60)), dtype=np.uint8))
        b = bytes(rng.integers(97, 100, int(rng.integers(0, 60)), dtype=np.uint8))
        best = (0, 0, 0)
        for i in range(len(a)):
            for j in range(len(b)):
                k = 0
                while i + k < len(a) and j + k < len(b) and a[i + k] == b[j + k]:
                    k += 1
                if k > best[0]:
                    best = (k, i, j)
        got = ctx.lcs(a, b)
        assert tuple(got) == best and tuple(host.lcs(a, b)) == best


def test_module_functions_use_default_context(ctx):
    t = gen("fibonacci", 500, seed=1)
    assert clsa.sa(t, ctx=ctx).tolist() == naive_sa(t)
    assert clsa.sa(t).tolist() == naive_sa(t)  # default context (CLSA_DEVICE)


def test_integer_alphabets(ctx):
    toks = np.random.default_rng(4).integers(0, 70000, 2000).astype(np.uint32)
    ref = sorted(range(len(toks)), key=lambda i: toks[i:].tolist())
    edges = np.array([0, 4294967295, 0, 4294967295, 4294967295, 0, 7], dtype=np.uint32)
    for arr in (toks, (toks % 65536).astype(np.uint16), edges, edges.astype(np.uint16)):
        ref = sorted(range(len(arr)), key=lambda i: arr[i:].tolist())
        assert ctx.sa(arr).tolist() == ref
        assert ctx.sa(arr, index=64).tolist() == ref
        assert clsa.Context(backend="host").sa(arr).tolist() == ref


def test_trim_between_calls(ctx):
    """The device memory kept between calls, released by trim: the calls
    before and after it give the same, right answers."""
    for n in (2000, 700, 2000):
        t = gen("random4", n, seed=n + 3)
        ref = naive_sa(t)
        assert ctx.sa(t).tolist() == ref
        ctx.trim()
        assert ctx.sa(t).tolist() == ref
