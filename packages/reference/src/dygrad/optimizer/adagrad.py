"""Adagrad: per-element step sizes from the sum of squared gradients."""

from __future__ import annotations

from .optimizer import Optimizer


class Adagrad(Optimizer):
    """Adagrad (Duchi et al.), as Paddle computes it (op ``adagrad_``):

        moment = moment + g^2              (moment starts at initial_accumulator_value)
        param  = param - learning_rate * g / (sqrt(moment) + epsilon)

    Parameter groups may set 'epsilon' and 'initial_accumulator_value'.
    """

    _accumulator_names = ("moment",)

    def __init__(self, learning_rate, epsilon=1e-06, parameters=None, weight_decay=None,
                 grad_clip=None, name=None, initial_accumulator_value=0.0):
        if learning_rate is None:
            raise AssertionError("learning_rate is not set")
        if epsilon is None:
            raise AssertionError("epsilon is not set")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._epsilon = epsilon
        self.initial_accumulator_value = initial_accumulator_value
        self._default_dict.update(epsilon=epsilon,
                                  initial_accumulator_value=initial_accumulator_value)

    def _update(self, p, grad, lr, group):
        moment = self._accumulator(
            "moment", p, fill=float(self._option(group, "initial_accumulator_value")))
        self._run_op("adagrad_", p, grad, lr, (moment,),
                     epsilon=float(self._option(group, "epsilon")))

    def _fused_rule(self, group):
        if type(self)._update is not Adagrad._update:  # a subclass's own rule
            return None
        return ("adagrad_", {"epsilon": float(self._option(group, "epsilon"))},
                (self._accumulators["moment"],), ())
