"""Reductions of the tensor API (paddle.sum, paddle.max, paddle.cumsum, paddle.all, ...,
from paddle.tensor.math)."""

from __future__ import annotations

import numpy as np

from .._core import dtype as _dt
from .._core.dispatch import ops
from .._core.tensor import Tensor

__all__ = ["sum", "prod", "max", "min", "amax", "amin", "logsumexp", "cumsum", "cumprod",
           "all", "any"]
METHODS = list(__all__)

_INT64 = np.dtype(np.int64)


# ---------------------------------------------------------------------------
# argument conversion shared with stat.py and search.py
# ---------------------------------------------------------------------------

def check_tensor(api, x, arg="x"):
    """Raise a TypeError naming the API unless ``x`` is a Tensor."""
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: {arg} must be a Tensor, got {type(x).__name__}")
    return x


def _as_int(api, value, arg):
    if isinstance(value, Tensor):
        if value.size != 1 or value._data.dtype.kind not in "iu":
            raise TypeError(f"{api}: a Tensor {arg} must hold one integer, got shape "
                            f"{value.shape} and dtype {value.dtype}")
        return int(value.numpy().reshape(()))
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{api}: {arg} must be an int, got {type(value).__name__}")
    return int(value)


def axis_arg(api, axis):
    """Paddle's ``axis`` (None, an int, a list/tuple of ints, or an int Tensor) as an
    attribute: None, an int, or a tuple of ints."""
    if axis is None:
        return None
    if isinstance(axis, Tensor):
        values = axis.numpy().reshape(-1).tolist()
        if axis._data.dtype.kind not in "iu":
            raise TypeError(f"{api}: a Tensor axis must be int32 or int64, got {axis.dtype}")
        return int(values[0]) if axis.ndim == 0 else tuple(int(a) for a in values)
    if isinstance(axis, (list, tuple)):
        return tuple(_as_int(api, a, "axis") for a in axis)
    return _as_int(api, axis, "axis")


def single_axis_arg(api, axis, arg="axis"):
    """An axis that must be one int (or a one-element int Tensor); None stays None."""
    return None if axis is None else _as_int(api, axis, arg)


def dtype_arg(dtype):
    return None if dtype is None else _dt.convert_dtype(dtype).np


def cast_to(x, dtype):
    """x in ``dtype`` (x itself when it already is)."""
    return x if x._data.dtype == dtype else ops.cast(x, dtype=dtype)


# ---------------------------------------------------------------------------
# reductions
# ---------------------------------------------------------------------------

def sum(x, axis=None, dtype=None, keepdim=False, name=None):
    """Sum over axis (all when None); bools and ints sum to int64 unless dtype is given."""
    check_tensor("sum", x)
    return ops.sum(x, axis=axis_arg("sum", axis), dtype=dtype_arg(dtype), keepdim=bool(keepdim))


def prod(x, axis=None, keepdim=False, dtype=None, name=None):
    """Product over axis (all when None), in x's dtype; x is cast to dtype first when given
    (a bool x counts as int64)."""
    check_tensor("prod", x)
    d = dtype_arg(dtype)
    x = cast_to(x, d if d is not None else (_INT64 if x._data.dtype.kind == "b" else x._data.dtype))
    return ops.prod(x, axis=axis_arg("prod", axis), keepdim=bool(keepdim))


def max(x, axis=None, keepdim=False, name=None):
    """Maximum over axis (all when None); the gradient is shared evenly among ties."""
    check_tensor("max", x)
    return ops.max(x, axis=axis_arg("max", axis), keepdim=bool(keepdim))


def min(x, axis=None, keepdim=False, name=None):
    """Minimum over axis (all when None); the gradient is shared evenly among ties."""
    check_tensor("min", x)
    return ops.min(x, axis=axis_arg("min", axis), keepdim=bool(keepdim))


def amax(x, axis=None, keepdim=False, name=None):
    """Maximum over axis (all when None); the gradient is shared evenly among ties."""
    check_tensor("amax", x)
    return ops.amax(x, axis=axis_arg("amax", axis), keepdim=bool(keepdim))


def amin(x, axis=None, keepdim=False, name=None):
    """Minimum over axis (all when None); the gradient is shared evenly among ties."""
    check_tensor("amin", x)
    return ops.amin(x, axis=axis_arg("amin", axis), keepdim=bool(keepdim))


def logsumexp(x, axis=None, keepdim=False, name=None):
    """log(sum(exp(x))) over axis (all when None), without overflow."""
    check_tensor("logsumexp", x)
    return ops.logsumexp(x, axis=axis_arg("logsumexp", axis), keepdim=bool(keepdim))


def cumsum(x, axis=None, dtype=None, name=None):
    """Running sum along axis (of flattened x when None). x is cast to dtype first when
    given; otherwise bool and ints narrower than int64 sum in int64."""
    check_tensor("cumsum", x)
    d = dtype_arg(dtype)
    if d is None and (x._data.dtype.kind == "b" or
                      (x._data.dtype.kind in "iu" and x._data.dtype.itemsize < 8)):
        d = _INT64
    if d is not None:
        x = cast_to(x, d)
    return ops.cumsum(x, axis=single_axis_arg("cumsum", axis))


def cumprod(x, dim=None, dtype=None, name=None):
    """Running product along dim (of flattened x when None), in x's dtype; x is cast to
    dtype first when given (a bool x counts as int64)."""
    check_tensor("cumprod", x)
    d = dtype_arg(dtype)
    x = cast_to(x, d if d is not None else (_INT64 if x._data.dtype.kind == "b" else x._data.dtype))
    return ops.cumprod(x, dim=single_axis_arg("cumprod", dim, "dim"))


def all(x, axis=None, keepdim=False, name=None):
    """Whether every element over axis (all axes when None) is nonzero; a bool tensor."""
    check_tensor("all", x)
    return ops.all(x, axis=axis_arg("all", axis), keepdim=bool(keepdim))


def any(x, axis=None, keepdim=False, name=None):
    """Whether some element over axis (all axes when None) is nonzero; a bool tensor."""
    check_tensor("any", x)
    return ops.any(x, axis=axis_arg("any", axis), keepdim=bool(keepdim))
