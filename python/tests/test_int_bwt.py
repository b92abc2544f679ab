"""Integer-alphabet BWT (clsa.bwt / clsa.unbwt on uint16/uint32/uint64
arrays) against a naive Python construction, and saving the FM-index of a
set (FMSetIndex.save / load) against the unsaved index and a naive search;
damaged files raise FormatError.  Generated inputs with fixed seeds, on
each implementation and the host backend."""
import numpy as np
import pytest

import clsa

TYPES = [np.uint16, np.uint32, np.uint64]


def naive_bwt(t):
    """divbwt convention: bwt[0] = t[n-1], then t[sa[i]-1] for sa[i] != 0;
    primary = 1 + the rank of suffix 0."""
    vals = [int(v) for v in t]
    n = len(vals)
    if n == 0:
        return [], 0
    sa = sorted(range(n), key=lambda p: vals[p:])
    out, primary = [vals[-1]], 0
    for i, s in enumerate(sa):
        if s == 0:
            primary = i + 1
        else:
            out.append(vals[s - 1])
    return out, primary


def texts(dtype, rng):
    top = np.iinfo(dtype).max
    for n in [0, 1, 2, 3, 40, 300]:
        yield np.full(n, top, dtype=dtype)                       # all equal, the maximum
        yield rng.choice(np.array([0, 1, top], dtype=dtype), n)  # 0 and the maximum
        yield rng.integers(0, top, n, dtype=dtype, endpoint=True)
        yield np.array([(i % 5) * (top // 4) for i in range(n)], dtype=dtype)  # periodic


@pytest.mark.parametrize("dtype", TYPES)
def test_bwt_int(ctx, host, dtype):
    rng = np.random.default_rng(11)
    for t in texts(dtype, rng):
        want, wantp = naive_bwt(t)
        for c in (ctx, host):
            b, p = c.bwt(t)
            assert b.dtype == np.dtype(dtype)
            assert (b.tolist(), p) == (want, wantp), (len(t), c)
            back = c.unbwt(b, p)
            assert back.dtype == np.dtype(dtype) and np.array_equal(back, t)
    b, p = clsa.bwt(np.array([3, 1, 2], dtype=dtype), ctx=host)
    assert clsa.unbwt(b, p, ctx=host).tolist() == [3, 1, 2]


def test_bwt_int_errors(host):
    with pytest.raises(clsa.InvalidArgumentError):
        host.unbwt(np.array([1, 2], dtype=np.uint32), 3)
    with pytest.raises(clsa.InvalidArgumentError):
        host.unbwt(np.array([1, 2], dtype=np.uint64), 0)
    with pytest.raises(TypeError):
        host.bwt(np.array([1, 2], dtype=np.int32))


def naive_find(strings, pat):
    found = ([], [])
    for i, s in enumerate(strings):
        for o in range(len(s) - len(pat) + 1):
            if len(pat) == 0 and o >= len(s):
                break
            if s[o:o + len(pat)] == pat:
                found[0].append(i)
                found[1].append(o)
    return found


def test_fm_set_save_load(ctx, tmp_path):
    rng = np.random.default_rng(12)
    for shape in range(4):
        k = int(rng.integers(1, 8))
        if shape == 3:  # every byte value: no separator byte is free
            strings = [bytes(rng.integers(0, 256, 300, dtype=np.uint8)) + bytes(range(256))
                       for _ in range(k)]
        else:
            strings = [bytes(rng.choice(list(b"ACGT"), int(rng.integers(0, 40))).astype(np.uint8))
                       for _ in range(k)]
        made = clsa.FMSetIndex(strings, sample_rate=[1, 4, 32, 7][shape], ctx=ctx)
        path = tmp_path / f"set{shape}.fm"
        made.save(path)
        loaded = clsa.FMSetIndex.load(path, ctx=ctx)
        assert (len(loaded), loaded.total, loaded.sample_rate) == \
            (len(made), made.total, made.sample_rate)
        pats = [b"", b"A", b"AC", b"GTA", b"TTTT", b"Z", strings[0][:3], strings[-1][-2:]]
        counts = loaded.count(pats)
        assert counts.tolist() == made.count(pats).tolist()
        for p, got, want in zip(pats, loaded.locate(pats), made.locate(pats)):
            naive = naive_find(strings, p)
            assert (got[0].tolist(), got[1].tolist()) == naive, p
            assert (want[0].tolist(), want[1].tolist()) == naive, p
            assert counts[pats.index(p)] == len(naive[0])


def test_fm_set_damaged(ctx, tmp_path):
    made = clsa.FMSetIndex([b"ACGT", b"", b"GATTACA"], ctx=ctx)
    path = tmp_path / "set.fm"
    made.save(path)
    data = path.read_bytes()
    bad = tmp_path / "bad.fm"
    for cut in list(range(0, 80)) + list(range(len(data) - 80, len(data))):
        bad.write_bytes(data[:cut])
        with pytest.raises(clsa.FormatError):
            clsa.FMSetIndex.load(bad, ctx=ctx)
    for i in range(0, len(data), 7):
        flipped = bytearray(data)
        flipped[i] ^= 0x10
        bad.write_bytes(bytes(flipped))
        with pytest.raises(clsa.FormatError):
            clsa.FMSetIndex.load(bad, ctx=ctx)
    clsa.FMIndex(b"ACGT", ctx=ctx).save(bad)  # the other kind of file
    with pytest.raises(clsa.FormatError):
        clsa.FMSetIndex.load(bad, ctx=ctx)
    with pytest.raises(clsa.FormatError):
        clsa.FMIndex.load(path, ctx=ctx)
    with pytest.raises(clsa.FileError):
        clsa.FMSetIndex.load(tmp_path / "missing.fm", ctx=ctx)
    assert clsa.FMSetIndex.load(path, ctx=ctx).count(b"A") == 4
