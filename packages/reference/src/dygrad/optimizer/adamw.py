"""AdamW: Adam with decoupled weight decay."""

from __future__ import annotations

from .._core.tensor import Tensor
from .adam import Adam


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov & Hutter), as Paddle computes it (op
    ``adamw_``): with lr = learning_rate * lr_ratio(param),

        param = param - lr * weight_decay * param       (unless apply_decay_param_fun
                                                         (param.name) is False)

    and then Adam's step with that lr. ``weight_decay`` is this coefficient, not a
    regularizer (a parameter's own ``ParamAttr(regularizer=...)`` still adds its term to the
    gradient). Parameter groups may set 'beta1', 'beta2', 'epsilon' and 'weight_decay'.
    ``lr_ratio`` works on every device here (Paddle's CPU kernel refuses it).
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08,
                 parameters=None, weight_decay=0.01, lr_ratio=None, apply_decay_param_fun=None,
                 grad_clip=None, lazy_mode=False, multi_precision=False, name=None):
        if isinstance(weight_decay, Tensor):
            weight_decay = float(weight_decay.numpy().reshape(()))
        if isinstance(weight_decay, bool) or not isinstance(weight_decay, (int, float)):
            raise TypeError("weight_decay should be int, float or Tensor.")
        if lr_ratio is not None and not callable(lr_ratio):
            raise TypeError(f"AdamW: lr_ratio must be a function of the parameter, got "
                            f"{type(lr_ratio).__name__}")
        self._coeff = float(weight_decay)
        super().__init__(learning_rate, beta1, beta2, epsilon, parameters, None, grad_clip,
                         lazy_mode, multi_precision, name=name)
        self._lr_ratio = lr_ratio
        self._apply_decay_param_fun = apply_decay_param_fun
        self._default_dict["weight_decay"] = self._coeff

    def _group_weight_decay(self, group):
        """A group's 'weight_decay' is its decoupled coefficient, not a regularizer."""

    def _update(self, p, grad, lr, group):
        beta1, beta2, eps, accs = self._moments(p, group)
        with_decay = (self._apply_decay_param_fun is None
                      or bool(self._apply_decay_param_fun(p.name)))
        ratio = 1.0 if self._lr_ratio is None else float(self._lr_ratio(p))
        self._run_op("adamw_", p, grad, lr, accs, beta1=beta1, beta2=beta2, epsilon=eps,
                     lr_ratio=ratio, coeff=float(self._option(group, "weight_decay")),
                     with_decay=with_decay)

    def _fused_rule(self, group):
        if (type(self)._update is not AdamW._update or self._lr_ratio is not None
                or self._apply_decay_param_fun is not None):  # per-parameter attributes
            return None
        beta1, beta2, eps = (float(self._option(group, k)) for k in ("beta1", "beta2", "epsilon"))
        acc = self._accumulators
        return ("adamw_", {"beta1": beta1, "beta2": beta2, "epsilon": eps, "lr_ratio": 1.0,
                           "coeff": float(self._option(group, "weight_decay")),
                           "with_decay": True},
                (acc["moment1"], acc["moment2"]), (acc["beta1_pow_acc"], acc["beta2_pow_acc"]))
