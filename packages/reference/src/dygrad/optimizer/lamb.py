"""Lamb: Adam's direction with a layer-wise trust ratio."""

from __future__ import annotations

from .optimizer import Optimizer
from .sgd import _refuse_master_weights


class Lamb(Optimizer):
    """LAMB (You et al.), as Paddle computes it (op ``lamb_``):

        moment1, moment2 as Adam's; m1 = moment1 / (1 - beta1^t), m2 = moment2 / (1 - beta2^t)
        r     = m1 / (sqrt(m2) + epsilon) + lamb_weight_decay * param
        param = param - learning_rate * (||param|| / ||r||) * r

    The trust ratio ||param|| / ||r|| is 1 when either norm is 0, or when the decay is 0 and
    not ``always_adapt``. ``exclude_from_weight_decay_fn(param)`` returning True turns the
    decay off for that parameter. Parameter groups may set 'beta1', 'beta2', 'epsilon',
    'lamb_weight_decay' and 'exclude_from_weight_decay_fn'.
    """

    _accumulator_names = ("moment1", "moment2", "beta1_pow_acc", "beta2_pow_acc")

    def __init__(self, learning_rate=0.001, lamb_weight_decay=0.01, beta1=0.9, beta2=0.999,
                 epsilon=1e-06, parameters=None, grad_clip=None,
                 exclude_from_weight_decay_fn=None, multi_precision=False, always_adapt=False,
                 name=None):
        for arg, v in (("learning_rate", learning_rate), ("beta1", beta1), ("beta2", beta2),
                       ("epsilon", epsilon)):
            if v is None:
                raise AssertionError(f"Lamb: {arg} is not set")
        super().__init__(learning_rate, parameters, None, grad_clip, name)
        _refuse_master_weights(self, multi_precision)
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        self._lamb_weight_decay = lamb_weight_decay
        self._exclude_from_weight_decay_fn = exclude_from_weight_decay_fn
        self.always_adapt = always_adapt
        self._default_dict.update(beta1=beta1, beta2=beta2, epsilon=epsilon,
                                  lamb_weight_decay=lamb_weight_decay,
                                  exclude_from_weight_decay_fn=exclude_from_weight_decay_fn)

    def _update(self, p, grad, lr, group):
        beta1, beta2, eps = (float(self._option(group, k)) for k in ("beta1", "beta2", "epsilon"))
        exclude = self._option(group, "exclude_from_weight_decay_fn")
        decay = 0.0 if exclude is not None and exclude(p) else \
            float(self._option(group, "lamb_weight_decay"))
        accs = (self._accumulator("moment1", p), self._accumulator("moment2", p),
                self._accumulator("beta1_pow_acc", p, fill=beta1, shape=(1,)),
                self._accumulator("beta2_pow_acc", p, fill=beta2, shape=(1,)))
        self._run_op("lamb_", p, grad, lr, accs, weight_decay=decay, beta1=beta1, beta2=beta2,
                     epsilon=eps, always_adapt=bool(self.always_adapt))
