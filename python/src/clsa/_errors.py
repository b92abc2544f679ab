"""Errors of libclsa as Python exceptions: one class per status."""
from __future__ import annotations

from typing import Any

from ._native import ffi, lib

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
