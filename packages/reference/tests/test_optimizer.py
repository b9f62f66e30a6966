"""paddle.optimizer: SGD and Adam against NumPy statements of Paddle's update rules, every
optimizer against PaddlePaddle itself (when DYGRAD_PADDLE_PYTHON names its interpreter),
weight decay (regularizers, the parameter's own, groups), gradient clipping, state dicts and
resuming bit for bit, parameter groups, clear_grad/minimize, argument errors, and the seed
tutorial's training loop. (Each optimizer's rule over several steps: conformance/
test_optimizer_rules.py; schedulers: test_lr.py.)"""

import copy
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import dygrad as paddle
from dygrad import nn
from dygrad.nn.param_attr import ParamAttr


def paddle_python():
    """An interpreter with a real PaddlePaddle to compare with (``DYGRAD_PADDLE_PYTHON``, or
    this one if it has paddle), or None."""
    if os.environ.get("DYGRAD_PADDLE_PYTHON"):
        return os.environ["DYGRAD_PADDLE_PYTHON"]
    import importlib.util
    return sys.executable if importlib.util.find_spec("paddle") is not None else None


def with_grads(shapes, dtype="float64"):
    """Parameters with fixed values, for feeding gradients by hand."""
    rng = np.random.default_rng(0)
    return [paddle.Parameter(rng.standard_normal(s).astype(dtype), name=f"p{i}")
            for i, s in enumerate(shapes)]


def set_grads(params, grads):
    for p, g in zip(params, grads):
        p.grad = paddle.to_tensor(g)


# ---------------------------------------------------------------------------
# update rules against NumPy
# ---------------------------------------------------------------------------

def test_sgd_matches_its_formula():
    params = with_grads([(3, 2), (2,)])
    ref = [p.numpy().copy() for p in params]
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=params)
    rng = np.random.default_rng(1)
    for _ in range(4):
        grads = [rng.standard_normal(p.shape) for p in params]
        set_grads(params, grads)
        versions = [p.inplace_version for p in params]
        opt.step()
        for r, g in zip(ref, grads):
            r -= 0.1 * g
        for p, r, v in zip(params, ref, versions):
            np.testing.assert_allclose(p.numpy(), r, rtol=1e-14)
            assert p.inplace_version > v  # in place, version bumped
    assert opt.state_dict() == {}


def test_sgd_weight_decay_and_learning_rate_multiplier():
    p = paddle.Parameter(np.array([1.0, -2.0, 3.0]), name="p",
                         optimize_attr={"learning_rate": 0.5})
    opt = paddle.optimizer.SGD(learning_rate=0.2, parameters=[p], weight_decay=0.01)
    g = np.array([0.5, 0.5, -1.0])
    p.grad = paddle.to_tensor(g)
    expected = p.numpy() - 0.2 * 0.5 * (g + 0.01 * p.numpy())  # L2 decay joins the gradient
    opt.step()
    np.testing.assert_allclose(p.numpy(), expected, rtol=1e-14)
    np.testing.assert_array_equal(p.grad.numpy(), g)  # the gradient itself is untouched


def adam_reference(p, grads, lr=0.001, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.0):
    """Paddle's Adam in NumPy (float64): bias corrections folded into the step size and
    epsilon scaled by sqrt(1 - beta2^t)."""
    p = p.copy()
    m1, m2 = np.zeros_like(p), np.zeros_like(p)
    out = []
    for t, g in enumerate(grads, start=1):
        g = g + weight_decay * p
        m1 = beta1 * m1 + (1 - beta1) * g
        m2 = beta2 * m2 + (1 - beta2) * g * g
        lr_t = lr * np.sqrt(1 - beta2 ** t) / (1 - beta1 ** t)
        p = p - lr_t * m1 / (np.sqrt(m2) + eps * np.sqrt(1 - beta2 ** t))
        out.append(p.copy())
    return out


@pytest.mark.parametrize("kwargs", [
    {},
    {"learning_rate": 0.05, "beta1": 0.8, "beta2": 0.99, "epsilon": 1e-6},
    {"learning_rate": 0.01, "weight_decay": 0.1},
])
def test_adam_matches_paddles_formula(kwargs):
    params = with_grads([(4, 3), (3,)])
    start = [p.numpy().copy() for p in params]
    opt = paddle.optimizer.Adam(parameters=params, **kwargs)
    rng = np.random.default_rng(2)
    grads = [[rng.standard_normal(p.shape) for _ in range(6)] for p in params]
    for step in range(6):
        set_grads(params, [g[step] for g in grads])
        opt.step()
    ref_kw = {"lr": kwargs.get("learning_rate", 0.001), "beta1": kwargs.get("beta1", 0.9),
              "beta2": kwargs.get("beta2", 0.999), "eps": kwargs.get("epsilon", 1e-8),
              "weight_decay": kwargs.get("weight_decay", 0.0)}
    for p, s, g in zip(params, start, grads):
        np.testing.assert_allclose(p.numpy(), adam_reference(s, g, **ref_kw)[-1], rtol=1e-12)


