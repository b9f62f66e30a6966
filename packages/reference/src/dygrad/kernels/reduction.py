"""Reduction, statistics, search and sort kernels."""

import numpy as np

from .._core.ops.reduction import reduce_axes, single_axis, var_denominator
from .._core.optable import TABLE
from ._registry import kernel


def _validate(op, *inputs, **attrs):
    """NumPy accepts dtypes Paddle rejects (a mean of ints, ...): check with the row."""
    TABLE[op].infer_meta(*inputs, **attrs)


@kernel
def sum_(x, axis=None, dtype=None, keepdim=False):
    """sum over axis; bool/int input sums to int64 unless dtype says otherwise"""
    if dtype is None:
        dtype = np.int64 if x.dtype.kind in "biu" else x.dtype
    return np.sum(x, axis=reduce_axes("sum", x.shape, axis), dtype=dtype, keepdims=keepdim)


@kernel
def mean(x, axis=None, keepdim=False):
    """arithmetic mean over axis (NaN over no elements)"""
    _validate("mean", x)
    axes = reduce_axes("mean", x.shape, axis)
    n = int(np.prod([x.shape[i] for i in axes], dtype=np.int64))
    with np.errstate(invalid="ignore"):
        return (np.sum(x, axis=axes, keepdims=keepdim) / n).astype(x.dtype)


@kernel
def prod(x, axis=None, keepdim=False):
    """product over axis in x's dtype (1 over no elements)"""
    _validate("prod", x)
    return np.prod(x, axis=reduce_axes("prod", x.shape, axis), dtype=x.dtype, keepdims=keepdim)


@kernel
def max_(x, axis=None, keepdim=False):
    """maximum over axis"""
    _validate("max", x, axis=axis)
    return np.max(x, axis=reduce_axes("max", x.shape, axis), keepdims=keepdim)


@kernel
def min_(x, axis=None, keepdim=False):
    """minimum over axis"""
    _validate("min", x, axis=axis)
    return np.min(x, axis=reduce_axes("min", x.shape, axis), keepdims=keepdim)


@kernel
def amax(x, axis=None, keepdim=False):
    """maximum over axis"""
    _validate("amax", x, axis=axis)
    return np.max(x, axis=reduce_axes("amax", x.shape, axis), keepdims=keepdim)


@kernel
def amin(x, axis=None, keepdim=False):
    """minimum over axis"""
    _validate("amin", x, axis=axis)
    return np.min(x, axis=reduce_axes("amin", x.shape, axis), keepdims=keepdim)


@kernel
def var(x, axis=None, unbiased=True, keepdim=False):
    """sum((x - mean)^2) / (n - 1 if unbiased else n) over axis (NaN when that is 0)"""
    _validate("var", x)
    axes = reduce_axes("var", x.shape, axis)
    n = int(np.prod([x.shape[i] for i in axes], dtype=np.int64))
    with np.errstate(invalid="ignore", divide="ignore"):
        centred = x - np.sum(x, axis=axes, keepdims=True) / n
        out = np.sum(centred * centred, axis=axes, keepdims=keepdim)
        return (out / var_denominator(x.shape, axis, unbiased)).astype(x.dtype)


@kernel
def logsumexp(x, axis=None, keepdim=False):
    """log(sum(exp(x))) over axis, shifting by the (finite) maximum to avoid overflow"""
    _validate("logsumexp", x)
    axes = reduce_axes("logsumexp", x.shape, axis)
    m = np.max(x, axis=axes, keepdims=True, initial=-np.inf)
    m = np.where(np.isfinite(m), m, 0).astype(x.dtype)
    with np.errstate(divide="ignore"):
        out = np.log(np.sum(np.exp(x - m), axis=axes, keepdims=True)) + m
    return out if keepdim else np.squeeze(out, axis=axes)


def _scan(fn, x, axis, reverse=False):
    """A NumPy running op (cumsum, cumprod) along axis in x's dtype: x flattened when axis
    is None, from the end when reverse."""
    if axis is None:
        x, axis = x.reshape(-1), 0
    elif x.ndim == 0:
        return x.copy()
    if reverse:
        return np.flip(fn(np.flip(x, axis), axis=axis, dtype=x.dtype), axis)
    return fn(x, axis=axis, dtype=x.dtype)


