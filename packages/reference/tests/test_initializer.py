"""paddle.nn.initializer: each initializer's distribution against its formula, fans,
gains, seeded reproducibility, the global initializer and the errors."""

import numpy as np
import pytest

import dygrad as paddle
from dygrad import nn
from dygrad.nn import initializer as I
from dygrad.nn.param_attr import ParamAttr

# ---------------------------------------------------------------------------
# initializers
# ---------------------------------------------------------------------------

def test_linear_default_initialization_is_xavier_uniform_and_zero_bias():
    paddle.seed(0)
    lin = nn.Linear(300, 200)
    w = lin.weight.numpy()
    limit = np.sqrt(6 / 500)
    assert -limit <= w.min() < -0.95 * limit and 0.95 * limit < w.max() <= limit
    np.testing.assert_allclose(w.std(), limit / np.sqrt(3), rtol=0.02)
    np.testing.assert_array_equal(lin.bias.numpy(), np.zeros(200))


def test_initialization_is_reproducible_under_seed():
    paddle.seed(42)
    a = nn.Linear(5, 4)
    paddle.seed(42)
    b = nn.Linear(5, 4)
    np.testing.assert_array_equal(a.weight.numpy(), b.weight.numpy())
    c = nn.Linear(5, 4)
    assert not np.array_equal(a.weight.numpy(), c.weight.numpy())
    paddle.seed(7)
    t1 = paddle.zeros([50])
    I.Normal()(t1)
    paddle.seed(7)
    t2 = paddle.zeros([50])
    I.Normal()(t2)
    np.testing.assert_array_equal(t1.numpy(), t2.numpy())


@pytest.mark.parametrize("init,mean,std,bounds", [
    (I.Normal(1.0, 2.0), 1.0, 2.0, None),
    (I.Uniform(-0.5, 1.5), 0.5, 2.0 / np.sqrt(12), (-0.5, 1.5)),
    (I.XavierUniform(), 0.0, np.sqrt(6 / 700) / np.sqrt(3), (-np.sqrt(6 / 700), np.sqrt(6 / 700))),
    (I.XavierNormal(), 0.0, np.sqrt(2 / 700), None),
    (I.XavierNormal(fan_in=10, fan_out=40, gain=2.0), 0.0, 2.0 * np.sqrt(2 / 50), None),
    (I.KaimingNormal(), 0.0, np.sqrt(2.0) / np.sqrt(300), None),
    (I.KaimingUniform(nonlinearity="tanh"), 0.0, 5 / 3 * np.sqrt(3 / 300) / np.sqrt(3), None),
    (I.KaimingNormal(mode="fan_out"), 0.0, np.sqrt(2.0) / np.sqrt(400), None),
])
def test_initializer_statistics(init, mean, std, bounds):
    paddle.seed(0)
    t = paddle.zeros([300, 400])  # a Linear weight: fan_in 300, fan_out 400
    version = t.inplace_version
    init(t)
    a = t.numpy()
    assert t.inplace_version > version and t.dtype == paddle.float32
    np.testing.assert_allclose(a.mean(), mean, atol=0.02 * std)  # about 7 standard errors
    np.testing.assert_allclose(a.std(), std, rtol=0.02)
    if bounds is not None:
        assert bounds[0] <= a.min() and a.max() <= bounds[1]


def test_constant_and_fans_of_conv_weights():
    t = paddle.zeros([3, 4])
    I.Constant(2.5)(t)
    np.testing.assert_array_equal(t.numpy(), np.full((3, 4), 2.5))
    assert I.Initializer._compute_fans([8, 4, 3, 3]) == (36, 72)  # [out_c, in_c, kh, kw]
    assert I.Initializer._compute_fans([5]) == (5, 5)
    assert I.Initializer._compute_fans([]) == (1, 1)
    paddle.seed(0)
    w = paddle.zeros([64, 32, 3, 3])
    I.XavierNormal()(w)
    np.testing.assert_allclose(w.numpy().std(), np.sqrt(2 / (32 * 9 + 64 * 9)), rtol=0.03)


def test_calculate_gain_and_initializer_errors():
    assert I.calculate_gain("relu") == np.sqrt(2.0)
    assert I.calculate_gain("tanh") == 5 / 3
    assert I.calculate_gain("leaky_relu") == np.sqrt(2 / (1 + 0.01 ** 2))
    with pytest.raises(ValueError, match="not supported"):
        I.calculate_gain("swish")
    with pytest.raises(ValueError, match="fan_in.*fan_out"):
        I.KaimingNormal(mode="fan_avg")
    with pytest.raises(TypeError, match="Initializer"):
        ParamAttr(initializer="normal")


def test_initializers_record_no_gradient():
    lin = nn.Linear(2, 2)
    assert lin.weight.grad_fn is None and lin.weight.is_leaf
    I.Normal()(lin.weight)
    assert lin.weight.grad_fn is None and not lin.weight.stop_gradient
