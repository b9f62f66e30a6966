"""Stochastic gradient descent."""

from __future__ import annotations

from .optimizer import Optimizer


class SGD(Optimizer):
    """param = param - learning_rate * grad (op ``sgd_``)."""

    def __init__(self, learning_rate=0.001, parameters=None, weight_decay=None, grad_clip=None,
                 multi_precision=False, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        _refuse_master_weights(self, multi_precision)

    def _update(self, p, grad, lr, group):
        self._run_op("sgd_", p, grad, lr, ())

    def _fused_rule(self, group):
        if type(self)._update is not SGD._update:  # a subclass's own rule
            return None
        return "sgd_", {}, (), ()


def _refuse_master_weights(opt, multi_precision):
    """multi_precision keeps float32 master copies of float16 parameters: not implemented,
    so it is refused where it would matter (it changes nothing for float32/64 parameters)."""
    if multi_precision and any(p._data.dtype.itemsize < 4 for g in opt._param_groups
                               for p in g["params"]):
        raise NotImplementedError(f"{type(opt).__name__}: multi_precision=True (float32 master "
                                  f"weights for float16 parameters) is not implemented")
    opt._multi_precision = bool(multi_precision)
