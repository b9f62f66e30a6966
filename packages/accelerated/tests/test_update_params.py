"""The optimizers' one call over a group's parameters (``fast_paths['update_params']``):
the same parameters, accumulators and versions, to the last bit, as the per-parameter
``_update`` it stands for, and the parameters it cannot update so (a regularizer, a
learning-rate multiplier, another dtype, accumulators not yet made) left to ``_update``."""

import numpy as np
import pytest

import dygrad as paddle
from dygrad._core.tensor import Parameter
from dygrad.optimizer import optimizer as optimizer_module
from dygrad_accelerated import _optimizer


@pytest.fixture(autouse=True)
def accelerated():
    previous = paddle.get_engine()
    paddle.set_engine("accelerated")
    yield
    paddle.set_engine(previous)


def _model(dtype="float32"):
    paddle.seed(0)
    paddle.set_default_dtype(dtype)
    try:
        return paddle.nn.Sequential(paddle.nn.Linear(5, 7), paddle.nn.ReLU(), paddle.nn.Linear(7, 3))
    finally:
        paddle.set_default_dtype("float32")


def _train(make_opt, fused, steps=3, prepare=None):
    """Parameters, accumulators and versions after ``steps`` steps, with the fused update
    on or off; and how many parameters it updated."""
    model = _model()
    if prepare is not None:
        prepare(model)
    opt = make_opt(model.parameters())
    x = paddle.to_tensor(np.random.default_rng(1).standard_normal((4, 5)).astype("float32"))
    calls = []

    def spy(*args):
        done = _optimizer.update_params(*args)
        calls.append(done)
        return done

    saved = optimizer_module._update_params
    optimizer_module._update_params = spy if fused else None
    try:
        for _ in range(steps):
            (model(x) ** 2).mean().backward()
            opt.step()
            opt.clear_grad()
    finally:
        optimizer_module._update_params = saved
    state = [p.numpy() for p in model.parameters()]
    state += [t.numpy() for t in opt.state_dict().values() if isinstance(t, paddle.Tensor)]
    return state, [p._version[0] for p in model.parameters()], sum(calls)


OPTIMIZERS = {
    "sgd": lambda ps: paddle.optimizer.SGD(0.1, parameters=ps),
    "momentum": lambda ps: paddle.optimizer.Momentum(0.1, 0.8, parameters=ps),
    "nesterov": lambda ps: paddle.optimizer.Momentum(0.1, 0.8, parameters=ps, use_nesterov=True,
                                                     rescale_grad=0.5),
    "adam": lambda ps: paddle.optimizer.Adam(0.1, beta1=0.7, parameters=ps),
    "adamw": lambda ps: paddle.optimizer.AdamW(0.1, parameters=ps, weight_decay=0.05),
    "adamw_ratio": lambda ps: paddle.optimizer.AdamW(0.1, parameters=ps, lr_ratio=lambda p: 0.5),
    "rmsprop": lambda ps: paddle.optimizer.RMSProp(0.1, parameters=ps),
    "rmsprop_centered": lambda ps: paddle.optimizer.RMSProp(0.1, momentum=0.5, centered=True,
                                                            parameters=ps),
    "adagrad": lambda ps: paddle.optimizer.Adagrad(0.1, parameters=ps,
                                                   initial_accumulator_value=0.2),
    "adadelta": lambda ps: paddle.optimizer.Adadelta(0.1, rho=0.9, parameters=ps),
    "adamax": lambda ps: paddle.optimizer.Adamax(0.1, beta1=0.8, parameters=ps),
    "sgd_decay": lambda ps: paddle.optimizer.SGD(0.1, parameters=ps, weight_decay=0.1),
    "groups": lambda ps: paddle.optimizer.Adam(0.1, parameters=[
        {"params": ps[:2], "beta1": 0.5}, {"params": ps[2:]}]),
}


def _same(name, prepare=None):
    want, want_versions, none = _train(OPTIMIZERS[name], False, prepare=prepare)
    got, versions, done = _train(OPTIMIZERS[name], True, prepare=prepare)
    assert none == 0
    assert len(got) == len(want)
    for w, g in zip(want, got):
        np.testing.assert_array_equal(g, w)
    assert versions == want_versions
    return done


@pytest.mark.parametrize("name", ["sgd", "momentum", "nesterov", "adam", "groups", "adamw",
                                  "rmsprop", "rmsprop_centered", "adagrad", "adadelta", "adamax"])
def test_same_bits_as_one_parameter_at_a_time(name):
    done = _same(name)
    # the first step of a rule with accumulators makes them one by one
    assert done == (12 if name == "sgd" else 8)


def test_a_regularizer_or_a_multiplier_leaves_the_rest_to_update():
    def prepare(model):
        model[0].bias.regularizer = paddle.regularizer.L2Decay(0.1)
        model[2].weight.optimize_attr["learning_rate"] = 0.5
    assert _same("sgd", prepare) == 3  # the first weight, in each of three steps
    assert _same("adam", prepare) == 2


def test_per_parameter_attributes_and_a_weight_decay_are_left_to_update():
    assert _same("adamw_ratio") == 0
    assert _same("sgd_decay") == 0


def test_another_dtype_and_unknown_ops_are_declined():
    p32, p64 = (Parameter(np.arange(3, dtype=dtype)) for dtype in ("float32", "float64"))
    pairs = [(p32, paddle.ones([3])), (p64, paddle.ones([3], "float64"))]
    lr = paddle.to_tensor([0.1])
    assert _optimizer.update_params("lamb_", pairs, lr, {}, (), ()) == 0
    before = p32.numpy()
    assert _optimizer.update_params("sgd_", pairs, lr, {}, (), ()) == 1
    np.testing.assert_array_equal(p32.numpy(), before - np.float32(0.1))
    assert p32._version[0] == 1 and p64._version[0] == 0