def test_adam_in_float32_stays_float32():
    params = with_grads([(5,)], dtype="float32")
    start = params[0].numpy().astype(np.float64)
    opt = paddle.optimizer.Adam(0.01, parameters=params)
    grads = [np.linspace(-1, 1, 5) * (k + 1) for k in range(5)]
    for g in grads:
        params[0].grad = paddle.to_tensor(g.astype(np.float32))
        opt.step()
    assert params[0].dtype == paddle.float32
    assert all(t.dtype == paddle.float32 for t in opt.state_dict().values())
    np.testing.assert_allclose(params[0].numpy(), adam_reference(start, grads, lr=0.01)[-1],
                               rtol=1e-5, atol=1e-6)


def test_adam_state_dict_names_and_values():
    paddle.seed(0)
    lin = nn.Linear(3, 2)
    opt = paddle.optimizer.Adam(0.01, parameters=lin.parameters())
    x = paddle.rand([4, 3])
    for _ in range(2):
        (lin(x) * lin(x)).sum().backward()
        opt.step()
        opt.clear_grad()
    sd = opt.state_dict()
    w, b = lin.weight.name, lin.bias.name
    assert list(sd) == [f"{w}_moment1_0", f"{b}_moment1_0", f"{w}_moment2_0", f"{b}_moment2_0",
                        f"{w}_beta1_pow_acc_0", f"{b}_beta1_pow_acc_0",
                        f"{w}_beta2_pow_acc_0", f"{b}_beta2_pow_acc_0"]
    assert sd[f"{w}_moment1_0"].shape == [3, 2] and sd[f"{w}_beta1_pow_acc_0"].shape == [1]
    # the powers are stored ahead: after t steps beta^(t+1), as Paddle stores them
    np.testing.assert_allclose(sd[f"{w}_beta1_pow_acc_0"].numpy(), [0.9 ** 3], rtol=1e-6)
    np.testing.assert_allclose(sd[f"{b}_beta2_pow_acc_0"].numpy(), [0.999 ** 3], rtol=1e-6)
    named = paddle.optimizer.Adam(0.01, parameters=lin.parameters(), name="myadam")
    (lin(x) * lin(x)).sum().backward()
    named.step()
    assert f"{w}_myadam_moment1_0" in named.state_dict()


def test_adam_state_dict_round_trip_continues_bit_for_bit():
    def make():
        # optimizer state is keyed by parameter name ('w_moment1_0'), as in Paddle, so the
        # models that exchange state name their parameters alike
        paddle.seed(5)
        lin = nn.Linear(4, 3, weight_attr=ParamAttr(name="w"), bias_attr=ParamAttr(name="b"))
        return lin, paddle.optimizer.Adam(0.02, parameters=lin.parameters())

    def train(lin, opt, x, steps):
        for _ in range(steps):
            (lin(x) * lin(x)).sum().backward()
            opt.step()
            opt.clear_grad()

    x = paddle.to_tensor(np.random.default_rng(3).standard_normal((6, 4)).astype(np.float32))
    lin_a, opt_a = make()
    train(lin_a, opt_a, x, 3)
    model_state = copy.deepcopy(lin_a.state_dict())
    opt_state = {k: v.numpy().copy() for k, v in opt_a.state_dict().items()}
    train(lin_a, opt_a, x, 3)

    lin_b, opt_b = make()
    train(lin_b, opt_b, x, 1)  # accumulators exist already: overwritten in place
    lin_b.set_state_dict(model_state)
    opt_b.set_state_dict(opt_state)
    train(lin_b, opt_b, x, 3)
    lin_c, opt_c = make()  # accumulators not created yet: loaded when first used
    lin_c.set_state_dict(model_state)
    opt_c.set_state_dict(opt_state)
    train(lin_c, opt_c, x, 3)
    for lin in (lin_b, lin_c):
        np.testing.assert_array_equal(lin.weight.numpy(), lin_a.weight.numpy())
        np.testing.assert_array_equal(lin.bias.numpy(), lin_a.bias.numpy())


def test_set_state_dict_errors():
    params = with_grads([(2,)])
    opt = paddle.optimizer.Adam(0.1, parameters=params)
    set_grads(params, [np.ones(2)])
    opt.step()
    with pytest.raises(KeyError, match="p0_moment1_0 not found"):
        opt.set_state_dict({})
    state = {k: v.numpy() for k, v in opt.state_dict().items()}
    state["p0_moment1_0"] = np.zeros(3)
    with pytest.raises(ValueError, match=r"p0_moment1_0 receives a shape \[3\]"):
        opt.set_state_dict(state)


