"""paddle.nn.initializer: each initializer's distribution against its formula, fans,
gains, seeded reproducibility, the global initializer and the errors."""

import math

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


def truncated_normal_moments(mean, std, a, b):
    """Mean and standard deviation of N(mean, std^2) restricted to [a, b]."""
    alpha, beta = (a - mean) / std, (b - mean) / std
    pdf = [np.exp(-v * v / 2) / np.sqrt(2 * np.pi) for v in (alpha, beta)]
    mass = (math.erf(beta / np.sqrt(2)) - math.erf(alpha / np.sqrt(2))) / 2
    shift = (pdf[0] - pdf[1]) / mass
    var = 1 + (alpha * pdf[0] - beta * pdf[1]) / mass - shift ** 2
    return mean + std * shift, std * np.sqrt(var)


@pytest.mark.parametrize("init,mean,std,bounds", [
    (I.Normal(1.0, 2.0), 1.0, 2.0, None),
    (I.Uniform(-0.5, 1.5), 0.5, 2.0 / np.sqrt(12), (-0.5, 1.5)),
    (I.XavierUniform(), 0.0, np.sqrt(6 / 700) / np.sqrt(3), (-np.sqrt(6 / 700), np.sqrt(6 / 700))),
    (I.XavierNormal(), 0.0, np.sqrt(2 / 700), None),
    (I.XavierNormal(fan_in=10, fan_out=40, gain=2.0), 0.0, 2.0 * np.sqrt(2 / 50), None),
    (I.KaimingNormal(), 0.0, np.sqrt(2.0) / np.sqrt(300), None),
    (I.KaimingUniform(nonlinearity="tanh"), 0.0, 5 / 3 * np.sqrt(3 / 300) / np.sqrt(3), None),
    (I.KaimingNormal(mode="fan_out"), 0.0, np.sqrt(2.0) / np.sqrt(400), None),
    (I.KaimingUniform(), 0.0, np.sqrt(2 / 300), (-np.sqrt(6 / 300), np.sqrt(6 / 300))),
    (I.KaimingNormal(fan_in=50, negative_slope=0.2, nonlinearity="leaky_relu"), 0.0,
     np.sqrt(2 / 1.04) / np.sqrt(50), None),
    (I.TruncatedNormal(), *truncated_normal_moments(0.0, 1.0, -2.0, 2.0), (-2.0, 2.0)),
    (I.TruncatedNormal(1.0, 2.0, a=0.0, b=5.0), *truncated_normal_moments(1.0, 2.0, 0.0, 5.0),
     (0.0, 5.0)),
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


@pytest.mark.parametrize("shape", [[3, 5], [5, 3], [4, 2, 3, 3], [6, 2]])
def test_orthogonal(shape):
    paddle.seed(1)
    t = paddle.zeros(shape, dtype="float64")
    assert I.Orthogonal(gain=2.0)(t) is None  # as Paddle's eager mode
    flat = t.numpy().reshape(shape[0], -1)
    small = flat @ flat.T if flat.shape[0] <= flat.shape[1] else flat.T @ flat
    np.testing.assert_allclose(small, 4.0 * np.eye(min(flat.shape)), atol=1e-12)
    paddle.seed(1)
    again = paddle.zeros(shape, dtype="float64")
    I.Orthogonal(gain=2.0)(again)
    np.testing.assert_array_equal(t.numpy(), again.numpy())
    with pytest.raises(ValueError, match=r"2 or more dimensions can be initialized, got shape \[4\]"):
        I.Orthogonal()(paddle.zeros([4]))


def test_orthogonal_rows_are_uniformly_signed():
    # Q signed by R's diagonal: over many draws each entry averages to 0
    paddle.seed(0)
    draws = np.stack([_init(I.Orthogonal(), [3, 3]) for _ in range(400)])
    np.testing.assert_allclose(draws.mean(axis=0), np.zeros((3, 3)), atol=0.15)


def _init(initializer, shape, dtype="float32"):
    t = paddle.zeros(shape, dtype=dtype)
    initializer(t)
    return t.numpy()


def test_assign():
    np.testing.assert_array_equal(_init(I.Assign(np.arange(6)), [2, 3]),
                                  np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(_init(I.Assign([[1, 2], [3, 4]]), [4]), [1, 2, 3, 4])
    value = paddle.to_tensor([1.5, 2.5])
    out = _init(I.Assign(value), [2], "float64")
    assert out.dtype == np.float64 and out.tolist() == [1.5, 2.5]
    lin = nn.Linear(2, 1, weight_attr=I.Assign(np.array([[0.5], [-1.0]])))
    assert lin.weight.numpy().tolist() == [[0.5], [-1.0]]
    with pytest.raises(ValueError, match=r"shape \[3\] has 3 elements, but the tensor to "
                                         r"initialize has shape \[2\]"):
        _init(I.Assign([1, 2, 3]), [2])
    with pytest.raises(TypeError, match="'value' in Assign must be numpy.ndarray"):
        I.Assign(3)


def test_dirac():
    w = _init(I.Dirac(), [4, 3, 3, 3])
    expected = np.zeros((4, 3, 3, 3), np.float32)
    for i in range(3):
        expected[i, i, 1, 1] = 1.0  # output channel 3 has no input channel to copy
    np.testing.assert_array_equal(w, expected)
    # groups: each group of out_c / groups outputs copies the first inputs (as Paddle 3.3.1)
    w = _init(I.Dirac(groups=2), [6, 2, 3])
    assert sorted(map(tuple, np.argwhere(w))) == [(0, 0, 1), (1, 1, 1), (3, 0, 1), (4, 1, 1)]
    # a convolution with a Dirac kernel copies its input: check with a NumPy correlation
    x = np.random.default_rng(0).standard_normal((3, 5, 5)).astype(np.float32)
    w = _init(I.Dirac(), [3, 3, 3, 3])
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1)))
    conv = np.einsum("oikl,ihwkl->ohw", w, np.lib.stride_tricks.sliding_window_view(
        padded, (3, 3), axis=(1, 2)))
    np.testing.assert_allclose(conv, x, atol=1e-6)
    with pytest.raises(ValueError, match="3, 4 or 5 dimensions"):
        _init(I.Dirac(), [3, 3])
    with pytest.raises(ValueError, match=r"dimension 0 of the tensor \(5\) must be divisible by "
                                         r"groups \(2\)"):
        _init(I.Dirac(groups=2), [5, 2, 3])
    with pytest.raises(ValueError, match="positive integer"):
        I.Dirac(groups=0)


