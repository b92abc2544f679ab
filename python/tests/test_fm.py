"""FM-index count/locate against naive search; save/load round trip."""
import numpy as np
import pytest
from conftest import gen

import clsa


def occurrences(t: bytes, p: bytes) -> list:
    if not p:
        return list(range(len(t)))
    return [i for i in range(len(t) - len(p) + 1) if t[i:i + len(p)] == p]


def patterns(t: bytes, rng) -> list:
    ps = [b"", b"\xff\xfe", t[:3], t[-4:], t + b"a"]
    for _ in range(40):
        i = int(rng.integers(0, len(t)))
        ps.append(t[i:i + int(rng.integers(1, 6))])
    return ps


@pytest.mark.parametrize("kind", ["random4", "periodic", "random256"])
def test_count_locate(ctx, kind):
    t = gen(kind, 3000, seed=21)
    fm = clsa.FMIndex(t, sample_rate=8, ctx=ctx)
    assert len(fm) == len(t) and fm.sample_rate == 8
    ps = patterns(t, np.random.default_rng(2))
    counts = fm.count(ps)
    assert counts.dtype == np.uint64
    want = [occurrences(t, p) for p in ps]
    assert counts.tolist() == [len(w) for w in want]
    located = fm.locate(ps)
    assert [x.tolist() for x in located] == want
    assert fm.count(ps[3]) == len(want[3])
    assert fm.locate(ps[3]).tolist() == want[3]
    assert fm.count("ab") == len(occurrences(t, b"ab"))  # str patterns are UTF-8


def test_save_load(ctx, tmp_path):
    t = gen("fibonacci", 2000, seed=0)
    fm = ctx.fm_index(t)
    path = tmp_path / "fib.fmi"
    fm.save(path)
    back = clsa.FMIndex.load(str(path), ctx=ctx)
    assert back.locate(b"abaab").tolist() == occurrences(t, b"abaab")
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(clsa.FormatError):
        clsa.FMIndex.load(path, ctx=ctx)
    with pytest.raises(clsa.FileError):
        clsa.FMIndex.load(tmp_path / "missing", ctx=ctx)


def test_locate_limit(ctx):
    fm = clsa.FMIndex(b"a" * 1000, ctx=ctx)
    with pytest.raises(clsa.TooLargeError):
        fm.locate(b"a", max_total=10)
    assert len(fm.locate(b"aa")) == 999


def test_needs_a_device(host):
    with pytest.raises(clsa.NoDeviceError) as e:
        clsa.FMIndex(b"banana", ctx=host)
    assert str(e.value)
