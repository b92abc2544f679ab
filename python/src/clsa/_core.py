"""Python interface of libclsa: inputs, outputs, contexts, errors."""
from __future__ import annotations

import os
import threading
import warnings
from typing import Any, List, NamedTuple, Optional, Sequence, Tuple, Union, overload

import numpy as np

from ._native import ffi, lib, optional

Text = Union[bytes, bytearray, memoryview, str, np.ndarray]
"""Accepted text: bytes-like objects (any C-contiguous buffer of bytes), str
(encoded as UTF-8), or a 1-D C-contiguous numpy array of uint8 (uint16 or
uint32 for integer alphabets where the library has them)."""

INT32_MAX = 2**31 - 1

# ---- errors -------------------------------------------------------------------


class ClsaError(RuntimeError):
    """A libclsa call failed.  `status` is the C status code (negative),
    `message` the library's text (clsa_last_error)."""

    def __init__(self, status: int, message: str):
        self.status = status
        self.message = message
        super().__init__(message)


class InvalidArgumentError(ClsaError, ValueError):
    """CLSA_ERR_INVALID_ARG: a bad argument (size, range, option)."""


class HostMemoryError(ClsaError, MemoryError):
    """CLSA_ERR_HOST_MEMORY."""


class DeviceMemoryError(ClsaError, MemoryError):
    """CLSA_ERR_DEVICE_MEMORY: the device (or CLSA_DEVICE_MEM_LIMIT) cannot
    hold the working set."""


class TooLargeError(ClsaError, OverflowError):
    """CLSA_ERR_TOO_LARGE: the input does not fit the index width."""


class NoDeviceError(ClsaError):
    """CLSA_ERR_NO_DEVICE: no OpenCL (device) for a call that needs one."""


class OpenCLError(ClsaError):
    """CLSA_ERR_OPENCL: an OpenCL call failed."""


class BuildError(ClsaError):
    """CLSA_ERR_BUILD: kernel compilation failed (message holds the log)."""


class FileError(ClsaError, OSError):
    """CLSA_ERR_IO: a file could not be read or written."""


class FormatError(ClsaError, ValueError):
    """CLSA_ERR_FORMAT: a corrupt, truncated or foreign file."""


class UnsupportedError(ClsaError, NotImplementedError):
    """CLSA_ERR_UNSUPPORTED, or a feature this libclsa lacks."""


class CancelledError(ClsaError):
    """CLSA_ERR_CANCELLED: the progress callback asked the call to stop."""


class DeviceLostError(OpenCLError):
    """CLSA_ERR_DEVICE_LOST: the device faulted and its OpenCL context is lost.
    A Context made by clsa (Context()) makes a new OpenCL context itself, so
    the next call works; one from Context.from_pyopencl must be made again,
    with a new pyopencl context and queue."""


_ERRORS = {
    -1: InvalidArgumentError, -2: HostMemoryError, -3: DeviceMemoryError, -4: TooLargeError,
    -5: NoDeviceError, -6: OpenCLError, -7: BuildError, -8: FileError, -9: FormatError,
    -10: UnsupportedError, -11: CancelledError, -12: DeviceLostError,
}


def _raise(status: int, cptr: Any) -> None:
    message = ""
    if cptr is not None and cptr != ffi.NULL:
        message = ffi.string(lib.clsa_last_error(cptr)).decode("utf-8", "replace")
    if not message:
        message = ffi.string(lib.clsa_status_string(status)).decode()
    raise _ERRORS.get(status, ClsaError)(status, message)


def _check(status: int, cptr: Any = None) -> None:
    if status != 0:
        _raise(status, cptr)


# ---- inputs and outputs ----------------------------------------------------------

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


def _patterns(patterns: Sequence[Union[bytes, str]]) -> Tuple[bytes, np.ndarray]:
    parts = [p.encode("utf-8") if isinstance(p, str) else bytes(p) for p in patterns]
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


# ---- contexts ----------------------------------------------------------------------

_BACKENDS = {None: -1, "default": -1, "auto": 0, "device": 1, "host": 2}