def test_parameter_groups():
    a, b = with_grads([(3,), (2,)])
    opt = paddle.optimizer.Adam(
        learning_rate=0.1,
        parameters=[{"params": [a]},
                    {"params": [b], "learning_rate": 0.5, "beta1": 0.5, "weight_decay": 0.2}],
        weight_decay=0.01)
    assert a.optimize_attr["learning_rate"] == 1.0 and b.optimize_attr["learning_rate"] == 0.5
    a0, b0 = a.numpy().copy(), b.numpy().copy()
    ga, gb = [np.full(3, 0.3)] * 3, [np.array([1.0, -2.0])] * 3
    for k in range(3):
        set_grads([a, b], [ga[k], gb[k]])
        opt.step()
    np.testing.assert_allclose(a.numpy(), adam_reference(a0, ga, lr=0.1, weight_decay=0.01)[-1],
                               rtol=1e-12)
    np.testing.assert_allclose(
        b.numpy(), adam_reference(b0, gb, lr=0.05, beta1=0.5, weight_decay=0.2)[-1], rtol=1e-12)
    with pytest.raises(ValueError, match="more than one parameter group"):
        paddle.optimizer.SGD(0.1, parameters=[{"params": [a]}, {"params": [a, b]}])


def test_skips_frozen_parameters_and_missing_gradients():
    lin = nn.Linear(2, 2, bias_attr=ParamAttr(trainable=False))
    other = paddle.Parameter(np.ones(2, np.float32), name="unused")
    opt = paddle.optimizer.Adam(0.1, parameters=lin.parameters() + [other])
    bias = lin.bias.numpy().copy()
    (lin(paddle.ones([1, 2])) * 2.0).sum().backward()
    opt.step()
    np.testing.assert_array_equal(lin.bias.numpy(), bias)  # stop_gradient: not updated
    np.testing.assert_array_equal(other.numpy(), np.ones(2))  # no gradient: not updated
    assert [k for k in opt.state_dict() if "moment1" in k] == [f"{lin.weight.name}_moment1_0"]


# ---------------------------------------------------------------------------
# gradient clipping
# ---------------------------------------------------------------------------

def clipped_step(clip, grads, need_clip=(True, True)):
    """One SGD step (rate 1) with ``clip`` from zero parameters: minus the clipped grads."""
    params = [paddle.Parameter(np.zeros_like(g), name=f"c{i}", need_clip=n)
              for i, (g, n) in enumerate(zip(grads, need_clip))]
    set_grads(params, grads)
    paddle.optimizer.SGD(1.0, parameters=params, grad_clip=clip).step()
    np.testing.assert_array_equal(params[0].grad.numpy(), grads[0])  # .grad is untouched
    return [-p.numpy() for p in params]


def test_clip_grad_by_value():
    g = [np.array([-2.0, 0.3, 5.0]), np.array([[0.5, -0.7]])]
    out = clipped_step(nn.ClipGradByValue(1.0, min=-0.5), g)
    np.testing.assert_array_equal(out[0], [-0.5, 0.3, 1.0])
    np.testing.assert_array_equal(out[1], [[0.5, -0.5]])
    out = clipped_step(nn.ClipGradByValue(0.4), g, need_clip=(True, False))
    np.testing.assert_array_equal(out[0], [-0.4, 0.3, 0.4])
    np.testing.assert_array_equal(out[1], g[1])  # need_clip=False: left alone
    assert str(nn.ClipGradByValue(1.0)) == "Clip Gradient By Value, min = -1.000000, max=1.000000"


def test_clip_grad_by_norm_is_per_tensor():
    g = [np.array([3.0, 4.0]), np.array([0.3, 0.4])]  # norms 5 and 0.5
    out = clipped_step(nn.ClipGradByNorm(1.0), g)
    np.testing.assert_allclose(out[0], [0.6, 0.8], rtol=1e-15)
    np.testing.assert_array_equal(out[1], g[1])  # within the bound: unchanged


@pytest.mark.parametrize("auto_skip", [False, True])
def test_clip_grad_by_global_norm(auto_skip):
    g = [np.array([3.0, 0.0]), np.array([[4.0]])]  # global norm 5
    out = clipped_step(nn.ClipGradByGlobalNorm(2.5, auto_skip_clip=auto_skip), g)
    np.testing.assert_allclose(out[0], [1.5, 0.0], rtol=1e-15)
    np.testing.assert_allclose(out[1], [[2.0]], rtol=1e-15)
    out = clipped_step(nn.ClipGradByGlobalNorm(10.0, auto_skip_clip=auto_skip), g)
    np.testing.assert_allclose(out[0], g[0], rtol=1e-15)
    # a parameter with need_clip=False neither counts towards the norm nor is scaled
    out = clipped_step(nn.ClipGradByGlobalNorm(1.5), g, need_clip=(True, False))
    np.testing.assert_allclose(out[0], [1.5, 0.0], rtol=1e-15)
    np.testing.assert_array_equal(out[1], g[1])


