"""Statistics of the tensor API (paddle.mean, var, std, median from paddle.tensor.stat).

As in Paddle 2.x they take floating-point tensors; an integer tensor raises a TypeError
(cast it first, e.g. ``x.astype('float32')``).
"""

from __future__ import annotations

import numpy as np

from .._core.dispatch import ops
from .reduce import axis_arg, cast_to, check_tensor
from .search import kthvalue

__all__ = ["mean", "var", "std", "median"]
METHODS = list(__all__)


def mean(x, axis=None, keepdim=False, name=None):
    """Arithmetic mean over axis (all axes when None); NaN over no elements."""
    check_tensor("mean", x)
    return ops.mean(x, axis=axis_arg("mean", axis), keepdim=bool(keepdim))


def var(x, axis=None, unbiased=True, keepdim=False, name=None):
    """Variance over axis (all axes when None): the mean squared distance from the mean,
    with n - 1 in the denominator when unbiased (NaN when that is 0)."""
    check_tensor("var", x)
    return ops.var(x, axis=axis_arg("var", axis), unbiased=bool(unbiased), keepdim=bool(keepdim))


def std(x, axis=None, unbiased=True, keepdim=False, name=None):
    """Standard deviation over axis (all axes when None): the square root of var (as in
    Paddle, a composite of var and sqrt)."""
    return ops.sqrt(var(x, axis=axis, unbiased=unbiased, keepdim=keepdim))


def median(x, axis=None, keepdim=False, mode="avg", name=None):
    """Median along axis (of all elements when None). mode 'avg': the mean of the two
    middle values for an even count, as float32 for an int or bool x (x's dtype for a
    float x), NaN where a NaN is among the values. mode 'min' (Paddle 3.x): the lower
    middle value in x's dtype; with an axis, (values, int64 indices) as kthvalue."""
    check_tensor("median", x)
    if mode not in ("avg", "min"):
        raise ValueError(f"median: mode must be 'avg' or 'min', got {mode!r}")
    if axis is not None and (isinstance(axis, (bool, np.bool_))
                             or not isinstance(axis, (int, np.integer))
                             or not -max(x.ndim, 1) <= axis < max(x.ndim, 1)):
        raise ValueError(f"median: axis must be None or an int in [-rank, rank) for a tensor "
                         f"of rank {x.ndim}, got {axis!r}")
    flat = axis is None
    values, ax = (ops.reshape(x, shape=(x.size,)), 0) if flat else (x, int(axis) % max(x.ndim, 1))
    n = values.shape[ax] if values.ndim else 1
    if mode == "min":
        out = kthvalue(values, (n + 1) // 2, axis=ax if values.ndim else None,
                       keepdim=bool(keepdim) and not flat)
        if not flat:
            return out
        return ops.reshape(out[0], shape=(1,) * x.ndim) if keepdim else out[0]
    if values._data.dtype.kind != "f":
        values = cast_to(values, np.dtype(np.float32))
    if values.ndim == 0:
        return ops.reshape(values, shape=(1,) * x.ndim) if keepdim else values
    ordered = ops.sort(values, axis=ax, descending=False)
    middle = ops.slice(ordered, axes=(ax,), starts=((n - 1) // 2,), ends=(n // 2 + 1,))
    out = ops.mean(middle, axis=ax, keepdim=True)  # NaN over no elements
    if n:
        largest = ops.slice(ordered, axes=(ax,), starts=(n - 1,), ends=(n,))
        out = ops.where(ops.isnan(largest), largest, out)  # NaN sorts last: any NaN gives NaN
    if flat:
        return ops.reshape(out, shape=(1,) * x.ndim if keepdim else ())
    return out if keepdim else ops.squeeze(out, axis=(ax,))
