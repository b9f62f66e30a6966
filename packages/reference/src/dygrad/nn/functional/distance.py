"""paddle.nn.functional: pairwise_distance (Paddle's ``nn.functional.distance``)."""

from __future__ import annotations

from ... import tensor as T
from ..._core.ops.nn import check_float
from ..._core.optable import Meta
from ._check import check_tensor


def pairwise_distance(x, y, p=2.0, epsilon=1e-6, keepdim=False, name=None):
    """The p-norm of ``x - y + epsilon`` along the last axis (x and y broadcast against
    each other; p may be inf, -inf or 0 as in ``paddle.linalg.vector_norm``)."""
    for arg, t in (("x", x), ("y", y)):
        check_tensor(t, "pairwise_distance", arg)
        check_float("pairwise_distance", Meta(tuple(t.shape), t._data.dtype), arg)
    sub = x - y
    if epsilon != 0.0:
        sub = sub + epsilon
    return T.linalg.vector_norm(sub, p=p, axis=-1, keepdim=keepdim)


__all__ = ["pairwise_distance"]
