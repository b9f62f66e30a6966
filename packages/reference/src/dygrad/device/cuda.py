"""``paddle.device.cuda``: the CUDA devices of the current engine."""

from __future__ import annotations

from .._core.engine import current
from .._core.place import CUDAPlace, parse_device

__all__ = ["device_count", "synchronize"]


def device_count() -> int:
    """The number of CUDA devices (0 when the engine has none, as on Paddle's CPU builds)."""
    return current().device_count()


def synchronize(device=None) -> None:
    """Wait until every kernel queued on CUDA device ``device`` (an id, 'gpu:N' or a
    CUDAPlace; default: the current device if it is a GPU, else gpu:0) has finished."""
    if current().device_count() == 0:
        raise RuntimeError("synchronize: no CUDA device is usable on the "
                           f"{current().name!r} engine, so there is nothing to synchronize")
    if device is None:
        from .._core.device import current_place
        place = current_place()
        place = place if place.kind == "gpu" else CUDAPlace(0)
    else:
        place = CUDAPlace(device) if isinstance(device, int) else parse_device(device)
    if place.kind != "gpu":
        raise ValueError(f"synchronize: expected a CUDA device, got {place}")
    current().synchronize(place)
