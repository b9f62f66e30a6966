"""Tensor creation (paddle.tensor.creation)."""

from __future__ import annotations

from .._core.creation import to_tensor

__all__ = ["to_tensor"]
METHODS = []
