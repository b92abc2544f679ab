"""clsa: suffix arrays, BWT, LCP, FM-index and longest common substring on
any OpenCL device, with numpy arrays in and out.

    import clsa
    sa = clsa.sa(b"banana")            # numpy int32 array [5 3 1 0 4 2]
    fm = clsa.FMIndex(open("f", "rb").read()); fm.count(b"ana")

The module-level functions run on default_context() (env CLSA_DEVICE picks
the device); pass ctx=clsa.Context(device=...) to choose.  Without any
OpenCL on the machine the package still imports and runs on the host
backend (clsa's multi-threaded suffix sorter); the FM-index and the
sorting primitives need a device.  Errors raise ClsaError subclasses carrying the library's message.
"""
from ._args import LCS, LCSK, Text
from ._context import Context, default_context, devices, opencl_available
from ._core import (
    batched_sort, bwt, check_sa, gsa, gsa_lcp, isa, lcp, lcs, lcs_k, radix_sort, sa, sa_batch, bwt_batch, sa_multi,
    segmented_sort, unbwt, version)
from ._errors import (
    BuildError, CancelledError, ClsaError, DeviceLostError, DeviceMemoryError, FileError, FormatError,
    HostMemoryError, InvalidArgumentError, NoDeviceError, OpenCLError, TooLargeError,
    UnsupportedError)
from ._fm import FMIndex, FMSetIndex

from ._bwa import bwa_index

__version__ = "0.1.0"

__all__ = [
    "LCS", "LCSK", "BuildError", "bwa_index", "CancelledError", "ClsaError", "Context", "DeviceLostError", "DeviceMemoryError", "FileError", "FMIndex", "FMSetIndex",
    "FormatError", "HostMemoryError", "InvalidArgumentError", "NoDeviceError", "OpenCLError",
    "Text", "TooLargeError", "UnsupportedError", "batched_sort", "bwt", "bwt_batch", "check_sa",
    "default_context", "devices", "gsa", "gsa_lcp", "isa", "lcp", "lcs", "lcs_k", "opencl_available",
    "radix_sort", "sa", "sa_batch", "sa_multi",
    "segmented_sort", "unbwt", "version",
]
