"""Loads libclsa with cffi in ABI mode (no compiler needed at install time).

The library is the one installed beside this file by the wheel; env
CLSA_LIBRARY names another (a build tree's libclsa.so, for tests).  libclsa
loads OpenCL itself, at run time, so this never fails for lack of OpenCL.
"""
from __future__ import annotations

import os

from cffi import FFI

from ._cdef import CDEF, CDEF_BATCH, CDEF_BWA, CDEF_GSA, CDEF_INT_ALPHABETS, CDEF_MULTI, CDEF_SETS

ffi = FFI()
ffi.cdef(CDEF)
ffi.cdef(CDEF_INT_ALPHABETS)
ffi.cdef(CDEF_GSA)
ffi.cdef(CDEF_SETS)
ffi.cdef(CDEF_BATCH)
ffi.cdef(CDEF_MULTI)
ffi.cdef(CDEF_BWA)


def _library_path() -> str:
    env = os.environ.get("CLSA_LIBRARY")
    if env:
        return env
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libclsa.so")
    if os.path.exists(here):
        return here
    return "libclsa.so.0"  # an installed C library (cmake --install)


LIBRARY_PATH = _library_path()
lib = ffi.dlopen(LIBRARY_PATH)


def optional(name: str):
    """The C function `name`, or None when this libclsa lacks it."""
    try:
        return getattr(lib, name)
    except (AttributeError, NotImplementedError):
        return None