def opencl_available() -> Tuple[bool, str]:
    """(True, "") when libclsa could load OpenCL, else (False, why).  Without
    OpenCL everything but the FM-index and the sorting primitives still runs,
    on the host backend (libdivsufsort)."""
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

    Every function of the module is also a method here (ctx.sa(data), ...);
    the module-level ones use default_context().  Calls on one context are
    serialised by the library; the GIL is released while they run.
    """

    def __init__(self, device: Optional[str] = None, backend: Optional[str] = None,
                 profile: bool = False):
        if backend not in _BACKENDS:
            raise ValueError(f"backend must be auto, device or host, not {backend!r}")
        opt = ffi.new("clsa_options *")
        lib.clsa_options_init(opt)
        keep = ffi.new("char[]", device.encode()) if device is not None else ffi.NULL
        opt.device = keep
        opt.backend = _BACKENDS[backend]
        opt.profile = int(bool(profile))
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
        _check(self._wide("clsa_unbwt", ctype)(self._c(), ptr, _ptr(out, ctype), n,
                                                int(primary)), self._ptr)
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

    def fm_index(self, text: Text, sample_rate: int = 0) -> "FMIndex":
        """FMIndex(text) on this context."""
        return FMIndex(text, sample_rate=sample_rate, ctx=self)

    def fm_set_index(self, strings: Sequence[Text], sample_rate: int = 0) -> "FMSetIndex":
        """FMSetIndex(strings) on this context."""
        return FMSetIndex(strings, sample_rate=sample_rate, ctx=self)

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
        _check(lib.clsa_unbwt_mem(self._c(), self._mem(bwt), self._mem(text), n, int(primary)),
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


# ---- the FM-index ------------------------------------------------------------------


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


# ---- module-level functions ----------------------------------------------------------


def sa(data: Text, index: Optional[int] = None, *, ctx: Optional[Context] = None) -> np.ndarray:
    """Suffix array of data (see Context.sa)."""
    return _ctx(ctx).sa(data, index)


def sa_multi(data: Text, contexts: Sequence[Optional[Context]],
             index: Optional[int] = None) -> np.ndarray:
    """Suffix array of bytes `data` built by several devices of this process
    together (clsa_sa32_multi / clsa_sa64_multi): member i sorts its share
    on contexts[i], None sorts on the host; a context may appear twice.
    Equal to sa(data).  Errors raise with the message of the lowest failing
    member."""
    ptr, n, _, keep = _text(data)  # bytes only: wider arrays raise TypeError
    members = list(contexts)
    if not members:
        raise InvalidArgumentError(-1, "sa_multi: no contexts")
    w = _width(n, index)
    out = np.empty(n, dtype=_index_dtype(w))
    arr = ffi.new("clsa_context *[]", [c._c() if c is not None else ffi.NULL for c in members])
    fn = optional(f"clsa_sa{w}_multi")
    if fn is None:
        raise UnsupportedError(-10, f"sa_multi needs a libclsa with clsa_sa{w}_multi")
    first = next((c._c() for c in members if c is not None), None)
    _check(fn(arr, len(members), ptr, _ptr(out, f"int{w}_t"), n), first)
    del keep
    return out


def isa(data: Optional[Text] = None, *, sa: Optional[np.ndarray] = None,
        index: Optional[int] = None, ctx: Optional[Context] = None) -> np.ndarray:
    """Inverse suffix array of a text or of sa= (see Context.isa)."""
    return _ctx(ctx).isa(data, sa=sa, index=index)


def bwt(data: Text, *, ctx: Optional[Context] = None) -> Tuple[np.ndarray, int]:
    """(BWT as an array of the symbols of data, primary index), divbwt's convention
    (see Context.bwt; uint16/uint32/uint64 arrays are integer alphabets)."""
    return _ctx(ctx).bwt(data)


def unbwt(bwt: Text, primary: int, *, ctx: Optional[Context] = None) -> np.ndarray:
    """Inverse BWT (see Context.unbwt)."""
    return _ctx(ctx).unbwt(bwt, primary)


def lcp(data: Text, sa: Optional[np.ndarray] = None, index: Optional[int] = None, *,
        ctx: Optional[Context] = None) -> np.ndarray:
    """LCP array (see Context.lcp)."""
    return _ctx(ctx).lcp(data, sa, index)


def gsa(strings: Sequence[Text], doc: bool = False, index: Optional[int] = None, *,
        ctx: Optional[Context] = None) -> Any:
    """Context.gsa on `ctx`, else on default_context()."""
    return _ctx(ctx).gsa(strings, doc, index)


def gsa_lcp(strings: Sequence[Text], sa: np.ndarray, *,
            ctx: Optional[Context] = None) -> np.ndarray:
    """Context.gsa_lcp on `ctx`, else on default_context()."""
    return _ctx(ctx).gsa_lcp(strings, sa)


def lcs(a: Text, b: Text, *, ctx: Optional[Context] = None) -> LCS:
    """Longest common substring (see Context.lcs)."""
    return _ctx(ctx).lcs(a, b)


def lcs_k(strings: Sequence[Text], m: Optional[int] = None, *,
          ctx: Optional[Context] = None) -> LCSK:
    """Longest substring shared by m of the strings (see Context.lcs_k)."""
    return _ctx(ctx).lcs_k(strings, m)


@overload
def check_sa(data: Text, sa: np.ndarray) -> bool: ...
@overload
def check_sa(data: Text, sa: np.ndarray, explain: bool) -> Union[bool, Tuple[bool, str]]: ...


def check_sa(data: Text, sa: np.ndarray, explain: bool = False) -> Any:
    """Whether sa (int32/int64) is the suffix array of data, checked in O(n)
    on the host.  explain=True returns (valid, reason) instead."""
    ptr, n, _, keep = _text(data)
    a, w = _index_array(sa, n, "sa")
    valid = ffi.new("int *")
    why = ffi.new("char[]", 256)
    fn = lib.clsa_check_sa32 if w == 32 else lib.clsa_check_sa64
    _check(fn(ptr, _ptr(a, f"int{w}_t"), n, valid, why, 256))
    del keep
    ok = bool(valid[0])
    return (ok, ffi.string(why).decode("utf-8", "replace")) if explain else ok


def radix_sort(keys: np.ndarray, values: Optional[np.ndarray] = None, begin_bit: int = 0,
               end_bit: Optional[int] = None, *, ctx: Optional[Context] = None) -> None:
    """In-place stable radix sort (see Context.radix_sort)."""
    _ctx(ctx).radix_sort(keys, values, begin_bit, end_bit)


def segmented_sort(keys: np.ndarray, offsets: np.ndarray, lengths: np.ndarray,
                   values: Optional[np.ndarray] = None, *,
                   ctx: Optional[Context] = None) -> None:
    """In-place sort of each segment (see Context.segmented_sort)."""
    _ctx(ctx).segmented_sort(keys, offsets, lengths, values)


def batched_sort(keys: np.ndarray, starts: np.ndarray, values: Optional[np.ndarray] = None, *,
                 ctx: Optional[Context] = None) -> None:
    """In-place sort of many arrays (see Context.batched_sort)."""
    _ctx(ctx).batched_sort(keys, starts, values)


def version() -> str:
    """libclsa's version string."""
    return ffi.string(lib.clsa_version()).decode()
