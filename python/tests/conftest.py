"""Fixtures: a context per OpenCL implementation under test (env
CLSA_PY_IMPLS, default "pocl,rusticl"), a host-backend context (the C
library's libdivsufsort path: the reference), and generated inputs."""
import os

os.environ.setdefault("RUSTICL_ENABLE", "llvmpipe")  # before OpenCL loads

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import clsa  # noqa: E402

IMPLS = [s for s in os.environ.get("CLSA_PY_IMPLS", "pocl,rusticl").split(",") if s]


@pytest.fixture(scope="session", params=IMPLS)
def ctx(request):
    """A context on one implementation, device backend forced (so that even
    small inputs run the kernels)."""
    c = clsa.Context(device=request.param, backend="device")
    assert c.device is not None
    yield c
    c.close()


@pytest.fixture(scope="session")
def host():
    """The C library's host backend (libdivsufsort, Kasai): the reference."""
    c = clsa.Context(backend="host")
    assert c.device is None
    yield c
    c.close()


def gen(kind: str, n: int, seed: int) -> bytes:
    """Test texts: random over a small or the full alphabet, periodic,
    one repeated byte, Fibonacci word."""
    rng = np.random.default_rng(seed)
    if kind == "random4":
        return bytes(rng.integers(0, 4, n, dtype=np.uint8) + 97)
    if kind == "random256":
        return bytes(rng.integers(0, 256, n, dtype=np.uint8))
    if kind == "periodic":
        return (b"abcab" * (n // 5 + 1))[:n]
    if kind == "equal":
        return b"\x00" * n
    if kind == "fibonacci":
        a, b = b"a", b"ab"
        while len(b) < n:
            a, b = b, b + a
        return b[:n]
    raise ValueError(kind)


KINDS = ["random4", "random256", "periodic", "equal", "fibonacci"]


def naive_sa(t: bytes) -> list:
    return sorted(range(len(t)), key=lambda i: t[i:])


def naive_lcp(t: bytes, sa) -> list:
    out = [0] * len(t)
    for i in range(1, len(t)):
        a, b, k = int(sa[i - 1]), int(sa[i]), 0
        while a + k < len(t) and b + k < len(t) and t[a + k] == t[b + k]:
            k += 1
        out[i] = k
    return out