def test_group_options_fall_back_to_the_optimizers():
    a, b = with_grads([(2,), (2,)])
    a0, b0 = a.numpy().copy(), b.numpy().copy()
    opt = paddle.optimizer.SGD(0.1, weight_decay=0.5, grad_clip=nn.ClipGradByValue(0.1),
                               parameters=[{"params": [a], "weight_decay": None},
                                           {"params": [b], "grad_clip": None}])
    set_grads([a, b], [np.ones(2), np.ones(2)])
    opt.step()
    # a: clipped to 0.1, global decay (a group's None falls back, as in Paddle); b: no clip
    np.testing.assert_allclose(a.numpy(), a0 - 0.1 * (0.1 + 0.5 * a0), rtol=1e-14)
    np.testing.assert_allclose(b.numpy(), b0 - 0.1 * (1.0 + 0.5 * b0), rtol=1e-14)


# ---------------------------------------------------------------------------
# clear_grad, minimize, learning rate, argument checks
# ---------------------------------------------------------------------------

def test_clear_grad_zeroes_by_default():
    params = with_grads([(2,)])
    opt = paddle.optimizer.SGD(0.1, parameters=params)
    set_grads(params, [np.ones(2)])
    opt.clear_grad()
    np.testing.assert_array_equal(params[0].grad.numpy(), np.zeros(2))
    opt.clear_grad(set_to_zero=False)
    assert params[0].grad is None
    assert opt.clear_gradients == opt.clear_grad


def test_minimize_uses_existing_gradients():
    p = paddle.Parameter(np.array([1.0, 2.0]), name="m")
    opt = paddle.optimizer.SGD(0.5, parameters=[p])
    loss = (p * p).sum()
    ops, params_grads = opt.minimize(loss)  # no backward yet: nothing to do
    assert ops == [] and params_grads == []
    np.testing.assert_array_equal(p.numpy(), [1.0, 2.0])
    loss.backward()
    _, params_grads = opt.minimize(loss)
    assert params_grads[0][0] is p
    np.testing.assert_allclose(p.numpy(), [1.0 - 0.5 * 2.0, 2.0 - 0.5 * 4.0])


def test_learning_rate_get_set():
    opt = paddle.optimizer.SGD(parameters=with_grads([(1,)]))
    assert opt.get_lr() == 0.001
    opt.set_lr(2)
    assert opt.get_lr() == 2.0 and isinstance(opt.get_lr(), float)
    with pytest.raises(TypeError, match="set_lr must be float"):
        opt.set_lr("0.1")


def test_argument_errors():
    params = with_grads([(2,)])
    with pytest.raises(TypeError, match="learning rate should be float or LRScheduler"):
        paddle.optimizer.SGD(1, parameters=params)
    with pytest.raises(AttributeError, match="should not be None"):
        paddle.optimizer.Adam(0.1)
    with pytest.raises(TypeError, match="iterable of paddle Tensors"):
        paddle.optimizer.SGD(0.1, parameters=params[0])
    with pytest.raises(TypeError, match="list of dict"):
        paddle.optimizer.SGD(0.1, parameters={"params": params})
    with pytest.raises(ValueError, match="beta1 in"):
        paddle.optimizer.Adam(0.1, beta1=1.0, parameters=params)
    with pytest.raises(ValueError, match="epsilon >= 0"):
        paddle.optimizer.Adam(0.1, epsilon=-1.0, parameters=params)
    with pytest.raises(TypeError, match="GradientClipBase"):
        paddle.optimizer.SGD(0.1, parameters=params, grad_clip=object())
    with pytest.raises(TypeError, match="weight_decay"):
        paddle.optimizer.SGD(0.1, parameters=params, weight_decay="l2")
    half = paddle.Parameter(np.ones(2, np.float16), name="h")
    with pytest.raises(NotImplementedError, match="multi_precision"):
        paddle.optimizer.Adam(0.1, parameters=[half], multi_precision=True)
    paddle.optimizer.Adam(0.1, parameters=params, multi_precision=True)  # float64: no effect


# ---------------------------------------------------------------------------
# weight decay: regularizers, the parameter's own, parameter groups
# ---------------------------------------------------------------------------

def one_sgd_step(p, g, **kwargs):
    p.grad = paddle.to_tensor(g)
    paddle.optimizer.SGD(0.1, parameters=kwargs.pop("parameters", [p]), **kwargs).step()
    return p.numpy()


def test_weight_decay_l1_and_l2_regularizers():
    w0, g = np.array([0.5, -2.0, 0.0]), np.array([1.0, 1.0, 1.0])
    L1, L2 = paddle.regularizer.L1Decay, paddle.regularizer.L2Decay
    out = one_sgd_step(paddle.Parameter(w0.copy(), name="r"), g, weight_decay=L1(0.3))
    np.testing.assert_allclose(out, w0 - 0.1 * (g + 0.3 * np.sign(w0)), rtol=1e-15)
    out = one_sgd_step(paddle.Parameter(w0.copy(), name="r"), g, weight_decay=L2(0.3))
    np.testing.assert_allclose(out, w0 - 0.1 * (g + 0.3 * w0), rtol=1e-15)
    out = one_sgd_step(paddle.Parameter(w0.copy(), name="r"), g, weight_decay=3)  # int: L2
    np.testing.assert_allclose(out, w0 - 0.1 * (g + 3.0 * w0), rtol=1e-15)
    assert str(L1(0.5)) == "L1Decay, coeff=0.500000" and L2().coeff == 0.0
    with pytest.raises(TypeError, match="coeff must be a float"):
        L2("0.1")


