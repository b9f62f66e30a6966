"""Every optimizer, several steps, on every engine, against a NumPy statement of its update
rule (written here step by step, apart from the kernels), in float32 and float64; and a few
float64 trajectories computed by PaddlePaddle 3.3.1.

Attributes that Paddle keeps as C++ floats (momentum, RMSProp's rho, ...) enter the
statements rounded to float32 (``f32``), as they enter Paddle's kernels.
"""

import numpy as np
import pytest

import dygrad as paddle


def f32(v):
    return float(np.float32(v))


def sgd(w, grads, lr=0.1, l2=0.0):
    for g in grads:
        w = w - lr * (g + l2 * w)
        yield w


def momentum(w, grads, lr=0.1, mu=0.9, nesterov=False, l2=0.0, rescale=1.0):
    v = np.zeros_like(w)
    mu = f32(mu)
    for g in grads:
        g = f32(rescale) * g + f32(l2) * w
        v = mu * v + g
        w = w - lr * (g + mu * v) if nesterov else w - lr * v
        yield w


def adam(w, grads, lr=0.1, beta1=0.9, beta2=0.999, eps=1e-8, decoupled=0.0):
    m, v = np.zeros_like(w), np.zeros_like(w)
    for t, g in enumerate(grads, start=1):
        w = w * (1 - lr * f32(decoupled))
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g * g
        m_hat, v_hat = m / (1 - beta1 ** t), v / (1 - beta2 ** t)
        w = w - lr * m_hat / (np.sqrt(v_hat) + eps)  # eps on the uncorrected scale is Paddle's
        yield w


def adamax(w, grads, lr=0.1, beta1=0.9, beta2=0.999, eps=1e-8):
    m, u = np.zeros_like(w), np.zeros_like(w)
    b1, b2, e = f32(beta1), f32(beta2), f32(eps)
    for t, g in enumerate(grads, start=1):
        m = b1 * m + (1 - b1) * g
        u = np.maximum(b2 * u + e, np.abs(g))
        w = w - lr / (1 - beta1 ** t) * m / u
        yield w


def adagrad(w, grads, lr=0.1, eps=1e-6, init=0.0):
    acc = np.full_like(w, init)
    for g in grads:
        acc = acc + g * g
        w = w - lr * g / (np.sqrt(acc) + f32(eps))
        yield w


def adadelta(w, grads, lr=0.1, eps=1e-6, rho=0.95):
    eg, eu = np.zeros_like(w), np.zeros_like(w)
    rho, eps = f32(rho), f32(eps)
    for g in grads:
        eg = rho * eg + (1 - rho) * g * g
        u = -np.sqrt((eu + eps) / (eg + eps)) * g
        eu = rho * eu + (1 - rho) * u * u
        w = w + lr * u
        yield w


def rmsprop(w, grads, lr=0.1, rho=0.95, eps=1e-6, mom=0.0, centered=False):
    ms, mg, v = np.zeros_like(w), np.zeros_like(w), np.zeros_like(w)
    rho, eps, mom = f32(rho), f32(eps), f32(mom)
    for g in grads:
        ms = rho * ms + (1 - rho) * g * g
        mg = rho * mg + (1 - rho) * g
        var = ms - mg * mg if centered else ms
        v = mom * v + lr * g / np.sqrt(var + eps)
        w = w - v
        yield w


def lamb(w, grads, lr=0.1, wd=0.01, beta1=0.9, beta2=0.999, eps=1e-6):
    m, v = np.zeros_like(w), np.zeros_like(w)
    b1, b2, eps, wd = f32(beta1), f32(beta2), f32(eps), f32(wd)
    for t, g in enumerate(grads, start=1):
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        # the powers: Paddle starts them at the exact betas and multiplies by the float32 ones
        r = (m / (1 - beta1 * b1 ** (t - 1))) / (np.sqrt(v / (1 - beta2 * b2 ** (t - 1))) + eps)
        r = r + wd * w
        trust = np.linalg.norm(w) / np.linalg.norm(r) if wd else 1.0
        w = w - lr * trust * r
        yield w


