"""Hostile and careless use from Python (issue 46, docs/RELIABILITY.md):
arguments of the wrong type or range are TypeError/ValueError naming the
argument; bytes that are no BWT are refused on the host and the device with
one message; an index saved through a symbolic link writes its target and
keeps the old file's mode."""
import os
import stat

import numpy as np
import pytest

import clsa


@pytest.mark.parametrize("primary,exc", [(1.5, TypeError), ("3", TypeError), (True, TypeError),
                                         (None, TypeError), (10**30, ValueError),
                                         (-1, clsa.InvalidArgumentError),
                                         (99, clsa.InvalidArgumentError)])
def test_unbwt_primary_checked(host, primary, exc):
    bwt, _ = host.bwt(b"mississippi")
    with pytest.raises(exc, match="primary"):
        host.unbwt(bwt, primary)
    with pytest.raises(exc, match="primary"):
        clsa.unbwt(bwt, primary, ctx=host)


def test_unbwt_numpy_integer_primary(host):
    bwt, p = host.bwt(b"mississippi")
    assert bytes(host.unbwt(bwt, np.int64(p))) == b"mississippi"


def test_not_a_bwt_refused_alike(ctx, host):
    text = bytes(np.random.default_rng(46).integers(0, 4, 3000, dtype=np.uint8) + 97)
    bwt, p = host.bwt(text)
    messages = []
    for c in (host, ctx):
        assert bytes(c.unbwt(bwt, p)) == text
        with pytest.raises(clsa.InvalidArgumentError, match="not a valid BWT") as e:
            c.unbwt(bwt, p - 1 if p > 1 else p + 1)
        messages.append(str(e.value))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("device", [5, 1.0, b"pocl", ["pocl"]])
def test_context_device_type(device):
    with pytest.raises(TypeError, match="device"):
        clsa.Context(device=device)


def test_context_backend_type():
    with pytest.raises(TypeError, match="backend"):
        clsa.Context(backend=1)


@pytest.mark.parametrize("patterns", [5, 1.5, None, [b"ab", 5]])
def test_fm_patterns_type(ctx, patterns):
    fm = clsa.FMIndex(b"abracadabra", ctx=ctx)
    with pytest.raises(TypeError, match="pattern"):
        fm.count(patterns)
    with pytest.raises(TypeError, match="pattern"):
        fm.locate(patterns)


def test_fm_save_through_link_keeps_mode(ctx, tmp_path):
    fm = clsa.FMIndex(b"abracadabra" * 50, ctx=ctx)
    target = tmp_path / "index.fm"
    target.write_bytes(b"old")
    os.chmod(target, 0o600)
    link = tmp_path / "link.fm"
    link.symlink_to("index.fm")
    fm.save(link)
    assert link.is_symlink()
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o600
    assert clsa.FMIndex.load(target, ctx=ctx).count(b"abra") == 100
    assert not [p for p in os.listdir(tmp_path) if ".tmp." in p]
