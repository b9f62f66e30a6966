"""Op database entries: optimizer update ops.

Each ``ref`` states one update rule out of place, in float64, and casts the results back to
the parameter's dtype. Attributes that Paddle keeps as C++ floats enter rounded to float32
(``_f32``), as the op table says. The kernels write into their inputs, so the suite gives
every run its own copies (``inplace=True``).
"""

import numpy as np

from . import ErrorInput, OpInfo, Sample, make, make_positive

SHAPES = [(), (1,), (5,), (3, 4), (2, 1, 3), (2, 0, 3)]


def _f32(v):
    return float(np.float32(v))


def _out(dtype, *arrays):
    return tuple(np.asarray(a).astype(dtype) for a in arrays)


def _f64(*arrays):
    return [np.asarray(a, dtype=np.float64) for a in arrays]


def update_samples(accumulators, pows=(), attr_sets=({},)):
    """samples(dtype, rng) for an update row: every shape, each attribute set; accumulators
    positive (mean_grad small, so that a centered variance stays positive), beta powers in
    (0, 1)."""
    def gen(dtype, rng):
        for shape in SHAPES:
            for attrs in attr_sets:
                accs = [make((1,), dtype, rng, 0.3, 0.95) if a in pows
                        else make(shape, dtype, rng, -0.2, 0.2) if a == "mean_grad"
                        else make_positive(shape, dtype, rng, 0.1, 1.0) for a in accumulators]
                lr = np.array(rng.uniform(0.01, 0.2), dtype=dtype).reshape(
                    () if len(shape) % 2 else (1,))
                yield Sample((make(shape, dtype, rng), make(shape, dtype, rng), lr, *accs),
                             dict(attrs), f"{shape} {attrs}", grad=False)
    return gen


def update_errors(n_accs):
    """Inputs a kernel cannot run on: the row's infer_meta names the problem."""
    def gen(rng):
        p = make((3, 4), np.float32, rng)
        accs = [make_positive((3, 4), np.float32, rng) for _ in range(n_accs)]
        lr = np.array([0.1], np.float32)
        yield ErrorInput(Sample((p, make((4, 3), np.float32, rng), lr, *accs)), ValueError,
                         "grad must have shape")
        yield ErrorInput(Sample((np.arange(12).reshape(3, 4), p, lr, *accs)), TypeError,
                         "floating-point")
    return gen


def sgd_ref(param, grad, lr):
    p, g, lr = _f64(param, grad, lr)
    return _out(param.dtype, p - lr.item() * g)


def momentum_ref(param, grad, lr, velocity, mu=0.9, use_nesterov=False,
                 regularization_method="", regularization_coeff=0.0, rescale_grad=1.0):
    p, g, lr, v = _f64(param, grad, lr, velocity)
    mu, lr = _f32(mu), lr.item()
    g = _f32(rescale_grad) * g
    if regularization_method == "l2_decay":
        g = g + _f32(regularization_coeff) * p
    v = mu * v + g
    p = p - lr * (g + mu * v) if use_nesterov else p - lr * v
    return _out(param.dtype, p, v)


def _adam(p, g, lr, m1, m2, b1p, b2p, beta1, beta2, eps):
    m1 = beta1 * m1 + (1 - beta1) * g
    m2 = beta2 * m2 + (1 - beta2) * g * g
    m1_hat, m2_hat = m1 / (1 - b1p.item()), m2 / (1 - b2p.item())
    # Paddle's epsilon is added to sqrt(m2) before the bias correction: eps * sqrt(1 - b2p)
    # on the corrected scale is eps on the raw one
    p = p - lr * m1_hat / (np.sqrt(m2_hat) + eps)
    return p, m1, m2, b1p * beta1, b2p * beta2


def adam_ref(param, grad, lr, m1, m2, b1p, b2p, beta1=0.9, beta2=0.999, epsilon=1e-8):
    p, g, lr, m1, m2, b1p, b2p = _f64(param, grad, lr, m1, m2, b1p, b2p)
    return _out(param.dtype, *_adam(p, g, lr.item(), m1, m2, b1p, b2p, beta1, beta2, epsilon))


def adamw_ref(param, grad, lr, m1, m2, b1p, b2p, beta1=0.9, beta2=0.999, epsilon=1e-8,
              lr_ratio=1.0, coeff=0.01, with_decay=True):
    p, g, lr, m1, m2, b1p, b2p = _f64(param, grad, lr, m1, m2, b1p, b2p)
    lr = lr.item() * _f32(lr_ratio)
    if with_decay:
        p = p * (1 - lr * _f32(coeff))
    return _out(param.dtype, *_adam(p, g, lr, m1, m2, b1p, b2p, beta1, beta2, epsilon))


