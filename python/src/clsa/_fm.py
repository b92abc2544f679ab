"""The FM-index of one text and of a set of strings, kept on a context's device."""
from __future__ import annotations

import os
from typing import Any, List, Optional, Sequence, Tuple, Union, overload

import numpy as np

from ._native import ffi, lib, optional
from ._errors import UnsupportedError, _check
from ._args import Text, _patterns, _ptr, _strings, _text
from ._context import Context, _ctx, _fm_types

def _fm_handle(ptr: Any, ctx: Context) -> Any:
    """The handle, freed when unreachable; its destructor keeps the context
    alive until then (the index's device data lives on it)."""
    return ffi.gc(ptr, lambda p, keep=ctx: lib.clsa_fm_free(p))


class FMIndex:
    """FM-index of a text, kept on a context's device (which must have one).

    FMIndex(text, sample_rate=0, ctx=None)  builds it (sample_rate 0: 32)
    FMIndex.load(path, ctx=None)            reads a file written by save()
    """

    def __init__(self, text: Optional[Text] = None, *, sample_rate: int = 0,
                 ctx: Optional[Context] = None, _handle: Any = None):
        self.ctx = _ctx(ctx)
        if _handle is not None:
            self._fm = _handle
            return
        if text is None:
            raise TypeError("FMIndex() needs a text (or use FMIndex.load)")
        ptr, n, _, keep = _text(text)
        out = ffi.new("clsa_fm **")
        _check(lib.clsa_fm_create(self.ctx._c(), ptr, n, sample_rate, out), self.ctx._ptr)
        del keep
        self._fm = _fm_handle(out[0], self.ctx)

    @classmethod
    def load(cls, path: Union[str, os.PathLike], ctx: Optional[Context] = None) -> "FMIndex":
        """Reads an index file; FormatError for a corrupt or foreign one."""
        c = _ctx(ctx)
        out = ffi.new("clsa_fm **")
        _check(lib.clsa_fm_load(c._c(), os.fsencode(path), out), c._ptr)
        return cls(ctx=c, _handle=_fm_handle(out[0], c))

    def save(self, path: Union[str, os.PathLike]) -> None:
        """Writes the index (atomically: a temporary file, then renamed)."""
        _check(lib.clsa_fm_save(self._fm, os.fsencode(path)), self.ctx._ptr)

    def _info(self) -> Tuple[int, int]:
        r = ffi.new("int64_t[2]")
        _check(lib.clsa_fm_info(self._fm, r, r + 1), self.ctx._ptr)
        return int(r[0]), int(r[1])

    def __len__(self) -> int:
        return self._info()[0]

    @property
    def sample_rate(self) -> int:
        return self._info()[1]

    @overload
    def count(self, patterns: Union[bytes, str]) -> int: ...
    @overload
    def count(self, patterns: Sequence[Union[bytes, str]]) -> np.ndarray: ...

    def count(self, patterns: Any) -> Any:
        """Occurrences of one pattern (an int), or of each of a list of
        patterns (a numpy uint64 array), counted on the device."""
        single = isinstance(patterns, (bytes, bytearray, str, memoryview))
        data, offsets = _patterns([patterns] if single else patterns)
        out = np.empty(offsets.shape[0] - 1, dtype=np.uint64)
        _check(lib.clsa_fm_count(self._fm, ffi.from_buffer("uint8_t[]", data), _ptr(offsets, "uint64_t"),
                                 out.shape[0], _ptr(out, "uint64_t")), self.ctx._ptr)
        return int(out[0]) if single else out

    @overload
    def locate(self, patterns: Union[bytes, str], max_total: int = 0) -> np.ndarray: ...
    @overload
    def locate(self, patterns: Sequence[Union[bytes, str]],
               max_total: int = 0) -> List[np.ndarray]: ...

    def locate(self, patterns: Any, max_total: int = 0) -> Any:
        """Sorted int64 positions of one pattern, or a list of such arrays
        for a list of patterns (views into one array the library filled).
        max_total limits the total (TooLargeError beyond; 0: no limit)."""
        single = isinstance(patterns, (bytes, bytearray, str, memoryview))
        data, offsets = _patterns([patterns] if single else patterns)
        npat = offsets.shape[0] - 1
        starts = np.empty(npat + 1, dtype=np.uint64)
        pos = ffi.new("int64_t **")
        _check(lib.clsa_fm_locate(self._fm, ffi.from_buffer("uint8_t[]", data), _ptr(offsets, "uint64_t"), npat, max_total,
                                  _ptr(starts, "uint64_t"), pos), self.ctx._ptr)
        total = int(starts[-1])
        if total == 0 or pos[0] == ffi.NULL:
            lib.clsa_fm_positions_free(pos[0])
            allpos = np.empty(0, dtype=np.int64)
        else:  # no copy: the array owns the library's buffer
            owned = ffi.gc(pos[0], lib.clsa_fm_positions_free)
            allpos = np.frombuffer(ffi.buffer(owned, total * 8), dtype=np.int64)
        parts = [allpos[int(starts[p]):int(starts[p + 1])] for p in range(npat)]
        return parts[0] if single else parts


