"""Loss layers: each calls its paddle.nn.functional counterpart."""

from __future__ import annotations

from . import functional as F
from .functional.loss import check_reduction
from .layer import Layer


class MSELoss(Layer):
    """Mean squared error: ``MSELoss()(input, label)`` is F.mse_loss with this reduction."""

    def __init__(self, reduction="mean"):
        check_reduction(reduction, "MSELoss")
        super().__init__()
        self.reduction = reduction

    def forward(self, input, label):
        return F.mse_loss(input, label, self.reduction)

__all__ = ["MSELoss"]
