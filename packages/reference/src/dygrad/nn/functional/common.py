"""paddle.nn.functional.linear."""

from __future__ import annotations

from ... import tensor as T
from ._check import check_tensor


def linear(x, weight, bias=None, name=None):
    """x @ weight + bias, with weight of shape [in_features, out_features] (Paddle's layout)
    and bias of shape [out_features]; x is [..., in_features]."""
    check_tensor(x, "linear")
    check_tensor(weight, "linear", "weight")
    out = T.matmul(x, weight)
    return out if bias is None else T.add(out, check_tensor(bias, "linear", "bias"))

__all__ = ["linear"]
