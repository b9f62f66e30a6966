"""Loss functions (paddle.nn.functional): composites of tensor ops, as in Paddle."""

from __future__ import annotations

from ... import tensor as T
from ._check import check_tensor

_REDUCTIONS = ("sum", "mean", "none")


def check_reduction(reduction, api: str):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"'reduction' in '{api}' should be 'sum', 'mean' or 'none', but "
                         f"received {reduction}.")


def mse_loss(input, label, reduction="mean", name=None):
    """(input - label)^2, averaged ('mean', a 0-D tensor), summed ('sum') or elementwise
    ('none'); label broadcasts against input."""
    check_reduction(reduction, "mse_loss")
    check_tensor(input, "mse_loss", "input")
    check_tensor(label, "mse_loss", "label")
    err = T.square(T.subtract(input, label))
    if reduction == "mean":
        return T.mean(err)
    if reduction == "sum":
        return T.sum(err)
    return err

__all__ = ["mse_loss"]