def test_parameter_regularizer_takes_precedence():
    w0, g = np.array([0.5, -2.0]), np.array([1.0, -1.0])
    lin = nn.Linear(2, 1, weight_attr=ParamAttr(
        regularizer=paddle.regularizer.L1Decay(0.2)))
    lin.weight.set_value(w0.reshape(2, 1).astype(np.float32))
    lin.bias.set_value(np.array([1.0], np.float32))
    lin.weight.grad = paddle.to_tensor(g.reshape(2, 1).astype(np.float32))
    lin.bias.grad = paddle.to_tensor(np.array([1.0], np.float32))
    paddle.optimizer.SGD(0.1, parameters=lin.parameters(), weight_decay=0.5).step()
    # the weight's own L1 decay, not the optimizer's L2; the bias gets the optimizer's
    np.testing.assert_allclose(lin.weight.numpy().ravel(), w0 - 0.1 * (g + 0.2 * np.sign(w0)),
                               rtol=1e-6)
    np.testing.assert_allclose(lin.bias.numpy(), [1.0 - 0.1 * (1.0 + 0.5)], rtol=1e-6)
    with pytest.raises(TypeError, match="regularizer must be"):
        ParamAttr(regularizer=0.1)


def test_a_groups_weight_decay_becomes_its_parameters_regularizer():
    """As in Paddle: a group's weight_decay (default: the optimizer's) replaces the
    regularizer of each of its parameters, even one set by ParamAttr."""
    p = paddle.Parameter(np.array([1.0, -1.0]), name="g",
                         regularizer=paddle.regularizer.L1Decay(0.7))
    out = one_sgd_step(p, np.zeros(2), parameters=[{"params": [p], "weight_decay": 0.5}])
    np.testing.assert_allclose(out, [1.0 - 0.05, -1.0 + 0.05], rtol=1e-15)
    assert isinstance(p.regularizer, paddle.regularizer.L2Decay) and p.regularizer.coeff == 0.5


@pytest.mark.parametrize("decay", [0.1, "L2", "L1", "param-L1"])
def test_momentum_weight_decay(decay):
    """L2 decay is fused into momentum_ (after rescale_grad), L1 joins the gradient first."""
    w0, g = np.array([0.5, -2.0]), np.array([1.0, 0.5])
    reg = {"L2": paddle.regularizer.L2Decay(0.1), "L1": paddle.regularizer.L1Decay(0.1),
           0.1: 0.1, "param-L1": None}[decay]
    p = paddle.Parameter(w0.copy(), name="mw", regularizer=paddle.regularizer.L1Decay(0.1)
                         if decay == "param-L1" else None)
    opt = paddle.optimizer.Momentum(0.1, momentum=0.9, parameters=[p], weight_decay=reg,
                                    rescale_grad=0.5)
    p.grad = paddle.to_tensor(g)
    opt.step()
    if decay in (0.1, "L2"):
        v = 0.5 * g + np.float32(0.1) * w0
    else:
        v = 0.5 * (g + 0.1 * np.sign(w0))
    np.testing.assert_allclose(p.numpy(), w0 - 0.1 * v, rtol=1e-15)


def test_adamw_decay_options():
    a, b = with_grads([(3,), (2,)])
    a0, b0 = a.numpy().copy(), b.numpy().copy()
    opt = paddle.optimizer.AdamW(0.1, parameters=[a, b], weight_decay=0.5,
                                 apply_decay_param_fun=lambda name: name == "p0",
                                 lr_ratio=lambda p: 0.5 if p.name == "p1" else 1.0)
    set_grads([a, b], [np.ones(3), np.ones(2)])
    opt.step()
    # first Adam step: m_hat / sqrt(v_hat) = sign(g) (up to epsilon)
    np.testing.assert_allclose(a.numpy(), a0 * (1 - 0.1 * np.float32(0.5)) - 0.1, atol=1e-8)
    np.testing.assert_allclose(b.numpy(), b0 - 0.05, atol=1e-8)  # no decay, half the rate
    c = paddle.Parameter(np.ones(2), name="c", regularizer=paddle.regularizer.L2Decay(1.0))
    g = paddle.optimizer.AdamW(0.1, parameters=[{"params": [c], "weight_decay": 0.0}])
    c.grad = paddle.to_tensor(np.array([-1.0, -1.0]))  # + c's own L2 term: a zero gradient
    g.step()
    np.testing.assert_array_equal(c.numpy(), [1.0, 1.0])  # the group's coefficient: no decay