O = paddle.optimizer
# (id, make(params), reference(w, grads))
CASES = [
    ("SGD", lambda ps: O.SGD(0.1, parameters=ps), sgd),
    ("SGD-L2", lambda ps: O.SGD(0.1, parameters=ps, weight_decay=0.05),
     lambda w, gs: sgd(w, gs, l2=0.05)),
    ("Momentum", lambda ps: O.Momentum(0.1, 0.9, ps), momentum),
    ("Momentum-nesterov-L2-rescale",
     lambda ps: O.Momentum(0.05, 0.8, ps, use_nesterov=True, weight_decay=0.1, rescale_grad=0.5),
     lambda w, gs: momentum(w, gs, 0.05, 0.8, True, 0.1, 0.5)),
    ("Adam", lambda ps: O.Adam(0.1, parameters=ps), adam),
    ("Adam-options", lambda ps: O.Adam(0.05, 0.8, 0.9, 1e-3, parameters=ps),
     lambda w, gs: adam(w, gs, 0.05, 0.8, 0.9, 1e-3)),
    ("AdamW", lambda ps: O.AdamW(0.1, parameters=ps, weight_decay=0.3),
     lambda w, gs: adam(w, gs, decoupled=0.3)),
    ("Adamax", lambda ps: O.Adamax(0.1, parameters=ps), adamax),
    ("Adagrad", lambda ps: O.Adagrad(0.1, parameters=ps, initial_accumulator_value=0.3),
     lambda w, gs: adagrad(w, gs, init=0.3)),
    ("Adadelta", lambda ps: O.Adadelta(0.1, parameters=ps), adadelta),
    ("Adadelta-options", lambda ps: O.Adadelta(1.0, epsilon=1e-4, rho=0.5, parameters=ps),
     lambda w, gs: adadelta(w, gs, 1.0, 1e-4, 0.5)),
    ("RMSProp", lambda ps: O.RMSProp(0.01, parameters=ps), lambda w, gs: rmsprop(w, gs, 0.01)),
    ("RMSProp-centered-momentum",
     lambda ps: O.RMSProp(0.01, rho=0.9, momentum=0.5, centered=True, parameters=ps),
     lambda w, gs: rmsprop(w, gs, 0.01, 0.9, mom=0.5, centered=True)),
    ("Lamb", lambda ps: O.Lamb(0.1, parameters=ps), lamb),
    ("Lamb-no-decay", lambda ps: O.Lamb(0.1, lamb_weight_decay=0.0, parameters=ps),
     lambda w, gs: lamb(w, gs, wd=0.0)),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_update_rule(engine, case, dtype):
    _, make, reference = case
    rng = np.random.default_rng(0)
    starts = [rng.standard_normal(s) for s in [(4, 3), (3,), ()]]
    params = [paddle.Parameter(w.astype(dtype), name=f"w{i}") for i, w in enumerate(starts)]
    grads = [[rng.standard_normal(w.shape) for _ in range(5)] for w in starts]
    opt = make(params)
    for step in range(5):
        for p, g in zip(params, grads):
            p.grad = paddle.to_tensor(g[step].astype(dtype))
        opt.step()
        for p, w, g in zip(params, starts, grads):
            expected = list(reference(w.astype(dtype).astype(np.float64),
                                      [x.astype(dtype).astype(np.float64) for x in g[:step + 1]]))
            assert p.dtype == getattr(paddle, dtype)
            tol = dict(rtol=1e-12, atol=1e-13) if dtype == "float64" else \
                dict(rtol=2e-5, atol=2e-6)
            np.testing.assert_allclose(p.numpy(), expected[-1], **tol,
                                       err_msg=f"{case[0]} step {step + 1}")


# Four steps from W0 with GRADS, in float64, by PaddlePaddle 3.3.1 on the CPU.
PADDLE_W0 = np.linspace(-1, 1, 6).reshape(2, 3)
PADDLE_GRADS = [np.cos(np.arange(6) * (t + 1)).reshape(2, 3) for t in range(4)]
PADDLE_CASES = {
    "SGD": lambda ps: O.SGD(0.1, parameters=ps),
    "Momentum": lambda ps: O.Momentum(0.1, 0.9, ps),
    "Momentum-nesterov-l2": lambda ps: O.Momentum(0.1, 0.8, ps, use_nesterov=True,
                                                  weight_decay=0.1),
    "Adam": lambda ps: O.Adam(0.1, parameters=ps),
    "AdamW": lambda ps: O.AdamW(0.1, parameters=ps, weight_decay=0.3),
    "Adamax": lambda ps: O.Adamax(0.1, parameters=ps),
    "Adagrad": lambda ps: O.Adagrad(0.1, parameters=ps, initial_accumulator_value=0.3),
    "Adadelta": lambda ps: O.Adadelta(0.1, parameters=ps),
    "RMSProp-centered": lambda ps: O.RMSProp(0.1, parameters=ps, momentum=0.5, centered=True),
    "Lamb": lambda ps: O.Lamb(0.1, parameters=ps),
    "SGD-L1": lambda ps: O.SGD(0.1, parameters=ps,
                               weight_decay=paddle.regularizer.L1Decay(0.2)),
}
PADDLE_RESULTS = {  # from PaddlePaddle 3.3.1
    "SGD": [-1.4000000000000004, -0.448051935185694, -0.17448797954309977, 0.20970985131022657,
            0.6912949176263119, 1.0907015194658656],
    "Momentum": [-1.9048999784708027, -0.41957123224455073, -0.047632040003480765,
                 0.3689816176765029, 0.7996522391404097, 1.2333694521851748],
    "Momentum-nesterov-l2": [-1.924344687709458, -0.23595214444284002, -0.06409735035356401,
                             0.28847965523778596, 0.7583167170572169, 1.1563956614123476],
    "Adam": [-1.399999995999999, -0.5951643324580171, 0.0022948606106005815, 0.32658741935754937,
             0.8026661093346992, 1.0546347585051343],
    "AdamW": [-1.2676501011374948, -0.5186329499000558, 0.01072135553832177, 0.29414921314024106,
              0.7206142078465851, 0.943650284236621],
    "Adamax": [-1.4000000880233818, -0.6285452053183499, -0.015087795376544722,
               0.32566929892011337, 0.7751861492468868, 1.0191807186679291],
    "Adagrad": [-1.2569161457835831, -0.5033642933501845, -0.13102976416898712,
                0.2315102734999246, 0.6857474587848458, 1.0633366068708119],
    "Adadelta": [-1.001816576171838, -0.5989718322097319, -0.1995385820587348,
                 0.20002303883870345, 0.6006302695795529, 1.0003753937915283],
    "RMSProp-centered": [-3.136460340594705, -0.17949284668629673, 0.8841888540855571,
                         0.6791116609591226, 1.4125207332652443, 1.1946340203216521],
    "Lamb": [-1.457603168548216, -0.507709069787463, -0.024212634999858644, 0.30437080260234206,
             0.7835274161444277, 1.128091073012763],
    "SGD-L1": [-1.3200000000000003, -0.36805193518569396, -0.09448797954309976,
               0.1297098513102266, 0.6112949176263118, 1.0107015194658655],
}


@pytest.mark.parametrize("name", sorted(PADDLE_CASES))
def test_matches_paddle_float64(engine, name):
    p = paddle.Parameter(PADDLE_W0.copy(), name="w")
    opt = PADDLE_CASES[name]([p])
    for g in PADDLE_GRADS:
        p.grad = paddle.to_tensor(g)
        opt.step()
    np.testing.assert_allclose(p.numpy().ravel(), PADDLE_RESULTS[name], rtol=1e-13, atol=1e-15)
