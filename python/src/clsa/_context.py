"""Contexts: the device (or the host backend) a call runs on, its buffers and primitives."""
from __future__ import annotations

import os
import threading
import warnings
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from ._native import ffi, lib, optional
from ._errors import ClsaError, UnsupportedError, _ERRORS, _check
from ._args import (
    LCS, LCSK, Text, _array, _index_array, _index_dtype,
    _ptr, _strings, _text, _width, _int_arg, INT64_MAX)

_BACKENDS = {None: -1, "default": -1, "auto": 0, "device": 1, "host": 2}
_ALGORITHMS = {"auto": 0, "doubling": 1, "skew": 2, "hybrid": 3, "runlen": 4}


def opencl_available() -> Tuple[bool, str]:
    """(True, "") when libclsa could load OpenCL, else (False, why).  Without
    OpenCL everything but the FM-index and the sorting primitives still runs,
    on the host backend (clsa's multi-threaded suffix sorter)."""
    why = ffi.new("char[]", 512)
    ok = lib.clsa_opencl_available(why, 512) == 0
    return ok, ffi.string(why).decode("utf-8", "replace")


def _info_dict(info: Any) -> dict:
    s = lambda f: ffi.string(getattr(info, f)).decode("utf-8", "replace")  # noqa: E731
    return {"platform": s("platform"), "vendor": s("vendor"), "name": s("name"),
            "driver": s("driver"), "version": s("version"), "is_gpu": bool(info.is_gpu),
            "host_unified_memory": bool(info.host_unified_memory),
            "global_mem": int(info.global_mem), "max_alloc": int(info.max_alloc),
            "local_mem": int(info.local_mem), "max_work_group": int(info.max_work_group),
            "compute_units": int(info.compute_units), "is_default": bool(info.is_default)}


def devices() -> List[dict]:
    """Every OpenCL device (an empty list without OpenCL), as dicts."""
    count = ffi.new("size_t *")
    _check(lib.clsa_list_devices(ffi.NULL, 0, count))
    infos = ffi.new("clsa_device_info[]", max(count[0], 1))
    _check(lib.clsa_list_devices(infos, count[0], count))
    return [_info_dict(infos[i]) for i in range(min(count[0], len(infos)))]


