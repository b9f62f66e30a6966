"""Statistics of the tensor API (paddle.mean, var, std, median from paddle.tensor.stat).

As in Paddle 2.x they take floating-point tensors; an integer tensor raises a TypeError
(cast it first, e.g. ``x.astype('float32')``).
"""

from __future__ import annotations

import numpy as np

from .._core.dispatch import ops
from .._core.ops.reduction import reduce_axes
from .._core.tensor import Tensor
from .reduce import axis_arg, cast_to, check_tensor
from .search import kthvalue

__all__ = ["mean", "var", "std", "median", "histogram", "quantile", "nanquantile", "nanmedian"]
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


# ---------------------------------------------------------------------------
# quantiles: sort the reduced axes' values into one last axis, then read them
# ---------------------------------------------------------------------------

_INTERPOLATIONS = ("linear", "lower", "higher", "nearest", "midpoint")


def _gathered(api, x, axis, keepdim):
    """x's values over ``axis`` (all axes when None; an int or a list) moved into one last
    axis, and the shape a result over them gets (with keepdim, 1 on those axes)."""
    axes = reduce_axes(api, tuple(x.shape), axis)
    keep = [a for a in range(x.ndim) if a not in axes]
    kept = tuple(x.shape[a] for a in keep)
    shape = tuple(1 if a in axes else d for a, d in enumerate(x.shape)) if keepdim else kept
    if axes and keep:
        x = ops.transpose(x, perm=tuple(keep + list(axes)))
    return ops.reshape(x, shape=(*kept, -1)), shape


def _read(ordered, count, q, interpolation):
    """The q-quantile of each row of ``ordered`` (sorted along its last axis, its first
    ``count`` values valid), keeping that axis (size 1)."""
    n = ordered._data.shape[-1]
    pos = ops.scale(count - 1, scale=float(q))
    lo = ops.floor(pos)
    hi = ops.ceil(pos)

    def at(p):
        index = ops.cast(ops.clip(p, min=0, max=max(n - 1, 0)), dtype=np.dtype(np.int64))
        return ops.take_along_axis(ordered, index, axis=-1)
    if interpolation == "lower":
        return at(lo)
    if interpolation == "higher":
        return at(hi)
    if interpolation == "nearest":
        return at(ops.round(pos))
    below, above = at(lo), at(hi)
    if interpolation == "midpoint":
        return ops.scale(below + above, scale=0.5)
    return below + (above - below) * ops.cast(pos - lo, dtype=ordered._data.dtype)


def _quantile(api, x, q, axis, keepdim, interpolation, ignore_nan):
    check_tensor(api, x)
    if x._data.dtype.kind != "f":
        raise TypeError(f"{api}: x must be a floating-point tensor (float32, float64), got "
                        f"{x.dtype}")
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"{api}: interpolation must be one of {', '.join(_INTERPOLATIONS)}, "
                         f"got {interpolation!r}")
    qs = q.numpy().reshape(-1).tolist() if isinstance(q, Tensor) else q
    single = not isinstance(qs, (list, tuple)) or (isinstance(q, Tensor) and len(qs) == 1)
    qs = [qs[0] if isinstance(qs, list) else qs] if single else list(qs)
    if not qs:
        raise ValueError(f"{api}: q must not be empty")
    for v in qs:
        if not 0 <= v <= 1:
            raise ValueError(f"{api}: every q must be in [0, 1], got {v}")
    values, shape = _gathered(api, x, axis, keepdim)
    ordered = ops.sort(values, axis=-1, descending=False)
    n = ordered._data.shape[-1]
    valid = ops.logical_not(ops.isnan(ordered))
    if ignore_nan:
        count = ops.sum(valid, axis=-1, dtype=np.dtype(np.float64), keepdim=True)
    else:
        count = ops.full(shape=(*ordered._data.shape[:-1], 1), fill_value=float(n),
                         dtype=np.dtype(np.float64))
    outs = []
    for v in qs:
        out = _read(ordered, count, v, interpolation)
        if not ignore_nan and n:  # NaN sorts last: any NaN gives NaN
            last = ops.slice(ordered, axes=(ordered.ndim - 1,), starts=(n - 1,), ends=(n,))
            out = ops.where(ops.isnan(last), last, out)
        outs.append(ops.reshape(out, shape=shape))
    return outs[0] if single else ops.stack(outs, axis=0)


def quantile(x, q, axis=None, keepdim=False, interpolation="linear", name=None):
    """The q-quantiles of x over axis (all axes when None; an int or a list), for q a
    number in [0, 1] or a list of them (the results stacked on a new first axis). The
    value at position q * (n - 1) of the sorted values, interpolated 'linear' (default),
    'lower', 'higher', 'nearest' or 'midpoint'; NaN where a NaN is among the values."""
    return _quantile("quantile", x, q, axis, keepdim, interpolation, ignore_nan=False)


def nanquantile(x, q, axis=None, keepdim=False, interpolation="linear", name=None):
    """As :func:`quantile`, ignoring NaN (NaN only where every value is NaN)."""
    return _quantile("nanquantile", x, q, axis, keepdim, interpolation, ignore_nan=True)


def nanmedian(x, axis=None, keepdim=False, mode="avg", name=None):
    """Median over axis (all axes when None; an int or a list) ignoring NaN: mode 'avg' the
    mean of the two middle values for an even count (an integer x gives it truncated, in
    x's dtype, as Paddle); mode 'min' the lower middle value (values only: Paddle's
    indices for an axis are not given)."""
    check_tensor("nanmedian", x)
    if mode not in ("avg", "min"):
        raise ValueError(f"nanmedian: mode must be 'avg' or 'min', got {mode!r}")
    values = x if x._data.dtype.kind == "f" else ops.cast(x, dtype=np.dtype(np.float64))
    out = _quantile("nanmedian", values, 0.5, axis, keepdim,
                    "midpoint" if mode == "avg" else "lower", ignore_nan=True)
    return cast_to(out, x._data.dtype)
