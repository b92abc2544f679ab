"""Sets of strings, part 2: 64-bit symbols (clsa.sa / clsa.gsa on uint64
arrays), the longest substring shared by m of k strings (clsa.lcs_k) and
the FM-index over a set (clsa.FMSetIndex): differential against naive
Python searches and sorts on generated inputs, on each implementation and
the host backend."""
import numpy as np
import pytest

import clsa

U64 = 0xFFFFFFFFFFFFFFFF


def u64_values(rng, n):
    """0, 2^64-1, huge sparse values, values equal in their low 32 bits."""
    pool = [0, U64, 1 << 63, (1 << 32) + 5, 5, int(rng.integers(0, 1 << 63)) * 2 + 1]
    return np.array([pool[int(i)] for i in rng.integers(0, len(pool), n)], dtype=np.uint64)


def test_sa_u64(ctx, host):
    rng = np.random.default_rng(64)
    for n in [0, 1, 2, 7, 50, 300]:
        t = u64_values(rng, n)
        vals = [int(v) for v in t]
        want = sorted(range(n), key=lambda p: vals[p:])
        for c in (ctx, host):
            assert c.sa(t).tolist() == want, n
            assert c.sa(t, index=64).tolist() == want, n
    same = np.full(40, U64, dtype=np.uint64)  # all equal
    assert ctx.sa(same).tolist() == list(range(39, -1, -1))


def test_gsa_u64(ctx, host):
    rng = np.random.default_rng(65)
    for _ in range(20):
        strings = [u64_values(rng, int(rng.integers(0, 12))) for _ in range(int(rng.integers(1, 6)))]
        k = len(strings)
        vt = []
        for i, s in enumerate(strings):
            vt += [int(v) for v in s] + [i - k]
        want = sorted(range(len(vt)), key=lambda p: vt[p:])
        for c in (ctx, host):
            sa = c.gsa(strings)
            assert sa.tolist() == want
            lcp = c.gsa_lcp(strings, sa)
            for i in range(1, len(sa)):
                x, y, h = want[i - 1], want[i], 0
                while x + h < len(vt) and y + h < len(vt) and vt[x + h] >= 0 \
                        and vt[x + h] == vt[y + h]:
                    h += 1
                assert lcp[i] == h


def naive_lcs_k(strings, m):
    """The longest length shared by m strings, its smallest substring and
    its first offset in each string (lists of ints)."""
    seqs = [[int(v) for v in s] for s in strings]

    def find(s, sub):
        for o in range(len(s) - len(sub) + 1):
            if s[o:o + len(sub)] == sub:
                return o
        return -1

    for L in range(max((len(s) for s in seqs), default=0), 0, -1):
        cands = sorted({tuple(s[o:o + L]) for s in seqs for o in range(len(s) - L + 1)})
        for c in cands:
            if sum(find(s, list(c)) >= 0 for s in seqs) >= m:
                return L, [find(s, list(c)) for s in seqs]
    return 0, [-1] * len(seqs)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64])
def test_lcs_k(ctx, host, dtype):
    rng = np.random.default_rng(int(np.iinfo(dtype).bits))
    top = int(np.iinfo(dtype).max)
    for i in range(25):
        k = int(rng.integers(1, 6))
        alphabet = [0, 1, top] if i % 2 else [0, 1, 2, 3]
        strings = [np.array([alphabet[int(j)] for j in rng.integers(0, len(alphabet),
                                                                     int(rng.integers(0, 14)))],
                            dtype=dtype) for _ in range(k)]
        for m in sorted({1, k, int(rng.integers(1, k + 1))}):
            want = naive_lcs_k(strings, m)
            for c in (ctx, host):
                got = c.lcs_k(strings, m)
                assert (got.length, got.offsets.tolist()) == want, (strings, m)
    got = clsa.lcs_k([b"xabcy", "zzabcq", b"abc"], ctx=ctx)
    assert got.length == 3 and got.offsets.tolist() == [1, 2, 0]
    assert clsa.lcs_k([b"ab", b"cd"], ctx=ctx).length == 0
    assert clsa.lcs_k([], ctx=ctx).length == 0
    with pytest.raises(clsa.InvalidArgumentError):
        ctx.lcs_k([b"ab", b"cd"], 3)


def test_fm_set_index(ctx):
    rng = np.random.default_rng(7)
    for shape in range(3):
        k = int(rng.integers(1, 12))
        if shape == 2:  # every byte value: no separator byte is free
            strings = [bytes(rng.integers(0, 256, int(rng.integers(0, 80)), dtype=np.uint8))
                       for _ in range(k)] + [bytes(range(256))]
        else:
            strings = [bytes(rng.choice(list(b"ACGT" if shape == 0 else b"\x00\x01"),
                                        int(rng.integers(0, 40)))) for _ in range(k)]
        joined = b"".join(strings)
        pats = [b""]
        for _ in range(40):
            at = int(rng.integers(0, max(len(joined), 1)))
            pats.append(joined[at:at + int(rng.integers(1, 6))])  # often across an end
        pats += [b"\xfe\xff", b"Z"]
        fm = clsa.FMSetIndex(strings, sample_rate=int(rng.integers(1, 40)), ctx=ctx)
        assert len(fm) == len(strings) and fm.total == len(joined)
        counts = fm.count(pats)
        located = fm.locate(pats)
        for p, cnt, (ss, oo) in zip(pats, counts, located):
            want = [(i, o) for i, s in enumerate(strings) for o in range(len(s))
                    if s[o:o + len(p)] == p and o + len(p) <= len(s)]
            assert int(cnt) == len(want), p
            assert list(zip(ss.tolist(), oo.tolist())) == want, p
        assert fm.count(pats[1]) == int(counts[1])
        if len(joined) > 1:  # the empty pattern occurs len(joined) times
            with pytest.raises(clsa.TooLargeError):
                fm.locate(b"", max_total=len(joined) - 1)


def test_context_fm_set_index(ctx):
    fm = ctx.fm_set_index([b"abc", b"bca"])
    assert isinstance(fm, clsa.FMSetIndex)
    assert fm.count(b"bc") == 2