def _owned_int64(ptr: Any, total: int) -> np.ndarray:
    """An int64 array over a buffer the library malloc'd (freed with it)."""
    if total == 0 or ptr == ffi.NULL:
        lib.clsa_fm_positions_free(ptr)
        return np.empty(0, dtype=np.int64)
    owned = ffi.gc(ptr, lib.clsa_fm_positions_free)
    return np.frombuffer(ffi.buffer(owned, total * 8), dtype=np.int64)


def _set_handle(ptr: Any, ctx: Context) -> Any:
    """The set index freed with the object; it keeps its context alive."""
    return ffi.gc(ptr, lambda p, keep=ctx: lib.clsa_fm_set_free(p))


class FMSetIndex:
    """FM-index over a set of byte strings, kept on a context's device:
    patterns never match across the end of a string, and locate answers
    (string index, offset) pairs.  save() writes it to a file, load()
    reads it back (the strings' names are not stored).

    FMSetIndex(strings, sample_rate=0, ctx=None)
    """

    def __init__(self, strings: Optional[Sequence[Text]] = None, *, sample_rate: int = 0,
                 ctx: Optional[Context] = None, _handle: Any = None):
        self.ctx = _ctx(ctx)
        if _handle is not None:
            self._set = _handle
            return
        if strings is None:
            raise TypeError("FMSetIndex() needs the strings (or use FMSetIndex.load)")
        text, lengths, ctype = _strings(strings)
        if ctype != "uint8_t":
            raise TypeError("FMSetIndex takes byte strings (bytes, str or uint8 arrays)")
        fn = optional("clsa_fm_set_create")
        if fn is None:
            raise UnsupportedError(-10, "FMSetIndex needs a libclsa with clsa_fm_set_create")
        out = ffi.new("clsa_fm_set **")
        _check(fn(self.ctx._c(), _ptr(text, "uint8_t"), _ptr(lengths, "int64_t"),
                  lengths.shape[0], sample_rate, out), self.ctx._ptr)
        self._set = _set_handle(out[0], self.ctx)

    @classmethod
    def load(cls, path: Union[str, os.PathLike],
             ctx: Optional[Context] = None) -> "FMSetIndex":
        """Reads a file of save(); FormatError for a corrupt or foreign one
        (a single-text FMIndex file included)."""
        c = _ctx(ctx)
        fn = optional("clsa_fm_set_load")
        if fn is None:
            raise UnsupportedError(-10, "FMSetIndex.load needs a libclsa with clsa_fm_set_load")
        out = ffi.new("clsa_fm_set **")
        _check(fn(c._c(), os.fsencode(path), out), c._ptr)
        return cls(ctx=c, _handle=_set_handle(out[0], c))

    def save(self, path: Union[str, os.PathLike]) -> None:
        """Writes the index (atomically: a temporary file, then renamed)."""
        fn = optional("clsa_fm_set_save")
        if fn is None:
            raise UnsupportedError(-10, "FMSetIndex.save needs a libclsa with clsa_fm_set_save")
        _check(fn(self._set, os.fsencode(path)), self.ctx._ptr)

    def _info(self) -> Tuple[int, int, int]:
        r = ffi.new("int64_t[3]")
        _check(lib.clsa_fm_set_info(self._set, r, r + 1, r + 2), self.ctx._ptr)
        return int(r[0]), int(r[1]), int(r[2])

    def __len__(self) -> int:
        """The number of strings."""
        return self._info()[0]

    @property
    def total(self) -> int:
        """The strings' total length."""
        return self._info()[1]

    @property
    def sample_rate(self) -> int:
        return self._info()[2]

    def count(self, patterns: Any) -> Any:
        """Occurrences of one pattern (an int) or of each of a list (a numpy
        uint64 array), inside the strings."""
        single = isinstance(patterns, (bytes, bytearray, str, memoryview))
        data, offsets = _patterns([patterns] if single else patterns)
        out = np.empty(offsets.shape[0] - 1, dtype=np.uint64)
        _check(lib.clsa_fm_set_count(self._set, ffi.from_buffer("uint8_t[]", data),
                                     _ptr(offsets, "uint64_t"), out.shape[0],
                                     _ptr(out, "uint64_t")), self.ctx._ptr)
        return int(out[0]) if single else out

    def locate(self, patterns: Any, max_total: int = 0) -> Any:
        """(strings, offsets) int64 arrays of one pattern's occurrences,
        sorted by string then offset; or a list of such pairs for a list of
        patterns.  max_total limits the total (TooLargeError beyond)."""
        single = isinstance(patterns, (bytes, bytearray, str, memoryview))
        data, offsets = _patterns([patterns] if single else patterns)
        npat = offsets.shape[0] - 1
        starts = np.empty(npat + 1, dtype=np.uint64)
        strs = ffi.new("int64_t **")
        pos = ffi.new("int64_t **")
        _check(lib.clsa_fm_set_locate(self._set, ffi.from_buffer("uint8_t[]", data),
                                      _ptr(offsets, "uint64_t"), npat, max_total,
                                      _ptr(starts, "uint64_t"), strs, pos), self.ctx._ptr)
        total = int(starts[-1])
        all_s, all_p = _owned_int64(strs[0], total), _owned_int64(pos[0], total)
        parts = [(all_s[int(starts[p]):int(starts[p + 1])], all_p[int(starts[p]):int(starts[p + 1])])
                 for p in range(npat)]
        return parts[0] if single else parts


_fm_types.update(FMIndex=FMIndex, FMSetIndex=FMSetIndex)
