"""Inputs and outputs: texts, index arrays, pattern and string sets to C pointers."""
from __future__ import annotations

import operator
from typing import Any, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from ._native import ffi

Text = Union[bytes, bytearray, memoryview, str, np.ndarray]
"""Accepted text: bytes-like objects (any C-contiguous buffer of bytes), str
(encoded as UTF-8), or a 1-D C-contiguous numpy array of uint8 (uint16 or
uint32 for integer alphabets where the library has them)."""

INT32_MAX = 2**31 - 1
INT64_MAX = 2**63 - 1

_SYMBOL_TYPES = {np.dtype(np.uint8): "uint8_t", np.dtype(np.uint16): "uint16_t",
                 np.dtype(np.uint32): "uint32_t", np.dtype(np.uint64): "uint64_t"}


def _text(data: Text, allow_wide: bool = False) -> Tuple[Any, int, str, Any]:
    """(pointer, n, C symbol type, object to keep alive) for a text argument."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    if isinstance(data, np.ndarray):
        if data.ndim != 1:
            raise ValueError(f"text must be a 1-D array, not {data.ndim}-D")
        ctype = _SYMBOL_TYPES.get(data.dtype)
        if ctype is None or (ctype != "uint8_t" and not allow_wide):
            allowed = "uint8, uint16, uint32 or uint64" if allow_wide else "uint8"
            raise TypeError(f"text array must have dtype {allowed}, not {data.dtype}")
        if not data.flags.c_contiguous:
            raise ValueError("text array must be C-contiguous (use numpy.ascontiguousarray)")
        return ffi.cast(ctype + " *", data.ctypes.data), data.shape[0], ctype, data
    try:
        view = memoryview(data)
    except TypeError:
        raise TypeError(
            f"text must be bytes-like, str or a numpy array, not {type(data).__name__}"
        ) from None
    if not view.c_contiguous:
        raise ValueError("text buffer must be C-contiguous")
    if view.itemsize != 1:
        raise TypeError(f"text buffer must hold bytes (item size 1), not {view.format!r}")
    return ffi.from_buffer("uint8_t[]", view), view.nbytes, "uint8_t", view


def _array(a: Any, dtypes: Sequence[Any], what: str, writable: bool = False) -> np.ndarray:
    """Checks a numpy array argument without copying it."""
    if not isinstance(a, np.ndarray):
        raise TypeError(f"{what} must be a numpy array, not {type(a).__name__}")
    if a.ndim != 1:
        raise ValueError(f"{what} must be 1-D, not {a.ndim}-D")
    if a.dtype not in [np.dtype(d) for d in dtypes]:
        names = " or ".join(np.dtype(d).name for d in dtypes)
        raise TypeError(f"{what} must have dtype {names}, not {a.dtype}")
    if not a.flags.c_contiguous:
        raise ValueError(f"{what} must be C-contiguous (use numpy.ascontiguousarray)")
    if writable and not a.flags.writeable:
        raise ValueError(f"{what} must be writable (it is sorted in place)")
    return a


def _ptr(a: np.ndarray, ctype: str) -> Any:
    return ffi.cast(ctype + " *", a.ctypes.data)


def _width(n: int, index: Optional[int]) -> int:
    if index is None:
        return 32 if n <= INT32_MAX else 64
    if index not in (32, 64):
        raise ValueError(f"index must be 32 or 64, not {index!r}")
    return index


def _index_dtype(width: int) -> Any:
    return np.int32 if width == 32 else np.int64


def _index_array(a: Any, n: int, what: str) -> Tuple[np.ndarray, int]:
    a = _array(a, (np.int32, np.int64), what)
    if a.shape[0] != n:
        raise ValueError(f"{what} has {a.shape[0]} entries for a text of {n}")
    return a, 32 if a.dtype == np.int32 else 64


def _int_arg(value: Any, name: str, lo: int, hi: int) -> int:
    """An integer argument: int or numpy integer (not bool, float or str:
    TypeError), within [lo, hi] (ValueError), both naming the argument."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an integer, not bool")
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, not {type(value).__name__}") from None
    if not lo <= v <= hi:
        raise ValueError(f"{name} must be in {lo}..{hi}, not {v}")
    return v


def _pattern(p: Any, i: int) -> bytes:
    if isinstance(p, str):
        return p.encode("utf-8")
    if isinstance(p, (bytes, bytearray, memoryview)):
        return bytes(p)
    raise TypeError(f"pattern {i} must be bytes or str, not {type(p).__name__}")


def _patterns(patterns: Sequence[Union[bytes, str]]) -> Tuple[bytes, np.ndarray]:
    if isinstance(patterns, (int, float)) or not hasattr(patterns, "__iter__"):
        raise TypeError("patterns must be bytes, str or a sequence of them, not "
                        f"{type(patterns).__name__}")
    parts = [_pattern(p, i) for i, p in enumerate(patterns)]
    offsets = np.zeros(len(parts) + 1, dtype=np.uint64)
    np.cumsum([len(p) for p in parts], out=offsets[1:])
    return b"".join(parts), offsets



def _strings(strings: Sequence[Text]) -> Tuple[np.ndarray, np.ndarray, str]:
    """(strings back to back, their lengths as int64, C symbol type) for a
    set of strings: bytes-like, str (UTF-8) or 1-D uint8/uint16/uint32/uint64
    arrays; a set with wider arrays is widened to the widest."""
    parts = []
    for i, s in enumerate(strings):
        if isinstance(s, str):
            s = s.encode("utf-8")
        if isinstance(s, np.ndarray):
            if s.ndim != 1:
                raise ValueError(f"string {i} must be a 1-D array, not {s.ndim}-D")
            if s.dtype not in _SYMBOL_TYPES:
                raise TypeError(f"string {i} must have dtype uint8, uint16, uint32 or uint64, "
                                f"not {s.dtype}")
            parts.append(s)
            continue
        try:
            view = memoryview(s)
        except TypeError:
            raise TypeError(f"string {i} must be bytes-like, str or a numpy array, "
                            f"not {type(s).__name__}") from None
        if view.itemsize != 1:
            raise TypeError(f"string {i} must hold bytes (item size 1), not {view.format!r}")
        parts.append(np.frombuffer(view.tobytes(), dtype=np.uint8))
    dtype = np.result_type(*parts) if parts else np.dtype(np.uint8)
    text = (np.concatenate([p.astype(dtype, copy=False) for p in parts]) if parts
            else np.empty(0, dtype=dtype))
    lengths = np.array([p.shape[0] for p in parts], dtype=np.int64)
    return np.ascontiguousarray(text), lengths, _SYMBOL_TYPES[np.dtype(dtype)]


class LCS(NamedTuple):
    """Longest common substring: its length and its starts in a and in b."""
    length: int
    pos_a: int
    pos_b: int


class LCSK(NamedTuple):
    """Longest substring shared by m of k strings: its length, and for each
    string the smallest offset where it occurs there, or -1 (int64 array)."""
    length: int
    offsets: np.ndarray
