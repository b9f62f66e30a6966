"""Optimizer update ops: one row per update rule, with Paddle's op names (``sgd_``,
``adam_``, ...).

Every row takes the parameter, its gradient, the learning rate (a one-element tensor in the
parameter's dtype, the optimizer's rate times the parameter's multiplier) and the rule's
accumulators, in that order, and returns the updated parameter and accumulators. As in
Paddle, the outputs are the inputs' own storage: kernels write in place and return the
arrays they were given, so an engine may fuse the whole rule into one kernel. The rows are
not differentiable (an update is not part of any graph).

Attributes that Paddle's ops declare as C++ ``float`` (momentum's ``mu``, RMSProp's ``rho``,
...) are rounded to float32 before the arithmetic, as Paddle does, so float64 parameters
follow Paddle's trajectory to the last bit; Adam's and AdamW's betas and epsilon are exact.
"""

from __future__ import annotations

from ..dtype import from_numpy
from ..optable import Meta, OpDef, register


def _update_meta(op, accumulators, pows=()):
    """infer_meta of an update row: float parameter; gradient and accumulators of its shape
    and dtype (the beta-power accumulators ``pows`` hold one element); one-element rate."""
    def meta(param, grad, learning_rate, *accs, **attrs):
        if param.dtype.kind != "f":
            raise TypeError(f"{op}: param must be a floating-point tensor, got "
                            f"{from_numpy(param.dtype).name}")
        for name, m in (("grad", grad), *zip(accumulators, accs)):
            shape = (1,) if name in pows else param.shape
            if tuple(m.shape) != tuple(shape) or m.dtype != param.dtype:
                raise ValueError(f"{op}: {name} must have shape {list(shape)} and dtype "
                                 f"{from_numpy(param.dtype).name} (those of param), got shape "
                                 f"{list(m.shape)} and dtype {from_numpy(m.dtype).name}")
        size = 1
        for d in learning_rate.shape:
            size *= d
        if size != 1 or learning_rate.dtype != param.dtype:
            raise ValueError(f"{op}: learning_rate must be a one-element tensor of param's dtype "
                             f"{from_numpy(param.dtype).name}, got shape "
                             f"{list(learning_rate.shape)} and dtype "
                             f"{from_numpy(learning_rate.dtype).name}")
        return (Meta(param.shape, param.dtype),
                *(Meta(m.shape, m.dtype) for m in accs))
    return meta


def _row(name, accumulators, doc, attrs, pows=()):
    register(OpDef(name, ("param", "grad", "learning_rate", *accumulators),
                   _update_meta(name, accumulators, pows), doc, attrs=attrs,
                   outputs=("param_out", *(f"{a}_out" for a in accumulators))))


_row("sgd_", (), "param -= learning_rate * grad", {})

_row("momentum_", ("velocity",),
     "g = rescale_grad * grad (+ regularization_coeff * param for 'l2_decay'); "
     "velocity = mu * velocity + g; param -= learning_rate * velocity, or with Nesterov "
     "param -= learning_rate * (g + mu * velocity)",
     {"mu": 0.9, "use_nesterov": False, "regularization_method": "",
      "regularization_coeff": 0.0, "rescale_grad": 1.0})

_ADAM_DOC = ("moment1 = beta1 m1 + (1 - beta1) g; moment2 = beta2 m2 + (1 - beta2) g^2; "
             "param -= lr sqrt(1 - beta2_pow) / (1 - beta1_pow) * moment1 / "
             "(sqrt(moment2) + epsilon sqrt(1 - beta2_pow)); the powers are then multiplied "
             "by beta1, beta2")
_ADAM_ACCS = ("moment1", "moment2", "beta1_pow", "beta2_pow")
_ADAM_ATTRS = {"beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8}

_row("adam_", _ADAM_ACCS, _ADAM_DOC, _ADAM_ATTRS, pows=("beta1_pow", "beta2_pow"))

_row("adamw_", _ADAM_ACCS,
     "decoupled weight decay, then Adam, both with lr = learning_rate * lr_ratio: "
     "param *= 1 - lr * coeff (when with_decay); then " + _ADAM_DOC,
     {**_ADAM_ATTRS, "lr_ratio": 1.0, "coeff": 0.01, "with_decay": True},
     pows=("beta1_pow", "beta2_pow"))

_row("adamax_", ("moment", "inf_norm", "beta1_pow"),
     "moment = beta1 moment + (1 - beta1) g; inf_norm = max(beta2 inf_norm + epsilon, |g|); "
     "param -= lr / (1 - beta1_pow) * moment / inf_norm; beta1_pow *= beta1",
     {"beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8}, pows=("beta1_pow",))

_row("adagrad_", ("moment",),
     "moment += g^2; param -= lr * g / (sqrt(moment) + epsilon)", {"epsilon": 1e-6})

_row("adadelta_", ("avg_squared_grad", "avg_squared_update"),
     "E[g^2] = rho E[g^2] + (1 - rho) g^2; u = -sqrt((E[u^2] + eps) / (E[g^2] + eps)) g; "
     "E[u^2] = rho E[u^2] + (1 - rho) u^2; param += lr * u",
     {"rho": 0.95, "epsilon": 1e-6})

_row("rmsprop_", ("mean_square", "mean_grad", "moment"),
     "ms = rho ms + (1 - rho) g^2; centered: mg = rho mg + (1 - rho) g, "
     "moment = momentum moment + lr g / sqrt(ms - mg^2 + eps), else "
     "moment = momentum moment + lr g / sqrt(ms + eps); param -= moment",
     {"rho": 0.95, "epsilon": 1e-6, "momentum": 0.0, "centered": False})

_row("lamb_", _ADAM_ACCS,
     "Adam's moments; r = (m1 / (1 - beta1_pow)) / (sqrt(m2 / (1 - beta2_pow)) + epsilon) "
     "+ weight_decay param; param -= lr * ratio * r with ratio = ||param|| / ||r|| (1 when "
     "either norm is 0, or when weight_decay is 0 and not always_adapt); powers *= betas",
     {"weight_decay": 0.01, "beta1": 0.9, "beta2": 0.999, "epsilon": 1e-6,
      "always_adapt": False}, pows=("beta1_pow", "beta2_pow"))
