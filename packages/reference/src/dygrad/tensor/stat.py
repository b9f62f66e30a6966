"""Statistics of the tensor API (paddle.mean, paddle.var, paddle.std from paddle.tensor.stat).

As in Paddle 2.x they take floating-point tensors; an integer tensor raises a TypeError
(cast it first, e.g. ``x.astype('float32')``).
"""

from __future__ import annotations

from .._core.dispatch import ops
from .reduce import axis_arg, check_tensor

__all__ = ["mean", "var", "std"]
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