def test_lamb_exclude_from_weight_decay_and_group_options():
    a, b = with_grads([(3,), (3,)])
    a0, b0 = a.numpy().copy(), b.numpy().copy()
    opt = paddle.optimizer.Lamb(0.1, lamb_weight_decay=0.3, parameters=[
        {"params": [a]}, {"params": [b], "lamb_weight_decay": 0.0}],
        exclude_from_weight_decay_fn=lambda p: p.name == "p0")
    set_grads([a, b], [np.ones(3), np.ones(3)])
    opt.step()
    # no decay for either: r = m_hat / (sqrt(v_hat) + eps) = 1 (to 1e-6), trust ratio 1
    np.testing.assert_allclose(a.numpy(), a0 - 0.1, atol=1e-6)
    np.testing.assert_allclose(b.numpy(), b0 - 0.1, atol=1e-6)


@pytest.mark.parametrize("name,group", [
    ("Momentum", {"momentum": 0.5, "use_nesterov": True}),
    ("RMSProp", {"centered": True, "rho": 0.8}),
    ("Adagrad", {"epsilon": 0.1, "initial_accumulator_value": 1.0}),
    ("Adadelta", {"rho": 0.5}),
    ("Adamax", {"beta1": 0.5}),
])
def test_group_options_change_the_update(name, group):
    """A group with its own options updates like an optimizer made with them."""
    cls = getattr(paddle.optimizer, name)
    a, b = with_grads([(3,), (3,)])
    ref = paddle.Parameter(b.numpy().copy(), name="ref")
    opt = cls(0.1, parameters=[{"params": [a]}, {"params": [b], **group}])
    ref_opt = cls(0.1, parameters=[ref], **group)
    for k in range(3):
        g = np.array([0.5, -1.0, 2.0]) * (k + 1)
        set_grads([a, b, ref], [g, g, g])
        opt.step()
        ref_opt.step()
    np.testing.assert_array_equal(b.numpy(), ref.numpy())
    assert not np.array_equal(a.numpy(), b.numpy())


@pytest.mark.parametrize("name,keys", [
    ("SGD", []),
    ("Momentum", ["velocity"]),
    ("AdamW", ["moment1", "moment2", "beta1_pow_acc", "beta2_pow_acc"]),
    ("Adamax", ["moment", "inf_norm", "beta1_pow_acc"]),
    ("Adagrad", ["moment"]),
    ("Adadelta", ["_avg_squared_grad", "_avg_squared_update"]),
    ("RMSProp", ["momentum", "mean_square", "mean_grad"]),
    ("Lamb", ["moment1", "moment2", "beta1_pow_acc", "beta2_pow_acc"]),
])
def test_state_dict_keys_are_paddles(name, keys):
    w = paddle.Parameter(np.ones((2, 2), np.float32), name="fc.w_0")
    opt = getattr(paddle.optimizer, name)(0.1, parameters=[w])
    w.grad = paddle.to_tensor(np.ones((2, 2), np.float32))
    opt.step()
    sd = opt.state_dict()
    assert list(sd) == [f"fc.w_0_{k}_0" for k in keys]
    assert all(v.dtype == paddle.float32 for v in sd.values())


@pytest.mark.parametrize("name", ["SGD", "Momentum", "Adam", "AdamW", "Adamax", "Adagrad",
                                  "Adadelta", "RMSProp", "Lamb"])
def test_resumed_training_continues_bit_for_bit(name, tmp_path):
    """Train 3 steps, save model and optimizer (with its scheduler) to files, load them into
    a fresh model and optimizer, train 3 more: the same as 6 uninterrupted steps."""
    def make():
        paddle.seed(11)
        lin = nn.Linear(4, 3, weight_attr=ParamAttr(name="fc.w"), bias_attr=ParamAttr(name="fc.b"))
        sched = paddle.optimizer.lr.CosineAnnealingDecay(0.05, T_max=4)
        opt = getattr(paddle.optimizer, name)(sched, parameters=lin.parameters(),
                                              grad_clip=nn.ClipGradByGlobalNorm(1.0))
        return lin, opt, sched

    def train(lin, opt, sched, steps):
        for _ in range(steps):
            ((lin(x) - 1.0) ** 2).mean().backward()
            opt.step()
            opt.clear_grad()
            sched.step()

    x = paddle.to_tensor(np.random.default_rng(3).standard_normal((6, 4)).astype(np.float32))
    lin_a, opt_a, sched_a = make()
    train(lin_a, opt_a, sched_a, 3)
    paddle.save(lin_a.state_dict(), str(tmp_path / "m.pdparams"))
    paddle.save(opt_a.state_dict(), str(tmp_path / "m.pdopt"))
    train(lin_a, opt_a, sched_a, 3)

    lin_b, opt_b, sched_b = make()
    lin_b.set_state_dict(paddle.load(str(tmp_path / "m.pdparams")))
    opt_b.set_state_dict(paddle.load(str(tmp_path / "m.pdopt")))
    assert sched_b.last_epoch == 3
    train(lin_b, opt_b, sched_b, 3)
    np.testing.assert_array_equal(lin_b.weight.numpy(), lin_a.weight.numpy())
    np.testing.assert_array_equal(lin_b.bias.numpy(), lin_a.bias.numpy())
    for k, v in opt_a.state_dict().items():
        if k != "LR_Scheduler":
            np.testing.assert_array_equal(opt_b.state_dict()[k].numpy(), v.numpy())


