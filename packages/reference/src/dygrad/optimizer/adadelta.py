"""Adadelta: step sizes from running averages of squared gradients and updates."""

from __future__ import annotations

from .optimizer import Optimizer


class Adadelta(Optimizer):
    """Adadelta (Zeiler), as Paddle computes it (op ``adadelta_``):

        E[g^2] = rho * E[g^2] + (1 - rho) * g^2
        update = -sqrt((E[u^2] + epsilon) / (E[g^2] + epsilon)) * g
        E[u^2] = rho * E[u^2] + (1 - rho) * update^2
        param  = param + learning_rate * update

    Parameter groups may set 'epsilon' and 'rho'.
    """

    _accumulator_names = ("_avg_squared_grad", "_avg_squared_update")

    def __init__(self, learning_rate=0.001, epsilon=1e-06, rho=0.95, parameters=None,
                 weight_decay=None, grad_clip=None, name=None):
        for arg, v in (("learning_rate", learning_rate), ("epsilon", epsilon), ("rho", rho)):
            if v is None:
                raise ValueError(f"{arg} is not set.")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._epsilon, self._rho = epsilon, rho
        self._default_dict.update(epsilon=epsilon, rho=rho)

    def _update(self, p, grad, lr, group):
        accs = (self._accumulator("_avg_squared_grad", p),
                self._accumulator("_avg_squared_update", p))
        self._run_op("adadelta_", p, grad, lr, accs, rho=float(self._option(group, "rho")),
                     epsilon=float(self._option(group, "epsilon")))

    def _fused_rule(self, group):
        if type(self)._update is not Adadelta._update:  # a subclass's own rule
            return None
        acc = self._accumulators
        return ("adadelta_", {"rho": float(self._option(group, "rho")),
                              "epsilon": float(self._option(group, "epsilon"))},
                (acc["_avg_squared_grad"], acc["_avg_squared_update"]), ())
