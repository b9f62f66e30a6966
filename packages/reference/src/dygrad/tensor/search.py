"""Searching and sorting of the tensor API (paddle.argmax, paddle.sort, paddle.topk,
paddle.nonzero, paddle.masked_select, ... from paddle.tensor.search; and paddle.unique).

Sorts are always stable (ties keep their order), so ``stable=True`` is always honoured,
and topk always returns its values in order, which ``sorted=False`` permits.
"""

from __future__ import annotations

import numpy as np

from .._core.dispatch import ops
from .reduce import check_tensor, dtype_arg, single_axis_arg

__all__ = ["argmax", "argmin", "argsort", "sort", "topk", "unique", "nonzero", "searchsorted",
           "masked_select", "kthvalue", "mode", "bucketize"]
METHODS = ["argmax", "argmin", "argsort", "sort", "topk", "unique", "nonzero", "masked_select",
           "kthvalue", "mode", "bucketize"]


def argmax(x, axis=None, keepdim=False, dtype="int64", name=None):
    """Index of the first maximum along axis (in flattened x when None), as dtype (int32 or
    int64)."""
    check_tensor("argmax", x)
    return ops.argmax(x, axis=single_axis_arg("argmax", axis), keepdim=bool(keepdim),
                      dtype=dtype_arg(dtype))


def argmin(x, axis=None, keepdim=False, dtype="int64", name=None):
    """Index of the first minimum along axis (in flattened x when None), as dtype (int32 or
    int64)."""
    check_tensor("argmin", x)
    return ops.argmin(x, axis=single_axis_arg("argmin", axis), keepdim=bool(keepdim),
                      dtype=dtype_arg(dtype))


def argsort(x, axis=-1, descending=False, stable=False, name=None):
    """The int64 indices that sort x along axis (ties keep their order)."""
    check_tensor("argsort", x)
    return ops.argsort(x, axis=single_axis_arg("argsort", axis), descending=bool(descending))


def sort(x, axis=-1, descending=False, stable=False, name=None):
    """x sorted along axis, ascending or descending (ties keep their order; NaN counts as
    the largest value). Only the values: argsort gives the indices."""
    check_tensor("sort", x)
    return ops.sort(x, axis=single_axis_arg("sort", axis), descending=bool(descending))


def topk(x, k, axis=None, largest=True, sorted=True, name=None):
    """(values, indices) of the k largest (smallest when not largest) elements along axis
    (the last when None), in order; among equal values the earlier position comes first."""
    check_tensor("topk", x)
    axis = -1 if axis is None else single_axis_arg("topk", axis)
    return ops.topk(x, k=single_axis_arg("topk", k, "k"), axis=axis, largest=bool(largest))


def unique(x, return_index=False, return_inverse=False, return_counts=False, axis=None,
           dtype="int64", name=None):
    """The sorted distinct elements of x (flattened when axis is None, else its distinct
    slices along axis); with the flags also, in this order, the index of each one's first
    occurrence, the inverse map (out[inverse] rebuilds x) and the counts, as dtype."""
    check_tensor("unique", x)
    out, index, inverse, counts = ops.unique(x, axis=single_axis_arg("unique", axis),
                                             dtype=dtype_arg(dtype))
    extra = [t for t, wanted in ((index, return_index), (inverse, return_inverse),
                                 (counts, return_counts)) if wanted]
    return (out, *extra) if extra else out


def nonzero(x, as_tuple=False):
    """The coordinates of the nonzero elements of x: an int64 tensor with one row per
    element, or with as_tuple a tuple of one 1-D tensor per dimension."""
    check_tensor("nonzero", x)
    coords = ops.nonzero(x)
    if not as_tuple:
        return coords
    return tuple(ops.getitem(coords, index=(slice(None), i)) for i in range(x.ndim))


def searchsorted(sorted_sequence, values, out_int32=False, right=False, name=None):
    """For each value, where it would be inserted in sorted_sequence (in the matching row
    of its last axis when it has several dimensions) to keep it sorted: before equal
    elements, or after them when right. int64, or int32 with out_int32."""
    check_tensor("searchsorted", sorted_sequence, "sorted_sequence")
    check_tensor("searchsorted", values, "values")
    return ops.searchsorted(sorted_sequence, values, out_int32=bool(out_int32), right=bool(right))


def bucketize(x, sorted_sequence, out_int32=False, right=False, name=None):
    """For each element of x, the index of its bucket in the 1-D sorted_sequence: where it
    would be inserted to keep it sorted (after equal elements when right)."""
    check_tensor("bucketize", x)
    check_tensor("bucketize", sorted_sequence, "sorted_sequence")
    if sorted_sequence.ndim != 1:
        raise ValueError(f"bucketize: sorted_sequence must be 1-D, got shape "
                         f"{sorted_sequence.shape}")
    return searchsorted(sorted_sequence, x, out_int32, right)


def masked_select(x, mask, name=None):
    """The elements of x where the bool mask is True (x and mask broadcast together), as a
    1-D tensor in row-major order."""
    check_tensor("masked_select", x)
    check_tensor("masked_select", mask, "mask")
    return ops.masked_select(x, mask)


def kthvalue(x, k, axis=None, keepdim=False, name=None):
    """(values, int64 indices) of the k-th smallest element (k from 1) along axis (the
    last when None); among equal values the earlier position counts as smaller, NaN as
    the largest value."""
    check_tensor("kthvalue", x)
    if x._data.dtype.kind not in "iuf":
        raise TypeError(f"kthvalue: x must have an int or float dtype, got {x.dtype}")
    k = single_axis_arg("kthvalue", k, "k")
    axis = -1 if axis is None else single_axis_arg("kthvalue", axis)
    ndim = max(x.ndim, 1)
    if not -ndim <= axis < ndim:
        raise ValueError(f"kthvalue: axis {axis} is out of range for a tensor of rank {x.ndim} "
                         f"(expected {-ndim} <= axis < {ndim})")
    n = x.shape[axis] if x.ndim else 1
    if not 1 <= k <= n:
        raise ValueError(f"kthvalue: k must be between 1 and the size {n} of axis {axis} of x "
                         f"(shape {x.shape}), got k={k}")
    if x.ndim == 0:
        return x, ops.full(shape=(), fill_value=0, dtype=np.dtype(np.int64))
    axis %= x.ndim
    order = ops.argsort(x, axis=axis, descending=False)
    indices = ops.slice(order, axes=(axis,), starts=(k - 1,), ends=(k,))
    values = ops.take_along_axis(x, indices, axis=axis)
    if not keepdim:
        values, indices = ops.squeeze(values, axis=(axis,)), ops.squeeze(indices, axis=(axis,))
    return values, indices


def mode(x, axis=-1, keepdim=False, name=None):
    """(values, int64 indices) of the most frequent value along axis: the smallest of
    equally frequent values, and the index of its last occurrence."""
    check_tensor("mode", x)
    return ops.mode(x, axis=single_axis_arg("mode", axis), keepdim=bool(keepdim))
