"""Adam, with Paddle's exact update (the bias corrections folded into the step size)."""

from __future__ import annotations

import numpy as np

from .optimizer import Optimizer
from .sgd import _refuse_master_weights


class Adam(Optimizer):
    """Adam (Kingma & Ba), as Paddle computes it. At step t, with g the gradient:

        moment1 = beta1 * moment1 + (1 - beta1) * g
        moment2 = beta2 * moment2 + (1 - beta2) * g^2
        lr_t    = learning_rate * sqrt(1 - beta2^t) / (1 - beta1^t)
        param   = param - lr_t * moment1 / (sqrt(moment2) + epsilon * sqrt(1 - beta2^t))

    beta1^t and beta2^t are kept per parameter ('beta1_pow_acc', starting at beta1).
    ``lazy_mode`` only concerns sparse gradients, which dygrad does not produce;
    ``use_multi_tensor`` is a speed option of Paddle's kernels: both change nothing here.
    Parameter groups may set their own 'beta1', 'beta2' and 'epsilon'.
    """

    _accumulator_names = ("moment1", "moment2", "beta1_pow_acc", "beta2_pow_acc")

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08,
                 parameters=None, weight_decay=None, grad_clip=None, lazy_mode=False,
                 multi_precision=False, use_multi_tensor=False, name=None):
        self._beta1, self._beta2, self._epsilon = _check_betas(beta1, beta2, epsilon)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        _refuse_master_weights(self, multi_precision)
        self._lazy_mode = lazy_mode
        self._use_multi_tensor = use_multi_tensor

    def _update(self, p, grad, lr, group):
        dt = p._data.dtype.type
        beta1, beta2, eps = (dt(group.get(k, default)) for k, default in
                             (("beta1", self._beta1), ("beta2", self._beta2),
                              ("epsilon", self._epsilon)))
        m1 = self._accumulator("moment1", p)._data
        m2 = self._accumulator("moment2", p)._data
        b1_acc = self._accumulator("beta1_pow_acc", p, fill=float(beta1), shape=(1,))._data
        b2_acc = self._accumulator("beta2_pow_acc", p, fill=float(beta2), shape=(1,))._data
        b1_pow, b2_pow = b1_acc.reshape(()), b2_acc.reshape(())  # 0-D views: beta1^t, beta2^t
        m1[...] = beta1 * m1 + (1 - beta1) * grad
        m2[...] = beta2 * m2 + (1 - beta2) * grad * grad
        lr_t = lr * np.sqrt(1 - b2_pow) / (1 - b1_pow)
        p._data -= lr_t * (m1 / (np.sqrt(m2) + eps * np.sqrt(1 - b2_pow)))
        b1_acc *= beta1
        b2_acc *= beta2


def _check_betas(beta1, beta2, epsilon):
    for name, v in (("beta1", beta1), ("beta2", beta2), ("epsilon", epsilon)):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"Adam: {name} must be a float, got {type(v).__name__}")
    if not 0 <= beta1 < 1:
        raise ValueError("Invalid value of beta1, expect beta1 in [0,1).")
    if not 0 <= beta2 < 1:
        raise ValueError("Invalid value of beta2, expect beta2 in [0,1).")
    if not 0 <= epsilon:
        raise ValueError("Invalid value of epsilon, expect epsilon >= 0.")
    return float(beta1), float(beta2), float(epsilon)
