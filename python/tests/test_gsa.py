"""Generalized suffix array, document array and its LCP (clsa.gsa,
clsa.gsa_lcp): differential against a naive Python sort of the virtual
text's suffixes on generated sets of strings, on each implementation and
the host backend; every accepted input type gives the same answer."""
import numpy as np
import pytest

import clsa

MAX = {np.uint8: 0xFF, np.uint16: 0xFFFF, np.uint32: 0xFFFFFFFF}


def virtual(strings):
    """The virtual text: $_i -> i - k (below every symbol), symbol c -> c;
    and the string of each position."""
    k = len(strings)
    vt, doc = [], []
    for i, s in enumerate(strings):
        vt += [int(c) for c in s] + [i - k]
        doc += [i] * (len(s) + 1)
    return vt, doc


def naive(strings):
    vt, doc = virtual(strings)
    sa = sorted(range(len(vt)), key=lambda p: vt[p:])
    lcp = [0] * len(sa)
    for i in range(1, len(sa)):
        x, y, h = sa[i - 1], sa[i], 0
        while x + h < len(vt) and y + h < len(vt) and vt[x + h] >= 0 \
                and vt[x + h] == vt[y + h]:
            h += 1
        lcp[i] = h
    return sa, [doc[p] for p in sa], lcp


def gen_sets(dtype, seed, count):
    rng = np.random.default_rng(seed)
    mx = MAX[dtype]
    out = [[], [np.array([], dtype=dtype)], [np.array([0, mx, 0], dtype=dtype)] * 3]
    for _ in range(count):
        k = int(rng.integers(1, 7))
        values = rng.choice([0, 1, mx - 1, mx], size=4) if rng.integers(2) else \
            rng.integers(0, mx, size=4, endpoint=True)
        base = rng.choice(values, size=int(rng.integers(0, 20))).astype(dtype)
        sets = []
        for _ in range(k):
            shape = int(rng.integers(4))
            if shape == 0:
                sets.append(base[:int(rng.integers(0, len(base) + 1))])  # a prefix
            elif shape == 1:
                sets.append(base.copy())  # identical
            elif shape == 2:
                sets.append(np.array([], dtype=dtype))  # empty
            else:
                sets.append(rng.choice(values, size=int(rng.integers(0, 15))).astype(dtype))
        out.append(sets)
    return out


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32])
def test_against_naive(ctx, host, dtype):
    for i, strings in enumerate(gen_sets(dtype, seed=5 + MAX[dtype] % 97, count=40)):
        ref_sa, ref_doc, ref_lcp = naive(strings)
        for c in (ctx, host):
            index = 32 if i % 2 else 64
            sa, doc = c.gsa(strings, doc=True, index=index)
            assert sa.dtype == (np.int32 if index == 32 else np.int64)
            assert sa.tolist() == ref_sa and doc.tolist() == ref_doc, (i, strings)
            assert c.gsa(strings).tolist() == ref_sa
            lcp = c.gsa_lcp(strings, sa)
            assert lcp.dtype == sa.dtype and lcp.tolist() == ref_lcp, (i, strings)


def test_input_types(ctx):
    want = ctx.gsa([b"banana", b"", b"ban"])
    assert want.tolist() == [6, 7, 11, 5, 9, 3, 1, 8, 0, 10, 4, 2]
    assert clsa.gsa(["banana", bytearray(), memoryview(b"ban")], ctx=ctx).tolist() \
        == want.tolist()
    arrays = [np.frombuffer(s, dtype=np.uint8) for s in (b"banana", b"", b"ban")]
    assert ctx.gsa(arrays).tolist() == want.tolist()
    wide = [a.astype(np.uint16) for a in arrays]
    assert ctx.gsa(wide).tolist() == want.tolist()
    assert ctx.gsa([wide[0], b"", "ban"]).tolist() == want.tolist()  # widened
    assert clsa.gsa_lcp([b"banana", b"", b"ban"], want, ctx=ctx).tolist() == \
        [0, 0, 0, 0, 1, 2, 3, 0, 3, 0, 1, 2]


def test_errors(ctx):
    with pytest.raises(TypeError):
        ctx.gsa([b"ab", 5])
    with pytest.raises(TypeError):
        ctx.gsa([np.zeros(3, dtype=np.int32)])
    with pytest.raises(ValueError):
        ctx.gsa([np.zeros((2, 2), dtype=np.uint8)])
    sa = ctx.gsa([b"ab", b"b"])
    with pytest.raises(ValueError):
        ctx.gsa_lcp([b"ab", b"b"], sa[:-1])
    bad = sa.copy()
    bad[1] = bad[0]
    with pytest.raises(clsa.InvalidArgumentError):
        ctx.gsa_lcp([b"ab", b"b"], bad)
