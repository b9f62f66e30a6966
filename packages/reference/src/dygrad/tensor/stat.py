"""Statistics of the tensor API (paddle.mean, var, std, median from paddle.tensor.stat).

As in Paddle 2.x they take floating-point tensors; an integer tensor raises a TypeError
(cast it first, e.g. ``x.astype('float32')``).
"""

from __future__ import annotations

import numpy as np

from .._core.dispatch import ops
from .reduce import axis_arg, cast_to, check_tensor
from .search import kthvalue

__all__ = ["mean", "var", "std", "median", "histogram"]
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


def histogram(input, bins=100, min=0.0, max=0.0, weight=None, density=False, name=None):
    """Counts of input's elements in ``bins`` equal bins over [min, max] (over the
    elements' own range when min == max, widened by 1 on each side when that is one value
    too); elements outside are left out and max falls in the last bin. int64 counts, the
    sums of ``weight`` (input's shape) instead when given, or a density (float32, unless
    weight is float64) whose integral over the range is 1. Not differentiable."""
    check_tensor("histogram", input, "input")
    if not isinstance(bins, (int, np.integer)) or bins < 1:
        raise ValueError(f"histogram: bins must be a positive int, got {bins!r}")
    if max < min:
        raise ValueError(f"histogram: max must be larger or equal to min, got min={min}, "
                         f"max={max}")
    x = ops.cast(ops.reshape(input, shape=(-1,)), dtype=np.dtype(np.float64))
    if min == max and x._data.size:
        lo, hi = ops.min(x), ops.max(x)
    else:
        lo = ops.full(shape=(), fill_value=float(min), dtype=np.dtype(np.float64))
        hi = ops.full(shape=(), fill_value=float(max), dtype=np.dtype(np.float64))
    one_value = lo == hi
    lo, hi = ops.where(one_value, lo - 1, lo), ops.where(one_value, hi + 1, hi)
    inside = ops.logical_and(x >= lo, x <= hi)
    at = ops.cast(ops.floor((x - lo) / (hi - lo) * bins), dtype=np.dtype(np.int64))
    at = ops.where(inside, ops.clip(at, min=0, max=bins - 1), ops.full_like(at, fill_value=0))
    if weight is None:
        w = ops.cast(inside, dtype=np.dtype(np.int64))
    else:
        check_tensor("histogram", weight, "weight")
        if tuple(weight.shape) != tuple(input.shape):
            raise ValueError(f"histogram: weight must have input's shape {input.shape}, got "
                             f"{weight.shape}")
        w = ops.reshape(weight, shape=(-1,))
        w = ops.where(inside, w, ops.full_like(w, fill_value=0))
    counts = ops.put_along_axis(ops.full(shape=(bins,), fill_value=0, dtype=w._data.dtype),
                                at, w, axis=0, reduce="add")
    if not density:
        return counts
    d = np.dtype(np.float64) if w._data.dtype == np.float64 else np.dtype(np.float32)
    total = ops.sum(counts, dtype=d) * ops.cast((hi - lo) / bins, dtype=d)
    return ops.cast(counts, dtype=d) / total
