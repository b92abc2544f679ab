"""clsa.sa_multi (clsa_sa32_multi / clsa_sa64_multi): the suffix array built
by several contexts of one process together equals the host backend's on
generated texts; a None member sorts on the host; bad arguments raise."""
import numpy as np
import pytest

import clsa
from conftest import gen


@pytest.mark.parametrize("kind", ["random4", "random256", "periodic", "fibonacci"])
@pytest.mark.parametrize("n", [0, 1, 2, 5, 3000])
def test_sa_multi_equals_host(ctx, host, kind, n):
    text = gen(kind, n, 7 + n)
    want = host.sa(text)
    for members in ([ctx], [ctx, None], [ctx, None, ctx]):
        got = clsa.sa_multi(text, members)
        assert got.dtype == want.dtype
        assert np.array_equal(got, want), (kind, n, len(members))
    got64 = clsa.sa_multi(text, [None, ctx], index=64)
    assert got64.dtype == np.int64 and np.array_equal(got64, want.astype(np.int64))


def test_sa_multi_bad_arguments(host):
    with pytest.raises(clsa.InvalidArgumentError):
        clsa.sa_multi(b"abc", [])
    with pytest.raises(TypeError):  # bytes only, as clsa_sa32_multi
        clsa.sa_multi(np.arange(5, dtype=np.uint16), [host])