class Context:
    """A clsa context: one OpenCL device (or none: the host backend).

    Context(device=None, backend=None, profile=False)
      device   selector: "gpu", "cpu", or a substring of the platform,
               vendor or device name with an optional ":N" ("nvidia",
               "pocl", "rusticl:0"); None: env CLSA_DEVICE, else the
               largest GPU, else a CPU device.  Without any OpenCL and with
               no selector, the context runs everything on the host.
      backend  "auto" (device, small inputs on the host), "device", "host";
               None: env CLSA_BACKEND, else auto.
      profile  time kernels (see the C clsa_get_stats).
      algorithm  device suffix arrays by "auto" (per text), "doubling",
               "skew", "hybrid" or "runlen" (clsa_options.algorithm, docs/SA.md);
               None: env CLSA_ALGORITHM, else auto.  Results are the same.

    Every function of the module is also a method here (ctx.sa(data), ...);
    the module-level ones use default_context().  Calls on one context are
    serialised by the library; the GIL is released while they run.
    """

    def __init__(self, device: Optional[str] = None, backend: Optional[str] = None,
                 profile: bool = False, algorithm: Optional[str] = None):
        if device is not None and not isinstance(device, str):
            raise TypeError(f"device must be a str or None, not {type(device).__name__}")
        if backend is not None and not isinstance(backend, str):
            raise TypeError(f"backend must be a str or None, not {type(backend).__name__}")
        if backend not in _BACKENDS:
            raise ValueError(f"backend must be auto, device or host, not {backend!r}")
        if algorithm is not None and algorithm not in _ALGORITHMS:
            raise ValueError("algorithm must be auto, doubling, skew, hybrid or runlen, "
                             f"not {algorithm!r}")
        opt = ffi.new("clsa_options *")
        lib.clsa_options_init(opt)
        keep = ffi.new("char[]", device.encode()) if device is not None else ffi.NULL
        opt.device = keep
        opt.backend = _BACKENDS[backend]
        opt.profile = int(bool(profile))
        opt.algorithm = _ALGORITHMS[algorithm] if algorithm is not None else 0
        out = ffi.new("clsa_context **")
        err = ffi.new("char[]", 1024)
        st = lib.clsa_create_ex(opt, out, err, 1024)
        if st != 0:
            message = ffi.string(err).decode("utf-8", "replace") or \
                ffi.string(lib.clsa_status_string(st)).decode()
            raise _ERRORS.get(st, ClsaError)(st, message)
        self._ptr = ffi.gc(out[0], lib.clsa_destroy)
        self._queue: Any = None

    @classmethod
    def from_pyopencl(cls, queue: Any) -> "Context":
        """Adopts a pyopencl.CommandQueue (its context and device); the
        queue is retained by the library and kept alive by this object.
        The *_mem methods then take and return pyopencl.Buffer objects of
        that context."""
        out = ffi.new("clsa_context **")
        st = lib.clsa_create_with_queue(ffi.cast("cl_command_queue", queue.int_ptr),
                                        ffi.NULL, out)
        if st != 0:
            raise _ERRORS.get(st, ClsaError)(
                st, "clsa_create_with_queue: " + ffi.string(lib.clsa_status_string(st)).decode())
        self = cls.__new__(cls)
        self._ptr = ffi.gc(out[0], lib.clsa_destroy)
        self._queue = queue
        return self

    def close(self) -> None:
        """Releases the context now (else when it is garbage collected)."""
        if self._ptr is not None:
            ffi.release(self._ptr)
            self._ptr = None

    def trim(self) -> None:
        """Releases the device memory the context keeps between calls for
        reuse (the next call of a size it fits takes it; what that call
        leaves unused goes anyway, and all of it with the context)."""
        lib.clsa_trim(self._c())

    def __enter__(self) -> "Context":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _c(self) -> Any:
        if self._ptr is None:
            raise ValueError("the context is closed")
        return self._ptr

    @property
    def device(self) -> Optional[dict]:
        """The device's description, or None for a host-only context."""
        info = ffi.new("clsa_device_info *")
        st = lib.clsa_get_device_info(self._c(), info)
        if st == -10:
            return None
        _check(st, self._ptr)
        return _info_dict(info[0])

    def __repr__(self) -> str:
        d = self.device if self._ptr is not None else None
        where = f"{d['platform']}: {d['name']}" if d else "host"
        return f"<clsa.Context {where}>"

    # ---- suffix arrays and indexes (host memory) ---------------------------------

    def sa(self, data: Text, index: Optional[int] = None) -> np.ndarray:
        """Suffix array of `data`: numpy int32 (n < 2^31) or int64 array,
        sa[i] = start of the i-th smallest suffix (plain lexicographic
        order of the symbols, a proper prefix first; libdivsufsort's order).
        index: 32 or 64 to force the width.  uint16/uint32/uint64 arrays are
        integer alphabets (needs a libclsa with clsa_sa32_u16/_u32/_u64)."""
        return self._from_text("clsa_sa", data, index, allow_wide=True)

    def _from_text(self, name: str, data: Text, index: Optional[int],
                   allow_wide: bool = False) -> np.ndarray:
        """Runs name32/name64 (text, out, n) -> a new index array.  Wide
        symbols call name32_u16 etc., when the library has them."""
        ptr, n, ctype, keep = _text(data, allow_wide)
        w = _width(n, index)
        out = np.empty(n, dtype=_index_dtype(w))
        fname = f"{name}{w}" + ("" if ctype == "uint8_t" else "_u" + ctype[4:-2])
        fn = optional(fname)
        if fn is None:
            raise UnsupportedError(-10, f"integer alphabets need a libclsa with {fname}")
        _check(fn(self._c(), ptr, _ptr(out, f"int{w}_t"), n), self._ptr)
        del keep
        return out

    def isa(self, data: Optional[Text] = None, *, sa: Optional[np.ndarray] = None,
            index: Optional[int] = None) -> np.ndarray:
        """Inverse suffix array (isa[sa[i]] = i), of a text (built through
        its suffix array) or of a given permutation `sa` (int32/int64)."""
        if (data is None) == (sa is None):
            raise TypeError("isa() takes a text or sa=, exactly one")
        if sa is not None:
            a = _array(sa, (np.int32, np.int64), "sa")
            w = 32 if a.dtype == np.int32 else 64
            out = np.empty_like(a)
            fn = lib.clsa_isa_from_sa32 if w == 32 else lib.clsa_isa_from_sa64
            _check(fn(self._c(), _ptr(a, f"int{w}_t"), _ptr(out, f"int{w}_t"), a.shape[0]),
                   self._ptr)
            return out
        return self._from_text("clsa_isa", data, index)

    def bwt(self, data: Text) -> Tuple[np.ndarray, int]:
        """Burrows-Wheeler transform, libdivsufsort's divbwt convention:
        (the n symbols as a numpy array, primary index).  Bytes give a
        uint8 array; a uint16/uint32/uint64 array is an integer alphabet
        (clsa_bwt_u16 ...) and gives an array of its own dtype."""
        ptr, n, ctype, keep = _text(data, allow_wide=True)
        out = np.empty(n, dtype=np.dtype(ctype[:-2]))
        primary = ffi.new("int64_t *")
        _check(self._wide("clsa_bwt", ctype)(self._c(), ptr, _ptr(out, ctype), n, primary),
               self._ptr)
        del keep
        return out, int(primary[0])

    def unbwt(self, bwt: Text, primary: int) -> np.ndarray:
        """Inverse of bwt(): the text as a numpy array of bwt's dtype
        (uint8 for bytes; integer alphabets on the host, clsa_unbwt_u16 ...)."""
        ptr, n, ctype, keep = _text(bwt, allow_wide=True)
        out = np.empty(n, dtype=np.dtype(ctype[:-2]))
        primary = _int_arg(primary, "primary", -INT64_MAX - 1, INT64_MAX)  # the range: the library
        _check(self._wide("clsa_unbwt", ctype)(self._c(), ptr, _ptr(out, ctype), n,
                                                primary), self._ptr)
        del keep
        return out

    @staticmethod
    def _wide(name: str, ctype: str) -> Any:
        """name for bytes, name_u16 ... for wider symbols (when the library
        has them)."""
        if ctype == "uint8_t":
            return getattr(lib, name)
        fname = f"{name}_u{ctype[4:-2]}"
        fn = optional(fname)
        if fn is None:
            raise UnsupportedError(-10, f"integer alphabets need a libclsa with {fname}")
        return fn

    def lcp(self, data: Text, sa: Optional[np.ndarray] = None,
            index: Optional[int] = None) -> np.ndarray:
        """LCP array: lcp[0] = 0, lcp[i] = longest common prefix of the
        suffixes at sa[i-1] and sa[i].  With `sa` (the text's suffix array,
        int32 or int64) it is not rebuilt; the result has sa's dtype."""
        if sa is None:
            return self._from_text("clsa_lcp", data, index)
        ptr, n, _, keep = _text(data)
        a, w = _index_array(sa, n, "sa")
        out = np.empty_like(a)
        fn = lib.clsa_lcp_from_sa32 if w == 32 else lib.clsa_lcp_from_sa64
        _check(fn(self._c(), ptr, _ptr(a, f"int{w}_t"), _ptr(out, f"int{w}_t"), n), self._ptr)
        del keep
        return out

    def gsa(self, strings: Sequence[Text], doc: bool = False,
            index: Optional[int] = None) -> Any:
        """Generalized suffix array of a set of strings (bytes, str or
        uint8/uint16/uint32/uint64 arrays): the suffixes of the virtual text
        s_0 $_0 s_1 $_1 ... (N = total length + number of strings), each $_i
        below every symbol and $_i < $_j for i < j, so the separator suffixes
        come first.  int32 (N < 2^31) or int64; with doc=True, (sa, doc)
        where doc[i] is the string that sa[i] lies in."""
        text, lengths, ctype = _strings(strings)
        k = lengths.shape[0]
        n = int(lengths.sum()) + k
        w = _width(n, index)
        sa = np.empty(n, dtype=_index_dtype(w))
        d = np.empty(n, dtype=_index_dtype(w)) if doc else None
        fname = f"clsa_gsa{w}" + ("" if ctype == "uint8_t" else "_u" + ctype[4:-2])
        fn = optional(fname)
        if fn is None:
            raise UnsupportedError(-10, f"generalized suffix arrays need a libclsa with {fname}")
        _check(fn(self._c(), _ptr(text, ctype), _ptr(lengths, "int64_t"), k,
                  _ptr(sa, f"int{w}_t"), _ptr(d, f"int{w}_t") if doc else ffi.NULL), self._ptr)
        return (sa, d) if doc else sa

    @staticmethod
    def _batch_fn(name: str, ctype: str) -> Any:
        """The batch call name[_u16 ...] (UnsupportedError without it)."""
        fname = name + ("" if ctype == "uint8_t" else "_u" + ctype[4:-2])
        fn = optional(fname)
        if fn is None:
            raise UnsupportedError(-10, f"batches need a libclsa with {fname}")
        return fn

    def sa_batch(self, texts: Sequence[Text], index: Optional[int] = None) -> List[np.ndarray]:
        """Suffix arrays of many texts (bytes, str or uint8/uint16/uint32/
        uint64 arrays; a list with wider arrays is widened to the widest) in
        one call (clsa_sa32_batch ...): a list of arrays, the i-th exactly
        sa(texts[i]), each a view into one array.  int32 when every text is
        shorter than 2^31 (or index=32), else int64."""
        text, lengths, ctype = _strings(texts)
        w = _width(int(lengths.max()) if lengths.size else 0, index)
        fn = self._batch_fn(f"clsa_sa{w}_batch", ctype)
        out = np.empty(int(lengths.sum()), dtype=_index_dtype(w))
        _check(fn(self._c(), _ptr(text, ctype), _ptr(lengths, "int64_t"), lengths.shape[0],
                  _ptr(out, f"int{w}_t")), self._ptr)
        return np.split(out, np.cumsum(lengths)[:-1]) if lengths.size else []

    def bwt_batch(self, texts: Sequence[Text]) -> List[Tuple[np.ndarray, int]]:
        """BWTs of many texts in one call (clsa_bwt_batch ...): a list of
        (bwt, primary) pairs, the i-th exactly bwt(texts[i])."""
        text, lengths, ctype = _strings(texts)
        fn = self._batch_fn("clsa_bwt_batch", ctype)
        out = np.empty_like(text)
        primary = np.zeros(lengths.shape[0], dtype=np.int64)
        _check(fn(self._c(), _ptr(text, ctype), _ptr(lengths, "int64_t"), lengths.shape[0],
                  _ptr(out, ctype), _ptr(primary, "int64_t")), self._ptr)
        parts = np.split(out, np.cumsum(lengths)[:-1]) if lengths.size else []
        return [(b, int(p)) for b, p in zip(parts, primary)]

    def gsa_lcp(self, strings: Sequence[Text], sa: np.ndarray) -> np.ndarray:
        """LCP array of gsa(strings) given as `sa` (int32 or int64; the
        result has its dtype): lcp[0] = 0, lcp[i] = the common prefix of the
        suffixes at sa[i-1] and sa[i], which never runs past the end of a
        string (a separator matches nothing)."""
        text, lengths, ctype = _strings(strings)
        k = lengths.shape[0]
        a, w = _index_array(sa, int(lengths.sum()) + k, "sa")
        out = np.empty_like(a)
        fname = f"clsa_gsa_lcp{w}" + ("" if ctype == "uint8_t" else "_u" + ctype[4:-2])
        fn = optional(fname)
        if fn is None:
            raise UnsupportedError(-10, f"generalized suffix arrays need a libclsa with {fname}")
        _check(fn(self._c(), _ptr(text, ctype), _ptr(lengths, "int64_t"), k,
                  _ptr(a, f"int{w}_t"), _ptr(out, f"int{w}_t")), self._ptr)
        return out

    def lcs(self, a: Text, b: Text) -> LCS:
        """Longest common substring of a and b: LCS(length, pos_a, pos_b);
        ties go to the smallest pos_a, then pos_b; (0, 0, 0) if none."""
        pa, na, _, ka = _text(a)
        pb, nb, _, kb = _text(b)
        r = ffi.new("int64_t[3]")
        _check(lib.clsa_lcs(self._c(), pa, na, pb, nb, r, r + 1, r + 2), self._ptr)
        del ka, kb
        return LCS(int(r[0]), int(r[1]), int(r[2]))

    def lcs_k(self, strings: Sequence[Text], m: Optional[int] = None) -> LCSK:
        """Longest substring occurring in at least m of the strings (default:
        all of them; bytes, str or uint8/uint16/uint32/uint64 arrays):
        LCSK(length, offsets), offsets[i] = its smallest offset in string i
        or -1.  Ties: the lexicographically smallest.  Length 0 (offsets all
        -1) when no symbol is shared by m strings."""
        text, lengths, ctype = _strings(strings)
        k = lengths.shape[0]
        fname = "clsa_lcs_k" + ("" if ctype == "uint8_t" else "_u" + ctype[4:-2])
        fn = optional(fname)
        if fn is None:
            raise UnsupportedError(-10, f"lcs_k needs a libclsa with {fname}")
        offsets = np.empty(k, dtype=np.int64)
        length = ffi.new("int64_t *")
        _check(fn(self._c(), _ptr(text, ctype), _ptr(lengths, "int64_t"), k,
                  k if m is None else int(m), length, _ptr(offsets, "int64_t")), self._ptr)
        return LCSK(int(length[0]), offsets)

    def fm_index(self, text: Text, sample_rate: int = 0) -> Any:
        """FMIndex(text) on this context."""
        return _fm_types["FMIndex"](text, sample_rate=sample_rate, ctx=self)

    def fm_set_index(self, strings: Sequence[Text], sample_rate: int = 0) -> Any:
        """FMSetIndex(strings) on this context."""
        return _fm_types["FMSetIndex"](strings, sample_rate=sample_rate, ctx=self)

    # ---- sorting primitives (numpy arrays, in place; need a device) -------------

    def radix_sort(self, keys: np.ndarray, values: Optional[np.ndarray] = None,
                   begin_bit: int = 0, end_bit: Optional[int] = None) -> None:
        """Stable LSD radix sort, in place, of keys (uint32 or uint64) by
        bits [begin_bit, end_bit) (default: all), with values (uint32, or
        uint64 for uint64 keys) moved alongside."""
        k = _array(keys, (np.uint32, np.uint64), "keys", writable=True)
        kb = 32 if k.dtype == np.uint32 else 64
        end = kb if end_bit is None else end_bit
        if values is None:
            fn, vptr = (lib.clsa_radix_sort_u32 if kb == 32 else lib.clsa_radix_sort_u64), \
                ffi.NULL
        else:
            v = _array(values, (np.uint32,) if kb == 32 else (np.uint32, np.uint64), "values",
                       writable=True)
            if v.shape[0] != k.shape[0]:
                raise ValueError("keys and values differ in length")
            vb = 32 if v.dtype == np.uint32 else 64
            fn = lib.clsa_radix_sort_u32 if kb == 32 else (
                lib.clsa_radix_sort_u64 if vb == 32 else lib.clsa_radix_sort_u64_v64)
            vptr = _ptr(v, f"uint{vb}_t")
        _check(fn(self._c(), _ptr(k, f"uint{kb}_t"), vptr, k.shape[0], begin_bit, end),
               self._ptr)

    def segmented_sort(self, keys: np.ndarray, offsets: np.ndarray, lengths: np.ndarray,
                       values: Optional[np.ndarray] = None) -> None:
        """Sorts each segment keys[offsets[s] : offsets[s] + lengths[s]] in
        place (stable), values alongside.  All arrays uint32, or all uint64."""
        k = _array(keys, (np.uint32, np.uint64), "keys", writable=True)
        t = k.dtype
        o = _array(offsets, (t,), "offsets")
        ln = _array(lengths, (t,), "lengths")
        if o.shape[0] != ln.shape[0]:
            raise ValueError("offsets and lengths differ in length")
        b = 32 if t == np.uint32 else 64
        vptr = ffi.NULL
        if values is not None:
            v = _array(values, (t,), "values", writable=True)
            if v.shape[0] != k.shape[0]:
                raise ValueError("keys and values differ in length")
            vptr = _ptr(v, f"uint{b}_t")
        fn = lib.clsa_segmented_sort_u32 if b == 32 else lib.clsa_segmented_sort_u64
        _check(fn(self._c(), _ptr(k, f"uint{b}_t"), vptr, k.shape[0], _ptr(o, f"uint{b}_t"),
                  _ptr(ln, f"uint{b}_t"), o.shape[0]), self._ptr)

    def batched_sort(self, keys: np.ndarray, starts: np.ndarray,
                     values: Optional[np.ndarray] = None) -> None:
        """Sorts, in place, each array keys[starts[a] : starts[a+1]] (keys
        uint32 or float32, IEEE total order; starts uint64 with one entry
        more than there are arrays, ending at len(keys)); values (uint32)
        alongside."""
        k = _array(keys, (np.uint32, np.float32), "keys", writable=True)
        s = _array(starts, (np.uint64,), "starts")
        if s.shape[0] < 1 or int(s[-1]) != k.shape[0]:
            raise ValueError("starts must have narrays + 1 entries ending at len(keys)")
        vptr = ffi.NULL
        if values is not None:
            v = _array(values, (np.uint32,), "values", writable=True)
            if v.shape[0] != k.shape[0]:
                raise ValueError("keys and values differ in length")
            vptr = _ptr(v, "uint32_t")
        if k.dtype == np.uint32:
            st = lib.clsa_batched_sort_u32(self._c(), _ptr(k, "uint32_t"), vptr,
                                           _ptr(s, "uint64_t"), s.shape[0] - 1)
        else:
            st = lib.clsa_batched_sort_f32(self._c(), _ptr(k, "float"), vptr,
                                           _ptr(s, "uint64_t"), s.shape[0] - 1)
        _check(st, self._ptr)

    # ---- device-resident forms (pyopencl.Buffer) ---------------------------------

    def _cl(self) -> Any:
        if self._queue is None:
            raise UnsupportedError(-10, "the *_mem methods need a context made by "
                                   "Context.from_pyopencl(queue)")
        import pyopencl  # only here: importing clsa never needs OpenCL

        return pyopencl

    def _buffer(self, buf: Any, nbytes: int, what: str) -> Any:
        if buf is None:
            cl = self._cl()
            return cl.Buffer(self._queue.context, cl.mem_flags.READ_WRITE, max(nbytes, 1))
        if buf.size < nbytes:
            raise ValueError(f"{what} holds {buf.size} bytes, {nbytes} needed")
        return buf

    @staticmethod
    def _mem(buf: Any) -> Any:
        return ffi.cast("cl_mem", buf.int_ptr)

    def sa_mem(self, text: Any, n: int, sa: Any = None, index: int = 32) -> Any:
        """Suffix array of the n bytes in pyopencl.Buffer `text`, into `sa`
        (a Buffer of n entries of index/8 bytes; made when None); returns sa."""
        self._cl()
        w = _width(n, index)
        sa = self._buffer(sa, n * w // 8, "sa")
        fn = lib.clsa_sa32_mem if w == 32 else lib.clsa_sa64_mem
        _check(fn(self._c(), self._mem(text), self._mem(sa), n), self._ptr)
        return sa

    def isa_mem(self, sa: Any, n: int, isa: Any = None, index: int = 32) -> Any:
        """Inverse of the permutation in Buffer `sa` (n entries); returns isa."""
        self._cl()
        w = _width(n, index)
        isa = self._buffer(isa, n * w // 8, "isa")
        fn = lib.clsa_isa32_mem if w == 32 else lib.clsa_isa64_mem
        _check(fn(self._c(), self._mem(sa), self._mem(isa), n), self._ptr)
        return isa

    def bwt_mem(self, text: Any, n: int, bwt: Any = None) -> Tuple[Any, int]:
        """BWT of the n bytes in Buffer `text`: (bwt Buffer, primary)."""
        self._cl()
        bwt = self._buffer(bwt, n, "bwt")
        primary = ffi.new("int64_t *")
        _check(lib.clsa_bwt_mem(self._c(), self._mem(text), self._mem(bwt), n, primary),
               self._ptr)
        return bwt, int(primary[0])

    def unbwt_mem(self, bwt: Any, n: int, primary: int, text: Any = None) -> Any:
        """Inverse BWT of Buffer `bwt` into Buffer `text`; returns text."""
        self._cl()
        text = self._buffer(text, n, "text")
        primary = _int_arg(primary, "primary", -INT64_MAX - 1, INT64_MAX)
        _check(lib.clsa_unbwt_mem(self._c(), self._mem(bwt), self._mem(text), n, primary),
               self._ptr)
        return text

    def lcp_mem(self, text: Any, sa: Any, n: int, lcp: Any = None, index: int = 32) -> Any:
        """LCP array from Buffers text and sa into `lcp` (may be sa itself)."""
        self._cl()
        w = _width(n, index)
        lcp = self._buffer(lcp, n * w // 8, "lcp")
        fn = lib.clsa_lcp32_mem if w == 32 else lib.clsa_lcp64_mem
        _check(fn(self._c(), self._mem(text), self._mem(sa), self._mem(lcp), n), self._ptr)
        return lcp

    def radix_sort_mem(self, keys: Any, n: int, values: Any = None, key_bits: int = 32,
                       value_bits: int = 0, begin_bit: int = 0,
                       end_bit: Optional[int] = None) -> None:
        """Radix sort of n keys in Buffer `keys` (key_bits 32/64), values
        (value_bits 0/32/64) alongside, in place."""
        self._cl()
        vm = self._mem(values) if values is not None else ffi.NULL
        end = key_bits if end_bit is None else end_bit
        _check(lib.clsa_radix_sort_mem(self._c(), self._mem(keys), vm, n, key_bits,
                                       value_bits, begin_bit, end), self._ptr)


# The FM-index classes, registered by _fm (which builds on this module) when
# the package imports it, so that this module needs no import of _fm.
_fm_types: dict = {}

_default: Optional[Context] = None
_default_lock = threading.Lock()


def default_context() -> Context:
    """The context the module-level functions use, made on first use from
    env CLSA_DEVICE / CLSA_BACKEND.  Without OpenCL it runs on the host, and
    a RuntimeWarning says why once."""
    global _default
    with _default_lock:
        if _default is None:
            ctx = Context()
            if ctx.device is None and not os.environ.get("CLSA_BACKEND") == "host":
                ok, why = opencl_available()
                warnings.warn("clsa: no OpenCL device (" + (why if not ok else
                              "no device found") + "); using the host backend",
                              RuntimeWarning, stacklevel=3)
            _default = ctx
        return _default


def _ctx(ctx: Optional[Context]) -> Context:
    return ctx if ctx is not None else default_context()
