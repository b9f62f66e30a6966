"""paddle.regularizer: weight decay as L1Decay or L2Decay.

A regularizer adds the gradient of a penalty on the parameter to the parameter's gradient
before the optimizer's update rule runs. It is given to an optimizer (``weight_decay=``, for
all its parameters) or to one parameter (``ParamAttr(regularizer=...)``), which then takes
precedence over the optimizer's.
"""

from __future__ import annotations

from ._core.dispatch import ops

__all__ = ["L1Decay", "L2Decay", "WeightDecayRegularizer"]


class WeightDecayRegularizer:
    """Base class: ``regularizer(param, grad)`` is the term added to ``grad``."""

    def __init__(self, coeff=0.0):
        if isinstance(coeff, bool) or not isinstance(coeff, (int, float)):
            raise TypeError(f"{type(self).__name__}: coeff must be a float, got "
                            f"{type(coeff).__name__}")
        self._coeff = float(coeff)

    @property
    def coeff(self) -> float:
        return self._coeff

    def __call__(self, param, grad, block=None):
        raise NotImplementedError(f"{type(self).__name__} does not define its term")


class L1Decay(WeightDecayRegularizer):
    """Penalty coeff * sum(|param|): adds coeff * sign(param) to the gradient."""

    def __call__(self, param, grad, block=None):
        return ops.scale(ops.sign(param), scale=self._coeff)

    def __str__(self):
        return f"L1Decay, coeff={self._coeff:f}"


class L2Decay(WeightDecayRegularizer):
    """Penalty coeff / 2 * sum(param^2): adds coeff * param to the gradient."""

    def __call__(self, param, grad, block=None):
        return ops.scale(param, scale=self._coeff)

    def __str__(self):
        return f"L2Decay, coeff={self._coeff:f}"
