"""``paddle.device``: the current device, what the build can run on, and waiting for it.

Devices are the current engine's: the reference engine runs on the CPU only; the
accelerated engine also on CUDA devices when CuPy finds one.
"""

from __future__ import annotations

from .._core.device import get_device, set_device
from .._core.engine import current
from .._core.place import CUDAPlace, parse_device
from . import cuda

__all__ = ["get_device", "set_device", "is_compiled_with_cuda", "device_count", "synchronize",
           "cuda"]


def is_compiled_with_cuda() -> bool:
    """Whether CUDA places can be used: True when the current engine has a CUDA device."""
    return current().device_count() > 0


def device_count() -> int:
    """The number of CUDA devices the current engine can run on (0 on the CPU only)."""
    return current().device_count()


def synchronize(device=None) -> None:
    """Wait until every kernel queued on ``device`` (default: the current device) has
    finished; on the CPU there is nothing to wait for."""
    from .._core.device import current_place
    place = current_place() if device is None else _place(device)
    current().synchronize(place)


def _place(device):
    return CUDAPlace(device) if isinstance(device, int) else parse_device(device)
