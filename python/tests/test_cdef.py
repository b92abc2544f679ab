"""The cffi declarations (clsa/_cdef.py) match include/*.h: every function
declared for Python is declared identically (up to spacing) in the C
headers, so a changed C signature fails here rather than in a call."""
import pathlib
import re

import pytest

from clsa import _cdef

INCLUDE = pathlib.Path(__file__).resolve().parents[2] / "include"


def statements(text: str) -> dict:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"^\s*#.*$", " ", text, flags=re.M)
    out = {}
    for st in text.replace("CLSA_API", " ").split(";"):
        m = re.search(r"(\w+)\s*\(", st)
        if m and ")" in st and "typedef" not in st and "{" not in st:
            out[m.group(1)] = re.sub(r"\s+", "", st)
    return out


@pytest.mark.skipif(not INCLUDE.is_dir(), reason="run from a clsa source tree")
def test_cdef_matches_headers():
    headers = {}
    for h in sorted(INCLUDE.glob("*.h")):
        headers.update(statements(h.read_text()))
    ours = statements(_cdef.CDEF)
    assert len(ours) >= 50
    for name, decl in ours.items():
        assert headers.get(name) == decl, name
    for name, decl in statements(_cdef.CDEF_INT_ALPHABETS).items():
        if name in headers:  # integer alphabets, once the library has them
            assert headers[name] == decl, name
    for name, decl in statements(_cdef.CDEF_GSA).items():
        assert headers.get(name) == decl, name
    for name, decl in statements(_cdef.CDEF_SETS).items():
        assert headers.get(name) == decl, name
    for name, decl in statements(_cdef.CDEF_BATCH).items():
        assert headers.get(name) == decl, name
    for name, decl in statements(_cdef.CDEF_MULTI).items():
        assert headers.get(name) == decl, name