@pytest.mark.parametrize("make,exc,match", [
    (lambda ps: paddle.optimizer.Momentum(1, parameters=ps), TypeError, "learning rate"),
    (lambda ps: paddle.optimizer.RMSProp("0.1", parameters=ps), TypeError, "learning rate"),
    (lambda ps: paddle.optimizer.Lamb(np.float32(0.1), parameters=ps), TypeError,
     "learning rate"),
    (lambda ps: paddle.optimizer.Momentum(None, parameters=ps), ValueError,
     "learning_rate is not set"),
    (lambda ps: paddle.optimizer.AdamW(0.1, beta1=1.0, parameters=ps), ValueError, "beta1"),
    (lambda ps: paddle.optimizer.AdamW(0.1, beta2=-0.1, parameters=ps), ValueError, "beta2"),
    (lambda ps: paddle.optimizer.Adamax(0.1, beta1=1.5, parameters=ps), ValueError, "beta1"),
    (lambda ps: paddle.optimizer.Adamax(0.1, epsilon=-1.0, parameters=ps), ValueError,
     "epsilon"),
    (lambda ps: paddle.optimizer.AdamW(0.1, weight_decay="0.1", parameters=ps), TypeError,
     "weight_decay should be int, float or Tensor"),
    (lambda ps: paddle.optimizer.RMSProp(0.1, rho=-0.1, parameters=ps), ValueError, "rho"),
    (lambda ps: paddle.optimizer.RMSProp(0.1, momentum=-0.1, parameters=ps), ValueError,
     "momentum"),
    (lambda ps: paddle.optimizer.RMSProp(0.1, epsilon=-0.1, parameters=ps), ValueError,
     "epsilon"),
    (lambda ps: paddle.optimizer.Adadelta(0.1, rho=None, parameters=ps), ValueError,
     "rho is not set"),
    (lambda ps: paddle.optimizer.Adagrad(0.1, epsilon=None, parameters=ps), AssertionError,
     "epsilon"),
    (lambda ps: nn.ClipGradByValue(-1.0), AssertionError, "max must be positive"),
    (lambda ps: nn.ClipGradByGlobalNorm(1.0, auto_skip_clip=1), AssertionError, "bool"),
])
def test_more_argument_errors(make, exc, match):
    with pytest.raises(exc, match=match):
        make(with_grads([(2,)]))


# ---------------------------------------------------------------------------
# PaddlePaddle itself
# ---------------------------------------------------------------------------

ORACLE_SCRIPT = r"""
import json, sys
import numpy as np
import paddle

def run(cfg):
    lin = paddle.nn.Linear(*np.array(cfg["w"]).shape)
    lin.weight.set_value(np.array(cfg["w"], "float32"))
    lin.bias.set_value(np.array(cfg["b"], "float32"))
    x = paddle.to_tensor(np.array(cfg["x"], "float32"))
    neg_y = paddle.to_tensor(-np.array(cfg["y"], "float32"))
    params = [{"params": [lin.weight]}, {"params": [lin.bias], **cfg["bias_group"]}]
    kwargs = dict(cfg["kwargs"])
    if cfg["clip"]:
        kwargs["grad_clip"] = getattr(paddle.nn, cfg["clip"][0])(**cfg["clip"][1])
    opt = getattr(paddle.optimizer, cfg["opt"])(parameters=params, **kwargs)
    out = []
    for _ in range(cfg["steps"]):
        r = lin(x) + neg_y
        (r * r).sum().backward()
        opt.step()
        opt.clear_grad()
        out.append([lin.weight.numpy().tolist(), lin.bias.numpy().tolist()])
    return out

print(json.dumps([run(cfg) for cfg in json.load(sys.stdin)]))
"""