def test_initializers_keep_the_dtype_and_reproduce_a_seeded_model():
    def model():
        return nn.Sequential(
            nn.Linear(4, 8, weight_attr=I.TruncatedNormal(std=0.1), bias_attr=I.Normal()),
            nn.Linear(8, 8, weight_attr=I.Orthogonal(), bias_attr=I.Uniform(-1, 1)),
            nn.Linear(8, 2, weight_attr=I.KaimingUniform(), bias_attr=I.XavierNormal()))

    paddle.seed(2024)
    first = {k: v.numpy() for k, v in model().state_dict().items()}
    paddle.seed(2024)
    second = {k: v.numpy() for k, v in model().state_dict().items()}
    for key in first:
        np.testing.assert_array_equal(first[key], second[key], err_msg=key)
    third = {k: v.numpy() for k, v in model().state_dict().items()}
    assert not np.array_equal(first["1.weight"], third["1.weight"])
    for init in (I.TruncatedNormal(), I.Orthogonal(), I.XavierUniform(), I.KaimingNormal(),
                 I.Constant(1.0), I.Uniform(), I.Normal()):
        assert _init(init, [3, 4], "float64").dtype == np.float64


def test_initializer_call_checks_and_block_argument():
    t = paddle.zeros([2])
    assert I.Constant(1.0)(t, block=None) is None and t.numpy().tolist() == [1, 1]
    with pytest.raises(TypeError, match="Constant: expected a Tensor to initialize, got ndarray"):
        I.Constant(1.0)(np.zeros(2))
    with pytest.raises(ValueError, match="low .* must not be greater than high"):
        I.Uniform(1.0, 0.0)
    with pytest.raises(ValueError, match="a .* must not be greater than b"):
        I.TruncatedNormal(a=1.0, b=0.0)
    assert I.calculate_gain("leaky_relu", 0.2) == np.sqrt(2 / 1.04)
    assert I.calculate_gain("conv2d") == 1.0 and I.calculate_gain("selu") == 0.75
    assert set(I.__all__) >= {"TruncatedNormal", "Orthogonal", "Assign", "Dirac",
                              "set_global_initializer", "calculate_gain"}
