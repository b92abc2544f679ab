"""bwa 0.7.17's index files from a FASTA file (include/clsa_bwa.h)."""
from __future__ import annotations

import gzip
import os
from typing import Any, List, Optional, Union

from ._context import Context, _ctx
from ._errors import FileError, _check
from ._native import ffi, lib


def bwa_index(path: Union[str, os.PathLike], prefix: Union[str, os.PathLike, None] = None,
              ctx: Optional[Context] = None) -> None:
    """Writes PREFIX.{pac,ann,amb,bwt,sa} for the FASTA at path (plain or
    gzip) exactly as `bwa index` (0.7.17) writes them, so `bwa mem PREFIX`
    uses them as its own.  prefix defaults to path, as in bwa.  A malformed
    FASTA raises FormatError naming FILE:LINE; nothing is written unless all
    five files are complete."""
    c = _ctx(ctx)
    name = os.fspath(path)
    out = os.fspath(prefix) if prefix is not None else name
    errors: List[BaseException] = []
    with open(name, "rb") as raw:
        stream: Any = gzip.GzipFile(fileobj=raw) if raw.peek(2)[:2] == b"\x1f\x8b" else raw

        @ffi.callback("long long(void *, void *, size_t)")
        def read(user: Any, buf: Any, cap: int) -> int:
            try:
                return stream.readinto(ffi.buffer(buf, cap))
            except Exception as e:  # noqa: BLE001 - handed back after the call
                errors.append(e)
                return -1

        status = lib.clsa_bwa_index(c._c(), read, ffi.NULL, name.encode(), out.encode())
    if errors:
        raise FileError(-8, "%s: %s" % (name, errors[0]))
    _check(status, c._c())
