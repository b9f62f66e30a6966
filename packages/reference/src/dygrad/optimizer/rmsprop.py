"""RMSProp: steps scaled by a running root mean square of the gradients."""

from __future__ import annotations

from .optimizer import Optimizer


class RMSProp(Optimizer):
    """RMSProp (Hinton), as Paddle computes it (op ``rmsprop_``):

        mean_square = rho * mean_square + (1 - rho) * g^2
        mean_grad   = rho * mean_grad + (1 - rho) * g                  (centered only)
        moment      = momentum * moment + learning_rate * g / sqrt(v + epsilon)
        param       = param - moment

    with v = mean_square, or mean_square - mean_grad^2 when ``centered``. Parameter groups
    may set 'rho', 'epsilon', 'momentum' and 'centered'.
    """

    _accumulator_names = ("momentum", "mean_square", "mean_grad")

    def __init__(self, learning_rate, rho=0.95, epsilon=1e-06, momentum=0.0, centered=False,
                 parameters=None, weight_decay=None, grad_clip=None, name=None):
        for arg, v in (("learning_rate", learning_rate), ("rho", rho), ("epsilon", epsilon),
                       ("momentum", momentum)):
            if v is None:
                raise ValueError(f"{arg} is not set.")
        if not 0.0 <= epsilon:
            raise ValueError("Invalid value of epsilon, expect epsilon >= 0.")
        if not 0.0 <= momentum:
            raise ValueError("Invalid value of momentum, expect momentum >= 0.")
        if not 0.0 <= rho:
            raise ValueError("Invalid value of rho, expect rho >= 0.")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._rho, self._epsilon, self._momentum, self._centered = rho, epsilon, momentum, centered
        self._default_dict.update(rho=rho, epsilon=epsilon, momentum=momentum, centered=centered)

    def _update(self, p, grad, lr, group):
        accs = (self._accumulator("mean_square", p), self._accumulator("mean_grad", p),
                self._accumulator("momentum", p))
        self._run_op("rmsprop_", p, grad, lr, accs, rho=float(self._option(group, "rho")),
                     epsilon=float(self._option(group, "epsilon")),
                     momentum=float(self._option(group, "momentum")),
                     centered=bool(self._option(group, "centered")))

    def _fused_rule(self, group):
        if type(self)._update is not RMSProp._update:  # a subclass's own rule
            return None
        acc = self._accumulators
        return ("rmsprop_", {"rho": float(self._option(group, "rho")),
                             "epsilon": float(self._option(group, "epsilon")),
                             "momentum": float(self._option(group, "momentum")),
                             "centered": bool(self._option(group, "centered"))},
                (acc["mean_square"], acc["mean_grad"], acc["momentum"]), ())
