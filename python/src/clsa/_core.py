"""The module-level functions: each on a context (default_context() unless given)."""
from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple, Union, overload

import numpy as np

from ._native import ffi, lib, optional
from ._errors import InvalidArgumentError, UnsupportedError, _check
from ._args import LCS, LCSK, Text, _index_array, _index_dtype, _ptr, _text, _width
from ._context import Context, _ctx

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


def sa_batch(texts: Sequence[Text], index: Optional[int] = None, *,
             ctx: Optional[Context] = None) -> List[np.ndarray]:
    """Suffix arrays of many texts in one call; see Context.sa_batch."""
    return _ctx(ctx).sa_batch(texts, index)


def bwt_batch(texts: Sequence[Text], *,
              ctx: Optional[Context] = None) -> List[Tuple[np.ndarray, int]]:
    """BWTs (with primary indexes) of many texts in one call; see Context.bwt_batch."""
    return _ctx(ctx).bwt_batch(texts)


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
