"""Distance layers, as Paddle's ``paddle.nn.layer.distance``: PairwiseDistance."""

from __future__ import annotations

from . import functional as F
from .layer import Layer

__all__ = ["PairwiseDistance"]


class PairwiseDistance(Layer):
    """``F.pairwise_distance(x, y, p, epsilon, keepdim)``: the p-norm of x - y + epsilon
    along the last axis."""

    def __init__(self, p=2.0, epsilon=1e-6, keepdim=False, name=None):
        super().__init__()
        self.p = p
        self.epsilon = epsilon
        self.keepdim = keepdim
        self.name = name

    def forward(self, x, y):
        return F.pairwise_distance(x, y, self.p, self.epsilon, self.keepdim, self.name)

    def extra_repr(self):
        s = f"p={self.p}"
        if self.epsilon != 1e-6:
            s += f", epsilon={self.epsilon}"
        if self.keepdim:
            s += f", keepdim={self.keepdim}"
        if self.name is not None:
            s += f", name={self.name}"
        return s
