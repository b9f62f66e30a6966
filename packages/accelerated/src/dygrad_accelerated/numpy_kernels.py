"""Ops whose reference kernel is already what NumPy does best, computed by NumPy here too.

An op listed here is one where a compiled loop cannot beat NumPy's own (BLAS for matrix
products, NumPy's SIMD loops for single-pass elementwise ops): the accelerated engine
uses the same NumPy call and says 'numpy' in its coverage table rather than 'reference'.
"""

from __future__ import annotations

import numpy as np

from dygrad.kernels import KERNELS as _REF

from . import threads

# matrix products go to BLAS; single-pass elementwise ufuncs are NumPy's SIMD loops
_AT_THE_LIMIT = (
    "matmul", "add", "subtract", "multiply", "divide", "neg", "abs", "exp", "log", "sqrt",
    "square", "maximum", "minimum", "sin", "cos", "tanh", "cast", "reshape", "transpose",
)

KERNELS = {name: _REF[name] for name in _AT_THE_LIMIT if name in _REF}


def matmul(x, y, transpose_x=False, transpose_y=False):
    """op(x) @ op(y) with Paddle's 1-D rules, BLAS's threads only for a big product"""
    if x.ndim == 2 and y.ndim == 2 and x.dtype == y.dtype and x.dtype.kind == "f":
        # both hand a 2-D product of contiguous or transposed operands to BLAS's gemm with
        # the transposes as flags (the same result); np.dot zero-fills its output first (a
        # sixth of a W2 step's instructions) but wins on outer products (7 vs 27 us) and on
        # strided operands, which it copies where np.matmul loops without BLAS
        a, b = (x.T if transpose_x else x), (y.T if transpose_y else y)
        threads.blas_for(a.shape[0] * a.shape[1] * b.shape[1])
        if a.shape[1] > 1 and a.flags.forc and b.flags.forc:  # gemm takes both as they are
            return np.matmul(a, b)
        return np.dot(a, b)
    n = y.shape[-2 if transpose_y else -1] if y.ndim > 1 else 1
    threads.blas_for(x.size * n)
    return _REF["matmul"](x, y, transpose_x, transpose_y)


def _whole(x, axis):
    """Whether ``axis`` reduces a float32/float64 ``x`` with elements over all its axes."""
    return ((axis is None or (type(axis) in (list, tuple) and not axis))
            and x.dtype.char in "fd" and x.size > 0)


def mean(x, axis=None, keepdim=False):
    """arithmetic mean over axis (NaN over no elements)"""
    if _whole(x, axis):  # the reference's sum and division, without its checks
        return np.sum(x, axis=None, keepdims=keepdim) / x.size
    return _REF["mean"](x, axis, keepdim)


def sum_(x, axis=None, dtype=None, keepdim=False):
    """sum over axis; bool/int input sums to int64 unless dtype says otherwise"""
    if dtype is None and x.dtype.char in "fd":
        if _whole(x, axis):
            return np.sum(x, axis=None, keepdims=keepdim)
        if type(axis) is tuple and axis and all(type(a) is int and 0 <= a < x.ndim for a in axis) and (
                len(set(axis)) == len(axis)):  # the axes a gradient rule's sum_to gives
            return np.sum(x, axis=axis, keepdims=keepdim)
    return _REF["sum"](x, axis, dtype, keepdim)


def reshape(x, shape=None):
    """x with a new shape (one -1 is inferred)"""
    if type(shape) is tuple and shape == x.shape:  # a gradient rule's reshape to the same shape
        return x.reshape(shape)
    return _REF["reshape"](x, shape)


def broadcast_to(x, shape=None):
    """x broadcast to shape (-1 keeps a dimension); a copy, never a read-only view"""
    # the reference's copy of np.broadcast_to's view, without building that view (a Python
    # function around an nditer: most of a mean's gradient at W2's and W3's sizes)
    lead = len(shape) - x.ndim
    try:
        out = np.empty(tuple(x.shape[i - lead] if d == -1 else d for i, d in enumerate(shape)),
                       x.dtype)
        out[...] = x
    except (ValueError, IndexError):  # the reference's error
        return _REF["broadcast_to"](x, shape)
    return out


KERNELS.update(matmul=matmul, mean=mean, sum=sum_, reshape=reshape, broadcast_to=broadcast_to)
