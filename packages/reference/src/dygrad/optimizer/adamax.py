"""Adamax: Adam with the infinity norm."""

from __future__ import annotations

from .adam import _check_betas
from .optimizer import Optimizer


class Adamax(Optimizer):
    """Adamax (Kingma & Ba), as Paddle computes it (op ``adamax_``):

        moment   = beta1 * moment + (1 - beta1) * g
        inf_norm = max(beta2 * inf_norm + epsilon, |g|)
        param    = param - learning_rate / (1 - beta1^t) * moment / inf_norm

    beta1^t is kept per parameter ('beta1_pow_acc', starting at beta1). Parameter groups may
    set 'beta1', 'beta2' and 'epsilon'.
    """

    _accumulator_names = ("moment", "inf_norm", "beta1_pow_acc")

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08,
                 parameters=None, weight_decay=None, grad_clip=None, name=None):
        self._beta1, self._beta2, self._epsilon = _check_betas("Adamax", beta1, beta2, epsilon)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._default_dict.update(beta1=self._beta1, beta2=self._beta2, epsilon=self._epsilon)

    def _update(self, p, grad, lr, group):
        beta1, beta2, eps = (float(self._option(group, k)) for k in ("beta1", "beta2", "epsilon"))
        accs = (self._accumulator("moment", p), self._accumulator("inf_norm", p),
                self._accumulator("beta1_pow_acc", p, fill=beta1, shape=(1,)))
        self._run_op("adamax_", p, grad, lr, accs, beta1=beta1, beta2=beta2, epsilon=eps)

    def _fused_rule(self, group):
        if type(self)._update is not Adamax._update:  # a subclass's own rule
            return None
        beta1, beta2, eps = (float(self._option(group, k)) for k in ("beta1", "beta2", "epsilon"))
        acc = self._accumulators
        return ("adamax_", {"beta1": beta1, "beta2": beta2, "epsilon": eps},
                (acc["moment"], acc["inf_norm"]), (acc["beta1_pow_acc"],))