@kernel
def cumsum(x, axis=None, reverse=False):
    """running sum along axis (of flattened x when None), from the end when reverse"""
    _validate("cumsum", x, axis=axis)
    return _scan(np.cumsum, x, axis, reverse)


@kernel
def cumprod(x, dim=None):
    """running product along dim (of flattened x when None)"""
    _validate("cumprod", x, dim=dim)
    return _scan(np.cumprod, x, dim)


def _cum_extreme(op, accumulate, x, axis, dtype):
    """Running extreme along axis and the index it was taken from: the last position whose
    value equals the running value, or the first NaN once one was seen."""
    _validate(op, x, axis=axis, dtype=dtype)
    if axis is None:
        x, axis = x.reshape(-1), 0
    elif x.ndim == 0:
        return x.copy(), np.zeros((), dtype)
    axis %= x.ndim
    run = accumulate(x, axis=axis)
    at = x == run
    if x.dtype.kind == "f":
        nan = np.isnan(run)
        at |= nan & (np.cumsum(nan, axis=axis) == 1)
    pos = np.arange(x.shape[axis]).reshape([-1 if i == axis else 1 for i in range(x.ndim)])
    return run, np.maximum.accumulate(np.where(at, pos, 0), axis=axis).astype(dtype)


@kernel
def cummax(x, axis=None, dtype=np.dtype(np.int64)):
    """running maximum along axis (of flattened x when None) and its indices"""
    return _cum_extreme("cummax", np.maximum.accumulate, x, axis, dtype)


@kernel
def cummin(x, axis=None, dtype=np.dtype(np.int64)):
    """running minimum along axis (of flattened x when None) and its indices"""
    return _cum_extreme("cummin", np.minimum.accumulate, x, axis, dtype)


@kernel
def logcumsumexp(x, axis=None, reverse=False):
    """running log(sum(exp(x))) along axis (of flattened x when None), from the end when
    reverse: logaddexp accumulated, so nothing overflows"""
    _validate("logcumsumexp", x, axis=axis)
    return _scan(np.logaddexp.accumulate, x, axis, reverse)

def _arg(fn, op, x, axis, keepdim, dtype):
    _validate(op, x, axis=axis, keepdim=keepdim, dtype=dtype)
    if x.ndim == 0:
        return np.zeros((), dtype)
    if axis is not None:
        axis = single_axis(op, x.ndim, axis)
    return fn(x, axis=axis, keepdims=keepdim).astype(dtype)


@kernel
def argmax(x, axis=None, keepdim=False, dtype=np.dtype(np.int64)):
    """index of the first maximum along axis (in flattened x when None)"""
    return _arg(np.argmax, "argmax", x, axis, keepdim, dtype)


@kernel
def argmin(x, axis=None, keepdim=False, dtype=np.dtype(np.int64)):
    """index of the first minimum along axis (in flattened x when None)"""
    return _arg(np.argmin, "argmin", x, axis, keepdim, dtype)


@kernel
def all_(x, axis=None, keepdim=False):
    """whether every element over axis is nonzero"""
    return np.all(x, axis=reduce_axes("all", x.shape, axis), keepdims=keepdim)


@kernel
def any_(x, axis=None, keepdim=False):
    """whether some element over axis is nonzero"""
    return np.any(x, axis=reduce_axes("any", x.shape, axis), keepdims=keepdim)


@kernel
def argsort(x, axis=-1, descending=False):
    """indices of a stable sort along axis; descending keeps ties in order too (a stable
    ascending sort of the reversed x, mapped back and reversed)"""
    _validate("argsort", x, axis=axis)
    if x.ndim == 0:
        return np.zeros((), np.int64)
    if not descending:
        return np.argsort(x, axis=axis, kind="stable")
    n = x.shape[axis]
    return np.flip(n - 1 - np.argsort(np.flip(x, axis), axis=axis, kind="stable"), axis)


@kernel
def sort(x, axis=-1, descending=False):
    """x sorted along axis (ties in order; NaN is the largest value)"""
    _validate("sort", x, axis=axis)
    if x.ndim == 0:
        return x.copy()
    return np.take_along_axis(x, argsort(x, axis=axis, descending=descending), axis=axis)


