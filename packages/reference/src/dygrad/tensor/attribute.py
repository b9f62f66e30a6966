"""Tensor attributes as functions (paddle.tensor.attribute): shape, rank, size, dtype kind.

``shape`` and ``numel`` are rows of the op table (a static program needs them as ops);
``rank`` and ``is_empty`` are constants for a given tensor (0-D Tensors), and the other
``is_*`` predicates return Python bools.
"""

from __future__ import annotations

import numpy as np

from .._core.dispatch import ops
from .reduce import check_tensor

__all__ = ["shape", "rank", "numel", "is_floating_point", "is_integer", "is_complex", "is_empty"]
METHODS = ["rank", "is_floating_point", "is_integer", "is_complex", "is_empty"]


def shape(input):
    """The shape of ``input`` as a 1-D int64 Tensor."""
    return ops.shape(input)


def rank(input):
    """The number of dimensions of ``input`` as a 0-D int32 Tensor."""
    return ops.full(shape=(), fill_value=input.ndim, dtype=np.dtype(np.int32))


def numel(x, name=None):
    """The number of elements of ``x`` as a 0-D int64 Tensor."""
    return ops.numel(x)


def is_empty(x, name=None):
    """Whether x has no elements, as a 0-D bool Tensor."""
    check_tensor("is_empty", x)
    return ops.full(shape=(), fill_value=x.size == 0, dtype=np.dtype(np.bool_))


def is_floating_point(x):
    """Whether x has a floating-point dtype (float16, float32, float64)."""
    return x._data.dtype.kind == "f"


def is_integer(x):
    """Whether x has an integer dtype (uint8, int8, ..., int64; bool is not one)."""
    return x._data.dtype.kind in "iu"


def is_complex(x):
    """Whether x has a complex dtype."""
    return x._data.dtype.kind == "c"
