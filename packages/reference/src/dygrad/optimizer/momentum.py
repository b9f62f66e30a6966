"""Momentum (heavy ball, or Nesterov's)."""

from __future__ import annotations

from ..regularizer import L2Decay
from .optimizer import Optimizer
from .sgd import _refuse_master_weights


class Momentum(Optimizer):
    """SGD with momentum, as Paddle computes it (op ``momentum_``):

        velocity = momentum * velocity + g
        param    = param - learning_rate * velocity                      (default)
        param    = param - learning_rate * (g + momentum * velocity)    (use_nesterov)

    with g = rescale_grad * grad (+ coeff * param for L2 decay, which Paddle fuses into the
    op; an L1Decay is added to the gradient before, as for every optimizer). rescale_grad
    is applied as Paddle documents it and its GPU kernel does (Paddle 3.3's CPU kernel
    ignores it). Parameter groups may set 'momentum', 'use_nesterov' and 'rescale_grad'.
    """

    _accumulator_names = ("velocity",)

    def __init__(self, learning_rate=0.001, momentum=0.9, parameters=None, use_nesterov=False,
                 weight_decay=None, grad_clip=None, multi_precision=False, rescale_grad=1.0,
                 use_multi_tensor=False, name=None):
        if learning_rate is None:
            raise ValueError("learning_rate is not set")
        if momentum is None:
            raise ValueError("momentum is not set")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        _refuse_master_weights(self, multi_precision)
        self._momentum = momentum
        self._use_nesterov = bool(use_nesterov)
        self._rescale_grad = rescale_grad
        self._use_multi_tensor = use_multi_tensor  # a speed option of Paddle's kernels
        self._default_dict.update(momentum=momentum, use_nesterov=self._use_nesterov,
                                  rescale_grad=rescale_grad)

    def _regularized_grad(self, p, g):
        # L2 decay goes into the op (after rescale_grad), as Paddle fuses it
        return g if isinstance(self._regularizer(p), L2Decay) else super()._regularized_grad(p, g)

    def _update(self, p, grad, lr, group):
        reg = self._regularizer(p)
        l2 = isinstance(reg, L2Decay)
        self._run_op("momentum_", p, grad, lr, (self._accumulator("velocity", p),),
                     mu=float(self._option(group, "momentum")),
                     use_nesterov=bool(self._option(group, "use_nesterov")),
                     regularization_method="l2_decay" if l2 else "",
                     regularization_coeff=reg.coeff if l2 else 0.0,
                     rescale_grad=float(self._option(group, "rescale_grad")))

    def _fused_rule(self, group):
        if type(self)._update is not Momentum._update:  # a subclass's own rule
            return None
        return ("momentum_", {"mu": float(self._option(group, "momentum")),
                              "use_nesterov": bool(self._option(group, "use_nesterov")),
                              "rescale_grad": float(self._option(group, "rescale_grad"))},
                (self._accumulators["velocity"],), ())