# (optimizer, its arguments, the bias's parameter group, gradient clipping)
ORACLE_CASES = [
    ("Adam", {"learning_rate": 0.01}, {}, None),
    ("Adam", {"learning_rate": 0.05, "beta1": 0.8, "epsilon": 0.1, "weight_decay": 0.1},
     {"learning_rate": 0.5, "beta2": 0.9}, None),
    ("SGD", {"learning_rate": 0.01, "weight_decay": 0.05}, {"learning_rate": 2.0}, None),
    ("SGD", {"learning_rate": 0.01, "weight_decay": 0.05}, {},
     ("ClipGradByGlobalNorm", {"clip_norm": 1.0})),
    ("Adam", {"learning_rate": 0.01}, {}, ("ClipGradByNorm", {"clip_norm": 2.0})),
    ("SGD", {"learning_rate": 0.01}, {}, ("ClipGradByValue", {"max": 1.0, "min": -0.5})),
    ("Momentum", {"learning_rate": 0.01, "momentum": 0.9, "weight_decay": 0.1},
     {"momentum": 0.5, "learning_rate": 2.0}, None),
    ("Momentum", {"learning_rate": 0.01, "use_nesterov": True}, {}, None),
    ("AdamW", {"learning_rate": 0.05, "weight_decay": 0.2}, {"weight_decay": 0.0}, None),
    ("Adamax", {"learning_rate": 0.05}, {"beta1": 0.5}, ("ClipGradByGlobalNorm",
                                                          {"clip_norm": 1.0})),
    ("Adagrad", {"learning_rate": 0.1, "initial_accumulator_value": 0.5}, {}, None),
    ("Adadelta", {"learning_rate": 1.0, "weight_decay": 0.1}, {"rho": 0.5}, None),
    ("RMSProp", {"learning_rate": 0.01, "momentum": 0.5, "centered": True}, {"rho": 0.8}, None),
    ("Lamb", {"learning_rate": 0.05}, {"lamb_weight_decay": 0.0}, None),
]


def oracle_config(case):
    name, kwargs, bias_group, clip = case
    rng = np.random.default_rng(4)
    return {"w": rng.standard_normal((4, 3)).tolist(), "b": rng.standard_normal(3).tolist(),
            "x": rng.standard_normal((8, 4)).tolist(), "y": rng.standard_normal((8, 3)).tolist(),
            "opt": name, "kwargs": kwargs, "bias_group": bias_group, "clip": clip, "steps": 5}


@pytest.fixture(scope="module")
def paddle_trajectories():
    """The weights after each of 5 steps, for every case, computed by PaddlePaddle (one run)."""
    python = paddle_python()
    if python is None:
        pytest.skip("no PaddlePaddle to compare with: set DYGRAD_PADDLE_PYTHON to an interpreter "
                    "that has paddlepaddle installed")
    cfgs = [oracle_config(case) for case in ORACLE_CASES]
    proc = subprocess.run([python, "-c", ORACLE_SCRIPT], input=json.dumps(cfgs),
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("case", range(len(ORACLE_CASES)))
def test_five_steps_match_paddle(case, paddle_trajectories):
    name, kwargs, bias_group, clip = ORACLE_CASES[case]
    cfg = oracle_config(ORACLE_CASES[case])
    lin = nn.Linear(4, 3)
    lin.weight.set_value(np.array(cfg["w"], np.float32))
    lin.bias.set_value(np.array(cfg["b"], np.float32))
    x = paddle.to_tensor(np.array(cfg["x"], np.float32))
    neg_y = paddle.to_tensor(-np.array(cfg["y"], np.float32))
    params = [{"params": [lin.weight]}, {"params": [lin.bias], **bias_group}]
    if clip:
        kwargs = {**kwargs, "grad_clip": getattr(nn, clip[0])(**clip[1])}
    opt = getattr(paddle.optimizer, name)(parameters=params, **kwargs)
    for w, b in paddle_trajectories[case]:
        r = lin(x) + neg_y  # the squared error (r * r).sum(), with the ops of both frameworks
        (r * r).sum().backward()
        opt.step()
        opt.clear_grad()
        np.testing.assert_allclose(lin.weight.numpy(), w, rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(lin.bias.numpy(), b, rtol=1e-6, atol=1e-6)


# ---------------------------------------------------------------------------
# the seed tutorial (section 五): a shared-weight autoencoder trained with Adam
# ---------------------------------------------------------------------------

def test_seed_tutorial_shared_weight_autoencoder():
    paddle.seed(2022)
    inputs = paddle.rand((256, 64))

    linear = paddle.nn.Linear(64, 8, bias_attr=False)
    loss_fn = paddle.nn.MSELoss()
    optimizer = paddle.optimizer.Adam(0.01, parameters=linear.parameters())

    losses = []
    for _ in range(10):
        hidden = linear(inputs)
        # weight from input to hidden is shared with the linear mapping from hidden to output
        outputs = paddle.matmul(hidden, linear.weight, transpose_y=True)
        loss = loss_fn(outputs, inputs)
        loss.backward()
        losses.append(float(loss.numpy()))
        optimizer.step()
        optimizer.clear_grad()
    assert loss.shape == [] and loss.dtype == paddle.float32
    assert all(b < a for a, b in zip(losses, losses[1:])), losses
    assert 0.2 < losses[0] < 0.5  # the seed shows 0.33 (inputs uniform in [0, 1))