def adamax_ref(param, grad, lr, moment, inf_norm, b1p, beta1=0.9, beta2=0.999, epsilon=1e-8):
    p, g, lr, m, u, b1p = _f64(param, grad, lr, moment, inf_norm, b1p)
    b1, b2, eps = _f32(beta1), _f32(beta2), _f32(epsilon)
    m = b1 * m + (1 - b1) * g
    u = np.maximum(b2 * u + eps, np.abs(g))
    p = p - (lr.item() / (1 - b1p.item())) * m / u
    return _out(param.dtype, p, m, u, b1p * beta1)


def adagrad_ref(param, grad, lr, moment, epsilon=1e-6):
    p, g, lr, m = _f64(param, grad, lr, moment)
    m = m + g ** 2
    return _out(param.dtype, p - lr.item() * g / (np.sqrt(m) + _f32(epsilon)), m)


def adadelta_ref(param, grad, lr, eg2, eu2, rho=0.95, epsilon=1e-6):
    p, g, lr, eg2, eu2 = _f64(param, grad, lr, eg2, eu2)
    rho, eps = _f32(rho), _f32(epsilon)
    eg2 = rho * eg2 + (1 - rho) * g ** 2
    u = -np.sqrt((eu2 + eps) / (eg2 + eps)) * g
    eu2 = rho * eu2 + (1 - rho) * u ** 2
    return _out(param.dtype, p + lr.item() * u, eg2, eu2)


def rmsprop_ref(param, grad, lr, ms, mg, mom, rho=0.95, epsilon=1e-6, momentum=0.0,
                centered=False):
    p, g, lr, ms, mg, mom = _f64(param, grad, lr, ms, mg, mom)
    rho, eps = _f32(rho), _f32(epsilon)
    ms = rho * ms + (1 - rho) * g ** 2
    var = ms
    if centered:
        mg = rho * mg + (1 - rho) * g
        var = ms - mg ** 2
    mom = _f32(momentum) * mom + lr.item() * g / np.sqrt(var + eps)
    return _out(param.dtype, p - mom, ms, mg, mom)


def lamb_ref(param, grad, lr, m1, m2, b1p, b2p, weight_decay=0.01, beta1=0.9, beta2=0.999,
             epsilon=1e-6, always_adapt=False):
    p, g, lr, m1, m2, b1p, b2p = _f64(param, grad, lr, m1, m2, b1p, b2p)
    b1, b2, eps, wd = _f32(beta1), _f32(beta2), _f32(epsilon), _f32(weight_decay)
    m1 = b1 * m1 + (1 - b1) * g
    m2 = b2 * m2 + (1 - b2) * g * g
    r = (m1 / (1 - b1p.item())) / (np.sqrt(m2 / (1 - b2p.item())) + eps) + wd * p
    w_norm, r_norm = np.linalg.norm(p), np.linalg.norm(r)
    adapt = (wd != 0 or always_adapt) and w_norm > 0 and r_norm > 0
    p = p - lr.item() * (w_norm / r_norm if adapt else 1.0) * r
    return _out(param.dtype, p, m1, m2, b1p * b1, b2p * b2)


_ADAM = ("moment1", "moment2", "beta1_pow", "beta2_pow")
_POWS = ("beta1_pow", "beta2_pow")


def _info(name, ref, accs, attr_sets=({},), pows=(), **kw):
    return OpInfo(name, ref, update_samples(accs, pows, attr_sets), grad=False, inplace=True,
                  errors=update_errors(len(accs)), **kw)


OPS = [
    _info("sgd_", sgd_ref, ()),
    _info("momentum_", momentum_ref, ("velocity",),
          ({}, {"mu": 0.5, "use_nesterov": True},
           {"regularization_method": "l2_decay", "regularization_coeff": 0.1,
            "rescale_grad": 0.5})),
    _info("adam_", adam_ref, _ADAM, ({}, {"beta1": 0.5, "beta2": 0.8, "epsilon": 0.1}),
          pows=_POWS),
    _info("adamw_", adamw_ref, _ADAM,
          ({}, {"coeff": 0.3, "lr_ratio": 0.5}, {"with_decay": False, "epsilon": 0.01}),
          pows=_POWS),
    _info("adamax_", adamax_ref, ("moment", "inf_norm", "beta1_pow"),
          ({}, {"beta1": 0.5, "beta2": 0.7, "epsilon": 0.1}), pows=("beta1_pow",)),
    _info("adagrad_", adagrad_ref, ("moment",), ({}, {"epsilon": 0.1})),
    _info("adadelta_", adadelta_ref, ("avg_squared_grad", "avg_squared_update"),
          ({}, {"rho": 0.5, "epsilon": 0.01})),
    _info("rmsprop_", rmsprop_ref, ("mean_square", "mean_grad", "moment"),
          ({}, {"momentum": 0.7}, {"centered": True, "momentum": 0.3, "rho": 0.8})),
    _info("lamb_", lamb_ref, _ADAM,
          ({}, {"weight_decay": 0.0}, {"weight_decay": 0.0, "always_adapt": True},
           {"weight_decay": 0.2, "beta1": 0.5, "epsilon": 0.01}), pows=_POWS,
          tol={np.float32: (1e-4, 1e-5)}),
]