@kernel
def topk(x, k=1, axis=-1, largest=True):
    """the k largest (smallest) values along axis, in order, and their int64 indices"""
    _validate("topk", x, k=k, axis=axis)
    if x.ndim == 0:
        return x.copy(), np.zeros((), np.int64)
    idx = np.take(argsort(x, axis=axis, descending=largest), np.arange(k), axis=axis)
    return np.take_along_axis(x, idx, axis=axis), idx


@kernel
def mode(x, axis=-1, keepdim=False):
    """the most frequent value along axis (the smallest of equally frequent ones) and the
    index of its last occurrence: the longest run of equal values in a stable sort"""
    _validate("mode", x, axis=axis, keepdim=keepdim)
    if x.ndim == 0:
        return x.copy(), np.zeros((), np.int64)
    axis = single_axis("mode", x.ndim, axis)
    order = np.moveaxis(np.argsort(x, axis=axis, kind="stable"), axis, -1)
    s = np.take_along_axis(np.moveaxis(x, axis, -1), order, axis=-1)
    n = s.shape[-1]
    pos = np.arange(n)
    first = np.ones(s.shape, bool)  # where each run of equal values starts
    first[..., 1:] = s[..., 1:] != s[..., :-1]
    marks = np.where(first, pos, n)
    starts = np.take_along_axis(marks, np.argsort(marks, axis=-1, kind="stable"), axis=-1)
    start = np.take_along_axis(starts, np.cumsum(first, axis=-1) - 1, axis=-1)
    best = np.argmax(pos - start, axis=-1)[..., None]  # the end of the first longest run
    values = np.moveaxis(np.take_along_axis(s, best, axis=-1), -1, axis)
    indices = np.moveaxis(np.take_along_axis(order, best, axis=-1), -1, axis).astype(np.int64)
    if not keepdim:
        values, indices = np.squeeze(values, axis), np.squeeze(indices, axis)
    return values, indices


@kernel
def bincount(x, minlength=0):
    """int64 counts of each value 0, 1, ... in the non-negative 1-D x"""
    _validate("bincount", x, minlength=minlength)
    if x.size and x.min() < 0:
        raise ValueError(f"bincount: the elements of x must be non-negative, got {x.min()}")
    return np.bincount(x, minlength=minlength).astype(np.int64)


@kernel
def unique(x, axis=None, dtype=np.dtype(np.int64)):
    """sorted distinct elements (slices along axis), first indices, inverse, counts"""
    _validate("unique", x, axis=axis, dtype=dtype)
    if axis is not None:
        axis = single_axis("unique", x.ndim, axis)
    out, index, inverse, counts = np.unique(x, return_index=True, return_inverse=True,
                                            return_counts=True, axis=axis, equal_nan=False)
    return out, index.astype(dtype), inverse.reshape(-1).astype(dtype), counts.astype(dtype)


@kernel
def nonzero(x):
    """coordinates of the nonzero elements, one row each"""
    _validate("nonzero", x)
    return np.argwhere(x).astype(np.int64)


@kernel
def searchsorted(sorted_sequence, values, out_int32=False, right=False):
    """insertion points of values in (each last-axis row of) sorted_sequence"""
    _validate("searchsorted", sorted_sequence, values)
    dtype = np.int32 if out_int32 else np.int64
    if sorted_sequence.ndim == 1:
        side = "right" if right else "left"
        return np.searchsorted(sorted_sequence, values, side=side).astype(dtype)
    # one row per search: count the elements before each value (n * m comparisons)
    seq, v = sorted_sequence[..., None, :], values[..., :, None]
    before = (seq <= v) if right else (seq < v)
    return np.sum(before, axis=-1, dtype=dtype)


@kernel
def masked_select(x, mask):
    """elements of x where mask is True (broadcast together), row-major, as 1-D"""
    _validate("masked_select", x, mask)
    x, mask = np.broadcast_arrays(x, mask)
    return x[mask]


@kernel
def masked_select_grad(out_grad, mask, shape=()):
    """zeros of shape with out_grad written where mask (broadcast to shape) is True"""
    out = np.zeros(shape, out_grad.dtype)
    out[np.broadcast_to(mask, shape)] = out_grad
    return out
