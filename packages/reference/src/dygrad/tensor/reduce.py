"""Reductions of the tensor API (paddle.sum, paddle.max, ... from paddle.tensor.math)."""

from __future__ import annotations

from .._core import dtype as _dt
from .._core.dispatch import ops

__all__ = ["sum"]
METHODS = ["sum"]


def sum(x, axis=None, dtype=None, keepdim=False, name=None):
    """Sum over axis (all when None); ints and bools sum to int64 unless dtype is given."""
    d = None if dtype is None else _dt.convert_dtype(dtype).np
    return ops.sum(x, axis=axis, dtype=d, keepdim=bool(keepdim))
