"""Adam, with Paddle's exact update (the bias corrections folded into the step size)."""

from __future__ import annotations

from .optimizer import Optimizer
from .sgd import _refuse_master_weights


class Adam(Optimizer):
    """Adam (Kingma & Ba), as Paddle computes it (op ``adam_``). At step t, with g the
    gradient:

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
    _op = "adam_"

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08,
                 parameters=None, weight_decay=None, grad_clip=None, lazy_mode=False,
                 multi_precision=False, use_multi_tensor=False, name=None):
        self._beta1, self._beta2, self._epsilon = _check_betas("Adam", beta1, beta2, epsilon)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        _refuse_master_weights(self, multi_precision)
        self._lazy_mode = lazy_mode
        self._use_multi_tensor = use_multi_tensor
        self._default_dict.update(beta1=self._beta1, beta2=self._beta2, epsilon=self._epsilon,
                                  lazy_mode=lazy_mode)

    def _moments(self, p, group):
        """The betas and epsilon of ``p``'s group, and its four accumulators."""
        beta1, beta2, eps = (float(self._option(group, k)) for k in ("beta1", "beta2", "epsilon"))
        accs = (self._accumulator("moment1", p), self._accumulator("moment2", p),
                self._accumulator("beta1_pow_acc", p, fill=beta1, shape=(1,)),
                self._accumulator("beta2_pow_acc", p, fill=beta2, shape=(1,)))
        return beta1, beta2, eps, accs

    def _update(self, p, grad, lr, group):
        beta1, beta2, eps, accs = self._moments(p, group)
        self._run_op("adam_", p, grad, lr, accs, beta1=beta1, beta2=beta2, epsilon=eps)

    def _fused_rule(self, group):
        if type(self)._update is not Adam._update:  # AdamW's rule, a subclass's own
            return None
        beta1, beta2, eps = (float(self._option(group, k)) for k in ("beta1", "beta2", "epsilon"))
        acc = self._accumulators
        return ("adam_", {"beta1": beta1, "beta2": beta2, "epsilon": eps},
                (acc["moment1"], acc["moment2"]), (acc["beta1_pow_acc"], acc["beta2_pow_acc"]))


def _check_betas(api, beta1, beta2, epsilon):
    """Paddle's checks of beta1, beta2 and epsilon (Adam, AdamW, Adamax)."""
    for name, v in (("beta1", beta1), ("beta2", beta2), ("epsilon", epsilon)):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"{api}: {name} must be a float, got {type(v).__name__}")
    if not 0 <= beta1 < 1:
        raise ValueError("Invalid value of beta1, expect beta1 in [0,1).")
    if not 0 <= beta2 < 1:
        raise ValueError("Invalid value of beta2, expect beta2 in [0,1).")
    if not 0 <= epsilon:
        raise ValueError("Invalid value of epsilon, expect epsilon >= 0.")
    return float(beta1), float(beta2), float(epsilon)
