"""``fluid.core``: the places and what this build supports."""

from __future__ import annotations

from .._core.engine import current
from .._core.place import CPUPlace, CUDAPlace

__all__ = ["CPUPlace", "CUDAPlace", "is_compiled_with_cuda"]


def is_compiled_with_cuda() -> bool:
    """Whether the current engine can run on a GPU (CUDAPlace(0))."""
    return current().supports(CUDAPlace(0))
